package io.privacygateway.mechanisms.nets;

import java.util.Arrays;

/** A growable list of ints (no boxing). */
final class IntList {
    private int[] a;
    private int size;

    IntList() {
        this(4);
    }

    IntList(int capacity) {
        a = new int[Math.max(1, capacity)];
    }

    void add(int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[size++] = v;
    }

    int get(int i) {
        return a[i];
    }

    int size() {
        return size;
    }

    /** The backing array; valid entries are {@code [0, size())}. */
    int[] raw() {
        return a;
    }

    int[] toArray() {
        return Arrays.copyOf(a, size);
    }
}

package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.workload.NeighbourRelation;
import java.util.ArrayList;
import java.util.List;

/**
 * Exhaustive neighbouring windows for privacy tests: every histogram over k cells with at most {@code nMax}
 * reports, and every neighbour under a relation with contribution bound L (add/remove: a device with 1..L
 * reports appears; replace-one: a device's 1..L reports are swapped for as many others, so n is unchanged).
 */
public final class Neighbours {
    private Neighbours() {}

    /** Every histogram over k cells with total at most nMax. */
    public static List<long[]> histograms(int k, int nMax) {
        List<long[]> out = new ArrayList<>();
        fill(new long[k], 0, nMax, out);
        return out;
    }

    private static void fill(long[] cur, int i, int left, List<long[]> out) {
        if (i == cur.length) {
            out.add(cur.clone());
            return;
        }
        for (int c = 0; c <= left; c++) {
            cur[i] = c;
            fill(cur, i + 1, left - c, out);
        }
        cur[i] = 0;
    }

    /** Every contribution of one device: a histogram with 1..L reports. */
    public static List<long[]> contributions(int k, int l) {
        List<long[]> out = new ArrayList<>();
        for (long[] h : histograms(k, l)) {
            long n = 0;
            for (long c : h) {
                n += c;
            }
            if (n >= 1) {
                out.add(h);
            }
        }
        return out;
    }

    /** Every ordered pair (D, D') of neighbours with D in {@link #histograms}(k, nMax). */
    public static List<long[][]> pairs(int k, int nMax, NeighbourRelation relation, int l) {
        List<long[][]> out = new ArrayList<>();
        List<long[]> devices = contributions(k, l);
        for (long[] d : histograms(k, nMax)) {
            for (long[] v : devices) {
                if (relation == NeighbourRelation.ADD_REMOVE) {
                    long[] plus = add(d, v, 1);
                    out.add(new long[][] {d, plus});
                    out.add(new long[][] {plus, d});
                } else {
                    if (!fits(v, d)) {
                        continue;
                    }
                    long[] removed = add(d, v, -1);
                    for (long[] w : devices) {
                        if (total(w) == total(v)) {
                            out.add(new long[][] {d, add(removed, w, 1)});
                        }
                    }
                }
            }
        }
        return out;
    }

    private static boolean fits(long[] v, long[] d) {
        for (int i = 0; i < v.length; i++) {
            if (v[i] > d[i]) {
                return false;
            }
        }
        return true;
    }

    private static long total(long[] v) {
        long s = 0;
        for (long x : v) {
            s += x;
        }
        return s;
    }

    private static long[] add(long[] a, long[] b, int sign) {
        long[] out = a.clone();
        for (int i = 0; i < a.length; i++) {
            out[i] += sign * b[i];
        }
        return out;
    }
}

package io.privacygateway.mechanisms.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Which inputs to try: the ones whose images (answer vectors, level vectors) lie farthest apart, because
 * a mechanism's outputs can only separate inputs its noise is calibrated to move apart. Both the l2
 * distance (Gaussian-type noise) and the l1 distance (Laplace-type noise) are ranked, the best of each
 * first, ties broken by the smaller indices, so the choice is deterministic and public.
 */
final class Pairs {
    /** Up to this universe size all pairs are ranked; above it, each of the farthest points from the centroid is paired with its farthest point. */
    static final int EXHAUSTIVE = 400;

    private Pairs() {}

    /** Up to {@code count} distinct pairs {@code {x, x'}} ({@code x < x'}) of farthest-apart vectors. */
    static List<int[]> farthestPairs(double[][] v, int count) {
        int k = v.length;
        List<Ranked<int[]>> all = new ArrayList<>();
        if (k <= EXHAUSTIVE) {
            for (int x = 0; x < k; x++) {
                for (int y = x + 1; y < k; y++) {
                    all.add(ranked(new int[] {x, y}, v[x], v[y], (long) x * k + y));
                }
            }
        } else {
            double[] centroid = centroid(v);
            Set<Long> seen = new LinkedHashSet<>();
            for (int x : farthestFrom(centroid, v, Math.max(count, 8))) {
                int far = farthestFrom(v[x], v, 1).get(0);
                int lo = Math.min(x, far);
                int hi = Math.max(x, far);
                if (lo != hi && seen.add((long) lo * k + hi)) {
                    all.add(ranked(new int[] {lo, hi}, v[lo], v[hi], (long) lo * k + hi));
                }
            }
        }
        return best(all, count);
    }

    /** Up to {@code count} indices of the vectors farthest from {@code centre} (l2 and l1 ranks interleaved). */
    static List<Integer> farthestFrom(double[] centre, double[][] v, int count) {
        List<Ranked<Integer>> all = new ArrayList<>();
        for (int x = 0; x < v.length; x++) {
            all.add(ranked(x, v[x], centre, x));
        }
        return best(all, count);
    }

    private record Ranked<T>(T item, double l2, double l1, long order) {}

    private static <T> Ranked<T> ranked(T item, double[] a, double[] b, long order) {
        return new Ranked<>(item, distance(a, b, 2), distance(a, b, 1), order);
    }

    private static <T> List<T> best(List<Ranked<T>> all, int count) {
        List<Ranked<T>> l2 = new ArrayList<>(all);
        l2.sort(Comparator.<Ranked<T>>comparingDouble(r -> -r.l2()).thenComparingLong(Ranked::order));
        List<Ranked<T>> l1 = new ArrayList<>(all);
        l1.sort(Comparator.<Ranked<T>>comparingDouble(r -> -r.l1()).thenComparingLong(Ranked::order));
        List<Ranked<T>> chosen = interleave(l2, l1, count, Ranked::order);
        List<T> out = new ArrayList<>();
        for (Ranked<T> r : chosen) {
            out.add(r.item());
        }
        return out;
    }

    private static <T> List<T> interleave(List<T> a, List<T> b, int count, ToLongFunction<T> id) {
        Set<Long> seen = new LinkedHashSet<>();
        List<T> out = new ArrayList<>();
        for (int i = 0; out.size() < count && (i < a.size() || i < b.size()); i++) {
            for (List<T> list : List.of(a, b)) {
                if (i < list.size() && out.size() < count && seen.add(id.applyAsLong(list.get(i)))) {
                    out.add(list.get(i));
                }
            }
        }
        return out;
    }

    static double[] centroid(double[][] v) {
        double[] c = new double[v[0].length];
        for (double[] row : v) {
            for (int q = 0; q < c.length; q++) {
                c[q] += row[q] / v.length;
            }
        }
        return c;
    }

    static double distance(double[] a, double[] b, int p) {
        double s = 0;
        for (int q = 0; q < a.length; q++) {
            double d = Math.abs(a[q] - b[q]);
            s += p == 1 ? d : d * d;
        }
        return p == 1 ? s : Math.sqrt(s);
    }
}

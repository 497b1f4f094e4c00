package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.nets.ExactVectorKey;
import io.privacygateway.mechanisms.release.ErrorBars;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The spread of a finite set of per-report contribution vectors: the largest ℓ∞ and ℓ2 distance between two
 * of them, which is {@code n} times the largest change of the answer when one report's contribution is
 * swapped for another ({@link Influence}).
 */
final class Spread {
    /** Pairwise ℓ2 diameters are computed exactly up to this many multiply-adds; above, a proven upper bound. */
    static final long EXACT_PAIR_WORK = 200_000_000L;

    private Spread() {}

    /** {@code max_q (max_i v_iq − min_i v_iq)}: exact, {@code O(N·m)}. */
    static double linfRange(List<double[]> vectors) {
        int m = vectors.get(0).length;
        double best = 0;
        for (int q = 0; q < m; q++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (double[] v : vectors) {
                lo = Math.min(lo, v[q]);
                hi = Math.max(hi, v[q]);
            }
            best = Math.max(best, hi - lo);
        }
        return best;
    }

    /** The ℓ2 diameter: exact (pairwise, duplicates removed) when small enough, else {@link ErrorBars#diameterBound}. */
    static Diameter l2Diameter(List<double[]> vectors) {
        List<double[]> distinct = distinct(vectors);
        int n = distinct.size();
        int m = distinct.get(0).length;
        if ((long) n * n / 2 * m <= EXACT_PAIR_WORK) {
            double best = 0;
            for (int i = 0; i < n; i++) {
                double[] a = distinct.get(i);
                for (int j = i + 1; j < n; j++) {
                    double[] b = distinct.get(j);
                    double s = 0;
                    for (int q = 0; q < m; q++) {
                        double d = a[q] - b[q];
                        s += d * d;
                    }
                    best = Math.max(best, s);
                }
            }
            return new Diameter(Math.sqrt(best), true);
        }
        return new Diameter(ErrorBars.diameterBound(PointSet.of(m, distinct.toArray(new double[0][]))), false);
    }

    /**
     * The influence of a set of contributions, each given per level ({@code [level][q]}): ℓ∞ and ℓ2 of the
     * level sums, and for the published answer the sum over levels of each level's own ℓ2 diameter (equal to
     * the ℓ2 diameter for one level).
     */
    static Influence ofLevels(List<double[][]> contributions) {
        int levels = contributions.get(0).length;
        List<double[]> sums = new ArrayList<>(contributions.size());
        for (double[][] c : contributions) {
            double[] s = c[0].clone();
            for (int j = 1; j < levels; j++) {
                for (int q = 0; q < s.length; q++) {
                    s[q] += c[j][q];
                }
            }
            sums.add(s);
        }
        Diameter d = l2Diameter(sums);
        double projected = d.value();
        if (levels > 1) {
            projected = 0;
            for (int j = 0; j < levels; j++) {
                List<double[]> level = new ArrayList<>(contributions.size());
                for (double[][] c : contributions) {
                    level.add(c[j]);
                }
                projected += l2Diameter(level).value();
            }
            projected = Math.max(projected, d.value());
        }
        return new Influence(linfRange(sums), d.value(), projected, true, d.exact());
    }

    /** An ℓ2 diameter and whether it is exact (else an upper bound). */
    record Diameter(double value, boolean exact) {}

    private static List<double[]> distinct(List<double[]> vectors) {
        Set<ExactVectorKey> seen = new LinkedHashSet<>();
        for (double[] v : vectors) {
            seen.add(new ExactVectorKey(v));
        }
        List<double[]> out = new ArrayList<>(seen.size());
        for (ExactVectorKey k : seen) {
            out.add(k.v());
        }
        return out;
    }
}

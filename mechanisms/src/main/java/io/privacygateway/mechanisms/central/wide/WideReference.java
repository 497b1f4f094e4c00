package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Public reference data for planning wide releases (the planner never sees real data): a fixed mixture of four
 * product distributions over {@code {0,1}^d} (equal weights; attribute probabilities drawn once from a seeded
 * generator, in {@code [0.05, 0.95]}), and the <em>structure curve</em> of multiplicative weights on it: the max
 * error {@code ‖Q(p̄_T) − Q(D_ref)‖∞} of noiseless MW (exact measurements, the worst marginal selected every round)
 * after T rounds, p̄_T averaging the iterates as the release does ({@link PrivateMultiplicativeWeights#burnIn}). The curve is the part of MWEM's error that noise does not explain; it is a deterministic
 * function of (d, k, T), cached per shape.
 */
public final class WideReference {
    private static final long SEED = 0x5ACE_1DEAL;
    private static final int PROFILES = 4;
    private static final Map<String, double[]> CURVES = new ConcurrentHashMap<>();

    private WideReference() {}

    /** The reference distribution over {@code {0,1}^d} (dense, sums to 1). */
    public static double[] distribution(int d) {
        Require.inRange("d", d, 1, Hypercube.MAX_DENSE_ATTRIBUTES);
        SeededRandomBits rng = new SeededRandomBits(SEED);
        double[][] prob = new double[PROFILES][d];
        for (double[] p : prob) {
            for (int j = 0; j < d; j++) {
                p[j] = 0.05 + 0.9 * ((rng.nextLong() >>> 11) * 0x1p-53);
            }
        }
        int n = 1 << d;
        double[] out = new double[n];
        for (double[] p : prob) {
            // product distribution, built attribute by attribute
            double[] f = new double[n];
            f[0] = 1.0 / PROFILES;
            for (int j = 0; j < d; j++) {
                int len = 1 << j;
                for (int x = 0; x < len; x++) {
                    f[x | len] = f[x] * p[j];
                    f[x] *= 1 - p[j];
                }
            }
            for (int x = 0; x < n; x++) {
                out[x] += f[x];
            }
        }
        return out;
    }

    /**
     * The reference data as one window of exactly n reports: the values of {@code {0,1}^d} in order, value x
     * reported {@code ⌊n·P(X <= x)⌋ − ⌊n·P(X < x)⌋} times (systematic rounding of n·p, p the {@link #distribution}:
     * deterministic, every count within one of n·p(x), even where n is far below {@code 2^d}), and the workload's
     * exact marginal counts of that histogram.
     *
     * @param n the planned report count, {@code >= 1}
     */
    public static MarginalCounts window(MarginalWorkload w, long n) {
        Require.inRange("n", n, 1, MarginalCounts.MAX_REPORTS);
        double[] p = distribution(w.attributeCount());
        double[] f = new double[p.length];
        double cumulative = 0;
        long before = 0;
        for (int x = 0; x < p.length; x++) {
            cumulative += p[x];
            long upTo = x == p.length - 1 ? n : Math.min(n, (long) Math.floor(n * cumulative));
            f[x] = upTo - before;
            before = upTo;
        }
        double[][] out = new double[w.subsetCount()][w.cellsPerSubset()];
        new Hypercube(w).marginals(f, new double[f.length], out);
        long[] cells = new long[w.queryCount()];
        for (int s = 0; s < out.length; s++) {
            for (int c = 0; c < out[s].length; c++) {
                cells[s * w.cellsPerSubset() + c] = Math.round(out[s][c]); // exact: sums of integers below 2^53
            }
        }
        return MarginalCounts.of(w, n, cells);
    }

    /**
     * {@code curve[T−1]}: the max error of noiseless MW's average after T rounds on the reference data, for T a
     * power of two or {@code rounds} (NaN for the other T).
     */
    public static double[] structureCurve(MarginalWorkload w, int rounds) {
        String key = w.attributeCount() + "/" + w.way() + "/" + rounds;
        return CURVES.computeIfAbsent(key, k -> compute(w, rounds)).clone();
    }

    private static double[] compute(MarginalWorkload w, int rounds) {
        BinaryMarginalUniverse u = new BinaryMarginalUniverse(MarginalWorkload.anonymous(w.attributeCount(), w.way()));
        int groups = u.groups();
        int per = u.groupSize();
        double[][] truth = new double[groups][per];
        u.answers(distribution(w.attributeCount()), truth);
        double[] p = new double[u.size()];
        Arrays.fill(p, 1.0 / p.length);
        double[] block = new double[p.length]; // Σ p_t over the current power-of-two window [T/2, T−1]
        double[] last = new double[p.length]; // Σ p_t over [⌊rounds/2⌋, rounds−1]
        double[] avg = new double[p.length];
        double[][] a = new double[groups][per];
        double[] eta = new double[per];
        double[] curve = new double[rounds];
        Arrays.fill(curve, Double.NaN);
        int lastFrom = PrivateMultiplicativeWeights.burnIn(rounds);
        for (int t = 0; t < rounds; t++) { // iterate p_t; checkpoint T = t + 1 averages p_{⌊T/2⌋}..p_{T−1}
            int checkpoint = t + 1;
            if (Integer.bitCount(t) == 1 || t == 0) {
                Arrays.fill(block, 0); // the window of the next power of two T = 2t starts at t
            }
            u.answers(p, a);
            for (int x = 0; x < p.length; x++) {
                block[x] += p[x];
                if (t >= lastFrom) {
                    last[x] += p[x];
                }
            }
            int best = 0;
            double worst = -1;
            for (int g = 0; g < groups; g++) {
                for (int q = 0; q < per; q++) {
                    double e = Math.abs(a[g][q] - truth[g][q]);
                    if (e > worst) {
                        worst = e;
                        best = g;
                    }
                }
            }
            for (int q = 0; q < per; q++) {
                eta[q] = (truth[best][q] - a[best][q]) / 2;
            }
            u.update(p, best, eta);
            boolean power = Integer.bitCount(checkpoint) == 1;
            if (!power && checkpoint != rounds) {
                continue;
            }
            double[] sum = power ? block : last;
            double count = checkpoint - PrivateMultiplicativeWeights.burnIn(checkpoint);
            for (int x = 0; x < p.length; x++) {
                avg[x] = sum[x] / count;
            }
            u.answers(avg, a);
            double e = 0;
            for (int g = 0; g < groups; g++) {
                for (int q = 0; q < per; q++) {
                    e = Math.max(e, Math.abs(a[g][q] - truth[g][q]));
                }
            }
            curve[t] = e;
        }
        return curve;
    }
}

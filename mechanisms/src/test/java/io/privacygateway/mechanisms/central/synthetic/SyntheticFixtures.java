package io.privacygateway.mechanisms.central.synthetic;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Seeded public test data: records from a mixture of four product distributions over {0,1}^d. */
final class SyntheticFixtures {
    private SyntheticFixtures() {}

    static int[] mixture(int d, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int comps = 4;
        double[][] p = new double[comps][d];
        for (int a = 0; a < comps; a++) {
            for (int j = 0; j < d; j++) {
                p[a][j] = r.nextDouble() < 0.5 ? 0.1 + 0.2 * r.nextDouble() : 0.7 + 0.2 * r.nextDouble();
            }
        }
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int a = r.nextInt(comps);
            int x = 0;
            for (int j = 0; j < d; j++) {
                if (r.nextDouble() < p[a][j]) {
                    x |= 1 << j;
                }
            }
            out[i] = x;
        }
        return out;
    }

    static long[] counts(MarginalLayout layout, int[] records) {
        long[] ones = new long[records.length];
        Arrays.fill(ones, 1);
        return layout.counts(records, ones);
    }

    /** {@code max_b TV(a_b/na, b_b/nb)}: the utility loss between two sets of marginal counts. */
    static double utilityLoss(MarginalLayout layout, long[] a, long na, long[] b, long nb) {
        int w = layout.cellsPerBlock();
        double worst = 0;
        for (int t = 0; t < layout.blocks(); t++) {
            double s = 0;
            for (int i = t * w; i < (t + 1) * w; i++) {
                s += Math.abs(a[i] / (double) na - b[i] / (double) nb);
            }
            worst = Math.max(worst, s / 2);
        }
        return worst;
    }
}

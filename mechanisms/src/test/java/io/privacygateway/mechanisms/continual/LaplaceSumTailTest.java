package io.privacygateway.mechanisms.continual;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The tail bound is a bound: checked against exact distributions of small sums, and not far from the truth. */
class LaplaceSumTailTest {

    /** One variable: P(|η| >= a) = 2β^⌈a⌉/(1 + β) exactly, at most the failure probability. */
    @Test
    void boundsOneVariableExactly() {
        for (double scale : new double[] {0.3, 1, 3, 40, 1e4}) {
            for (double failure : new double[] {0.2, 0.05, 1e-3, 1e-9}) {
                double a = LaplaceSumTail.halfWidth(scale, new double[] {1}, new long[] {1}, failure);
                double beta = Math.exp(-1 / scale);
                double c = Math.max(1, Math.ceil(a));
                double exact = 2 * Math.pow(beta, c) / (1 + beta);
                assertThat(exact).as("t=%s β_f=%s a=%s", scale, failure, a).isLessThanOrEqualTo(failure);
            }
        }
    }

    /**
     * Weighted sums of independent variables: the exact distribution by convolution on a half-integer grid (weights 1
     * and 1/2), truncated where the remaining mass is below 1e-15, against the bound.
     */
    @Test
    void boundsSmallWeightedSumsExactly() {
        double scale = 2.5;
        for (int ones = 0; ones <= 6; ones += 2) {
            for (int halves = 0; halves <= 5; halves += 5) {
                if (ones + halves == 0) {
                    continue;
                }
                int r = 400; // support of one variable: [-r, r] in steps of 1 (weight 1) or 1/2 (weight 1/2)
                double beta = Math.exp(-1 / scale);
                double[] one = new double[2 * r + 1];
                for (int k = -r; k <= r; k++) {
                    one[k + r] = (1 - beta) / (1 + beta) * Math.pow(beta, Math.abs(k));
                }
                // distribution of 2S on integers
                double[] dist = {1};
                int off = 0;
                for (int i = 0; i < ones + halves; i++) {
                    int step = i < ones ? 2 : 1;
                    double[] next = new double[dist.length + 2 * r * step];
                    for (int a = 0; a < dist.length; a++) {
                        if (dist[a] == 0) {
                            continue;
                        }
                        for (int k = -r; k <= r; k++) {
                            next[a + (k + r) * step] += dist[a] * one[k + r];
                        }
                    }
                    off += r * step;
                    dist = next;
                }
                for (double failure : new double[] {0.1, 0.01, 1e-4}) {
                    double a = LaplaceSumTail.halfWidth(scale, new double[] {0.5, 1}, new long[] {halves, ones}, failure);
                    double tail = 0;
                    for (int j = 0; j < dist.length; j++) {
                        if (Math.abs(j - off) / 2.0 >= a) {
                            tail += dist[j];
                        }
                    }
                    assertThat(tail).as("%d ones, %d halves, β_f=%s, a=%s", ones, halves, failure, a)
                            .isLessThanOrEqualTo(failure);
                }
            }
        }
    }

    /**
     * For many terms the bound is near the Chernoff bound of a Gaussian of the same variance, √(2 ln(2/β_f))·σ, which is
     * 1.26 times the true two-sided 99% Gaussian quantile; allow 1.3.
     */
    @Test
    void isNotFarFromGaussianForManyTerms() {
        double scale = 10;
        long k = 2000;
        double failure = 0.01;
        double a = LaplaceSumTail.halfWidth(scale, new double[] {1}, new long[] {k}, failure);
        double s = Math.sinh(0.5 / scale);
        double var = 0.5 / (s * s);
        double z = 2.5758293035489; // two-sided 99%
        assertThat(a).isBetween(z * Math.sqrt(k * var), 1.3 * z * Math.sqrt(k * var));
    }

    @Test
    void zeroWeightsGiveZero() {
        assertThat(LaplaceSumTail.halfWidth(3, new double[] {0}, new long[] {5}, 0.1)).isZero();
    }
}

package io.privacygateway.mechanisms.amplification;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The certified ε against the exact privacy of real shuffled randomizers: for every composition of the other reports'
 * inputs, the exact distribution of the shuffled multiset (a histogram of outputs) under the two inputs of the changing
 * report, and its hockey-stick divergence at the certified ε in both directions, which must be at most δ.
 *
 * <p>Binary randomized response has extremal output ratios (e^{±ε₀} everywhere); 3-ary randomized response does not
 * (outputs other than the two inputs have ratio 1), so it also checks the variation-ratio bound on a randomizer whose
 * total variation is below the worst case.
 */
class ShuffledRandomizersTest {

    @Test
    void binaryRandomizedResponse() {
        for (double eps0 : new double[] {1, 2, 3}) {
            int n = 300;
            double delta = 1e-3;
            double a = Math.exp(eps0) / (Math.exp(eps0) + 1);
            for (AmplificationBound.Method m : AmplificationBound.Method.values()) {
                double eps = AmplificationBound.amplified(m, eps0, n, 1, delta).epsilon();
                assertThat(eps).as("amplification happens at ε₀=%s", eps0).isLessThan(0.95 * eps0);
                double worst = 0;
                for (int ones = 0; ones < n; ones++) {
                    // number of 1-outputs: own report + Bin(ones, a) + Bin(n-1-ones, 1-a)
                    double[] base = convolve(binomial(ones, a), binomial(n - 1 - ones, 1 - a));
                    double[] p0 = convolve(base, new double[] {a, 1 - a});
                    double[] p1 = convolve(base, new double[] {1 - a, a});
                    worst = Math.max(worst, Math.max(hockey(p0, p1, eps), hockey(p1, p0, eps)));
                }
                assertThat(worst).as("%s ε₀=%s ε=%s", m, eps0, eps).isLessThanOrEqualTo(delta);
            }
        }
    }

    @Test
    void ternaryRandomizedResponse() {
        int n = 40;
        double delta = 1e-2;
        for (double eps0 : new double[] {1, 2}) {
            double e0 = Math.exp(eps0);
            double hit = e0 / (e0 + 2);
            double miss = 1 / (e0 + 2);
            for (AmplificationBound.Method m : AmplificationBound.Method.values()) {
                double eps = AmplificationBound.amplified(m, eps0, n, 1, delta).epsilon();
                assertThat(eps).isLessThan(eps0);
                double worst = 0;
                for (int j0 = 0; j0 < n; j0++) {
                    for (int j1 = 0; j0 + j1 < n; j1++) {
                        int j2 = n - 1 - j0 - j1;
                        double[][] base = {{1}};
                        base = repeat(base, new double[] {hit, miss, miss}, j0, n);
                        base = repeat(base, new double[] {miss, hit, miss}, j1, n);
                        base = repeat(base, new double[] {miss, miss, hit}, j2, n);
                        double[][] p0 = add(base, new double[] {hit, miss, miss}, n);
                        double[][] p1 = add(base, new double[] {miss, hit, miss}, n);
                        worst = Math.max(worst, Math.max(hockey(p0, p1, eps), hockey(p1, p0, eps)));
                    }
                }
                assertThat(worst).as("%s ε₀=%s ε=%s", m, eps0, eps).isLessThanOrEqualTo(delta);
            }
        }
    }

    static double[] binomial(int n, double p) {
        double[] d = {1};
        for (int i = 0; i < n; i++) {
            d = convolve(d, new double[] {1 - p, p});
        }
        return d;
    }

    static double[] convolve(double[] x, double[] y) {
        double[] z = new double[x.length + y.length - 1];
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < y.length; j++) {
                z[i + j] += x[i] * y[j];
            }
        }
        return z;
    }

    static double hockey(double[] p, double[] q, double eps) {
        double e = Math.exp(eps);
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            s += Math.max(0, p[i] - e * q[i]);
        }
        return s;
    }

    /** Histogram distribution (c0, c1) with c2 implied, after adding {@code times} reports with output law {@code law}. */
    static double[][] repeat(double[][] d, double[] law, int times, int n) {
        for (int i = 0; i < times; i++) {
            d = add(d, law, n);
        }
        return d;
    }

    static double[][] add(double[][] d, double[] law, int n) {
        double[][] out = new double[n + 1][n + 1];
        for (int c0 = 0; c0 < d.length; c0++) {
            for (int c1 = 0; c1 < d[c0].length; c1++) {
                double v = d[c0][c1];
                if (v == 0) {
                    continue;
                }
                out[c0 + 1][c1] += v * law[0];
                out[c0][c1 + 1] += v * law[1];
                out[c0][c1] += v * law[2];
            }
        }
        return out;
    }

    static double hockey(double[][] p, double[][] q, double eps) {
        double e = Math.exp(eps);
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < p[i].length; j++) {
                s += Math.max(0, p[i][j] - e * q[i][j]);
            }
        }
        return s;
    }
}

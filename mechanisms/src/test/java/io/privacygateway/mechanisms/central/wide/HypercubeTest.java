package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The transform-based marginals, adjoint and MW update against brute force. */
class HypercubeTest {
    @Test
    void marginalsAndAdjointMatchBruteForce() {
        for (int[] dk : new int[][] {{5, 3}, {7, 2}, {13, 3}, {6, 1}, {6, 4}}) {
            MarginalWorkload w = MarginalWorkload.anonymous(dk[0], dk[1]);
            Hypercube cube = new Hypercube(w);
            Random r = new Random(dk[0] * 31L + dk[1]);
            double[] f = new double[cube.size()];
            for (int x = 0; x < f.length; x++) {
                f[x] = r.nextDouble();
            }
            double[][] out = new double[w.subsetCount()][w.cellsPerSubset()];
            cube.marginals(f, new double[f.length], out);
            double[][] rr = new double[w.subsetCount()][w.cellsPerSubset()];
            double inner = 0;
            for (int s = 0; s < w.subsetCount(); s++) {
                double[] brute = new double[w.cellsPerSubset()];
                for (int x = 0; x < f.length; x++) {
                    brute[w.cellOf(s, x)] += f[x];
                }
                for (int c = 0; c < brute.length; c++) {
                    assertThat(out[s][c]).isCloseTo(brute[c], within(1e-9));
                    rr[s][c] = r.nextGaussian();
                    inner += brute[c] * rr[s][c];
                }
            }
            double[] adj = new double[f.length];
            cube.adjoint(rr, adj);
            double inner2 = 0;
            for (int x = 0; x < f.length; x++) {
                double brute = 0;
                for (int s = 0; s < w.subsetCount(); s++) {
                    brute += rr[s][w.cellOf(s, x)];
                }
                assertThat(adj[x]).isCloseTo(brute, within(1e-9));
                inner2 += f[x] * adj[x];
            }
            assertThat(inner2).isCloseTo(inner, within(1e-8));
        }
    }

    @Test
    void blockedTransformEqualsTheTextbookOrder() {
        double[] a = new double[1 << 15];
        Random r = new Random(9);
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextInt(100);
        }
        double[] b = a.clone();
        Hypercube.transform(a);
        for (int h = 1; h < b.length; h <<= 1) {
            for (int i = 0; i < b.length; i += h << 1) {
                for (int j = i; j < i + h; j++) {
                    double x = b[j];
                    double y = b[j + h];
                    b[j] = x + y;
                    b[j + h] = x - y;
                }
            }
        }
        assertThat(a).isEqualTo(b); // integers: both orders are exact
    }

    @Test
    void updateMultipliesEveryValueByItsCellsFactor() {
        MarginalWorkload w = MarginalWorkload.anonymous(6, 3);
        BinaryMarginalUniverse u = new BinaryMarginalUniverse(w);
        double[] p = new double[u.size()];
        java.util.Arrays.fill(p, 1.0 / p.length);
        double[] eta = {0.1, -0.2, 0.3, 0, 0.05, -0.5, 0.25, 0.4};
        int g = 7;
        double[] expected = new double[p.length];
        double total = 0;
        for (int x = 0; x < p.length; x++) {
            expected[x] = p[x] * Math.exp(eta[w.cellOf(g, x)]);
            total += expected[x];
        }
        u.update(p, g, eta);
        for (int x = 0; x < p.length; x++) {
            assertThat(p[x]).isCloseTo(expected[x] / total, within(1e-15));
        }
    }
}

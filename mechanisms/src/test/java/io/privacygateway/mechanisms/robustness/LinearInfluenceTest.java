package io.privacygateway.mechanisms.robustness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.fo.FourierMarginals;
import io.privacygateway.mechanisms.param.Epsilon;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The influence of an output-count oracle (factorization, fourier) enumerates every output's contribution in answer
 * space; it reads only the non-zero answer coordinates of each value, and refuses, naming the cost, an oracle whose
 * outputs × values exceed {@link OracleInfluence#MAX_LINEAR_WORK} (the plan command then prints "-").
 */
class LinearInfluenceTest {
    /** Sparse answers (each value in one cell of each of two marginals) and dense random ones: the dense sum. */
    @Test
    void theSparseEnumerationIsTheDenseSum() {
        FourierMarginals o = new FourierMarginals(4, 2, Epsilon.of(1));
        int k = o.domainSize();
        Random rnd = new Random(3); // public test data
        double[][] sparse = new double[k][8];
        double[][] dense = new double[k][3];
        for (int x = 0; x < k; x++) {
            sparse[x][x & 3] = 1; // marginal of attributes 0, 1
            sparse[x][4 + (x >> 2)] = 1; // marginal of attributes 2, 3
            for (int q = 0; q < 3; q++) {
                dense[x][q] = rnd.nextGaussian();
            }
        }
        for (double[][] rows : new double[][][] {sparse, dense}) {
            PointSet answers = PointSet.of(rows[0].length, rows);
            Influence got = OracleInfluence.linear(answers, o);
            int m = rows[0].length;
            double[] lo = new double[m];
            double[] hi = new double[m];
            java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
            java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
            for (int out = 0; out < o.outputs(); out++) { // the dense sum Σ_x c_o(x)·Q(x) of every output
                double[] c = o.contribution(out);
                double[] a = new double[m];
                for (int x = 0; x < k; x++) {
                    answers.addScaledRow(x, c[x], a);
                }
                for (int q = 0; q < m; q++) {
                    lo[q] = Math.min(lo[q], a[q]);
                    hi[q] = Math.max(hi[q], a[q]);
                }
            }
            double linf = 0; // the largest range of a coordinate over the outputs
            for (int q = 0; q < m; q++) {
                linf = Math.max(linf, hi[q] - lo[q]);
            }
            assertThat(linf).isPositive();
            assertThat(got.linf()).isCloseTo(linf, org.assertj.core.data.Offset.offset(1e-9 * linf));
        }
    }

    /**
     * 4-way marginals of 12 attributes at ε = 1 (blocks of 6: 59,136 outputs) against 100 dense answer coordinates per
     * value: 2.4·10¹⁰ is above the limit and is refused, naming the cost.
     */
    @Test
    void anOracleTooLargeToEnumerateIsRefusedNamingTheCost() {
        FourierMarginals o = new FourierMarginals(12, 4, Epsilon.of(1));
        assertThat(o.outputs()).isEqualTo(59_136);
        double[][] rows = new double[o.domainSize()][100];
        for (double[] r : rows) {
            java.util.Arrays.fill(r, 1);
        }
        assertThatThrownBy(() -> OracleInfluence.linear(PointSet.of(100, rows), o))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("59136 outputs over 4096 values and 409600 non-zero answer coordinates")
                .hasMessageContaining("too costly to enumerate");
    }
}

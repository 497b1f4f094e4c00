package io.privacygateway.mechanisms.central.worstcase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.central.wide.WideFixtures;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Lemma 4.2 in l∞: separation, covering, radii, telescoping and bias; the 0/1 fast path equals the general rule. */
class LinfDecompositionTest {
    @Test
    void binaryWorkloadsHaveOneLevelAndTheFastPathEqualsTheGeneralConstruction() {
        Workload w = WideFixtures.centralMarginals(5, 3, "central-projection", 1.0, "add-remove", 1, 1000);
        LinfDecomposition fast = LinfDecomposition.build(w.points(), 4);
        LinfDecomposition general = LinfDecomposition.general(w.points(), 4);
        assertThat(fast.binary()).isTrue();
        assertThat(fast.levels()).isEqualTo(1);
        assertThat(fast.bias()).isZero();
        assertThat(fast.levelSet(1).size()).isEqualTo(32);
        // the general construction: level 1 is every point, later levels are {0}
        assertThat(general.levelSet(1).toRowMajor()).isEqualTo(fast.levelSet(1).toRowMajor());
        assertThat(general.componentIndex(1)).isEqualTo(fast.componentIndex(1));
        for (int j = 2; j <= 4; j++) {
            assertThat(general.levelSet(j).size()).isEqualTo(1);
            assertThat(general.radius(j)).isZero();
        }
        assertThat(general.bias()).isZero();
    }

    @Test
    void realValuedPointsDecomposeWithTheLemmasGuarantees() {
        Random r = new Random(3);
        int n = 300;
        int m = 12;
        double[][] rows = new double[n][m];
        for (double[] row : rows) {
            for (int q = 0; q < m; q++) {
                row[q] = Math.round(r.nextDouble() * 64) / 64.0;
            }
        }
        PointSet p = PointSet.of(m, rows);
        int k = 5;
        LinfDecomposition dec = LinfDecomposition.build(p, k);
        assertThat(dec.binary()).isFalse();
        assertThat(dec.levels()).isEqualTo(k);
        assertThat(dec.bias()).isLessThanOrEqualTo(Math.scalb(1.0, -k));
        for (int j = 2; j <= k; j++) {
            assertThat(dec.radius(j)).isLessThanOrEqualTo(Math.scalb(1.0, -j + 1) + 1e-15);
        }
        // telescoping: Σ_j c_j(x) = x_k, within the bias of Q(x)
        for (int x = 0; x < n; x++) {
            double[] sum = new double[m];
            for (int j = 1; j <= k; j++) {
                double[] c = dec.levelSet(j).row(dec.componentIndex(j)[x]);
                for (int q = 0; q < m; q++) {
                    sum[q] += c[q];
                }
            }
            for (int q = 0; q < m; q++) {
                assertThat(Math.abs(sum[q] - p.get(x, q))).isLessThanOrEqualTo(dec.bias() + 1e-12);
            }
        }
        // level 1 is a 1/2-separated set in l∞
        PointSet s1 = dec.levelSet(1);
        for (int a = 0; a < s1.size(); a++) {
            for (int b = a + 1; b < s1.size(); b++) {
                double d = 0;
                for (int q = 0; q < m; q++) {
                    d = Math.max(d, Math.abs(s1.get(a, q) - s1.get(b, q)));
                }
                assertThat(d).isGreaterThan(0.5);
            }
        }
        assertThat(dec.radius(1)).isCloseTo(LinfDecomposition.linfNorm(s1), within(0.0));
    }
}

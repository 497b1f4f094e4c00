package io.privacygateway.mechanisms.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link ExactPsd}: exact PSD tests and the exact {@code ⌊λ_min/s⌋} the regression release publishes with noise. */
class ExactPsdTest {
    private static BigInteger[][] big(long[][] m) {
        BigInteger[][] b = new BigInteger[m.length][m.length];
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < m.length; j++) {
                b[i][j] = BigInteger.valueOf(m[i][j]);
            }
        }
        return b;
    }

    @Test
    void smallCasesIncludingZeroPivots() {
        assertThat(ExactPsd.isPsd(big(new long[][] {{0, 0}, {0, 0}}))).isTrue();
        assertThat(ExactPsd.isPsd(big(new long[][] {{1, 0}, {0, 0}}))).isTrue();
        assertThat(ExactPsd.isPsd(big(new long[][] {{0, 1}, {1, 0}}))).isFalse(); // zero diagonal, non-zero row
        assertThat(ExactPsd.isPsd(big(new long[][] {{1, 1}, {1, 1}}))).isTrue(); // singular
        assertThat(ExactPsd.isPsd(big(new long[][] {{1, 2}, {2, 1}}))).isFalse();
        assertThat(ExactPsd.isPsd(big(new long[][] {{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}}))).isTrue();
        // a zero pivot appears only after elimination: [[1,1,1],[1,1,1],[1,1,2]] is PSD, [[1,1,0],[1,1,1],[0,1,1]] not
        assertThat(ExactPsd.isPsd(big(new long[][] {{1, 1, 1}, {1, 1, 1}, {1, 1, 2}}))).isTrue();
        assertThat(ExactPsd.isPsd(big(new long[][] {{1, 1, 0}, {1, 1, 1}, {0, 1, 1}}))).isFalse();
        assertThat(ExactPsd.floorLambdaMin(new long[][] {{4, 0}, {0, 9}}, 2, 0)).isEqualTo(2);
        assertThat(ExactPsd.floorLambdaMin(new long[][] {{4, 0}, {0, 9}}, 1, 1e9)).isEqualTo(4); // a wild estimate
        assertThat(ExactPsd.floorLambdaMin(new long[][] {{1, 1}, {1, 1}}, 1, 0.3)).isZero();
        assertThatThrownBy(() -> ExactPsd.floorLambdaMin(new long[][] {{1, 2}, {2, 1}}, 1, 0))
                .hasMessageContaining("not positive semi-definite");
    }

    @Test
    void floorLambdaMinAgreesWithTheEigenvalueAwayFromTheGridEdges() {
        Random r = new Random(3);
        for (int trial = 0; trial < 300; trial++) {
            int d = 1 + r.nextInt(5);
            long[][] s = new long[d][d];
            for (int row = 0; row < 2 * d; row++) {
                long[] phi = new long[d];
                for (int j = 0; j < d; j++) {
                    phi[j] = r.nextInt(201) - 100;
                }
                long c = 1 + r.nextInt(50);
                for (int i = 0; i < d; i++) {
                    for (int j = 0; j < d; j++) {
                        s[i][j] += c * phi[i] * phi[j];
                    }
                }
            }
            double[][] sd = new double[d][d];
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    sd[i][j] = s[i][j];
                }
            }
            double lambda = Matrices.lambdaMin(sd);
            long step = 1 + r.nextInt(1000);
            long k = ExactPsd.floorLambdaMin(s, step, lambda * (0.5 + r.nextDouble()));
            double tol = 1e-9 * Math.max(1, Math.abs(sd[0][0]) * d);
            assertThat((double) k * step).isLessThanOrEqualTo(lambda + tol);
            assertThat((double) (k + 1) * step).isGreaterThan(lambda - tol);
        }
    }
}

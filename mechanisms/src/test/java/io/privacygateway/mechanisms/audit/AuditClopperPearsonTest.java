package io.privacygateway.mechanisms.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

/** Exact checks (no sampling): the bounds' coverage is computed from the binomial law itself. */
class AuditClopperPearsonTest {

    /**
     * For every n, a and p on a fine grid, {@code P_p(lower(K) > p) ≤ a} and {@code P_p(upper(K) < p) ≤ a},
     * summing the exact binomial probabilities of the k whose bound misses p.
     */
    @Test
    void oneSidedBoundsMissWithProbabilityAtMostA() {
        for (int n : new int[] {1, 2, 7, 30, 200}) {
            for (double a : new double[] {0.2, 0.025, 1e-4}) {
                double[] lo = new double[n + 1];
                double[] hi = new double[n + 1];
                for (int k = 0; k <= n; k++) {
                    lo[k] = ClopperPearson.lower(k, n, a);
                    hi[k] = ClopperPearson.upper(k, n, a);
                    assertThat(lo[k]).isBetween(0.0, 1.0).isLessThanOrEqualTo((double) k / n);
                    assertThat(hi[k]).isBetween(0.0, 1.0).isGreaterThanOrEqualTo((double) k / n);
                }
                for (int i = 1; i < 1000; i++) {
                    double p = i / 1000.0;
                    BinomialDistribution b = BinomialDistribution.of(n, p);
                    double missLow = 0;
                    double missHigh = 0;
                    for (int k = 0; k <= n; k++) {
                        if (lo[k] > p) {
                            missLow += b.probability(k);
                        }
                        if (hi[k] < p) {
                            missHigh += b.probability(k);
                        }
                    }
                    assertThat(missLow).as("n=%d a=%s p=%s lower", n, a, p).isLessThanOrEqualTo(a * (1 + 1e-9));
                    assertThat(missHigh).as("n=%d a=%s p=%s upper", n, a, p).isLessThanOrEqualTo(a * (1 + 1e-9));
                }
            }
        }
    }

    /** The bounds are the Beta quantiles, not something looser: at the bound the tail equals a. */
    @Test
    void boundsAreTight() {
        int n = 50;
        double a = 0.01;
        for (int k = 1; k < n; k++) {
            double lo = ClopperPearson.lower(k, n, a);
            double hi = ClopperPearson.upper(k, n, a);
            assertThat(BinomialDistribution.of(n, lo).survivalProbability(k - 1)).isCloseTo(a, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(BinomialDistribution.of(n, hi).cumulativeProbability(k)).isCloseTo(a, org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(ClopperPearson.lower(0, n, a)).isZero();
        assertThat(ClopperPearson.upper(n, n, a)).isEqualTo(1.0);
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> ClopperPearson.lower(3, 2, 0.1)).hasMessageContaining("k must be");
        assertThatThrownBy(() -> ClopperPearson.upper(0, 0, 0.1)).hasMessageContaining("n must be");
        assertThatThrownBy(() -> ClopperPearson.lower(0, 5, 1.0)).hasMessageContaining("a must be");
    }
}

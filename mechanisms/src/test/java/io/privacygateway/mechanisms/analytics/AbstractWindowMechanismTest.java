package io.privacygateway.mechanisms.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.mode.ExponentialMode;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared cost rule: the count's share plus the mechanism's own, summed exactly and rounded up, set once. */
class AbstractWindowMechanismTest {
    private static final class Probe extends AbstractWindowMechanism {
        Probe(AnalyticsBudget budget, boolean charge, double... shares) {
            super(MechanismId.MODE_EXPONENTIAL, labels(), budget);
            if (charge) {
                charge(shares);
            }
        }

        void chargeAgain() {
            charge(0.1);
        }

        @Override
        public double predictedError() {
            return Double.NaN;
        }

        @Override
        public List<Parameter> parameters() {
            return List.of();
        }

        @Override
        public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
            throw new UnsupportedOperationException();
        }
    }

    private static Workload labels() {
        return Workload.of(AnalyticsFixtures.mode("mode-exponential", 1, "add-remove", 1, List.of("a", "b", "c")));
    }

    private static AnalyticsBudget budget(double epsilonCount) {
        return new AnalyticsBudget(epsilonCount, 1.0, 1000, NeighbourRelation.ADD_REMOVE, 1, 0.95);
    }

    @Test
    void theCostIsTheCountsSharePlusTheOwnSharesRoundedUp() {
        Probe p = new Probe(budget(0.1), true, 0.2);
        // the exact sum of the two doubles lies strictly between two doubles; the cost is the upper one
        BigDecimal exact = new BigDecimal(0.1).add(new BigDecimal(0.2));
        assertThat(new BigDecimal(p.cost().epsilon())).isGreaterThan(exact);
        assertThat(new BigDecimal(Math.nextDown(p.cost().epsilon()))).isLessThan(exact);
        assertThat(new Probe(budget(0.25), true, 0.5, 0.125).cost()).isEqualTo(new PrivacyCost.Pure(0.875));
        assertThat(p.id()).isEqualTo(MechanismId.MODE_EXPONENTIAL);
    }

    @Test
    void aMechanismMustChargeExactlyOnce() {
        assertThatIllegalStateException().isThrownBy(() -> new Probe(budget(0), false).cost())
                .withMessageContaining("never charged");
        Probe p = new Probe(budget(0), true, 0.5);
        assertThatIllegalStateException().isThrownBy(p::chargeAgain).withMessageContaining("twice");
    }

    @Test
    void theMechanismsUseTheRule() {
        ExponentialMode m = new ExponentialMode(labels(),
                new AnalyticsBudget(0.25, 1.0, 1000, NeighbourRelation.ADD_REMOVE, 1, 0.95));
        assertThat(m.cost().epsilon()).isGreaterThanOrEqualTo(0.25 + m.k());
        assertThat(m.workload()).isInstanceOf(Workload.class);
    }
}

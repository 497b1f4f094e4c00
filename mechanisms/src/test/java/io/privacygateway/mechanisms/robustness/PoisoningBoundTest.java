package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.local.LocalEstimator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PoisoningBoundTest {

    @Test
    void shiftsScaleWithDevicesOverNAndThePublishedOneStopsAtTheDiameterOfK() {
        PoisoningBound b = PoisoningBound.of(PoisoningWorkloads.pipeline(PoisoningWorkloads.labels(8, 1.0), MechanismId.GRR));
        assertThat(b.unprojectedShift(10_000, 7)).isCloseTo(7 * b.worst().linf() / 10_000, within(1e-15));
        assertThat(b.publishedShift(10_000, 7)).isCloseTo(7 * b.worst().projectedL2() / 10_000, within(1e-15));
        assertThat(b.publishedShift(10, 10)).isEqualTo(b.feasibleDiameter()); // the whole window poisoned: K's diameter
        assertThat(b.feasibleDiameter()).isCloseTo(Math.sqrt(2), within(1e-12)); // the simplex
        assertThatThrownBy(() -> b.unprojectedShift(0, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n");
        assertThatThrownBy(() -> b.publishedShift(10, 11)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("devices");
    }

    @Test
    void aModifiedAppReachesAtLeastWhatALyingHonestAppCanAndGrindingSitsBetweenTypicalAndWorst() {
        WorkloadSpec s = PoisoningWorkloads.cdf(16, 1.0);
        for (MechanismId id : PoisoningWorkloads.local(s)) {
            PoisoningBound b = PoisoningBound.of(PoisoningWorkloads.pipeline(s, id), 300);
            // the honest expected contributions are averages of contributions, so their spread is no larger
            assertThat(b.honestInput().linf()).as(id + " honest ℓ∞").isLessThanOrEqualTo(b.worst().linf() * (1 + 1e-12));
            assertThat(b.honestInput().l2()).as(id + " honest ℓ2").isLessThanOrEqualTo(b.worst().l2() * (1 + 1e-12));
            PoisoningBound.Grinding g = b.grinding().orElseThrow();
            InfluenceClosedFormTest.assertAtMost(g.typical(), g.ground());
            InfluenceClosedFormTest.assertAtMost(g.ground(), b.worst());
            MechanismInfluence mi = MechanismInfluence.of(PoisoningWorkloads.pipeline(s, id));
            assertThat(g.tries()).isEqualTo(mi.coinDependent() ? 300 : 1);
            if (!mi.coinDependent()) {
                assertThat(g.ground()).isEqualTo(b.worst());
            }
        }
    }

    @Test
    void theTreeScalesWithTheWindowsOwnLevelCounts() {
        LocalPipeline p = PoisoningWorkloads.pipeline(PoisoningWorkloads.cdf(16, 2.0), MechanismId.TREE);
        TreeInfluence t = (TreeInfluence) MechanismInfluence.of(p);
        Influence design = t.atLevelCounts(new long[] {5000, 5000});
        assertThat(design.linf()).isCloseTo(t.worst().linf(), within(1e-9 * design.linf()));
        assertThat(design.l2()).isCloseTo(t.worst().l2(), within(1e-9 * design.l2()));
        // a level with fewer reports weighs each of them more
        Influence thin = t.atLevelCounts(new long[] {5000, 1000});
        assertThat(thin.linf()).isGreaterThan(design.linf());
        // a window whose levels come from the public coins of 20,000 reports stays near the design value
        long[] counts = new long[t.height()];
        for (int i = 0; i < 20_000; i++) {
            counts[t.levelOf(new ReportCoordinates("device-" + i, 0, 0)) - 1]++;
        }
        Influence real = t.atLevelCounts(counts);
        assertThat(real.linf()).isCloseTo(design.linf(), within(0.05 * design.linf()));
        assertThatThrownBy(() -> t.atLevelCounts(new long[] {0, 5})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aProtocolWithoutAFormulaGetsTheGenericBound() {
        LocalPipeline grr = PoisoningWorkloads.pipeline(PoisoningWorkloads.labels(6, 1.0), MechanismId.GRR);
        MechanismInfluence generic = MechanismInfluence.of(new Opaque(grr.protocol()), 6);
        assertThat(generic).isInstanceOf(SampledInfluence.class);
        assertThat(generic.worstCoversAllCoins()).isFalse();
        assertThat(generic.coinDependent()).isFalse();
        InfluenceClosedFormTest.assertSame(generic.worst(), MechanismInfluence.of(grr).worst());
        assertThat(generic.expectedContributions().toRowMajor()).isEqualTo(grr.workload().points().toRowMajor());

        LocalPipeline gauss = PoisoningWorkloads.pipeline(PoisoningWorkloads.labels(6, 1.0), MechanismId.LOCAL_PROJECTION);
        MechanismInfluence sampled = MechanismInfluence.of(new Opaque(gauss.protocol()), 6);
        assertThat(sampled.coinDependent()).isTrue();
        Influence largest = WorstCaseTest.largestOver(MechanismInfluence.of(gauss), SampledInfluence.DEFAULT_COORDINATES);
        InfluenceClosedFormTest.assertSame(sampled.worst(), largest);

        // the tree's estimate is not affine in the aggregate: no constant bound without a formula
        LocalPipeline tree = PoisoningWorkloads.pipeline(PoisoningWorkloads.cdf(16, 2.0), MechanismId.TREE);
        assertThatThrownBy(() -> MechanismInfluence.of(new Opaque(tree.protocol()), 16))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not affine");
    }

    @Test
    void everyLocalMechanismOfAResolvedWorkloadHasABound() {
        WorkloadSpec s = PoisoningWorkloads.histogram(16, 1.0);
        for (MechanismId id : PoisoningWorkloads.local(s)) {
            PoisoningBound b = PoisoningBound.of(PoisoningWorkloads.pipeline(s, id));
            assertThat(b.mechanism()).isEqualTo(id);
            assertThat(b.epsilon()).isEqualTo(1.0);
            assertThat(b.worst().linf()).isGreaterThan(1); // more than an honest app lying about its value
            assertThat(b.worstCoversAllCoins()).isTrue();
            assertThat(b.grinding()).isEmpty();
            assertThat(b.basis()).isNotBlank();
        }
    }

    /** A protocol the analysis does not recognise: every call delegated. */
    record Opaque(LocalProtocol inner) implements LocalProtocol, LocalEstimator {
        @Override
        public MechanismId id() {
            return inner.id();
        }

        @Override
        public Epsilon epsilon() {
            return inner.epsilon();
        }

        @Override
        public int payloadBytes() {
            return inner.payloadBytes();
        }

        @Override
        public byte[] randomize(int value, ReportCoordinates coordinates,
                io.privacygateway.mechanisms.random.SecretDraws draws) {
            return inner.randomize(value, coordinates, draws);
        }

        @Override
        public int stateLength() {
            return inner.stateLength();
        }

        @Override
        public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
            return inner.accumulate(payload, coordinates, state);
        }

        @Override
        public LocalProtocol protocol() {
            return this;
        }

        @Override
        public LocalEstimate estimate(long[] state, long n) {
            return LocalEstimators.of(inner).estimate(state, n);
        }

        @Override
        public double[] expectedLevelMean(int level, double[] histogram) {
            return LocalEstimators.of(inner).expectedLevelMean(level, histogram);
        }
    }
}

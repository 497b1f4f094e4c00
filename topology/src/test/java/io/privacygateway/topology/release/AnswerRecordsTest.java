package io.privacygateway.topology.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.AnswerLevel;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Duration;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * 7.5: how an {@link Answer} becomes a {@link WindowAnswer}. Central levels publish no projection gap (their
 * projection precedes purification) and the unprojected estimate is the pure vector; local levels publish their gap;
 * a local window without reports has no estimates and NaN error summaries; δ is 0 everywhere.
 */
class AnswerRecordsTest {
    private static final long T0 = 1_800_000_000_000L;

    private static WorkloadSpec.Builder ranges() {
        return WorkloadSpec.builder().id("rec").version(1).family(QueryFamily.RANGE)
                .domain(new Domain.Buckets(List.of(0.0, 1.0, 2.0, 5.0, 10.0, 20.0)))
                .budget(Epsilon.of(4), Duration.ofDays(1)).window(Duration.ofMinutes(1), Duration.ofSeconds(10))
                .expectedReportsPerWindow(2_000);
    }

    @Test
    void centralLevelsPublishNoProjectionGapAndTheUnprojectedVectorIsThePureOne() {
        for (MechanismId m : List.of(MechanismId.CENTRAL_PROJECTION, MechanismId.LAPLACE)) {
            CentralWorkload w = (CentralWorkload) ResolvedWorkload.of(ranges()
                    .central(Epsilon.of(1), NeighbourRelation.ADD_REMOVE, 1).mechanism(m).build());
            long[] counts = new long[w.aggregateLength()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = 100 + 37L * i;
            }
            Answer a = w.release().release(counts, new SeededRandomBits(5));
            WindowAnswer r = AnswerRecords.toRecord(a, w, T0, new PrivacyCost.Pure(3.0), T0 + 70_000);
            assertThat(r.getDelta()).as(m.wireName()).isZero();
            assertThat(r.getCost().getKind()).isEqualTo("pure");
            assertThat(r.getCumulativeEpsilon()).isEqualTo(3.0);
            assertThat(r.getLevels()).isNotEmpty();
            for (AnswerLevel l : r.getLevels()) {
                assertThat(l.getProjectionGapValue()).as("%s level %d", m.wireName(), l.getLevel()).isNull();
                assertThat(l.getProjectionGap()).isNaN();
            }
            assertThat(r.getUnprojectedEstimate()).as(m.wireName()).isNotNull().hasSize(r.getEstimates().size());
            assertThat(r.getUnprojectedEstimate()).containsExactlyElementsOf(
                    a.unprojected().map(v -> java.util.Arrays.stream(v).boxed().toList()).orElseThrow());
            assertThat(r.getExpectedRmsError()).isFinite();
            assertThat(r.getRmsErrorBoundAtConfidence()).isFinite();
        }
    }

    @Test
    void localLevelsPublishTheirGapAndAnEmptyWindowHasNoEstimates() {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(ranges().local(Epsilon.of(1))
                .mechanism(MechanismId.LOCAL_PROJECTION).build());
        LocalProtocol p = w.protocol();
        long[] state = new long[p.stateLength()];
        SeededRandomBits secret = new SeededRandomBits(9);
        int n = 500;
        for (int i = 0; i < n; i++) {
            ReportCoordinates c = new ReportCoordinates("d" + i, 0, 0);
            assertThat(p.accumulate(p.randomize(i % 5, c, secret), c, state)).isTrue();
        }
        WindowAnswer r = AnswerRecords.toRecord(w.pipeline().release().release(state, n), w, T0, AnswerRecords.NONE, T0 + 70_000);
        assertThat(r.getDelta()).isZero();
        assertThat(r.getLevels()).allSatisfy(l -> assertThat(l.getProjectionGapValue()).isNotNull().isNotNegative());
        assertThat(r.getUnprojectedEstimate()).hasSize(r.getEstimates().size());

        WindowAnswer empty = AnswerRecords.toRecord(w.windowRelease().release(new WindowRelease.Window(0,
                new long[p.stateLength()], 60_000, 0, ""), null), w, AnswerRecords.Span.window(w, T0), AnswerRecords.NONE,
                T0 + 70_000);
        assertThat(empty.getN()).isZero();
        assertThat(empty.getEstimates()).isEmpty();
        assertThat(empty.getExpectedRmsError()).isNaN();
        assertThat(empty.getRmsErrorBoundAtConfidence()).isNaN();
        assertThat(empty.getDelta()).isZero();
    }
}

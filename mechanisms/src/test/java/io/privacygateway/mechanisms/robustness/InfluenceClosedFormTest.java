package io.privacygateway.mechanisms.robustness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The closed forms of {@link MechanismInfluence} against the generic computation {@link ProtocolInfluence},
 * which enumerates every byte string of the payload length through the real {@code accumulate} and
 * {@code estimate}: for each mechanism, small workload and ε, and many report coordinates, the two agree
 * exactly (to rounding), no payload exceeds the worst case, and where the worst case is claimed exact it is
 * attained. Deterministic: no randomness.
 */
class InfluenceClosedFormTest {
    /** Relative tolerance for two float computations of the same quantity. */
    static final double TOL = 1e-9;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (double eps : new double[] {0.5, 2.0}) {
            List<WorkloadSpec> specs = List.of(PoisoningWorkloads.histogram(6, eps), PoisoningWorkloads.cdf(7, eps),
                    PoisoningWorkloads.marginals(3, 2, eps), PoisoningWorkloads.cdf(16, eps));
            for (WorkloadSpec s : specs) {
                for (MechanismId id : PoisoningWorkloads.local(s)) {
                    if (s.domain() instanceof io.privacygateway.mechanisms.workload.Domain.Buckets b
                            && b.edges().size() > 9 && (id == MechanismId.OUE || id == MechanismId.SUBSET_SELECTION)) {
                        continue; // 2^16 payloads through the full estimator: too slow for a unit test
                    }
                    out.add(Arguments.of(s.id() + "/" + id.wireName() + "/ε=" + eps, s, id));
                }
            }
        }
        return out.stream();
    }

    static LocalPipeline build(WorkloadSpec s, MechanismId id) {
        return PoisoningWorkloads.pipeline(s, id);
    }

    /** The generic computation's window for this mechanism: empty, or the tree's design level counts. */
    static ProtocolInfluence.Background background(MechanismInfluence mi, ProtocolInfluence g, ReportCoordinates c) {
        if (mi instanceof TreeInfluence t) {
            long[] state = new long[g.protocol().stateLength()];
            long n = 0;
            for (int l = 1; l <= t.height(); l++) {
                long count = TreeInfluence.DESIGN_REPORTS_PER_LEVEL - (l == t.levelOf(c) ? 1 : 0);
                state[t.counterIndex(l)] = count;
                n += count;
            }
            return new ProtocolInfluence.Background(state, n);
        }
        return g.emptyBackground();
    }

    static void assertSame(Influence closed, Influence generic) {
        assertThat(closed.linf()).isCloseTo(generic.linf(), within(TOL * Math.max(1, generic.linf())));
        assertThat(closed.l2()).isCloseTo(generic.l2(), within(TOL * Math.max(1, generic.l2())));
        assertThat(closed.projectedL2()).isCloseTo(generic.projectedL2(), within(TOL * Math.max(1, generic.projectedL2())));
    }

    static void assertAtMost(Influence at, Influence worst) {
        assertThat(at.linf()).isLessThanOrEqualTo(worst.linf() * (1 + TOL));
        assertThat(at.l2()).isLessThanOrEqualTo(worst.l2() * (1 + TOL));
        assertThat(at.projectedL2()).isLessThanOrEqualTo(worst.projectedL2() * (1 + TOL));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void closedFormEqualsExhaustiveEnumerationAndNeverExceedsTheWorstCase(String name, WorkloadSpec s, MechanismId id) {
        LocalPipeline p = build(s, id);
        MechanismInfluence mi = MechanismInfluence.of(p);
        ProtocolInfluence g = new ProtocolInfluence(p.protocol());
        List<byte[]> payloads = g.allPayloads();
        int coordinates = mi.coinDependent() ? 24 : 2;
        Influence largest = null;
        for (int i = 0; i < coordinates; i++) {
            ReportCoordinates c = MechanismInfluence.probe(1000 + i);
            ProtocolInfluence.Contributions all = g.contributions(c, payloads, background(mi, g, c));
            assertThat(all.rejected() + all.accepted().size()).isEqualTo(payloads.size());
            Influence generic = all.influence();
            Influence closed = mi.atCoordinates(c);
            assertSame(closed, generic);
            assertAtMost(generic, mi.worst());
            largest = largest == null ? generic : largest.max(generic);
        }
        if (!mi.coinDependent()) {
            // attained: the worst case is exactly what two payloads achieve
            assertThat(mi.worst().linfExact()).isTrue();
            assertSame(mi.worst(), largest);
            assertThat(largest.l2()).isCloseTo(mi.worst().l2(), within(TOL * mi.worst().l2()));
        }
        if (mi.worst().linfExact()) {
            assertThat(mi.worst().linf()).isGreaterThan(0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyEstimatorButTheTreeIsAffineInTheAggregate(String name, WorkloadSpec s, MechanismId id) {
        LocalPipeline p = build(s, id);
        ProtocolInfluence g = new ProtocolInfluence(p.protocol());
        ReportCoordinates c = MechanismInfluence.probe(7);
        List<byte[]> payloads = acceptedAt(g, c);
        boolean affine = g.affineOn(c, payloads, g.honestBackground(0, 40, 11), TOL);
        boolean multiLevelTree = MechanismInfluence.of(p) instanceof TreeInfluence t && t.height() > 1;
        assertThat(affine).as("affine").isEqualTo(!multiLevelTree);
    }

    static List<byte[]> acceptedAt(ProtocolInfluence g, ReportCoordinates c) {
        return g.contributions(c, g.allPayloads(), g.emptyBackground()).accepted();
    }
}

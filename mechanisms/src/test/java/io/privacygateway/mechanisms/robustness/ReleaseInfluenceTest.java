package io.privacygateway.mechanisms.robustness;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bound holds for what the gateway publishes: in a window of honest reports (seeded), one report's
 * payload is swapped between two accepted payloads and the real {@code LocalRelease} runs on both windows.
 * The unprojected estimate moves by exactly {@code 1/n} times the contribution difference (the estimators are
 * affine), so never by more than the influence at the report's coins; the published answer, after the
 * projections (1-Lipschitz in ℓ2), never moves further in ℓ2 than the influence's published bound. For the tree
 * the bound is the one at the window's own level counts.
 */
class ReleaseInfluenceTest {
    /** Relative slack for float rounding and the projection solvers' stopping tolerance. */
    static final double SLACK = 1e-6;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        List<WorkloadSpec> specs = List.of(PoisoningWorkloads.histogram(6, 1.0), PoisoningWorkloads.cdf(16, 1.0),
                PoisoningWorkloads.marginals(3, 2, 2.0));
        for (WorkloadSpec s : specs) {
            for (MechanismId id : PoisoningWorkloads.local(s)) {
                if (s.id().startsWith("cdf-16") && (id == MechanismId.OUE || id == MechanismId.SUBSET_SELECTION)) {
                    continue; // 2^16 candidate payloads: covered on smaller domains
                }
                out.add(Arguments.of(s.id() + "/" + id.wireName(), s, id));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void swappingOnePayloadMovesTheReleaseWithinTheBound(String name, WorkloadSpec s, MechanismId id) {
        LocalPipeline p = PoisoningWorkloads.pipeline(s, id);
        LocalProtocol protocol = p.protocol();
        MechanismInfluence mi = MechanismInfluence.of(p);
        ProtocolInfluence g = new ProtocolInfluence(protocol);
        int k = p.workload().universeSize();
        int others = 299;
        long n = others + 1;
        // the other reports: honest, values drawn from a skewed distribution
        long[] background = new long[protocol.stateLength()];
        SeededRandomBits secret = new SeededRandomBits(77);
        SplittableRandom values = new SplittableRandom(5);
        long[] levelCounts = null;
        TreeInfluence tree = mi instanceof TreeInfluence t ? t : null;
        if (tree != null) {
            levelCounts = new long[tree.height()];
        }
        for (int i = 0; i < others; i++) {
            ReportCoordinates c = new ReportCoordinates("honest-" + i, 0, 0);
            int v = Math.min(k - 1, (int) Math.floor(k * Math.pow(values.nextDouble(), 2)));
            assertThat(protocol.accumulate(protocol.randomize(v, c, secret), c, background)).isTrue();
            if (tree != null) {
                levelCounts[tree.levelOf(c) - 1]++;
            }
        }
        SplittableRandom pick = new SplittableRandom(9);
        double largestPublished = 0;
        for (int i = 0; i < 6; i++) {
            ReportCoordinates c = MechanismInfluence.probe(500 + i);
            Influence bound;
            if (tree != null) {
                long[] counts = levelCounts.clone();
                counts[tree.levelOf(c) - 1]++;
                bound = tree.atLevelCounts(counts);
            } else {
                bound = mi.atCoordinates(c);
            }
            List<byte[]> payloads = g.contributions(c, g.allPayloads(), g.emptyBackground()).accepted();
            List<int[]> pairs = new ArrayList<>();
            if (payloads.size() <= 8) {
                for (int a = 0; a < payloads.size(); a++) {
                    for (int b = a + 1; b < payloads.size(); b++) {
                        pairs.add(new int[] {a, b});
                    }
                }
            } else {
                pairs.add(new int[] {0, payloads.size() - 1}); // e.g. no bit set against every bit set
                for (int r = 0; r < 20; r++) {
                    pairs.add(new int[] {pick.nextInt(payloads.size()), pick.nextInt(payloads.size())});
                }
            }
            for (int[] pr : pairs) {
                Answer a = release(p, background, payloads.get(pr[0]), c, n);
                Answer b = release(p, background, payloads.get(pr[1]), c, n);
                double[] ua = a.unprojected().orElseThrow();
                double[] ub = b.unprojected().orElseThrow();
                double linf = 0;
                double l2 = 0;
                for (int q = 0; q < ua.length; q++) {
                    linf = Math.max(linf, Math.abs(ua[q] - ub[q]));
                    l2 += (ua[q] - ub[q]) * (ua[q] - ub[q]);
                }
                double published = 0;
                for (int q = 0; q < ua.length; q++) {
                    double d = a.estimates()[q] - b.estimates()[q];
                    published += d * d;
                }
                published = Math.sqrt(published);
                largestPublished = Math.max(largestPublished, n * published);
                assertThat(n * linf).isLessThanOrEqualTo(bound.linf() * (1 + SLACK));
                assertThat(n * Math.sqrt(l2)).isLessThanOrEqualTo(bound.l2() * (1 + SLACK));
                assertThat(n * published).isLessThanOrEqualTo(bound.projectedL2() * (1 + SLACK) + 1e-9 * n);
            }
        }
        assertThat(largestPublished).as("some swap moves the published answer").isGreaterThan(0);
    }

    static Answer release(LocalPipeline p, long[] background, byte[] payload, ReportCoordinates c, long n) {
        long[] state = background.clone();
        assertThat(p.protocol().accumulate(payload, c, state)).isTrue();
        return p.release().release(state, n);
    }
}

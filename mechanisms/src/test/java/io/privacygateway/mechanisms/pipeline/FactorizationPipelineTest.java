package io.privacygateway.mechanisms.pipeline;

import io.privacygateway.mechanisms.local.fo.FrequencyOracleEstimator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FactorizationOracle;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.testing.TestWorkloads;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Mechanism {@code factorization} as a workload mechanism: the planner offers it for the linear families but
 * histograms (cdf, range, marginals, points) of at most 128 values, validation refuses it elsewhere naming the field,
 * and a pipeline randomizes, aggregates and estimates a CDF and marginals within their stated standard errors.
 */
class FactorizationPipelineTest {
    static WorkloadSpec spec(String family, Map<String, Object> domain, String mechanism) {
        return TestWorkloads.local(family, domain, mechanism);
    }

    static Map<String, Object> buckets(int k) {
        return TestWorkloads.buckets(k);
    }

    static List<MechanismId> offered(WorkloadSpec s) {
        return LocalPlanner.candidates(s).stream().map(Candidate::id).toList();
    }

    static WorkloadSpec marginals(int attributes, int way, String mechanism) {
        Map<String, Object> t = io.privacygateway.mechanisms.workload.WorkloadSpecParser.tree();
        t.put("id", "t-marginals");
        t.put("version", 1);
        t.put("family", "marginals");
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < attributes; i++) {
            names.add("a" + i);
        }
        t.put("domain", Map.of("attributes", names));
        t.put("queries", Map.of("way", way));
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        if (mechanism != null) {
            t.put("mechanism", mechanism);
        }
        return io.privacygateway.mechanisms.workload.WorkloadSpecParser.parse(t);
    }

    static Map<String, Object> points(int values) {
        List<Map<String, Object>> pts = new java.util.ArrayList<>();
        for (int i = 0; i < values; i++) { // each value answers "is it at least j?" for j = 1, 2, 3
            pts.add(Map.of("label", "p" + i, "answer", List.of(i >= 1 ? 1.0 : 0.0, i >= 2 ? 1.0 : 0.0, i >= 3 ? 1.0 : 0.0)));
        }
        return Map.of("points", pts);
    }

    @Test
    void plannerOffersItForEveryLinearFamilyButHistogramsUpTo128Values() {
        assertThat(offered(spec("cdf", buckets(24), null))).contains(MechanismId.FACTORIZATION, MechanismId.TREE);
        assertThat(offered(spec("range", buckets(8), null))).contains(MechanismId.FACTORIZATION);
        assertThat(offered(spec("cdf", buckets(128), null))).contains(MechanismId.FACTORIZATION);
        assertThat(offered(spec("cdf", buckets(129), null))).doesNotContain(MechanismId.FACTORIZATION)
                .contains(MechanismId.TREE);
        assertThat(offered(marginals(7, 3, null))).as("2^7 = 128 values").contains(MechanismId.FACTORIZATION);
        assertThat(offered(marginals(8, 3, null))).as("2^8 = 256 values").doesNotContain(MechanismId.FACTORIZATION);
        assertThat(offered(spec("points", points(5), null))).contains(MechanismId.FACTORIZATION);
        assertThat(offered(spec("histogram", Map.of("labels", List.of("a", "b", "c", "d")), null)))
                .as("the identity workload: the oracles are already optimal").doesNotContain(MechanismId.FACTORIZATION);
        assertThat(offered(spec("histogram", buckets(8), null))).doesNotContain(MechanismId.FACTORIZATION);
    }

    @Test
    void validationTakesEveryLinearFamilyUpTo128ValuesAndNamesTheField() {
        assertThat(spec("cdf", buckets(128), "factorization").mechanism()).isEqualTo(MechanismId.FACTORIZATION);
        assertThat(spec("range", buckets(4), "factorization").mechanism()).isEqualTo(MechanismId.FACTORIZATION);
        assertThat(marginals(7, 2, "factorization").mechanism()).isEqualTo(MechanismId.FACTORIZATION);
        assertThat(spec("points", points(4), "factorization").mechanism()).isEqualTo(MechanismId.FACTORIZATION);
        assertThat(spec("histogram", Map.of("labels", List.of("a", "b", "c")), "factorization").mechanism())
                .isEqualTo(MechanismId.FACTORIZATION);
        assertThatThrownBy(() -> spec("cdf", buckets(129), "factorization"))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageStartingWith("domain.buckets:")
                .hasMessageContaining("factorization").hasMessageContaining("at most 128").hasMessageContaining("129");
        assertThatThrownBy(() -> spec("range", buckets(300), "factorization"))
                .hasMessageStartingWith("domain.buckets:");
        assertThatThrownBy(() -> marginals(8, 3, "factorization"))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageStartingWith("domain.attributes:")
                .hasMessageContaining("256");
        assertThatThrownBy(() -> marginals(40, 1, "factorization")).hasMessageStartingWith("domain.attributes:");
        assertThatThrownBy(() -> spec("heavy-hitters", Map.of("strings", Map.of("maxBytes", 8)), "factorization"))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageStartingWith("mechanism:");
        assertThat(MechanismId.fromWireName("factorization")).isEqualTo(MechanismId.FACTORIZATION);
    }

    /**
     * End to end on 2-way marginals of 4 binary attributes (16 values, 24 queries) at ε = 1, N = 40,000 devices:
     * every unprojected answer within 5 of its own standard errors of the truth (each fails with probability below
     * 10⁻⁶ under normality) and the released answers within their published RMS bound.
     */
    @Test
    void marginalsEndToEndWithinTheirStandardErrors() {
        Workload w = Workload.of(marginals(4, 2, "factorization"));
        LocalPipeline p = LocalPipeline.of(w);
        LocalProtocol protocol = p.protocol();
        assertThat(protocol.id()).isEqualTo(MechanismId.FACTORIZATION);
        int n = 40_000;
        int k = w.universeSize();
        long[] state = new long[protocol.stateLength()];
        long[] counts = reportSkewed(protocol, k, n, 7, 8, state);
        double[] truth = w.meanAnswer(counts);
        LocalEstimate.Level level = LocalEstimators.of(protocol).estimate(state, n).levels().get(0);
        for (int q = 0; q < truth.length; q++) {
            assertThat(Math.abs(level.mean()[q] - truth[q])).as("query %d", q)
                    .isLessThanOrEqualTo(5 * level.standardErrors()[q]);
        }
        Answer a = p.release().release(state, n);
        double err = 0;
        for (int q = 0; q < truth.length; q++) {
            err += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
        }
        assertThat(Math.sqrt(err / truth.length)).isLessThanOrEqualTo(a.rmsErrorBoundAtConfidence());
    }

    /**
     * End to end on a CDF of 16 buckets at ε = 1: N = 40,000 devices with skewed values randomize through the
     * pipeline's protocol (seeded secret bits), the gateway accumulates and estimates. Tolerance: every unprojected
     * answer within 5 of its own standard errors of the true CDF (each fails with probability below 10⁻⁶ under
     * normality), the standard errors within 20% of the exact closed form at the true frequencies, and the released
     * (projected) answers within their published RMS bound.
     */
    @Test
    void endToEndEstimateIsWithinItsStandardErrors() {
        Workload w = Workload.of(spec("cdf", buckets(16), "factorization"));
        LocalPipeline p = LocalPipeline.of(w);
        LocalProtocol protocol = p.protocol();
        assertThat(protocol.id()).isEqualTo(MechanismId.FACTORIZATION);
        assertThat(protocol.payloadBytes()).isEqualTo(2);
        FactorizationOracle oracle = (FactorizationOracle) ((FrequencyOracleProtocol) protocol).oracle();
        assertThat(oracle).isSameAs(FactorizationOracle.of(w.points(), Epsilon.of(1))); // built once, cached
        int n = 40_000;
        int k = w.universeSize();
        SeededRandomBits secret = new SeededRandomBits(2024);
        SeededRandomBits data = new SeededRandomBits(77);
        long[] state = new long[protocol.stateLength()];
        long[] counts = new long[k];
        for (int i = 0; i < n; i++) {
            double u = ExactSampler.uniformDouble(data);
            int x = (int) Math.min(k - 1, Math.floor(k * u * u));
            counts[x]++;
            ReportCoordinates c = new ReportCoordinates("dev-" + i, 0, 0);
            byte[] payload = protocol.randomize(x, c, secret);
            assertThat(protocol.accumulate(payload, c, state)).isTrue();
        }
        withinStandardErrorsAndBound(p, oracle, state, counts, n);
    }

    /**
     * {@code n} devices ({@code dev-0}, …) with values {@code ⌊k·u³⌋}, {@code u} uniform from a seeded stream, randomize
     * through the protocol with seeded secret bits; every report is accumulated into {@code state}. Returns the
     * count of each value.
     */
    static long[] reportSkewed(LocalProtocol protocol, int k, int n, long secretSeed, long dataSeed, long[] state) {
        SeededRandomBits secret = new SeededRandomBits(secretSeed);
        SeededRandomBits data = new SeededRandomBits(dataSeed);
        long[] counts = new long[k];
        for (int i = 0; i < n; i++) {
            double u = ExactSampler.uniformDouble(data);
            int x = (int) Math.min(k - 1, Math.floor(k * u * u * u));
            counts[x]++;
            ReportCoordinates c = new ReportCoordinates("dev-" + i, 0, 0);
            assertThat(protocol.accumulate(protocol.randomize(x, c, secret), c, state)).isTrue();
        }
        return counts;
    }

    /**
     * The checks of an end-to-end run: every unprojected answer within 5 of its own standard errors of the truth, the
     * standard errors within 20% of the oracle's closed form at the true frequencies, the released answers within
     * their published RMS bound, and the cost pure ε.
     */
    static void withinStandardErrorsAndBound(LocalPipeline p, io.privacygateway.mechanisms.local.fo.FrequencyOracle oracle,
            long[] state, long[] counts, int n) {
        Workload w = p.workload();
        LocalProtocol protocol = p.protocol();
        int k = w.universeSize();
        double[] truth = w.meanAnswer(counts);
        LocalEstimate.Level level = LocalEstimators.of(protocol).estimate(state, n).levels().get(0);
        double[] f = new double[k];
        for (int x = 0; x < k; x++) {
            f[x] = counts[x] / (double) n;
        }
        double[] exact = FrequencyOracleEstimator.of(oracle).queryVariances(n, f, w.points());
        for (int q = 0; q < truth.length; q++) {
            double se = level.standardErrors()[q];
            assertThat(Math.abs(level.mean()[q] - truth[q])).as("query %d", q).isLessThanOrEqualTo(5 * se);
            assertThat(se).as("se of query %d", q).isBetween(0.8 * Math.sqrt(exact[q]), 1.2 * Math.sqrt(exact[q]));
        }
        Answer a = p.release().release(state, n);
        double err = 0;
        for (int q = 0; q < truth.length; q++) {
            err += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
        }
        assertThat(Math.sqrt(err / truth.length)).isLessThanOrEqualTo(a.rmsErrorBoundAtConfidence());
        assertThat(a.cost()).isEqualTo(io.privacygateway.mechanisms.accounting.PrivacyCost.pure(protocol.epsilon()));
    }

    /**
     * Above ε = {@value FactorizationOracle#MAX_DESIGN_EPSILON} the strategy is the one designed for that ε. Before,
     * the optimiser diverged or lost precision there: 1-way marginals of 3 attributes at ε = 7 and 9 failed to build
     * ("QᵀD⁻¹Q is singular"), a 16-bucket CDF at ε = 10 failed in the rounding, the factorization of 4 points at ε = 20
     * likewise, and auto, which offers factorization for the first two, crashed with them. Now each builds, is
     * ε-LDP with its exact row ratios at most e^6 (so at most e^ε), and auto resolves.
     */
    @Test
    void aboveTheDesignEpsilonTheStrategyIsTheDesignEpsilonsAndAutoResolves() {
        record Case(WorkloadSpec spec, double epsilon) {}
        List<Case> cases = List.of(new Case(marginals(3, 1, null), 7), new Case(marginals(3, 1, null), 9),
                new Case(spec("cdf", buckets(16), null), 10), new Case(spec("points", points(4), null), 20),
                new Case(marginals(2, 2, null), 40));
        for (Case c : cases) {
            Epsilon e = Epsilon.of(c.epsilon());
            FactorizationOracle o = new FactorizationOracle(Workload.of(c.spec()).points(), e);
            assertThat(o.mechanism().epsilon().value()).as("%s", c).isEqualTo(FactorizationOracle.MAX_DESIGN_EPSILON);
            assertThat(o.epsilon()).isEqualTo(e); // the report is still charged ε
            assertThat(o.mechanism().worstRatio()).as("%s", c).isLessThanOrEqualTo(Math.exp(6));
            assertThat(o.mechanism().perUserTotalVariance()).as("%s", c).isFinite();
        }
        io.privacygateway.mechanisms.planner.Plan plan = LocalPlanner.plan(marginals(3, 1, null), Epsilon.of(7), 10_000);
        assertThat(plan.predictions()).anySatisfy(pr -> {
            assertThat(pr.candidate().id()).isEqualTo(MechanismId.FACTORIZATION);
            assertThat(pr.applicable()).isTrue();
        });
        assertThat(plan.resolved().mechanism()).isNotEqualTo(MechanismId.AUTO);
    }
}

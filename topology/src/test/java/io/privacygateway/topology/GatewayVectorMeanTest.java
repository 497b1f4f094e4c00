package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.VectorMeanRelease;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.limits.RecordSizes;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Vector means (family mean over a ball or a box) end to end through the real topology (TopologyTestDriver, real
 * embedded registry): a known population of vectors randomized by the real protocol in, one answer out with
 * {@code family = mean}, one labelled coordinate per name, the projected mean equal to the library's release of the
 * same reports, bars covering the true means, every record within the sizes registration checked; hostile payloads
 * rejected with a reason code and counted without stopping the stream.
 */
class GatewayVectorMeanTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = GatewayTopologyTest.T0;
    static final long DAY = Duration.ofDays(1).toMillis();
    static final List<String> RESOURCES = List.of("cpu", "memory", "battery");

    static WorkloadSpec box(String mechanism) {
        Map<String, Object> t = base("resource-usage", mechanism);
        t.put("domain", Map.of("box", Map.of("coordinates", RESOURCES, "lo", 0, "hi", 100)));
        return Planner.resolve(WorkloadSpecParser.parse(t));
    }

    static WorkloadSpec ball() {
        Map<String, Object> t = base("embedding-mean", "auto");
        t.put("domain", Map.of("ball", Map.of("coordinates", List.of("x1", "x2", "x3", "x4"), "radius", 1.0)));
        t.put("epsilonPerReport", 4.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        return Planner.resolve(WorkloadSpecParser.parse(t));
    }

    static Map<String, Object> base(String id, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", "mean");
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 2.0);
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("confidence", 0.99);
        t.put("expectedReportsPerWindow", 20000);
        return t;
    }

    static LocalReport report(LocalWorkload w, String device, long eventTime, byte[] payload) {
        return GatewayHeavyHittersTest.report(w, device, eventTime, payload); // any local workload's report
    }

    /** Resource usage in [0, 100]³: cpu around 30, memory around 60, battery drain uniform in [0, 20]. */
    static double[] usage(Random r) {
        return new double[] {clamp(30 + 15 * r.nextGaussian(), 0, 100), clamp(60 + 10 * r.nextGaussian(), 0, 100),
                20 * r.nextDouble()};
    }

    /** A vector in the unit ball of R⁴ skewed towards (0.6, −0.3, 0, 0). */
    static double[] skewed(Random r) {
        double[] v = {0.6 + 0.2 * r.nextGaussian(), -0.3 + 0.2 * r.nextGaussian(), 0.2 * r.nextGaussian(),
                0.2 * r.nextGaussian()};
        double norm = Math.sqrt(Arrays.stream(v).map(x -> x * x).sum());
        if (norm > 1) {
            for (int q = 0; q < v.length; q++) {
                v[q] /= norm;
            }
        }
        return v;
    }

    static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    @Test
    void aBoxWindowReleasesTheProjectedMeanPerCoordinateWithBarsCoveringTheTruth() throws Exception {
        WorkloadSpec s = box("auto");
        assertThat(s.mechanism().wireName()).isIn("duchi", "piecewise", "hybrid");
        runWindow(s, GatewayVectorMeanTest::usage, "vector-box-test");
    }

    @Test
    void aBallWindowReleasesTheProjectedMeanPerCoordinateWithBarsCoveringTheTruth() throws Exception {
        WorkloadSpec s = ball();
        assertThat(s.mechanism().wireName()).isEqualTo("privunit-g");
        runWindow(s, GatewayVectorMeanTest::skewed, "vector-ball-test");
    }

    private static void runWindow(WorkloadSpec s, Function<Random, double[]> population, String app) throws Exception {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(s);
        Domain.Vector dom = (Domain.Vector) s.domain();
        int d = dom.dimension();
        int n = 20000;
        double[] truth = new double[d];
        SeededRandomBits secret = new SeededRandomBits(5);
        Random data = new Random(7);
        Random order = new Random(9);
        List<LocalReport> reports = new ArrayList<>();
        long[] state = new long[w.aggregateLength()];
        for (int i = 0; i < n; i++) {
            double[] v = population.apply(data);
            for (int q = 0; q < d; q++) {
                truth[q] += v[q] / n;
            }
            long t = T0 + 1000 + order.nextInt(40_000);
            ReportCoordinates c = new ReportCoordinates("dev-" + i, Math.floorDiv(t, DAY), 0);
            byte[] payload = w.vectors().randomize(v, c, secret);
            reports.add(report(w, "dev-" + i, t, payload));
            assertThat(w.accumulator().accumulate(payload, c, state)).isTrue();
        }
        Answer expected = w.release(state, n);
        RecordSizes.Sizes sizes = RecordSizes.of(w);
        assertThat(sizes.overLimit(RecordSizes.MAX_RECORD_BYTES)).isNull();
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId(app)
                .build(), T0)) {
            g.register(s, T0);
            for (int i = 0; i < reports.size(); i++) {
                g.send(reports.get(i), T0 + 41_000);
                if (i % 500 == 499) {
                    g.drainChangelogs();
                }
            }
            g.advance(Duration.ofSeconds(2));
            g.send(report(w, "next", T0 + GatewayTopologyTest.MINUTE + 15_000,
                    w.vectors().randomize(population.apply(data), new ReportCoordinates("next",
                            Math.floorDiv(T0 + GatewayTopologyTest.MINUTE + 15_000, DAY), 0), secret)),
                    T0 + GatewayTopologyTest.MINUTE + 15_000);
            g.advance(Duration.ofSeconds(2));
            assertThat(g.rejections.isEmpty()).isTrue();
            List<WindowAnswer> out = g.answers.readValuesToList();
            assertThat(out).hasSize(1);
            WindowAnswer a = out.get(0);
            assertThat(a.getFamily()).isEqualTo("mean");
            assertThat(a.getMechanism()).isEqualTo(s.mechanism().wireName());
            assertThat(a.getN()).isEqualTo(n);
            assertThat(a.getEpsilon()).isEqualTo(s.epsilonPerReport().value());
            assertThat(a.getLabels()).isEqualTo(dom.coordinates());
            assertThat(a.getConfidence()).isEqualTo(0.99);
            for (int q = 0; q < d; q++) {
                String label = dom.coordinates().get(q);
                assertThat(a.getEstimates().get(q)).as(label).isEqualTo(expected.estimates()[q]);
                assertThat(a.getEstimates().get(q)).as(label).isBetween(dom.coordinateLo(), dom.coordinateHi());
                assertThat(a.getLower().get(q)).as(label).isLessThanOrEqualTo(truth[q]);
                assertThat(a.getUpper().get(q)).as(label).isGreaterThanOrEqualTo(truth[q]);
                double width = a.getUpper().get(q) - a.getLower().get(q);
                assertThat(width).as(label).isGreaterThan(0)
                        .isLessThan((dom.coordinateHi() - dom.coordinateLo()) / 4);
            }
            if (dom instanceof Domain.Ball b) { // the projected mean lies in the ball
                double sq = a.getEstimates().stream().mapToDouble(x -> x * x).sum();
                assertThat(Math.sqrt(sq)).isLessThanOrEqualTo(b.radius() * (1 + 1e-12));
            }
            assertThat(a.getScalars()).isEqualTo(expected.extras().scalars());
            assertThat(a.getScalars().get("dimension")).isEqualTo((double) d);
            assertThat(VectorMeanRelease.SCALARS).containsAll(a.getScalars().keySet());
            assertThat(GatewayWideTest.size(a)).isLessThanOrEqualTo(sizes.answerBytes());
        }
    }

    @Test
    void hostilePayloadsAreRejectedWithAReasonAndCountedWithoutStoppingTheStream() throws Exception {
        for (WorkloadSpec s : List.of(box("auto"), ball())) {
            LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(s);
            SeededRandomBits secret = new SeededRandomBits(1);
            int bytes = w.accumulator().payloadBytes();
            try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1)
                    .applicationId("vector-hostile-" + s.id()).build(), T0)) {
                g.register(s, T0);
                long t = T0 + 5_000;
                List<byte[]> hostile = new ArrayList<>(List.of(new byte[0], new byte[bytes + 1], new byte[bytes + 64]));
                byte[] garbage = new byte[bytes]; // a payload of the right length the protocol refuses, if there is one
                Arrays.fill(garbage, (byte) 0xFF);
                if (!w.accumulator().accumulate(garbage, new ReportCoordinates("h-garbage", Math.floorDiv(t, DAY), 0),
                        new long[w.aggregateLength()])) {
                    hostile.add(garbage);
                }
                for (int i = 0; i < hostile.size(); i++) {
                    g.send(report(w, "h" + i, t, hostile.get(i)), t);
                }
                Random data = new Random(3);
                for (int i = 0; i < 50; i++) {
                    String device = "ok-" + i;
                    double[] v = s.domain() instanceof Domain.Ball ? skewed(data) : usage(data);
                    g.send(report(w, device, t, w.vectors().randomize(v, new ReportCoordinates(device,
                            Math.floorDiv(t, DAY), 0), secret)), t);
                }
                List<Rejection> rej = g.rejections.readValuesToList();
                assertThat(rej).extracting(Rejection::getReasonCode).containsOnly(RejectionReason.BAD_PAYLOAD)
                        .hasSize(hostile.size());
                assertThat(g.metrics.count("pgw.reports.rejected", "reason", "BAD_PAYLOAD", "workload", s.id()))
                        .isEqualTo(hostile.size());
                assertThat(g.metrics.count("pgw.reports.accepted", "workload", s.id())).isEqualTo(50);
                g.send(report(w, "late-window", T0 + GatewayTopologyTest.MINUTE + 15_000, new byte[0]),
                        T0 + GatewayTopologyTest.MINUTE + 15_000);
                g.advance(Duration.ofSeconds(2));
                List<WindowAnswer> out = g.answers.readValuesToList();
                assertThat(out).hasSize(1);
                assertThat(out.get(0).getN()).isEqualTo(50);
                assertThat(out.get(0).getFamily()).isEqualTo("mean");
                assertThat(out.get(0).getLabels()).isEqualTo(((Domain.Vector) s.domain()).coordinates());
            }
        }
    }
}

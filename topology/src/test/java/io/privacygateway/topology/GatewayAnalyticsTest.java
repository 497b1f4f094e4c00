package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The three window-analytics families end to end through the real topology (TopologyTestDriver, real registry):
 * central reports with raw values ("label", or "x1,…,xd,y") in, each contribution charged to the device's budget and
 * capped at L, one pure answer per workload and window out, with the family's error information.
 */
class GatewayAnalyticsTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // a minute boundary
    static final long MINUTE = 60_000;

    static Map<String, Object> base(String id, String family, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", family);
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1));
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 400);
        return t;
    }

    static WorkloadSpec mode() {
        Map<String, Object> t = base("top-app", "mode", "mode-ptr");
        t.put("domain", Map.of("labels", List.of("mail", "maps", "music", "news")));
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec regression() {
        Map<String, Object> t = base("usage-regression", "regression", "ssp-laplace");
        t.put("domain", Map.of("features", List.of(Map.of("name", "intercept", "values", List.of(1)),
                        Map.of("name", "hours", "buckets", List.of(0, 2, 4, 6, 8))),
                "response", Map.of("name", "sessions", "buckets", List.of(0, 5, 10, 15, 20))));
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec erm() {
        Map<String, Object> t = base("churn", "erm", "purified-dpsgd");
        t.put("domain", Map.of("features", List.of(Map.of("name", "bias", "values", List.of(1)),
                        Map.of("name", "activity", "values", List.of(-1, 0, 1))),
                "response", Map.of("name", "churned", "values", List.of(0, 1))));
        t.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.01));
        return WorkloadSpecParser.parse(t);
    }

    static CentralReport report(Workload w, String device, long eventTime, String value) {
        return CentralReport.newBuilder().setWorkloadId(w.spec().id()).setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash()).setDeviceId(device)
                .setPeriod(Math.floorDiv(eventTime, Duration.ofDays(1).toMillis())).setSequence(0)
                .setEventTime(Instant.ofEpochMilli(eventTime)).setValue(value).build();
    }

    @Test
    void reportsInPureAnalyticsAnswersWithErrorInformationOut() {
        Workload mode = Workload.of(mode());
        Workload reg = Workload.of(regression());
        Workload erm = Workload.of(erm());
        Random r = new Random(1);
        try (GatewayDriver g = new GatewayDriver(registry.client(),
                GatewayConfig.builder(1, 1).applicationId("gateway-analytics-test").build(), T0)) {
            for (Workload w : List.of(mode, reg, erm)) {
                g.register(w.spec(), T0);
            }
            long t = T0 + 1_000;
            for (int i = 0; i < 400; i++) {
                String app = i % 10 < 7 ? "maps" : List.of("mail", "music", "news").get(i % 3);
                g.sendCentral(report(mode, "d" + i, t, app), t);
                double hours = 8 * r.nextDouble();
                double sessions = Math.min(19.9, Math.max(0, 2 + 2 * hours + r.nextGaussian()));
                g.sendCentral(report(reg, "d" + i, t, "1," + hours + "," + sessions), t);
                int activity = r.nextInt(3) - 1;
                boolean churned = r.nextDouble() < 1 / (1 + Math.exp(2.0 * activity));
                g.sendCentral(report(erm, "d" + i, t, "1," + activity + "," + (churned ? 1 : 0)), t);
            }
            g.sendCentral(report(mode, "d0", t + 5, "mail"), t + 5); // a second contribution (L = 1)
            g.sendCentral(report(reg, "x", t, "1,9,3"), t); // hours outside [0, 8]
            assertThat(g.rejections.readValuesToList()).extracting(Rejection::getReasonCode)
                    .containsExactly(RejectionReason.CONTRIBUTION_LIMIT, RejectionReason.INVALID_VALUE);
            g.advance(Duration.ofSeconds(73));
            g.advance(g.cfg.centralReleaseDelay());
            g.advance(Duration.ofSeconds(5)); // first releases also build the mechanisms (parameter planning)
            List<WindowAnswer> out = new ArrayList<>(g.answers.readValuesToList());
            assertThat(out).extracting(WindowAnswer::getWorkloadId)
                    .containsExactlyInAnyOrder("top-app", "usage-regression", "churn");
            for (WindowAnswer a : out) {
                assertThat(a.getMode()).isEqualTo("central");
                assertThat(a.getDelta()).isZero();
                assertThat(a.getCost().getKind()).isEqualTo("pure");
                assertThat(a.getEpsilon()).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
                assertThat(a.getCumulativeEpsilon()).isEqualTo(1.0);
                assertThat(a.getN()).isBetween(340L, 460L); // the noisy count of 400 reports
                assertThat(a.getScalars()).isNotEmpty();
                assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0));
            }
            WindowAnswer m = byId(out, "top-app");
            assertThat(m.getFamily()).isEqualTo("mode");
            assertThat(m.getMechanism()).isEqualTo("mode-ptr");
            assertThat(m.getLabels()).containsExactly("mail", "maps", "music", "news");
            // 280 of 400 chose maps: a gap of 240 is far beyond what the test needs, so the release is stable
            assertThat(m.getScalars()).containsEntry("stable", 1.0).containsKeys("gapForConfidence", "keepProbability");
            assertThat(m.getItems()).singleElement().satisfies(i -> assertThat(i.getLabel()).isEqualTo("maps"));
            WindowAnswer rg = byId(out, "usage-regression");
            assertThat(rg.getFamily()).isEqualTo("regression");
            assertThat(rg.getLabels()).containsExactly("intercept", "hours");
            assertThat(rg.getScalars()).containsKey("errorEstimate");
            assertThat(rg.getEstimates().get(1)).isBetween(1.0, 3.0); // slope 2
            assertThat(rg.getStandardErrors()).hasSize(2);
            WindowAnswer e = byId(out, "churn");
            assertThat(e.getFamily()).isEqualTo("erm");
            assertThat(e.getMechanism()).isEqualTo("purified-dpsgd");
            assertThat(e.getEstimates().get(1)).isNegative(); // more activity, less churn
            assertThat(e.getScalars()).containsKeys("errorEstimate", "predictedExcessRisk");
            // the next (empty) windows are answered too: noise-only answers, no error
            g.advance(Duration.ofSeconds(60));
            g.advance(g.cfg.centralReleaseDelay());
            assertThat(g.answers.readValuesToList()).hasSize(3);
        }
    }

    /**
     * The grid exponential mechanism's release time depends on the data (1 ms on an empty window, ≈ 70 ms median on
     * uniform data, p99 near 200 ms under load: {@code bench release-timing --analytics}), so its answers are written
     * at least a second after their computation started, whatever the configured delay.
     */
    @Test
    void gridExponentialErmAnswersWaitAtLeastASecond() {
        Map<String, Object> t = base("churn-grid", "erm", "erm-exponential");
        t.put("domain", Map.of("features", List.of(Map.of("name", "bias", "values", List.of(1)),
                        Map.of("name", "activity", "values", List.of(-1, 0, 1))),
                "response", Map.of("name", "churned", "values", List.of(0, 1))));
        t.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.01));
        WorkloadSpec spec = WorkloadSpecParser.parse(t);
        assertThat(((io.privacygateway.mechanisms.runtime.CentralWorkload) io.privacygateway.mechanisms.runtime
                .ResolvedWorkload.of(spec)).minimumReleaseDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(((io.privacygateway.mechanisms.runtime.CentralWorkload) io.privacygateway.mechanisms.runtime
                .ResolvedWorkload.of(erm())).minimumReleaseDelay()).isZero();
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1)
                .applicationId("gateway-analytics-grid").centralReleaseDelay(Duration.ofMillis(200)).build(), T0)) {
            g.register(spec, T0);
            g.advance(Duration.ofSeconds(73)); // window [T0, T0 + 1 min) is due: computed now
            assertThat(g.answers.readValuesToList()).isEmpty();
            g.advance(Duration.ofMillis(500)); // the configured 200 ms have passed, the mechanism's second has not
            assertThat(g.answers.readValuesToList()).isEmpty();
            g.advance(Duration.ofMillis(600));
            assertThat(g.answers.readValuesToList()).singleElement()
                    .satisfies(a -> assertThat(a.getMechanism()).isEqualTo("erm-exponential"));
        }
    }

    private static WindowAnswer byId(List<WindowAnswer> out, String id) {
        return out.stream().filter(a -> a.getWorkloadId().equals(id)).findFirst().orElseThrow();
    }
}

package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.HeavyHitterRelease;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.limits.RecordSizes;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The heavy-hitters family end to end through the real topology (TopologyTestDriver, real embedded registry): a Zipf
 * population of app names randomized by the real protocol in, one answer out with {@code family = heavy-hitters}
 * whose coordinates are the items found (the top ones, bars covering the truth), the threshold scalar, every record
 * within the sizes registration checked; hostile payloads rejected with a reason code and counted.
 */
class GatewayHeavyHittersTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = GatewayTopologyTest.T0;
    static final long DAY = Duration.ofDays(1).toMillis();
    static final List<String> APPS = List.of("mail", "maps", "camera", "chat", "music", "notes", "weather", "clock",
            "photos", "files", "calendar", "podcasts", "news", "stocks", "books", "health", "wallet", "fitness",
            "keyboard", "compass");

    static WorkloadSpec spec() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "top-apps");
        t.put("version", 1);
        t.put("family", "heavy-hitters");
        t.put("domain", Map.of("strings", Map.of("maxBytes", 8)));
        t.put("mechanism", "auto");
        t.put("epsilonPerReport", 4.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 40000);
        return Planner.resolve(WorkloadSpecParser.parse(t));
    }

    /** Zipf(1.1) shares over {@link #APPS}. */
    static double[] zipf() {
        double[] f = new double[APPS.size()];
        double sum = 0;
        for (int i = 0; i < f.length; i++) {
            f[i] = Math.pow(i + 1, -1.1);
            sum += f[i];
        }
        for (int i = 0; i < f.length; i++) {
            f[i] /= sum;
        }
        return f;
    }

    static LocalReport report(LocalWorkload w, String device, long eventTime, byte[] payload) {
        return LocalReport.newBuilder().setWorkloadId(w.id()).setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(Math.floorDiv(eventTime, DAY))
                .setSequence(0).setEventTime(Instant.ofEpochMilli(eventTime))
                .setMechanism(w.spec().mechanism().wireName()).setEpsilon(w.spec().epsilonPerReport().value())
                .setPayload(ByteBuffer.wrap(payload)).setProtocolVersion(w.spec().protocolVersion()).build();
    }

    @Test
    void aZipfWindowReleasesItsTopItemsWithBarsAndTheThreshold() throws Exception {
        WorkloadSpec s = spec();
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(s);
        double[] truthShare = zipf();
        int n = 40000;
        int[] counts = new int[APPS.size()];
        SeededRandomBits secret = new SeededRandomBits(5);
        Random order = new Random(9);
        List<LocalReport> reports = new ArrayList<>();
        long[] state = new long[w.aggregateLength()];
        for (int i = 0; i < n; i++) {
            int k = 0;
            double u = (i + 0.5) / n;
            for (double c = truthShare[0]; u >= c && k < APPS.size() - 1; c += truthShare[++k]) {
                // the quantile of u: exactly ⌊n·f⌋ or ⌈n·f⌉ devices hold each app
            }
            counts[k]++;
            long t = T0 + 1000 + order.nextInt(40_000);
            byte[] payload = w.randomize(APPS.get(k), new ReportCoordinates("dev-" + i, Math.floorDiv(t, DAY), 0),
                    secret);
            LocalReport r = report(w, "dev-" + i, t, payload);
            reports.add(r);
            assertThat(w.accumulator().accumulate(payload, new ReportCoordinates(r.getDeviceId(), r.getPeriod(), 0),
                    state)).isTrue();
        }
        Answer expected = w.release(state, n);
        RecordSizes.Sizes sizes = RecordSizes.of(w);
        assertThat(sizes.overLimit(RecordSizes.MAX_RECORD_BYTES)).isNull();
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1)
                .applicationId("heavy-hitters-test").build(), T0)) {
            g.register(s, T0);
            for (int i = 0; i < reports.size(); i++) {
                g.send(reports.get(i), T0 + 41_000);
                if (i % 200 == 199) {
                    g.drainChangelogs();
                }
            }
            g.advance(Duration.ofSeconds(2));
            g.send(report(w, "next", T0 + GatewayTopologyTest.MINUTE + 15_000, new byte[] {1}),
                    T0 + GatewayTopologyTest.MINUTE + 15_000);
            g.advance(Duration.ofSeconds(2));
            assertThat(g.rejections.isEmpty()).isTrue();
            List<WindowAnswer> out = g.answers.readValuesToList();
            assertThat(out).hasSize(1);
            WindowAnswer a = out.get(0);
            assertThat(a.getFamily()).isEqualTo("heavy-hitters");
            assertThat(a.getMechanism()).isEqualTo("prefix-tree-sketch");
            assertThat(a.getN()).isEqualTo(n);
            assertThat(a.getEpsilon()).isEqualTo(4.0);
            assertThat(a.getLabels()).isEqualTo(expected.labels());
            assertThat(a.getLabels()).startsWith("mail", "maps", "camera");
            assertThat(a.getLabels()).isSubsetOf(APPS);
            assertThat(a.getLabels()).hasSizeLessThanOrEqualTo(HeavyHitterRelease.maxItems(
                    ((LocalWorkload.OpenDomain) w.values()).pipeline().protocol().parameters()));
            for (String label : a.getLabels()) {
                assertThat(label.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(8);
            }
            for (int q = 0; q < a.getLabels().size(); q++) {
                assertThat(a.getEstimates().get(q)).isEqualTo(expected.estimates()[q]);
                if (q > 0) {
                    assertThat(a.getEstimates().get(q)).isLessThanOrEqualTo(a.getEstimates().get(q - 1));
                }
            }
            for (int q = 0; q < 3; q++) { // the top three items' bars cover their true shares
                double truth = (double) counts[APPS.indexOf(a.getLabels().get(q))] / n;
                assertThat(a.getLower().get(q)).as(a.getLabels().get(q)).isLessThanOrEqualTo(truth);
                assertThat(a.getUpper().get(q)).as(a.getLabels().get(q)).isGreaterThanOrEqualTo(truth);
                assertThat(a.getUpper().get(q) - a.getLower().get(q)).isLessThan(0.1);
            }
            double threshold = a.getScalars().get("thresholdShare");
            assertThat(threshold).isEqualTo(expected.extras().scalars().get("thresholdShare")).isBetween(0.0, 0.1);
            assertThat(a.getScalars()).containsKeys(HeavyHitterRelease.SCALARS.toArray(String[]::new));
            assertThat(a.getScalars().get("itemsPublished")).isEqualTo((double) a.getLabels().size());
            assertThat(GatewayWideTest.size(a)).isLessThanOrEqualTo(sizes.answerBytes());
        }
    }

    @Test
    void hostilePayloadsAreRejectedWithAReasonAndCountedWithoutStoppingTheStream() throws InvalidValueException {
        WorkloadSpec s = spec();
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(s);
        SeededRandomBits secret = new SeededRandomBits(1);
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1)
                .applicationId("heavy-hitters-hostile").build(), T0)) {
            g.register(s, T0);
            long t = T0 + 5_000;
            int bits = ((LocalWorkload.OpenDomain) w.values()).pipeline().protocol().parameters().payloadBits();
            assertThat(bits).as("ε = 4 sends fewer than 8 bits, so some one-byte payloads are not symbols").isLessThan(8);
            g.send(report(w, "h1", t, new byte[] {(byte) (1 << bits)}), t); // one byte, the smallest non-symbol
            g.send(report(w, "h2", t, new byte[] {(byte) 0xFF}), t);
            g.send(report(w, "h3", t, new byte[] {0, 1}), t); // two bytes
            g.send(report(w, "h4", t, new byte[0]), t);
            for (int i = 0; i < 50; i++) {
                String device = "ok-" + i;
                g.send(report(w, device, t, w.randomize(APPS.get(i % 3), new ReportCoordinates(device,
                        Math.floorDiv(t, DAY), 0), secret)), t);
            }
            List<Rejection> rej = g.rejections.readValuesToList();
            assertThat(rej).extracting(Rejection::getReasonCode).containsOnly(RejectionReason.BAD_PAYLOAD).hasSize(4);
            assertThat(g.metrics.count("pgw.reports.rejected", "reason", "BAD_PAYLOAD", "workload", "top-apps"))
                    .isEqualTo(4);
            assertThat(g.metrics.count("pgw.reports.accepted", "workload", "top-apps")).isEqualTo(50);
            g.send(report(w, "late-window", T0 + GatewayTopologyTest.MINUTE + 15_000, new byte[] {0}),
                    T0 + GatewayTopologyTest.MINUTE + 15_000);
            g.advance(Duration.ofSeconds(2));
            List<WindowAnswer> out = g.answers.readValuesToList();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).getN()).isEqualTo(50);
            assertThat(out.get(0).getFamily()).isEqualTo("heavy-hitters");
        }
    }
}

package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.amplification.AmplificationBound;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 27 item 7, end to end: a valid local workload with a 1 s budget period, 16 reports per period and a one-day
 * horizon has k = 1,382,400 reports of one device in a daily span. The amplification bound refused k above 2²⁰, the
 * exception skipped every daily rollup (counted in {@code pgw.release.failed}). Now the rollup is published, with the
 * honest amplified figure for so many reports per device.
 */
class DailyRollupAmplificationTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long DAY = Duration.ofDays(1).toMillis();
    static final long HOUR = Duration.ofHours(1).toMillis();
    static final long D0 = 1_800_000_000_000L / DAY * DAY; // a day boundary: the daily span starts here

    static WorkloadSpec spec() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "daily-rollup");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mechanism", "grr");
        t.put("epsilonPerReport", 0.125);
        t.put("amplification", Map.of("delta", 1e-6));
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1s"));
        t.put("window", Map.of("size", "1h", "grace", "10s", "horizons", List.of("1d")));
        return WorkloadSpecParser.parse(t);
    }

    static LocalReport report(Workload w, LocalProtocol p, String device, long eventTime, int value,
            SeededRandomBits secret) {
        long period = Math.floorDiv(eventTime, 1000L); // the 1 s budget period
        byte[] payload = p.randomize(value, new ReportCoordinates(device, period, 0), secret);
        return LocalReport.newBuilder().setWorkloadId(w.spec().id()).setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(0)
                .setEventTime(Instant.ofEpochMilli(eventTime)).setMechanism(w.spec().mechanism().wireName())
                .setEpsilon(w.spec().epsilonPerReport().value()).setPayload(ByteBuffer.wrap(payload))
                .setProtocolVersion(w.spec().protocolVersion()).build();
    }

    @Test
    void theDailyRollupOfAOneSecondPeriodWorkloadIsPublished() {
        WorkloadSpec s = spec();
        Workload w = Workload.of(s);
        LocalProtocol protocol = LocalPipeline.of(w).protocol();
        SeededRandomBits secret = new SeededRandomBits(5);
        LocalWorkload resolved = (LocalWorkload) ResolvedWorkload.of(s);
        assertThat(resolved.maxReportsPerDeviceIn(DAY)).isEqualTo(1_382_400L);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (GatewayDriver g = new GatewayDriver(registry.client(),
                GatewayConfig.builder(1, 1).applicationId("daily-rollup")
                        .authentication(new io.privacygateway.topology.identity.DeviceAuthentication.Open(200)).build(), D0, new GatewayMetrics(meters))) {
            g.register(s, D0);
            for (int i = 0; i < 200; i++) {
                long t = D0 + 1000 + i;
                g.send(report(w, protocol, "d-" + i, t, i % 4, secret), t);
            }
            // a day passes; a report of the next day moves the stream past the first day's last window and its grace
            for (int h = 0; h < 24; h++) {
                g.advance(Duration.ofHours(1));
            }
            long next = D0 + DAY + 15_000;
            g.brokerTime.set(next);
            g.send(report(w, protocol, "later", next, 1, secret), next);
            g.advance(Duration.ofSeconds(2));
            assertThat(g.rejections.readValuesToList()).isEmpty();
            List<WindowAnswer> out = g.answers.readValuesToList();
            List<WindowAnswer> daily = out.stream().filter(a -> "PT24H".equals(a.getHorizon())).toList();
            assertThat(daily).as("the daily rollup").hasSize(1);
            WindowAnswer day = daily.get(0);
            assertThat(day.getN()).isEqualTo(200);
            assertThat(day.getWindowStart()).isEqualTo(Instant.ofEpochMilli(D0));
            assertThat(day.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(D0 + DAY));
            var expected = AmplificationBound.amplified(s.epsilonPerReport(), 200, 1_382_400, 1e-6);
            assertThat(day.getAmplified()).isNotNull();
            assertThat(day.getAmplified().getEpsilon()).isEqualTo(expected.epsilon())
                    .isLessThanOrEqualTo(1_382_400 * 0.125);
            assertThat(day.getEpsilon()).isEqualTo(0.125); // the local ε per report still holds
            // the hourly windows of the day are all answered as well
            assertThat(out.stream().filter(a -> a.getHorizon() == null
                    && a.getWindowStart().toEpochMilli() < D0 + DAY)).hasSize(24);
            assertThat(meters.find("pgw.release.failed").counters()).allSatisfy(c -> assertThat(c.count()).isZero());
        }
    }
}

package io.privacygateway.topology;

import static io.privacygateway.topology.GatewayTopologyTest.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.validate.RejectReason;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gateway's meters as an operator reads them: every one has a description (the {@code # HELP} line), devices'
 * spending is a histogram with fixed buckets (no client-side quantiles, which cannot be aggregated across instances),
 * and a shard's watermark-lag gauge disappears when its task is closed.
 */
class GatewayMetricsMetersTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();

    /** Uses every meter of {@link GatewayMetrics}. */
    static SimpleMeterRegistry everyMeter() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayMetrics m = new GatewayMetrics(meters);
        m.registeredIds(id -> id.equals("w"));
        m.centralCounts(true, b -> false);
        m.forWorkload("w", "local").accepted(1.0);
        m.forWorkload("w", "local").rejected(RejectReason.DUPLICATE);
        m.rejected(RejectReason.MALFORMED, "forged");
        m.published("w", "local");
        m.released("w", "local", 10, Duration.ofSeconds(2));
        m.cumulativeEpsilon("w", 3.0);
        m.watermarkLag("pgw.reports.local", 0, Duration.ofSeconds(5));
        m.discarded("w", "partial-after-release");
        m.deviceSpend("w", 0.5);
        m.releaseOverrun("w");
        m.releaseFailed("w");
        m.invalidWorkload();
        m.invalidPartial();
        m.releaseOverdue("w", Duration.ofSeconds(3));
        return meters;
    }

    @Test
    void everyMeterHasADescription() {
        SimpleMeterRegistry meters = everyMeter();
        Set<String> names = new TreeSet<>();
        for (Meter meter : meters.getMeters()) {
            if (meter.getId().getName().endsWith(".histogram") || meter.getId().getName().endsWith(".percentile")) {
                continue; // SimpleMeterRegistry's views of a distribution (Prometheus: part of the family)
            }
            names.add(meter.getId().getName());
            assertThat(meter.getId().getDescription()).as(meter.getId().getName()).isNotBlank();
        }
        assertThat(names).containsExactlyInAnyOrder("pgw.reports.accepted", "pgw.epsilon.charged",
                "pgw.reports.rejected", "pgw.answers.published", "pgw.window.reports", "pgw.release.latency",
                "pgw.central.cumulative.epsilon", "pgw.watermark.lag", "pgw.windows.discarded", "pgw.device.spend",
                "pgw.release.overrun", "pgw.release.failed", "pgw.workloads.invalid", "pgw.partials.invalid",
                "pgw.release.overdue");
    }

    @Test
    void deviceSpendIsAHistogramWithFixedBucketsAndNoQuantiles() {
        SimpleMeterRegistry meters = everyMeter();
        DistributionSummary spend = meters.find("pgw.device.spend").tag("budget", "w").summary();
        assertThat(spend).isNotNull();
        spend.record(3.0);
        spend.record(100.0); // beyond the last bucket: counted in +Inf only
        HistogramSnapshot snap = spend.takeSnapshot();
        assertThat(snap.percentileValues()).isEmpty();
        assertThat(Arrays.stream(snap.histogramCounts()).mapToDouble(CountAtBucket::bucket).toArray())
                .containsExactly(GatewayMetrics.DEVICE_SPEND_BUCKETS);
        assertThat(snap.count()).isEqualTo(3);
    }

    @Test
    void theWatermarkGaugeOfAClosedTaskIsRemoved() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayMetrics metrics = new GatewayMetrics(meters);
        WorkloadSpec s = GatewayTopologyTest.spec("oue");
        Workload w = Workload.of(s);
        LocalProtocol protocol = LocalPipeline.of(w).protocol();
        GatewayConfig cfg = GatewayConfig.builder(1, 1).applicationId("metrics-test").build();
        try (GatewayDriver g = new GatewayDriver(registry.client(), cfg, T0, metrics)) {
            g.register(s, T0);
            g.send(GatewayTopologyTest.report(w, protocol, "dev-1", 0, T0 + 1_000, 1, new SeededRandomBits(1)),
                    T0 + 1_000);
            g.advance(Duration.ofSeconds(2)); // a punctuation sets the shard's lag
            assertThat(meters.find("pgw.watermark.lag").tags("topic", cfg.localReportsTopic(), "partition", "0").gauge())
                    .isNotNull();
        } // closing the driver closes its tasks, as a revocation closes a task
        assertThat(meters.find("pgw.watermark.lag").gauges()).isEmpty();
        // a gateway that gets the partition back registers the gauge again
        metrics.watermarkLag(cfg.localReportsTopic(), 0, Duration.ofSeconds(1));
        assertThat(meters.find("pgw.watermark.lag").gauges()).hasSize(1);
    }

    @Test
    void aWorkloadThatStopsAnsweringIsOverdueAndItsGaugeGoesWithItsTask() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayMetrics metrics = new GatewayMetrics(meters);
        WorkloadSpec s = GatewayTopologyTest.spec("oue"); // 1-minute windows, 10 s grace
        GatewayConfig cfg = GatewayConfig.builder(1, 1).applicationId("overdue-test").build();
        try (GatewayDriver g = new GatewayDriver(registry.client(), cfg, T0, metrics)) {
            g.register(s, T0);
            for (int i = 0; i < 8; i++) { // 4 minutes: every window is answered (empty), none is late
                g.advance(Duration.ofSeconds(30));
            }
            assertThat(g.answers.readValuesToList()).isNotEmpty();
            double onTime = overdue(meters, s.id());
            assertThat(onTime).isLessThan(60);
            // the broker's clock is no longer readable: the watermark stalls and no window closes any more
            g.brokerReachable.set(false);
            for (int i = 0; i < 12; i++) {
                g.advance(Duration.ofSeconds(30));
            }
            assertThat(g.answers.readValuesToList()).isEmpty();
            assertThat(overdue(meters, s.id())).isGreaterThan(onTime + 180);
        } // its task closed (as in a revocation): this instance no longer reports the workload
        assertThat(meters.find("pgw.release.overdue").gauges()).isEmpty();
    }

    private static double overdue(SimpleMeterRegistry meters, String workload) {
        var gauge = meters.find("pgw.release.overdue").tag("workload", workload).gauge();
        assertThat(gauge).as("pgw.release.overdue of " + workload).isNotNull();
        return gauge.value();
    }
}

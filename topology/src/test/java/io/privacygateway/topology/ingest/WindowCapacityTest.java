package io.privacygateway.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.InMemoryTypedStore;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * 8.8: a Gaussian-sign window holds at most 2^27 reports exactly (its fixed-point sums could overflow beyond), and a
 * window with more was built and then failed to release. Each shard now refuses reports beyond its share of that
 * bound with {@code WINDOW_FULL}, before anything is charged, so every merged window releases; mechanisms with plain
 * counters have no such limit.
 */
class WindowCapacityTest {
    private static final long DAY = Duration.ofDays(1).toMillis();
    private static final long T0 = 1_800_000_000_000L / DAY * DAY;
    private static final int PARTITIONS = 2;

    private record Shard(ReportAdmission admission, InMemoryTypedStore<WindowKey, WindowAggregate> aggregates,
            InMemoryTypedStore<String, DeviceLedger> budgets, LocalWorkload workload) {}

    private static Shard shard(MechanismId mechanism) {
        WorkloadSpec spec = WorkloadSpec.builder().id("cap").version(1).family(QueryFamily.HISTOGRAM)
                .domain(new Domain.Labels(List.of("a", "b", "c"))).local(Epsilon.of(1)).mechanism(mechanism)
                .budget(Epsilon.of(4), Duration.ofDays(1)).window(Duration.ofHours(1), Duration.ofSeconds(10))
                .expectedReportsPerWindow(100_000).build();
        WorkloadCatalog catalog = new WorkloadCatalog();
        LocalWorkload w = (LocalWorkload) catalog.activate("cap", CanonicalForm.of(spec), CanonicalForm.contentHash(spec),
                T0).workload();
        GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
        InMemoryTypedStore<String, DeviceLedger> usages = new InMemoryTypedStore<String, DeviceLedger>(Comparator.<String>naturalOrder());
        InMemoryTypedStore<WindowKey, WindowAggregate> aggregates = new InMemoryTypedStore<>(
                Comparator.comparing(WindowKey::asString));
        ReportAdmission admission = new ReportAdmission(GatewayConfig.builder(PARTITIONS, PARTITIONS).build(),
                new ReportMode.LocalReports(null), catalog, metrics,
                new DeviceLedgers(usages, new InMemoryTypedStore<String, Long>(Comparator.<String>naturalOrder())), aggregates);
        return new Shard(admission, aggregates, usages, w);
    }

    /** A device id the default partitioner puts on partition 0 of {@value #PARTITIONS}. */
    private static String deviceOnPartitionZero() {
        for (int i = 0;; i++) {
            String id = "device-" + i;
            if (Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % PARTITIONS == 0) {
                return id;
            }
        }
    }

    private static boolean send(Shard s, String device) {
        long time = T0 + 1_000;
        LocalWorkload w = s.workload();
        ReportCoordinates c = new ReportCoordinates(device, T0 / DAY, 0);
        ReportView r = new ReportView("cap", 1, w.contentHash(), device, T0 / DAY, 0, time,
                w.spec().mechanism().wireName(), 1.0, w.protocol().randomize(1, c, new SeededRandomBits(3)), null);
        return s.admission().admit(device.getBytes(StandardCharsets.UTF_8), new RecordHeaders(), r, time + 5, T0, 0);
    }

    private static void fill(Shard s, long n) {
        String hash = s.workload().contentHash();
        s.aggregates().put(new WindowKey("cap", hash, T0), new WindowAggregate(hash, n,
                new long[s.workload().aggregateLength()]));
    }

    @Test
    void aGaussianSignWindowRefusesReportsBeyondThisShardsShareAndChargesNothing() {
        Shard s = shard(MechanismId.LOCAL_PROJECTION);
        long share = GaussianSignProtocol.MAX_REPORTS / PARTITIONS;
        assertThat(s.workload().maxReportsPerWindow()).isEqualTo(1L << 27);
        String device = deviceOnPartitionZero();

        fill(s, share);
        assertThat(send(s, device)).isFalse();
        assertThat(s.admission().reason()).isEqualTo(RejectReason.WINDOW_FULL);
        assertThat(s.admission().message()).contains(Long.toString(share)).contains("nothing was charged");
        assertThat(s.budgets().get(device)).isNull();

        fill(s, share - 1);
        assertThat(send(s, device)).as("the last report of the share still counts").isTrue();
        assertThat(s.aggregates().get(new WindowKey("cap", s.workload().contentHash(), T0)).n()).isEqualTo(share);
    }

    @Test
    void plainCountersHaveNoWindowLimit() {
        Shard s = shard(MechanismId.GRR);
        assertThat(s.workload().maxReportsPerWindow()).isEqualTo(Long.MAX_VALUE);
        fill(s, 1L << 40);
        assertThat(send(s, deviceOnPartitionZero())).isTrue();
    }
}

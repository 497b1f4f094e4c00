package io.privacygateway.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.budget.Charge;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.budget.PeriodKey;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
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
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The admission reuses the last window key and budget period of a workload, and one budget key per report for
 * reading and writing: reports that move between windows and periods and back still land in the right window
 * aggregate and the right budget entry, and a replay is still found.
 */
class ReportAdmissionKeysTest {
    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final long DAY = Duration.ofDays(1).toMillis();
    private static final long T0 = 1_800_000_000_000L / DAY * DAY;

    private final InMemoryTypedStore<String, DeviceLedger> usages = new InMemoryTypedStore<String, DeviceLedger>(
            Comparator.<String>naturalOrder());
    private final InMemoryTypedStore<WindowKey, WindowAggregate> aggregates = new InMemoryTypedStore<>(
            Comparator.comparing(WindowKey::asString));
    private LocalWorkload w;
    private ReportAdmission admission;
    private DeviceLedgers budgets;

    private void setUp() {
        WorkloadSpec spec = WorkloadSpec.builder().id("keys").version(1).family(QueryFamily.HISTOGRAM)
                .domain(new Domain.Labels(List.of("a", "b", "c"))).local(Epsilon.of(1)).mechanism(MechanismId.OUE)
                .budget(Epsilon.of(4), Duration.ofDays(1)).window(Duration.ofHours(1), Duration.ofSeconds(10))
                .expectedReportsPerWindow(1_000).build();
        WorkloadCatalog catalog = new WorkloadCatalog();
        w = (LocalWorkload) catalog.activate("keys", CanonicalForm.of(spec), CanonicalForm.contentHash(spec), T0)
                .workload();
        budgets = new DeviceLedgers(usages, new InMemoryTypedStore<String, Long>(Comparator.<String>naturalOrder()));
        admission = new ReportAdmission(GatewayConfig.builder(1, 1).build(), new ReportMode.LocalReports(null), catalog,
                new GatewayMetrics(new SimpleMeterRegistry()), budgets, aggregates);
    }

    private boolean send(String device, long time, int sequence) {
        long period = time / DAY;
        ReportCoordinates c = new ReportCoordinates(device, period, sequence);
        ReportView r = new ReportView("keys", 1, w.contentHash(), device, period, sequence, time,
                w.spec().mechanism().wireName(), 1.0, w.protocol().randomize(1, c, new SeededRandomBits(3)), null);
        return admission.admit(device.getBytes(StandardCharsets.UTF_8), new RecordHeaders(), r, time + 5, T0, 0);
    }

    private long n(long windowStart) {
        WindowAggregate a = aggregates.get(new WindowKey("keys", w.contentHash(), windowStart));
        return a == null ? 0 : a.n();
    }

    private Charge usage(String device, long periodIndex) {
        return budgets.ledger(device).find("keys", w.contentHash(), periodIndex * DAY);
    }

    @Test
    void reportsMovingBetweenWindowsAndPeriodsLandInTheirOwnEntries() {
        setUp();
        assertThat(send("d1", T0 + 1_000, 0)).isTrue();
        assertThat(send("d1", T0 + HOUR + 1_000, 1)).isTrue(); // next window, same period
        assertThat(send("d2", T0 + 2_000, 0)).isTrue(); // back to the first window
        assertThat(send("d1", T0 + DAY + 1_000, 0)).as("a new period: sequence 0 is free again").isTrue();
        assertThat(send("d1", T0 + 1_500, 1)).as("back in the first period: a replay").isFalse();
        assertThat(admission.reason()).isEqualTo(RejectReason.DUPLICATE);
        assertThat(send("d1", T0 + 1_500, 2)).isTrue();
        assertThat(send("d1", T0 + DAY + 2_000, 0)).as("the second period again: a replay").isFalse();
        assertThat(admission.reason()).isEqualTo(RejectReason.DUPLICATE);

        assertThat(n(T0)).isEqualTo(3);
        assertThat(n(T0 + HOUR)).isEqualTo(1);
        assertThat(n(T0 + DAY)).isEqualTo(1);
        assertThat(aggregates.size()).isEqualTo(3);

        long p0 = T0 / DAY;
        assertThat(usages.size()).as("one ledger per device").isEqualTo(2);
        assertThat(budgets.ledger("d1").charges()).hasSize(2);
        assertThat(usage("d1", p0).slotsUsed()).isEqualTo(3);
        assertThat(usage("d1", p0).usedSlot(0) && usage("d1", p0).usedSlot(1) && usage("d1", p0).usedSlot(2)).isTrue();
        assertThat(usage("d1", p0).epsilon()).isEqualByComparingTo(BigDecimal.valueOf(3));
        assertThat(usage("d1", p0 + 1).slotsUsed()).isEqualTo(1);
        assertThat(usage("d1", p0 + 1).epsilon()).isEqualByComparingTo(BigDecimal.ONE);
        assertThat(usage("d2", p0).slotsUsed()).isEqualTo(1);
        assertThat(usage("d2", p0).from()).isEqualTo(p0 * DAY);
        assertThat(usage("d2", p0).to()).isEqualTo((p0 + 1) * DAY);
        assertThat(budgets.ledger("d3").isEmpty()).as("an unseen device's ledger is empty").isTrue();
    }
}

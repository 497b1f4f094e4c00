package io.privacygateway.client.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.client.DeviceAdmission;
import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.InMemoryDeviceBudget;
import io.privacygateway.client.WorkloadBinding;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.ingest.DeviceLedgers;
import io.privacygateway.topology.ingest.ReportAdmission;
import io.privacygateway.topology.ingest.ReportMode;
import io.privacygateway.topology.state.TypedStore;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The device and the gateway run one budget-admission routine ({@code WorkloadRules.admit}): the device through
 * {@link DeviceAdmission} before a report leaves it, the gateway's ingest through {@link ReportAdmission} before a
 * report counts. Over generated workloads (local and central, budgets that are and are not whole multiples of the
 * charge, periods and windows of several lengths, contribution limits, a budget group smaller than the workload's own
 * budget) and generated report times, each side decides every report the device tries: a report the device admits the
 * gateway counts, and where the device refuses, the gateway refuses the report the device would have made (its next
 * slot) for the same reason.
 */
class DeviceAndGatewayAdmissionAgreeTest {
    private static final long T0 = 1_800_000_000_000L / 86_400_000L * 86_400_000L;
    private static final double[] EPSILONS = {0.1, 0.25, 0.3, 0.5, 1.0};
    private static final String[] PERIODS = {"1h", "6h", "1d"};
    private static final String[] WINDOWS = {"1m", "10m", "1h"};

    @Test
    void everyReportTheDeviceAdmitsTheGatewayCountsAndEveryRefusalIsShared() {
        int admitted = 0;
        int refused = 0;
        for (int seed = 0; seed < 150; seed++) {
            int[] counts = runCase(new SplittableRandom(seed), seed);
            admitted += counts[0];
            refused += counts[1];
        }
        // the generated cases reach both outcomes often
        assertThat(admitted).isGreaterThan(300);
        assertThat(refused).isGreaterThan(300);
    }

    /** One generated workload and device; returns {admitted, refused}. */
    private static int[] runCase(SplittableRandom rnd, int seed) {
        boolean central = rnd.nextBoolean();
        double eps = EPSILONS[rnd.nextInt(EPSILONS.length)];
        // a budget of k charges, sometimes with a remainder that pays for no further charge
        double budget = Math.round((eps * (1 + rnd.nextInt(5)) + (rnd.nextBoolean() ? 0.05 : 0)) * 100) / 100.0;
        String period = PERIODS[rnd.nextInt(PERIODS.length)];
        String window = WINDOWS[rnd.nextInt(WINDOWS.length)];
        boolean grouped = rnd.nextInt(3) == 0;
        String id = "agree-" + seed;
        StringBuilder yaml = new StringBuilder()
                .append("id: ").append(id).append("\nversion: 1\nfamily: histogram\n")
                .append("domain: {labels: [a, b, c]}\nexpectedReportsPerWindow: 1000\n")
                .append("budget: {epsilonPerPeriod: ").append(budget).append(", period: ").append(period);
        if (grouped) {
            yaml.append(", group: {name: g").append(seed).append(", epsilonPerPeriod: ")
                    .append(Math.max(eps, budget - eps)).append('}');
        }
        yaml.append("}\nwindow: {size: ").append(window).append(", grace: 2s}\n");
        if (central) {
            yaml.append("mode: central\nmechanism: laplace\ncentral: {epsilonPerRelease: ").append(eps)
                    .append(", neighbour: add-remove, contributionsPerWindow: ").append(1 + rnd.nextInt(3))
                    .append("}\n");
        } else {
            yaml.append("mechanism: grr\nepsilonPerReport: ").append(eps).append('\n');
        }
        WorkloadSpec spec = WorkloadFiles.parse(yaml.toString(), "generated case " + seed);
        WorkloadBinding device = WorkloadBinding.of(spec);
        WorkloadRules rules = device.rules();
        Gateway gateway = new Gateway(spec, T0);

        String deviceId = "device-" + seed;
        InMemoryDeviceBudget own = new InMemoryDeviceBudget();
        long retention = 31L * 86_400_000L;
        DeviceAdmission.joinGroup(own, rules, T0, retention);
        int[] counts = new int[2];
        long t = T0 + rnd.nextLong(60_000);
        int attempts = 5 + rnd.nextInt(20);
        for (int i = 0; i < attempts; i++) {
            DeviceLedger ledger = DeviceAdmission.current(own, t, retention);
            DeviceAdmission.Decision d = DeviceAdmission.admit(ledger, rules, deviceId, t);
            if (d instanceof DeviceAdmission.Admitted a) {
                own.record(a.updated());
                DeviceReport r = report(device, a.coordinates(), t);
                assertThat(gateway.admit(r, t)).as("case %s, attempt %s: the device admitted %s; gateway: %s", seed,
                        i, a.coordinates(), gateway.admission(spec).message()).isTrue();
                counts[0]++;
            } else {
                DeviceAdmission.Refused r = (DeviceAdmission.Refused) d;
                int slot = rules.nextSlot(ledger, t);
                var c = new ReportCoordinates(deviceId, rules.periodOf(t).index(),
                        Math.min(slot, rules.slots() - 1));
                if (slot < rules.slots()) { // a slot out of range is refused by the gateway's validation first
                    assertThat(gateway.admit(report(device, c, t), t))
                            .as("case %s, attempt %s: the device refused (%s)", seed, i, r.reason()).isFalse();
                    assertThat(gateway.admission(spec).reason()).isEqualTo(RejectReason.valueOf(r.reason().name()));
                }
                counts[1]++;
            }
            t += rnd.nextInt(4) == 0 ? rnd.nextLong(3 * 3_600_000L) : rnd.nextLong(120_000);
        }
        return counts;
    }

    private static DeviceReport report(WorkloadBinding w, ReportCoordinates c,
            long t) {
        try {
            return w.report("b", c, t, new SeededRandomBits(t));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** One gateway shard (partition 0 of 1) running the ingest's admission of both modes without Kafka. */
    private static final class Gateway {
        final ReportAdmission local;
        final ReportAdmission central;

        Gateway(WorkloadSpec spec, long since) {
            WorkloadCatalog catalog = new WorkloadCatalog();
            catalog.activate(spec.id(), CanonicalForm.of(spec), CanonicalForm.contentHash(spec), since);
            GatewayConfig config = GatewayConfig.builder(1, 1).build();
            GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
            DeviceLedgers ledgers = new DeviceLedgers(new MapStore<>(), new MapStore<>());
            MapStore<WindowKey, WindowAggregate> aggregates = new MapStore<>();
            local = new ReportAdmission(config, new ReportMode.LocalReports(null), catalog, metrics, ledgers,
                    aggregates);
            central = new ReportAdmission(config, new ReportMode.CentralReports(null), catalog, metrics, ledgers,
                    aggregates);
        }

        ReportAdmission admission(WorkloadSpec spec) {
            return spec.mode() == Mode.LOCAL ? local : central;
        }

        boolean admit(DeviceReport r, long appendTime) {
            ReportView v = new ReportView(r.workloadId(), r.workloadVersion(), r.contentHash(), r.deviceId(),
                    r.period(), r.sequence(), r.eventTime(), r.mechanism(), r.epsilon(), r.payload(), r.value(),
                    r.protocolVersion());
            ReportAdmission a = r.kind() == DeviceReport.Kind.LOCAL ? local : central;
            return a.admit(r.deviceId().getBytes(StandardCharsets.UTF_8), new RecordHeaders(), v, appendTime,
                    appendTime - 1_000, 0);
        }
    }

    /** A typed store on a sorted map (the shard's state stores without RocksDB). */
    private static final class MapStore<K, V> implements TypedStore<K, V> {
        private final TreeMap<K, V> map = new TreeMap<>(Comparator.comparing(Object::toString));

        @Override
        public V get(K key) {
            return map.get(key);
        }

        @Override
        public void put(K key, V value) {
            map.put(key, value);
        }

        @Override
        public void markDirty(K key) {}

        @Override
        public void delete(K key) {
            map.remove(key);
        }

        @Override
        public void forEach(BiConsumer<K, V> visitor) {
            map.forEach(visitor);
        }

        @Override
        public int range(K from, K to, int limit, BiConsumer<K, V> visitor) {
            int n = 0;
            for (var e : (to == null ? map.tailMap(from, true) : map.subMap(from, true, to, false)).entrySet()) {
                if (n++ >= limit) {
                    break;
                }
                visitor.accept(e.getKey(), e.getValue());
            }
            return Math.min(n, limit);
        }
    }
}

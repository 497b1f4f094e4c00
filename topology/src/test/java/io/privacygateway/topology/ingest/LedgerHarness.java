package io.privacygateway.topology.ingest;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.budget.DeviceLedgerCodec;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.InMemoryTypedStore;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.workload.Registration;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The gateway's admission path as the topology runs it, without Kafka: one catalog, the local and the central
 * {@link ReportAdmission} of one shard sharing one {@link DeviceLedgers} (as the two ingest processors share the
 * ledger stores), the sweep that forgets charges ({@link LedgerCutoffs}), and a restart that re-reads every
 * ledger from its stored bytes. Used by the ledger regression tests and the state-machine test.
 */
final class LedgerHarness {
    static final long T0 = 1_800_000_000_000L / 86_400_000L * 86_400_000L;

    final WorkloadCatalog catalog = new WorkloadCatalog();
    private final GatewayConfig config = GatewayConfig.builder(1, 1).build();
    private final GatewayMetrics metrics = new GatewayMetrics(new SimpleMeterRegistry());
    private InMemoryTypedStore<String, DeviceLedger> ledgerStore = new InMemoryTypedStore<>(Comparator.<String>naturalOrder());
    private InMemoryTypedStore<String, Long> forgottenStore = new InMemoryTypedStore<>(Comparator.<String>naturalOrder());
    private final InMemoryTypedStore<WindowKey, WindowAggregate> aggregates = new InMemoryTypedStore<>(
            Comparator.comparing(WindowKey::asString));
    DeviceLedgers ledgers;
    private ReportAdmission local;
    private ReportAdmission central;
    private final Map<String, Integer> versions = new LinkedHashMap<>();
    /** The shard's clock: reports arrive at it; the watermark trails it by {@link #SLACK}. */
    long now = T0;
    static final long SLACK = 1_000;
    RejectReason lastReason;
    String lastMessage;

    LedgerHarness() {
        restart();
    }

    /** A workload tree with the given fields (a workload file as YAML would give it). */
    static Map<String, Object> spec(String id, Mode mode, double epsilon, double budget, String period, String window,
            String group, Double groupBudget, int contributions) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c")));
        t.put("expectedReportsPerWindow", 1000);
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("epsilonPerPeriod", budget);
        b.put("period", period);
        if (group != null) {
            b.put("group", Map.of("name", group, "epsilonPerPeriod", groupBudget));
        }
        t.put("budget", b);
        t.put("window", Map.of("size", window, "grace", "2s"));
        if (mode == Mode.LOCAL) {
            t.put("mechanism", "grr");
            t.put("epsilonPerReport", epsilon);
        } else {
            t.put("mode", "central");
            t.put("mechanism", "laplace");
            t.put("central", Map.of("epsilonPerRelease", epsilon, "neighbour", "add-remove", "contributionsPerWindow",
                    contributions));
        }
        return t;
    }

    /** Registers the next version of {@code tree}'s workload, active from now. */
    ResolvedWorkload register(Map<String, Object> tree) {
        String id = (String) tree.get("id");
        Map<String, Object> t = new LinkedHashMap<>(tree);
        int v = versions.merge(id, 1, Integer::sum);
        t.put("version", v);
        WorkloadSpec spec = WorkloadSpecParser.parse(t);
        Registration r = catalog.activate(id, CanonicalForm.of(spec), CanonicalForm.contentHash(spec), now);
        return r.workload();
    }

    void delete(String id) {
        catalog.delete(id, now);
    }

    long watermark() {
        return now - SLACK;
    }

    /** A report of the current version of {@code id} by {@code device} at event time {@code t}, slot {@code slot}. */
    boolean send(String device, String id, long t, int slot) {
        Registration reg = catalog.current(id);
        if (reg == null) {
            lastReason = RejectReason.UNKNOWN_WORKLOAD;
            return false;
        }
        ResolvedWorkload w = reg.workload();
        long period = w.spec().budget().periodOf(t);
        ReportView r;
        if (w instanceof LocalWorkload l) {
            byte[] payload = l.protocol().randomize(0, new ReportCoordinates(device, period, slot),
                    new SeededRandomBits(t ^ slot));
            r = new ReportView(id, w.spec().version(), w.contentHash(), device, period, slot, t,
                    w.spec().mechanism().wireName(), w.spec().epsilonPerReport().value(), payload, null);
        } else {
            r = new ReportView(id, w.spec().version(), w.contentHash(), device, period, slot, t, null, Double.NaN, null,
                    "a");
        }
        ReportAdmission a = w.mode() == Mode.LOCAL ? local : central;
        boolean ok = a.admit(device.getBytes(StandardCharsets.UTF_8), new RecordHeaders(), r, now, watermark(), 0);
        lastReason = ok ? null : a.reason();
        lastMessage = ok ? null : a.message();
        return ok;
    }

    /** Advances the shard's clock and runs one sweep of the ledgers (both modes' watermarks move together). */
    int advance(long millis) {
        now += millis;
        return ledgers.sweep(LedgerCutoffs.of(catalog, m -> watermark()), Integer.MAX_VALUE, c -> { });
    }

    /** A restart: every ledger and forgotten time re-read from its stored form, fresh admission objects. */
    void restart() {
        InMemoryTypedStore<String, DeviceLedger> l = new InMemoryTypedStore<>(Comparator.<String>naturalOrder());
        ledgerStore.forEach((k, v) -> l.put(k, DeviceLedgerCodec.decode(DeviceLedgerCodec.encode(v))));
        InMemoryTypedStore<String, Long> f = new InMemoryTypedStore<>(Comparator.<String>naturalOrder());
        forgottenStore.forEach(f::put);
        ledgerStore = l;
        forgottenStore = f;
        ledgers = new DeviceLedgers(ledgerStore, forgottenStore);
        local = new ReportAdmission(config, new ReportMode.LocalReports(null), catalog, metrics, ledgers, aggregates);
        central = new ReportAdmission(config, new ReportMode.CentralReports(null), catalog, metrics, ledgers,
                aggregates);
    }

    DeviceLedger ledger(String device) {
        return ledgers.ledger(device);
    }

    static long hours(double h) {
        return (long) (h * 3_600_000L);
    }

    static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}

package io.privacygateway.benchmarks;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.wire.WireFormat;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.ingest.DeviceLedgers;
import io.privacygateway.topology.ingest.ReportAdmission;
import io.privacygateway.topology.ingest.ReportMode;
import io.privacygateway.topology.state.InMemoryTypedStore;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The gateway's per-report path without Kafka Streams' plumbing: decode the wire format, validate, admit
 * against the device's budget in exact ε, add to the window's aggregate ({@link ReportAdmission} over in-memory
 * typed stores, exactly the code the stream runs). {@code decode} measures the decoding alone (the decoded
 * record is the allocation the path cannot avoid), {@code admit} the rest on pre-decoded reports, {@code path}
 * both.
 *
 * <p>{@code devices = new}: every report is from a device not seen in the current round (the worst case: a budget
 * entry is created for every report). {@code devices = known}: every report is a device's second report of the
 * period (sequence 1; the budget pays for two), so its budget entry exists and is replaced; before the first
 * round each device's first report is admitted (untimed), and after each round of {@value #CORPUS} reports the
 * devices' first-report usages are put back (100,000 puts of existing keys inside the timed call that ends the
 * round: no allocation, a few ns per report) and the window aggregate is dropped (one new aggregate per round).
 * Run {@code java -jar benchmarks/target/benchmarks.jar ReportPath -prof gc} for allocations per report
 * ({@code gc.alloc.rate.norm}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class ReportPathBenchmark {
    static final long T0 = 1_800_000_000_000L;
    static final int CORPUS = 100_000;
    static final String TOPIC = "pgw.reports.local";

    /** The mechanism and the answer dimension m (histogram over m labels). */
    @Param({"projection:64", "projection:1024", "oue:64"})
    public String workload;

    /** Whether every report opens a device's budget entry ({@code new}) or replaces an existing one ({@code known}). */
    @Param({"new", "known"})
    public String devices;

    private HttpServer registry;
    private AvroDeserializer<LocalReport> deserializer;
    private ReportMode.LocalReports mode;
    private WorkloadCatalog catalog;
    private GatewayMetrics metrics;
    private GatewayConfig config;
    private byte[][] wire;
    private byte[][] keys;
    private ReportView[] decoded;
    private ReportAdmission admission;
    private boolean known;
    private ReportView[] first;
    private InMemoryTypedStore<String, DeviceLedger> usages;
    private InMemoryTypedStore<WindowKey, WindowAggregate> aggregates;
    private String[] primedKeys;
    private DeviceLedger[] primedUsages;
    private WindowKey primedWindow;
    private int next;
    private final RecordHeaders headers = new RecordHeaders();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        String[] parts = workload.split(":");
        int m = Integer.parseInt(parts[1]);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            labels.add("v" + i);
        }
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "bench");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", labels));
        t.put("mechanism", parts[0]);
        t.put("epsilonPerReport", 1.0);
        known = devices.equals("known");
        t.put("budget", Map.of("epsilonPerPeriod", known ? 2.0 : 1.0, "period", "1d")); // known: two reports
        t.put("window", Map.of("size", "1h", "grace", "10s"));
        t.put("expectedReportsPerWindow", 100_000);
        WorkloadSpec spec = WorkloadSpecParser.parse(t);
        catalog = new WorkloadCatalog();
        LocalWorkload w = (LocalWorkload) catalog.activate("bench", CanonicalForm.of(spec), CanonicalForm.contentHash(spec),
                T0).workload();
        registry = fakeRegistry();
        SchemaRegistryClient client = SchemaRegistryClient.forUrl("http://127.0.0.1:" + registry.getAddress().getPort());
        deserializer = new AvroDeserializer<>(LocalReport.class, client);
        mode = new ReportMode.LocalReports(deserializer);
        config = GatewayConfig.builder(1, 1).build();
        metrics = new GatewayMetrics(new SimpleMeterRegistry());
        metrics.registeredIds(id -> catalog.current(id) != null);
        wire = new byte[CORPUS][];
        keys = new byte[CORPUS][];
        decoded = new ReportView[CORPUS];
        first = new ReportView[CORPUS];
        SeededRandomBits secret = new SeededRandomBits(7);
        long period = T0 / 86_400_000L;
        for (int i = 0; i < CORPUS; i++) {
            String device = onPartitionZero(i);
            long time = T0 + 1_000 + i;
            if (known) {
                first[i] = mode.decode(TOPIC, WireFormat.encode(1, report(w, spec, device, period, 0, time, i % m,
                        secret)));
            }
            wire[i] = WireFormat.encode(1, report(w, spec, device, period, known ? 1 : 0, time, i % m, secret));
            keys[i] = device.getBytes(StandardCharsets.UTF_8);
            decoded[i] = mode.decode(TOPIC, wire[i]);
        }
        freshState();
        if (known) {
            for (int i = 0; i < CORPUS; i++) { // the devices' first reports, untimed
                if (!admission.admit(keys[i], headers, first[i], T0 + 2_000 + i, T0, 0)) {
                    throw new IllegalStateException("a first report was refused: " + admission.reason());
                }
            }
            primedKeys = new String[CORPUS];
            primedUsages = new DeviceLedger[CORPUS];
            int[] n = {0};
            usages.forEach((k, u) -> {
                primedKeys[n[0]] = k;
                primedUsages[n[0]++] = u;
            });
            primedWindow = new WindowKey("bench", w.contentHash(), w.window().startOf(T0 + 1_000));
            for (int round = 0; round < 2; round++) { // check, untimed, that every timed report will be admitted
                rewind();
                for (int i = 0; i < CORPUS; i++) {
                    if (!admission.admit(keys[i], headers, decoded[i], T0 + 2_000 + i, T0, 0)) {
                        throw new IllegalStateException("a second report was refused: " + admission.reason());
                    }
                }
            }
            rewind();
        }
    }

    private static LocalReport report(LocalWorkload w, WorkloadSpec spec, String device, long period, int sequence,
            long time, int value, SeededRandomBits secret) {
        ReportCoordinates c = new ReportCoordinates(device, period, sequence);
        return LocalReport.newBuilder().setWorkloadId("bench").setWorkloadVersion(1)
                .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(sequence)
                .setEventTime(Instant.ofEpochMilli(time)).setMechanism(spec.mechanism().wireName())
                .setEpsilon(spec.epsilonPerReport().value())
                .setPayload(ByteBuffer.wrap(w.protocol().randomize(value, c, secret)))
                .setProtocolVersion(spec.protocolVersion()).build();
    }

    /** Device ids that the default partitioner puts on partition 0 of 1: every id. */
    private static String onPartitionZero(int i) {
        return "device-" + i;
    }

    private void freshState() {
        usages = new InMemoryTypedStore<>(Comparator.<String>naturalOrder());
        DeviceLedgers budgets = new DeviceLedgers(usages, new InMemoryTypedStore<String, Long>(Comparator.<String>naturalOrder()));
        aggregates = new InMemoryTypedStore<>(Comparator.comparing(WindowKey::asString));
        admission = new ReportAdmission(config, mode, catalog, metrics, budgets, aggregates);
        next = 0;
    }

    /** Known devices: every device back at its first report's usage, and no window aggregate yet. */
    private void rewind() {
        for (int i = 0; i < CORPUS; i++) {
            usages.put(primedKeys[i], primedUsages[i]); // existing keys: the values are replaced
        }
        aggregates.delete(primedWindow);
        next = 0;
    }

    private int nextIndex() {
        if (next == CORPUS) {
            if (known) {
                rewind();
            } else {
                freshState();
            }
        }
        return next++;
    }

    @Benchmark
    public ReportView decode() {
        int i = nextIndex();
        return mode.decode(TOPIC, wire[i]);
    }

    @Benchmark
    public boolean admit() {
        int i = nextIndex();
        return admission.admit(keys[i], headers, decoded[i], T0 + 2_000 + i, T0, 0);
    }

    @Benchmark
    public boolean path() {
        int i = nextIndex();
        return admission.admit(keys[i], headers, mode.decode(TOPIC, wire[i]), T0 + 2_000 + i, T0, 0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        registry.stop(0);
    }

    /** A registry that knows one schema: the local report's, id 1, under the topic's subject. */
    private static HttpServer fakeRegistry() throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        String schema = LocalReport.getClassSchema().toString().replace("\\", "\\\\").replace("\"", "\\\"");
        s.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            String body;
            if (path.endsWith("/versions")) {
                body = "[1]";
            } else if (path.contains("/versions/")) {
                body = "{\"subject\":\"" + TOPIC + "-value\",\"version\":1,\"id\":1,\"schema\":\"" + schema + "\"}";
            } else {
                body = "{\"schema\":\"" + schema + "\"}";
            }
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        });
        s.start();
        return s;
    }
}

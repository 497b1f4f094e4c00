package io.privacygateway.benchmarks.commands;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.harness.registry.EmbeddedRegistry;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.WorkloadSpecRecords;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.release.CentralReleaser;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.TimeWindows;

/**
 * {@code bench throughput}: on an in-JVM KRaft broker with a real schema registry, in one run and on the
 * same pre-produced report topic: a plain Kafka Streams windowed {@code count()} (at-least-once, Kafka
 * Streams' default, and exactly-once for reference) and the gateway (exactly-once) at m = 64 and
 * m = 1024. Throughput is measured in steady state, over the last 80% of the records (start-up, rebalances and
 * the first JIT compilation excluded); a
 * live phase then measures the latency from window end + grace (wall clock) to the answer reaching a
 * {@code read_committed} consumer, in steady state: the gateway starts cold with the traffic, the windows of the first
 * {@link #LIVE_WARMUP_SECONDS} are reported apart (how long a cold start takes to catch up), the following ones make the
 * percentiles. Figures only: nothing here passes or fails on timing.
 */
public final class ThroughputBenchmark {
    /** One measured system. */
    public record Result(String system, long records, double seconds) {
        public double perSecond() {
            return records / seconds;
        }
    }

    /**
     * The latency of answers in the live phase.
     *
     * @param answers the windows measured in steady state (after the warm-up)
     * @param each every steady-state window's latency in ms, in arrival order
     * @param coldStart the latency in ms of every window that closed during the warm-up after a cold start, in order
     */
    public record Latency(int answers, double p50ms, double p99ms, double reportsPerSecond, List<Double> each,
            List<Double> coldStart) {}

    /** Seconds of traffic after the gateway's cold start whose windows are reported apart from the steady state. */
    public static final int LIVE_WARMUP_SECONDS = 30;

    private final int partitions;
    private final int threads;
    private long commitIntervalMs = GatewayService.DEFAULT_COMMIT_INTERVAL_MS;
    private int rounds = 3;

    /** How many alternating rounds of baseline and gateway to run (medians are reported). */
    public ThroughputBenchmark rounds(int r) {
        this.rounds = Math.max(1, r);
        return this;
    }

    private static Result median(List<Result> rs) {
        List<Result> sorted = new ArrayList<>(rs);
        sorted.sort(Comparator.comparingDouble(Result::perSecond));
        Result m = sorted.get(sorted.size() / 2);
        return new Result(m.system() + " [median of " + rs.size() + "]", m.records(), m.seconds());
    }

    private static GatewaySettings withApplicationId(GatewaySettings s, String app) {
        return new GatewaySettings(s.bootstrapServers(), s.schemaRegistryUrl(),
                s.gateway().toBuilder().applicationId(app).build(), s.replicationFactor(), s.streamThreads(),
                s.stateDir().resolveSibling(app), s.processingGuarantee(), s.kafkaProperties(), s.registryProperties());
    }

    /** The gateway's Kafka Streams commit interval (default: the gateway's default). */
    public ThroughputBenchmark commitInterval(long ms) {
        this.commitIntervalMs = ms;
        return this;
    }
    private final Consumer<String> log;

    public ThroughputBenchmark(int partitions, int threads, Consumer<String> log) {
        this.partitions = partitions;
        this.threads = threads;
        this.log = log;
    }

    static WorkloadSpec histogram(String id, int k) {
        return histogram(id, k, "1s", "500ms");
    }

    /**
     * A histogram workload released by local projection (Gaussian-sign, m = k). The throughput phases use a
     * long grace: reports are produced as a backlog, so their append times trail their event times and a
     * short grace would (correctly) reject many of them as late.
     */
    static WorkloadSpec histogram(String id, int k, String size, String grace) {
        Map<String, Object> t = histogramTree(id, k, size, grace);
        t.put("mechanism", "projection");
        t.put("epsilonPerReport", 1.0);
        return WorkloadSpecParser.parse(t);
    }

    /** The central-mode counterpart of {@link #histogram(String, int, String, String)}: Laplace, add/remove, L = 1. */
    static WorkloadSpec centralHistogram(String id, int k, String size, String grace) {
        Map<String, Object> t = histogramTree(id, k, size, grace);
        t.put("mode", "central");
        t.put("mechanism", "laplace");
        t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 1));
        return WorkloadSpecParser.parse(t);
    }

    /** What both modes' benchmark workloads share: k labels, one charge of ε = 1 per day, the window. */
    private static Map<String, Object> histogramTree(String id, int k, String size, String grace) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            labels.add("v" + i);
        }
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", labels));
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"));
        t.put("window", Map.of("size", size, "grace", grace));
        t.put("expectedReportsPerWindow", 100_000);
        return t;
    }

    /** The live latency phase alone (m = 64). */
    public Latency latencyOnly(int liveSeconds, int liveRate) throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start(); EmbeddedRegistry registry = EmbeddedRegistry.start()) {
            SchemaRegistryClient client = SchemaRegistryClient.forUrl(registry.ccompatUrl());
            Path state = Files.createTempDirectory("pgw-bench-state");
            GatewaySettings live = registered(kafka, registry, client, "live.", "bench-gateway-live", state,
                    histogram("bench64", 64));
            return latency(kafka, client, live, histogram("bench64", 64), liveSeconds, liveRate);
        }
    }

    /** Runs everything; returns the throughput results and the live latency. */
    public List<Object> run(int reports64, int reports1024, int liveSeconds, int liveRate) throws Exception {
        List<Object> out = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(); EmbeddedRegistry registry = EmbeddedRegistry.start()) {
            SchemaRegistryClient client = SchemaRegistryClient.forUrl(registry.ccompatUrl());
            Path state = Files.createTempDirectory("pgw-bench-state");
            // m = 64
            WorkloadSpec w64 = histogram("bench64", 64, "10s", "10m");
            GatewaySettings s64 = registered(kafka, registry, client, "b64.", "bench-gateway-64", state, w64);
            // every gateway run below is a deployment of its own (a fresh application id): each first starts before
            // the reports are produced, as a deployment that has been running when its reports arrive
            GatewayService.guardPartitionCounts(withApplicationId(s64, "bench-gateway-64-warmup"));
            for (int round = 0; round < rounds; round++) {
                GatewayService.guardPartitionCounts(withApplicationId(s64, "bench-gateway-64-" + round));
            }
            log.accept("producing " + reports64 + " reports (m = 64)…");
            produce(kafka, client, s64.gateway().localReportsTopic(), w64, reports64);
            log.accept("warm-up runs of both systems (not reported)…");
            plainCount(kafka, s64.gateway().localReportsTopic(), reports64, "at_least_once", state, "warmup");
            gateway(withApplicationId(s64, "bench-gateway-64-warmup"), reports64, "gateway m=64 (exactly-once)");
            // both baselines and the gateway alternate, rounds times each, on the same topic (the machine warms up
            // over the run, so every system must see every stage of it); medians are reported
            List<Result> plain = new ArrayList<>();
            List<Result> plainEos = new ArrayList<>();
            List<Result> gw = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                plain.add(plainCount(kafka, s64.gateway().localReportsTopic(), reports64, "at_least_once", state,
                        "-" + round));
                plainEos.add(plainCount(kafka, s64.gateway().localReportsTopic(), reports64, "exactly_once_v2", state,
                        "-" + round));
                gw.add(gateway(withApplicationId(s64, "bench-gateway-64-" + round), reports64,
                        "gateway m=64 (exactly-once)"));
                double faster = Math.max(plain.get(round).perSecond(), plainEos.get(round).perSecond());
                log.accept(String.format(Locale.ROOT, "  round %d: gateway / faster plain count = %.2f", round + 1,
                        gw.get(round).perSecond() / faster));
            }
            out.add(median(plain));
            out.add(median(plainEos));
            out.add(median(gw));
            // central mode, 64 labels: the gateway against a plain count of the same central topic
            WorkloadSpec c64 = centralHistogram("benchc64", 64, "10s", "10m");
            GatewaySettings sc = registered(kafka, registry, client, "bc64.", "bench-gateway-central", state, c64);
            log.accept("producing " + reports64 + " central reports (64 labels)…");
            produceCentral(kafka, client, sc.gateway().centralReportsTopic(), c64, reports64);
            out.add(plainCount(kafka, sc.gateway().centralReportsTopic(), reports64, "at_least_once", state, "-central"));
            out.add(gateway(sc, reports64, "gateway central, 64 labels, laplace (exactly-once)"));
            // m = 1024
            WorkloadSpec w1024 = histogram("bench1024", 1024, "10s", "10m");
            GatewaySettings s1024 = registered(kafka, registry, client, "b1024.", "bench-gateway-1024", state, w1024);
            log.accept("producing " + reports1024 + " reports (m = 1024)…");
            produce(kafka, client, s1024.gateway().localReportsTopic(), w1024, reports1024);
            out.add(gateway(s1024, reports1024, "gateway m=1024 (exactly-once)"));
            // live latency (m = 64)
            GatewaySettings live = registered(kafka, registry, client, "live.", "bench-gateway-live", state,
                    histogram("bench64", 64));
            out.add(latency(kafka, client, live, histogram("bench64", 64), liveSeconds, liveRate));
        }
        return out;
    }

    private GatewaySettings settings(EmbeddedKafka kafka, EmbeddedRegistry registry, String prefix, String app, Path state) {
        GatewayConfig g = GatewayConfig.builder(partitions, partitions).topicPrefix(prefix).applicationId(app)
                .watermarkSlack(Duration.ofMillis(500))
                .exactCentralCounts(true) // progress is read from the accepted counters, central ones included
                .build();
        return new GatewaySettings(kafka.bootstrapServers(), registry.ccompatUrl(), g, (short) 1, threads,
                state.resolve(app), "exactly_once_v2", Map.of("commit.interval.ms", Long.toString(commitIntervalMs)),
                Map.of());
    }

    /**
     * A gateway's settings ({@link #settings}) with its topics created, its deployment's first start recorded and
     * {@code spec} registered on its workloads topic: what every system of the benchmark needs before reports are
     * produced. Recording the first start matters: a deployment never answers windows from before it (nor charges
     * budgets for them), so reports produced before it would all be rejected {@code NOT_ACTIVE} and the benchmark
     * would time the rejection path. Blocks until the registration is acknowledged.
     */
    private GatewaySettings registered(EmbeddedKafka kafka, EmbeddedRegistry registry, SchemaRegistryClient client,
            String prefix, String app, Path state, WorkloadSpec spec) throws Exception {
        GatewaySettings s = settings(kafka, registry, prefix, app, state);
        GatewayService.ensureTopics(s);
        GatewayService.guardPartitionCounts(s);
        register(kafka, client, s.gateway().workloadsTopic(), spec);
        return s;
    }

    private static void register(EmbeddedKafka kafka, SchemaRegistryClient client, String topic, WorkloadSpec spec)
            throws Exception {
        try (KafkaProducer<String, WorkloadSpecRecord> p = new KafkaProducer<>(producerProps(kafka),
                new StringSerializer(), new AvroSerializer<>(client))) {
            p.send(new ProducerRecord<>(topic, spec.id(), WorkloadSpecRecords.toRecord(spec))).get();
        }
    }

    private static Properties producerProps(EmbeddedKafka kafka) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        return p;
    }

    /** Produces n reports of distinct devices with event time = now (the devices' clock). */
    private static void produce(EmbeddedKafka kafka, SchemaRegistryClient client, String topic, WorkloadSpec spec,
            int n) throws Exception {
        Workload w = Workload.of(spec);
        LocalProtocol protocol = LocalPipeline.of(w).protocol();
        AvroSerializer<LocalReport> ser = new AvroSerializer<>(client);
        int[] values = ReferenceData.ZIPF.stratified(w.universeSize(), n);
        SeededRandomBits secret = new SeededRandomBits(1);
        long period = Math.floorDiv(System.currentTimeMillis(), spec.budget().period().toMillis());
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerProps(kafka), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < n; i++) {
                String device = "device-" + i;
                long now = System.currentTimeMillis();
                byte[] payload = protocol.randomize(values[i], new ReportCoordinates(device, period, 0), secret);
                LocalReport r = LocalReport.newBuilder().setWorkloadId(spec.id()).setWorkloadVersion(spec.version())
                        .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(0)
                        .setEventTime(Instant.ofEpochMilli(now)).setMechanism(spec.mechanism().wireName())
                        .setEpsilon(spec.epsilonPerReport().value()).setPayload(ByteBuffer.wrap(payload))
                        .setProtocolVersion(spec.protocolVersion()).build();
                p.send(new ProducerRecord<>(topic, device.getBytes(), ser.serialize(topic, r)));
            }
            p.flush();
        }
    }

    /** Produces n central reports (raw labels) of distinct devices with event time = now. */
    private static void produceCentral(EmbeddedKafka kafka, SchemaRegistryClient client, String topic,
            WorkloadSpec spec, int n) throws Exception {
        Workload w = Workload.of(spec);
        List<String> labels = w.universeLabels();
        AvroSerializer<CentralReport> ser = new AvroSerializer<>(client);
        int[] values = ReferenceData.ZIPF.stratified(w.universeSize(), n);
        long period = Math.floorDiv(System.currentTimeMillis(), spec.budget().period().toMillis());
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerProps(kafka), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < n; i++) {
                String device = "device-" + i;
                CentralReport r = CentralReport.newBuilder().setWorkloadId(spec.id()).setWorkloadVersion(spec.version())
                        .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(0)
                        .setEventTime(Instant.ofEpochMilli(System.currentTimeMillis())).setValue(labels.get(values[i]))
                        .build();
                p.send(new ProducerRecord<>(topic, device.getBytes(), ser.serialize(topic, r)));
            }
            p.flush();
        }
    }

    private Result plainCount(EmbeddedKafka kafka, String topic, int n, String guarantee, Path state, String tag)
            throws Exception {
        AtomicLong seen = new AtomicLong();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        StreamsBuilder b = new StreamsBuilder();
        b.stream(topic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .peek((k, v) -> mark(seen, first, last, n))
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(1), Duration.ofMillis(500)))
                .count(Materialized.as("counts"));
        Properties p = new Properties();
        String app = "plain-count-" + guarantee.replace('_', '-') + tag;
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.STATE_DIR_CONFIG, state.resolve(app).toString());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put("processing.exception.handler.global.enabled", true); // as the gateway sets it (no global store here)
        String name = "plain windowed count() (" + (guarantee.equals("at_least_once") ? "at-least-once" : "exactly-once") + ")";
        try (KafkaStreams streams = new KafkaStreams(b.build(), p)) {
            streams.start();
            return await(name, seen, first, last, n);
        }
    }

    private Result gateway(GatewaySettings s, int n, String name) throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (GatewayService g = GatewayService.start(s, meters, CentralReleaser.secure(), Duration.ofMinutes(2))) {
            AtomicLong seen = new AtomicLong();
            AtomicLong first = new AtomicLong();
            AtomicLong last = new AtomicLong();
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            long prev = 0;
            while (System.nanoTime() < deadline) {
                long c = (long) meters.find("pgw.reports.accepted").counters().stream().mapToDouble(x -> x.count()).sum();
                long rejected = (long) meters.find("pgw.reports.rejected").counters().stream()
                        .mapToDouble(x -> x.count()).sum();
                long now = System.nanoTime();
                if (c + rejected >= n / 5 && first.get() == 0) {
                    first.set(now);
                    seen.set(c + rejected);
                }
                if (c + rejected > prev) {
                    last.set(now);
                    prev = c + rejected;
                }
                if (c + rejected >= n) {
                    if (rejected > 0) { // every report is valid: a rejection means the run timed the wrong path
                        throw new IllegalStateException(name + ": " + rejected + " of " + n + " reports rejected, "
                                + "so the figure would not be the admission path's: "
                                + meters.find("pgw.reports.rejected").counters().stream()
                                        .map(x -> x.getId().getTag("reason") + "=" + (long) x.count()).toList());
                    }
                    break;
                }
                Thread.sleep(5);
            }
            double secs = (last.get() - first.get()) / 1e9;
            long steady = prev - seen.get(); // seen = the count when the first fifth was passed
            log.accept(String.format("%s: %d reports, steady state %d in %.2f s", name, prev, steady, secs));
            return new Result(name, steady, secs);
        }
    }

    /** Records the time the first fifth of the records was done and the time of the last record. */
    private static void mark(AtomicLong seen, AtomicLong first, AtomicLong last, int n) {
        long now = System.nanoTime();
        if (seen.incrementAndGet() == n / 5) {
            first.set(now);
        }
        last.set(now);
    }

    private Result await(String name, AtomicLong seen, AtomicLong first, AtomicLong last, int n) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (seen.get() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        double secs = (last.get() - first.get()) / 1e9;
        long steady = seen.get() - n / 5;
        log.accept(String.format("%s: %d reports, steady state %d in %.2f s", name, seen.get(), steady, secs));
        return new Result(name, steady, secs);
    }

    /** Produces at a steady rate with event time = now and measures answer latency after window end + grace. */
    private Latency latency(EmbeddedKafka kafka, SchemaRegistryClient client, GatewaySettings s, WorkloadSpec spec,
            int seconds, int rate) throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        List<Double> cold = new ArrayList<>();
        Properties cp = new Properties();
        cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        cp.put(ConsumerConfig.GROUP_ID_CONFIG, "latency-probe");
        cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        long grace = spec.window().grace().toMillis();
        try (GatewayService g = GatewayService.start(s, meters, CentralReleaser.secure(), Duration.ofMinutes(2));
                KafkaConsumer<String, WindowAnswer> c = new KafkaConsumer<>(cp, new StringDeserializer(),
                        new AvroDeserializer<>(WindowAnswer.class, client))) {
            c.subscribe(List.of(s.gateway().answersTopic()));
            Thread producer = new Thread(() -> {
                try {
                    paced(kafka, client, s.gateway().localReportsTopic(), spec, LIVE_WARMUP_SECONDS + seconds, rate);
                } catch (Exception e) {
                    log.accept("producer failed: " + e);
                }
            });
            long warm = System.currentTimeMillis() + LIVE_WARMUP_SECONDS * 1000L;
            long trafficEnds = warm + seconds * 1000L;
            producer.start();
            long end = trafficEnds + 5000L;
            boolean first = true;
            while (System.currentTimeMillis() < end) {
                for (ConsumerRecord<String, WindowAnswer> r : c.poll(Duration.ofMillis(50))) {
                    long closeAt = r.value().getWindowEnd().toEpochMilli() + grace;
                    if (first) { // the first window starts mid-way and waits for partitions to warm up: skip it
                        first = false;
                        continue;
                    }
                    if (closeAt > trafficEnds) { // closed by the idle watermark after the traffic stopped
                        continue;
                    }
                    if (closeAt < warm) {
                        cold.add((double) (System.currentTimeMillis() - closeAt));
                        continue;
                    }
                    latencies.add((double) (System.currentTimeMillis() - closeAt));
                }
            }
            producer.join();
        }
        List<Double> inOrder = new ArrayList<>(latencies);
        List<Double> l = new ArrayList<>(latencies);
        Collections.sort(l);
        double p50 = l.isEmpty() ? Double.NaN : l.get(l.size() / 2);
        double p99 = l.isEmpty() ? Double.NaN : l.get(Math.min(l.size() - 1, (int) Math.ceil(0.99 * l.size()) - 1));
        return new Latency(l.size(), p50, p99, rate, inOrder, cold);
    }

    private static void paced(EmbeddedKafka kafka, SchemaRegistryClient client, String topic, WorkloadSpec spec,
            int seconds, int rate) throws Exception {
        Workload w = Workload.of(spec);
        LocalProtocol protocol = LocalPipeline.of(w).protocol();
        AvroSerializer<LocalReport> ser = new AvroSerializer<>(client);
        SeededRandomBits secret = new SeededRandomBits(2);
        int[] values = ReferenceData.ZIPF.stratified(w.universeSize(), 100_000);
        long start = System.currentTimeMillis();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerProps(kafka), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            while (System.currentTimeMillis() - start < seconds * 1000L) {
                long due = (System.currentTimeMillis() - start) * rate / 1000;
                while (sent < due) {
                    String device = "live-" + sent;
                    long now = System.currentTimeMillis();
                    long period = Math.floorDiv(now, spec.budget().period().toMillis());
                    byte[] payload = protocol.randomize(values[(int) (sent % values.length)],
                            new ReportCoordinates(device, period, 0), secret);
                    LocalReport r = LocalReport.newBuilder().setWorkloadId(spec.id()).setWorkloadVersion(spec.version())
                            .setContentHash(w.contentHash()).setDeviceId(device).setPeriod(period).setSequence(0)
                            .setEventTime(Instant.ofEpochMilli(now)).setMechanism(spec.mechanism().wireName())
                            .setEpsilon(spec.epsilonPerReport().value()).setPayload(ByteBuffer.wrap(payload))
                            .setProtocolVersion(spec.protocolVersion()).build();
                    p.send(new ProducerRecord<>(topic, device.getBytes(), ser.serialize(topic, r)));
                    sent++;
                }
                Thread.sleep(2);
            }
        }
    }
}

package io.privacygateway.benchmarks.commands;

import com.sun.management.OperatingSystemMXBean;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.client.Workloads;
import io.privacygateway.client.kafka.KafkaReports;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.harness.registry.EmbeddedRegistry;
import io.privacygateway.ingest.IngestService;
import io.privacygateway.ingest.IngestSettings;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench ingest}: the HTTPS ingestion service on loopback driven by a real HTTP load generator ({@code h2load}
 * from Debian's nghttp2-client, HTTP/1.1 keep-alive, then HTTP/2 in the clear) at batch sizes 1, 10 and 100,
 * against the same reports sent by a plain Kafka producer (same settings: {@code acks=all}, idempotent) in the same
 * run, on an in-JVM KRaft broker and a real registry. Prints reports/s, p50 and p99 request latency (from h2load's
 * per-request log) and the ratio to the plain producer measured right before each batch size (on shared cores the
 * limit moves with the machine's load). At batch 1 it also runs at half the saturating request rate
 * ({@code --rps}) for the p99 there. Figures only: nothing passes or fails on timing.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "The HTTPS ingestion service under h2load at batch sizes 1, 10, 100 against a plain Kafka"
                + " producer in the same run (reports/s, p50/p99 latency, ratios).")
public final class IngestBenchCommand implements Callable<Integer> {
    static final String WORKLOAD = """
            id: bench-ingest
            version: 1
            family: histogram
            domain: {labels: [a, b, c, d]}
            mechanism: grr
            epsilonPerReport: 0.1
            budget: {epsilonPerPeriod: 40.0, period: 1d}
            window: {size: 10s, grace: 2s}
            """;

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "5", description = "Measured seconds per point (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--connections", defaultValue = "16", description = "h2load clients (default ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--batches", split = ",", defaultValue = "1,10,100", description = "Batch sizes.")
    int[] batches;

    @Option(names = "--h2load", defaultValue = "h2load", description = "The h2load binary.")
    String h2load;

    /**
     * One measured point; {@code plain} is the plain producer's reports/s measured right before it (the same
     * machine load: on shared cores the limit moves from minute to minute).
     */
    record Point(String system, int batch, double reportsPerSecond, double p50Millis, double p99Millis, long failed,
            double plain, double jvmCpuMicros, double clientCpuMicros) {
        Point(String system, int batch, double reportsPerSecond, double p50Millis, double p99Millis, long failed) {
            this(system, batch, reportsPerSecond, p50Millis, p99Millis, failed, Double.NaN, Double.NaN, Double.NaN);
        }

        Point with(double plainRate, double jvmCpu, double clientCpu) {
            return new Point(system, batch, reportsPerSecond, p50Millis, p99Millis, failed, plainRate, jvmCpu,
                    clientCpu);
        }

        /** CPU per report, all processes on the path (this JVM: service, broker, producer; h2load). */
        double cpuMicros() {
            return jvmCpuMicros + (Double.isNaN(clientCpuMicros) ? 0 : clientCpuMicros);
        }
    }

    /** CPU time of h2load's last run (ns), from its parent shell's {@code /proc/self/stat} after it exited. */
    private long lastClientCpuNanos;

    private static long jvmCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** µs of CPU per report: {@code nanos} over {@code reports}. */
    private static double perReport(long nanos, double reports) {
        return reports <= 0 ? Double.NaN : nanos / 1000.0 / reports;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path dir = Files.createTempDirectory("pgw-bench-ingest");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(); EmbeddedRegistry registry = EmbeddedRegistry.start()) {
            SchemaRegistryClient client = SchemaRegistryClient.forUrl(registry.ccompatUrl());
            GatewayTopics topics = GatewayTopics.defaults();
            Map<String, Object> cfg = Map.of("bootstrap.servers", kafka.bootstrapServers());
            try (Admin admin = Admin.create(cfg)) {
                admin.createTopics(List.of(new NewTopic(topics.localReports(), 2, (short) 1),
                        new NewTopic(topics.centralReports(), 2, (short) 1),
                        new NewTopic(topics.workloads(), 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                        .all().get();
            }
            WorkloadSpec spec;
            try (WorkloadRegistrar r = WorkloadRegistrar.create(cfg, client, topics)) {
                spec = r.register(WorkloadFiles.parse(WORKLOAD, "bench"));
            }
            // the same producer settings as the service's (acks=all, idempotent, linger 2 ms); registers the schema
            Producer<String, SpecificRecord> plain = ReportProducers.avro(Map.of("bootstrap.servers",
                    kafka.bootstrapServers(), "linger.ms", 2), client, true);
            List<DeviceReport> corpus = reports(spec, 100);
            plain.send(new ProducerRecord<>(topics.localReports(), corpus.get(0).deviceId(),
                    KafkaReports.record(corpus.get(0)))).get();
            IngestSettings.Limits limits = IngestSettings.Limits.defaults().withRates(new IngestSettings.Rate(1e9, 1e9),
                    new IngestSettings.Rate(1e9, 1e9)).withRecentReports(0).withMaxInFlightReports(1 << 20);
            IngestSettings settings = new IngestSettings(kafka.bootstrapServers(), registry.ccompatUrl(), "pgw.",
                    Map.of(), "127.0.0.1", 0, null, List.of(), Map.of(), true, null, limits,
                    Duration.ofMinutes(1), Duration.ofHours(1));
            List<Point> points = new ArrayList<>();
            out.printf("bench ingest: %d s per point, %d h2load clients (HTTP/1.1 keep-alive; HTTP/2: h2c, one stream"
                    + " per connection), loopback, one broker (in-JVM KRaft), acks=all idempotent; report = grr over 4"
                    + " labels%n", seconds, connections);
            out.flush();
            PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            long posted = 0;
            try (IngestService ingest = IngestService.start(settings, meters, null, 0)) {
                while (!ingest.ready()) {
                    Thread.sleep(50);
                }
                double plainRate = plainProducer(plain, topics.localReports(), corpus, 1); // warm-up
                long cpu = jvmCpuNanos();
                plainRate = plainProducer(plain, topics.localReports(), corpus, seconds);
                double plainCpu = perReport(jvmCpuNanos() - cpu, plainRate * seconds);
                points.add(new Point("plain producer", 1, plainRate, Double.NaN, Double.NaN, 0)
                        .with(plainRate, plainCpu, Double.NaN));
                for (int b : batches) {
                    byte[] body = ReportEnvelope.encode(corpus.subList(0, b));
                    Path file = dir.resolve("batch-" + b + ".bin");
                    Files.write(file, body);
                    posted += (long) h2(ingest, file, dir, 1, 0).reportsPerSecond() * b; // warm-up
                    // the limit right before this point: the ratio compares runs under the same machine load
                    double limit = plainRate;
                    if (b != batches[0]) {
                        cpu = jvmCpuNanos();
                        limit = plainProducer(plain, topics.localReports(), corpus, seconds);
                        points.add(new Point("plain producer", 1, limit, Double.NaN, Double.NaN, 0).with(limit,
                                perReport(jvmCpuNanos() - cpu, limit * seconds), Double.NaN));
                    }
                    cpu = jvmCpuNanos();
                    Point p = h2(ingest, file, dir, seconds, 0);
                    posted += (long) (p.reportsPerSecond() * seconds) * b;
                    double reports = p.reportsPerSecond() * seconds * b;
                    points.add(new Point("ingest", b, p.reportsPerSecond() * b, p.p50Millis(), p.p99Millis(),
                            p.failed()).with(limit, perReport(jvmCpuNanos() - cpu, reports),
                            perReport(lastClientCpuNanos, reports)));
                    if (b == 1) {
                        int rps = (int) Math.max(1, p.reportsPerSecond() / 2 / connections);
                        cpu = jvmCpuNanos();
                        Point half = h2(ingest, file, dir, seconds, rps);
                        posted += (long) (half.reportsPerSecond() * seconds);
                        reports = half.reportsPerSecond() * seconds;
                        points.add(new Point("ingest @ half rate", 1, half.reportsPerSecond(), half.p50Millis(),
                                half.p99Millis(), half.failed()).with(limit, perReport(jvmCpuNanos() - cpu, reports),
                                perReport(lastClientCpuNanos, reports)));
                    }
                    // the same batches over HTTP/2 (h2c, prior knowledge), right after: the same limit
                    cpu = jvmCpuNanos();
                    Point h2 = h2(ingest, file, dir, seconds, 0, true);
                    posted += (long) (h2.reportsPerSecond() * seconds) * b;
                    reports = h2.reportsPerSecond() * seconds * b;
                    points.add(new Point("ingest HTTP/2", b, h2.reportsPerSecond() * b, h2.p50Millis(),
                            h2.p99Millis(), h2.failed()).with(limit, perReport(jvmCpuNanos() - cpu, reports),
                            perReport(lastClientCpuNanos, reports)));
                }
            }
            plain.close();
            double accepted = meters.find("pgw.ingest.reports").tag("status", "ACCEPTED").counters().stream()
                    .mapToDouble(Counter::count).sum();
            out.printf("reports in 200 answers: %,d; answered ACCEPTED by the service (acknowledged by Kafka): %,.0f%n",
                    posted, accepted);
            out.printf("%-20s %6s %12s %9s %9s %12s %8s %7s %9s %9s %9s%n", "system", "batch", "reports/s", "p50 ms",
                    "p99 ms", "plain rep/s", "vs plain", "failed", "JVM us/r", "h2ld us/r", "CPU ratio");
            for (Point p : points) {
                double plainCpu = points.stream().filter(q -> q.system().equals("plain producer")
                        && q.reportsPerSecond() == p.plain()).mapToDouble(Point::jvmCpuMicros).findFirst()
                        .orElse(Double.NaN);
                out.printf(Locale.ROOT, "%-20s %6d %,12.0f %9.2f %9.2f %,12.0f %8.2f %7d %9.2f %9.2f %9.2f%n",
                        p.system(), p.batch(), p.reportsPerSecond(), p.p50Millis(), p.p99Millis(), p.plain(),
                        p.reportsPerSecond() / p.plain(), p.failed(), p.jvmCpuMicros(), p.clientCpuMicros(),
                        plainCpu / p.cpuMicros());
            }
            // the headline: the largest batch over HTTP/2 (what phones' and browsers' HTTP stacks speak to a TLS
            // endpoint, by ALPN), then over HTTP/1.1; both against the plain producer measured right before them
            int top = Arrays.stream(batches).max().orElse(1);
            Point h2Top = points.stream().filter(q -> q.system().equals("ingest HTTP/2") && q.batch() == top)
                    .findFirst().orElse(null);
            Point h1Top = points.stream().filter(q -> q.system().equals("ingest") && q.batch() == top).findFirst()
                    .orElse(null);
            if (h2Top != null && h1Top != null) {
                double plainCpu = points.stream().filter(q -> q.system().equals("plain producer")
                        && q.reportsPerSecond() == h2Top.plain()).mapToDouble(Point::jvmCpuMicros).findFirst()
                        .orElse(Double.NaN);
                out.printf(Locale.ROOT, "headline, batch %d: HTTP/2 %,.0f reports/s = %.2fx of the plain producer's"
                        + " %,.0f (CPU ratio %.2f); HTTP/1.1 %,.0f = %.2fx (CPU ratio %.2f)%n", top,
                        h2Top.reportsPerSecond(), h2Top.reportsPerSecond() / h2Top.plain(), h2Top.plain(),
                        plainCpu / h2Top.cpuMicros(), h1Top.reportsPerSecond(), h1Top.reportsPerSecond()
                        / h1Top.plain(), plainCpu / h1Top.cpuMicros());
            }
            out.println("plain rep/s: the plain producer's rate measured right before that point; vs plain: the ratio"
                    + " to it. JVM us/r: CPU per report of this JVM (service, broker, producer); h2ld us/r: of h2load;"
                    + " CPU ratio: the plain producer's CPU per report over the point's (all processes) - the ratio"
                    + " of reports/s the two would reach on the same cores given to them alone.");
            out.flush();
        }
        return 0;
    }

    static List<DeviceReport> reports(WorkloadSpec spec, int n) {
        int bytes = ((LocalWorkload) Workloads.resolve(spec)).accumulator().payloadBytes();
        long t = System.currentTimeMillis();
        List<DeviceReport> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(DeviceReport.local(spec.id(), spec.version(), CanonicalForm.contentHash(spec),
                    new ReportCoordinates("bench-device-" + i, spec.budget().periodOf(t), 0), t,
                    spec.mechanism().wireName(), spec.epsilonPerReport().value(), new byte[bytes],
                    spec.protocolVersion()));
        }
        return out;
    }

    /** The plain producer's acknowledged reports per second, at most 50,000 unacknowledged at once. */
    static double plainProducer(Producer<String, SpecificRecord> p, String topic, List<DeviceReport> corpus,
            int seconds) throws InterruptedException {
        List<SpecificRecord> records = corpus.stream().map(KafkaReports::record).toList();
        Semaphore window = new Semaphore(50_000);
        AtomicLong acked = new AtomicLong();
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        int i = 0;
        while (System.nanoTime() < end) {
            window.acquire();
            DeviceReport r = corpus.get(i % corpus.size());
            p.send(new ProducerRecord<>(topic, r.deviceId(), records.get(i % records.size())), (md, e) -> {
                if (e == null) {
                    acked.incrementAndGet();
                }
                window.release();
            });
            i++;
        }
        p.flush();
        return acked.get() / ((System.nanoTime() - start) / 1e9);
    }

    /** The children's CPU time in the last {@code /proc/PID/stat} line of {@code text} (ns; 0 if absent). */
    static long childCpuNanos(String text) {
        String[] lines = text.strip().split("\n");
        String stat = lines[lines.length - 1];
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return 0;
        }
        String[] f = stat.substring(close + 2).trim().split("\\s+"); // f[0] is field 3 (state)
        long ticks = Long.parseLong(f[16 - 3]) + Long.parseLong(f[17 - 3]); // cutime, cstime
        return ticks * 10_000_000L; // USER_HZ: 100 on Linux
    }

    /** One h2load run: requests/s (in {@code reportsPerSecond}), p50 and p99 from its per-request log. */
    Point h2(IngestService ingest, Path body, Path dir, int secs, int rps) throws Exception {
        return h2(ingest, body, dir, secs, rps, false);
    }

    /**
     * One h2load run over HTTP/1.1 keep-alive ({@code --h1}) or, with {@code http2}, h2load's default: HTTP/2 in the
     * clear with prior knowledge, one connection per client, its default of 1 stream at a time per connection.
     */
    Point h2(IngestService ingest, Path body, Path dir, int secs, int rps, boolean http2) throws Exception {
        Path log = dir.resolve("h2load.log");
        Files.deleteIfExists(log);
        List<String> cmd = new ArrayList<>(List.of(h2load, "-c", Integer.toString(connections), "-t", "1",
                "-D", Integer.toString(secs), "-d", body.toString(), "-H", "Content-Type: "
                        + ReportEnvelope.REPORTS_CONTENT_TYPE, "--log-file", log.toString()));
        if (!http2) {
            cmd.add(1, "--h1");
        }
        if (rps > 0) {
            cmd.addAll(List.of("--rps", Integer.toString(rps)));
        }
        cmd.add(ingest.base() + "/v1/reports");
        // through a shell that prints its own /proc stat once h2load exited: cutime + cstime is h2load's CPU
        List<String> sh = new ArrayList<>(List.of("sh", "-c", "\"$@\"; rc=$?; echo; cat /proc/$$/stat; exit $rc",
                "sh"));
        sh.addAll(cmd);
        Process p = new ProcessBuilder(sh).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException("h2load failed: " + text);
        }
        lastClientCpuNanos = childCpuNanos(text);
        List<String> lines = Files.readAllLines(log);
        long[] micros = new long[lines.size()];
        long ok = 0;
        int n = 0;
        for (String l : lines) {
            String[] f = l.trim().split("\\s+");
            if (f.length < 3) {
                continue;
            }
            if (f[1].equals("200")) {
                ok++;
            }
            micros[n++] = Long.parseLong(f[2]);
        }
        long[] sorted = Arrays.copyOf(micros, n);
        Arrays.sort(sorted);
        double p50 = n == 0 ? Double.NaN : sorted[(int) (0.50 * (n - 1))] / 1000.0;
        double p99 = n == 0 ? Double.NaN : sorted[(int) (0.99 * (n - 1))] / 1000.0;
        return new Point("ingest", 1, ok / (double) secs, p50, p99, n - ok);
    }
}

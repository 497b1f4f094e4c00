package io.privacygateway.app.cli;

import io.privacygateway.app.answers.AnswerRow;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.app.Main;
import io.privacygateway.app.metrics.MetricsServer;
import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.Outcome;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.harness.testing.RealRegistry;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.service.GatewayService;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code privacy-gateway run} against a real broker (in-JVM KRaft) and a real registry (Apicurio): the metrics and
 * health endpoint of a running gateway, the exit when its streams client stops, and the one-line failures and exit
 * codes when the broker or the registry cannot be reached or the configuration is wrong.
 */
class RunCommandTest {
    static EmbeddedKafka kafka;
    @RegisterExtension
    static final RealRegistry registry = RealRegistry.shared();
    /** Guards against a hang only (a zombie {@code run}); never a timing assertion. */
    static final Duration HANG_GUARD = Duration.ofMinutes(4);

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    record Result(int exit, String out, String err) {}

    static Result execute(CommandLine cl, String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> code = runner.submit(() -> cl.execute(args));
            return new Result(code.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS), out.toString(), err.toString());
        } finally {
            runner.shutdownNow();
        }
    }

    static boolean sleep(long ms) throws InterruptedException {
        Thread.sleep(ms);
        return true;
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    Path config(String bootstrap, String registryUrl, String... more) throws Exception {
        Path p = dir.resolve("gateway.yaml");
        StringBuilder b = new StringBuilder("bootstrapServers: " + bootstrap + "\nschemaRegistryUrl: " + registryUrl
                + "\nstateDir: " + dir.resolve("state") + "\n");
        for (String line : more) {
            b.append(line).append('\n');
        }
        Files.writeString(p, b.toString());
        return p;
    }

    static final String LOCAL = """
            id: run-apps
            version: 1
            family: histogram
            domain: {labels: [mail, maps, music]}
            mechanism: grr
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 1.0, period: 1d}
            window: {size: 2s, grace: 1s}
            """;

    static final String CENTRAL = """
            id: run-central
            version: 1
            family: histogram
            domain: {labels: [low, mid, high]}
            mode: central
            mechanism: laplace
            central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 1}
            budget: {epsilonPerPeriod: 40.0, period: 1h}
            window: {size: 2s, grace: 1s}
            """;

    /** What the test saw while {@code run} was running (filled on the command's thread). */
    static final class Seen {
        String text;
        String openMetrics;
        String openMetricsType;
        final Map<String, Integer> probes = new LinkedHashMap<>();
        double registryRequests;
        String answersCsv;
        int unknownWorkload;
    }

    @Test
    void runServesMetricsAndHealthOfTheRealGatewayAndExitsWithOneLineWhenItsStreamsClientStops() throws Exception {
        int port = freePort();
        int answersPort = freePort();
        Path cfg = config(kafka.bootstrapServers(), registry.ccompatUrl(), "applicationId: run-test",
                "topicPrefix: run.", "partitions: {local: 2, central: 2}", "timing: {watermarkSlack: 500ms}",
                "metrics: {port: " + port + ", host: 127.0.0.1}", "answers: {port: " + answersPort + "}");
        URI answers = URI.create("http://127.0.0.1:" + answersPort + "/v1/answers/");
        CommandLine cl = Main.commandLine();
        RunCommand run = (RunCommand) cl.getSubcommands().get("run").getCommand();
        Seen seen = new Seen();
        HttpClient http = HttpClient.newHttpClient();
        URI base = URI.create("http://127.0.0.1:" + port + "/");
        run.onStarted = started -> {
            try {
                exercise(started.gateway(), started.meters());
                // the answers the gateway published, from its answers store, through the answers API
                long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                do {
                    seen.answersCsv = get(http, answers.resolve("run-apps?format=csv"), null).body();
                } while (seen.answersCsv.lines().count() < 2 && System.nanoTime() < until && sleep(100));
                seen.unknownWorkload = get(http, answers.resolve("run-nothing"), null).statusCode();
                seen.text = get(http, base.resolve("metrics"), null).body();
                HttpResponse<String> om = get(http, base.resolve("metrics"), "application/openmetrics-text;"
                        + "version=1.0.0,text/plain;version=0.0.4;q=0.5");
                seen.openMetrics = om.body();
                seen.openMetricsType = om.headers().firstValue("Content-Type").orElse("");
                seen.registryRequests = started.gateway().registry().requestCount();
                seen.probes.put("live while running", get(http, base.resolve("health/live"), null).statusCode());
                seen.probes.put("ready while running", get(http, base.resolve("health/ready"), null).statusCode());
                started.gateway().streams().close(Duration.ofSeconds(30));
                seen.probes.put("live after close", get(http, base.resolve("health/live"), null).statusCode());
                seen.probes.put("ready after close", get(http, base.resolve("health/ready"), null).statusCode());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };

        Result r = execute(cl, "run", "--config", cfg.toString());

        assertThat(r.out()).contains("metrics: http://127.0.0.1:" + port + "/metrics")
                .contains("answers API: http://127.0.0.1:" + answersPort + "/v1/answers/{workload}");
        assertThat(seen.answersCsv.lines().findFirst()).hasValue(String.join(",",
                AnswerRow.COLUMNS));
        assertThat(seen.answersCsv.lines().skip(1)).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith("run-apps,1,"));
        assertThat(seen.unknownWorkload).isEqualTo(404);
        assertThat(reachable(http, answers.resolve("run-apps"))).as("the answers API stopped with run").isFalse();
        // run noticed the stopped streams client: one line, exit code 1
        assertThat(r.exit()).as(r.err()).isEqualTo(Main.FAILURE);
        assertThat(r.err()).isEqualTo("privacy-gateway: error: the gateway stopped: its Kafka Streams client is"
                + " NOT_RUNNING (it was shut down while the command was running)" + System.lineSeparator());
        assertThat(seen.probes).containsExactly(Map.entry("live while running", 200),
                Map.entry("ready while running", 200), Map.entry("live after close", 503),
                Map.entry("ready after close", 503));
        // the endpoint stopped with the command
        assertThat(reachable(http, base.resolve("health/live"))).isFalse();

        // the gateway's own meters, with their Prometheus names
        assertThat(seen.text).contains(
                "pgw_reports_accepted_total{mode=\"local\",workload=\"run-apps\"} 20.0",
                "pgw_reports_rejected_total{reason=\"MALFORMED\",workload=\"unknown\"} 1.0",
                "pgw_epsilon_charged_total{mode=\"local\",workload=\"run-apps\"} 20.0",
                "pgw_answers_published_total{mode=\"local\",workload=\"run-apps\"}",
                "pgw_answers_published_total{mode=\"central\",workload=\"run-central\"}",
                "pgw_central_cumulative_epsilon{workload=\"run-central\"}",
                "pgw_release_latency_seconds_bucket{mode=\"local\",workload=\"run-apps\",le=",
                "pgw_release_latency_seconds_count{mode=\"local\",workload=\"run-apps\"}",
                "pgw_release_latency_seconds_max{mode=\"local\",workload=\"run-apps\"}",
                "pgw_window_reports_count{mode=\"local\",workload=\"run-apps\"}",
                "pgw_watermark_lag_seconds{partition=\"0\",topic=\"run.reports.local\"}",
                "pgw_release_overdue_seconds{workload=\"run-apps\"}",
                "pgw_registry_requests_total ");
        assertThat(seen.registryRequests).isPositive();
        // every pgw_ family says what it is: a # HELP line with text (the meter's description)
        assertThat(familiesWithoutHelp(seen.text, "pgw_")).isEmpty();
        // by default no meter counts the central reports exactly (metrics.exactCentralCounts): not the gateway's
        // own, not Kafka's per topic, task or store, nor Kafka's totals over every topic
        assertThat(seen.text).doesNotContain("pgw_reports_accepted_total{mode=\"central\"")
                .doesNotContain("pgw_epsilon_charged_total{mode=\"central\"")
                .doesNotContain("pgw_window_reports_count{mode=\"central\"")
                .doesNotContain("changelog").doesNotContain("kafka_stream_task_process_total")
                .doesNotContain("kafka_stream_thread_process_total")
                .contains("kafka_consumer_fetch_manager_records_lag_max{client_id=", "topic=\"run.reports.local\"",
                        "pgw_watermark_lag_seconds{partition=\"0\",topic=\"run.reports.central\"}",
                        "kafka_stream_alive_stream_threads", "kafka_stream_thread_commit_latency_avg");
        assertThat(seen.text.lines().filter(l -> l.startsWith("kafka_"))).as("Kafka series of the central topic")
                .noneMatch(l -> l.contains("topic=\"run.reports.central\"") || l.contains("topic=\"run_reports_central\""));
        assertThat(seen.text.lines().filter(l -> l.startsWith("kafka_consumer_fetch_manager_records_consumed_total{")
                || l.startsWith("kafka_producer_record_send_total{"))).as("totals over every topic")
                .allMatch(l -> l.contains("topic="));
        // Kafka Streams and its clients, the JVM and the process
        assertThat(seen.text).contains("kafka_stream_", "kafka_consumer_", "kafka_producer_", "jvm_memory_used_bytes{",
                "jvm_gc_", "jvm_threads_live_threads", "jvm_classes_loaded_classes", "process_cpu_usage",
                "process_uptime_seconds", "system_cpu_count");
        if (!System.getProperty("os.name").toLowerCase().contains("win")) {
            assertThat(seen.text).contains("process_files_open_files");
        }
        assertThat(seen.openMetricsType).isEqualTo(MetricsServer.OPENMETRICS_100);
        assertThat(seen.openMetrics).contains("pgw_reports_accepted_total{mode=\"local\",workload=\"run-apps\"} 20.0")
                .endsWith("# EOF\n");
        // no raw value or payload reaches the endpoint: the central devices' values are not label values
        assertThat(seen.text).doesNotContain("\"low\"").doesNotContain("\"high\"");
    }

    /**
     * The metric families of a Prometheus text exposition, named with {@code prefix}, that have a {@code # TYPE} line
     * but no {@code # HELP} line with text.
     */
    static java.util.SortedSet<String> familiesWithoutHelp(String exposition, String prefix) {
        java.util.SortedSet<String> typed = new java.util.TreeSet<>();
        java.util.Set<String> helped = new java.util.HashSet<>();
        for (String line : exposition.lines().toList()) {
            String[] f = line.split(" ", 4);
            if (f.length >= 3 && f[0].equals("#") && f[2].startsWith(prefix)) {
                if (f[1].equals("TYPE")) {
                    typed.add(f[2]);
                } else if (f[1].equals("HELP") && f.length == 4 && !f[3].isBlank()) {
                    helped.add(f[2]);
                }
            }
        }
        if (typed.isEmpty()) {
            throw new AssertionError("no " + prefix + " family in the exposition");
        }
        typed.removeAll(helped);
        return typed;
    }

    @Test
    void aFamilyWithoutHelpTextIsFound() {
        assertThat(familiesWithoutHelp("# HELP pgw_a_total counts a\n# TYPE pgw_a_total counter\npgw_a_total 1.0\n"
                + "# TYPE pgw_b gauge\npgw_b 2.0\n# HELP pgw_c \n# TYPE pgw_c gauge\npgw_c 1.0\n", "pgw_"))
                .containsExactly("pgw_b", "pgw_c");
    }

    /** Registers a local and a central workload, sends reports and one garbage record, waits for their answers. */
    static void exercise(GatewayService gateway, PrometheusMeterRegistry meters) throws Exception {
        Map<String, Object> kafkaConfig = Map.of("bootstrap.servers", kafka.bootstrapServers());
        SchemaRegistryClient registryClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        GatewayTopics topics = new GatewayTopics("run.");
        WorkloadSpec local;
        WorkloadSpec central;
        try (WorkloadRegistrar registrar = WorkloadRegistrar.create(kafkaConfig, registryClient, topics)) {
            local = registrar.register(WorkloadFiles.parse(LOCAL, "test"));
            central = registrar.register(WorkloadFiles.parse(CENTRAL, "test"));
        }
        gateway.awaitWorkload(local.id(), CanonicalForm.contentHash(local), Duration.ofSeconds(60));
        gateway.awaitWorkload(central.id(), CanonicalForm.contentHash(central), Duration.ofSeconds(60));
        long now = System.currentTimeMillis(); // the test picks the window; the SDK reads only its clock
        long windowStart = (Math.floorDiv(now + 1000, 2000) + 1) * 2000;
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 100), ZoneOffset.UTC);
        String[] labels = {"mail", "maps", "music"};
        String[] values = {"low", "mid", "high"};
        List<CompletableFuture<?>> deliveries = new ArrayList<>();
        try (Producer<String, SpecificRecord> reports = ReportProducers.avro(kafkaConfig, registryClient);
                Producer<String, byte[]> raw = ReportProducers.raw(kafkaConfig)) {
            for (int i = 0; i < 20; i++) {
                Outcome o = DeviceClient.builder("run-dev-" + i, local).producer(reports).clock(clock).topics(topics)
                        .secretRandomness(new SeededRandomBits(i)).build().report(labels[i % 3]);
                assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
                deliveries.add(o.delivery());
            }
            for (int i = 0; i < 5; i++) {
                Outcome o = DeviceClient.builder("run-central-" + i, central).producer(reports).clock(clock)
                        .topics(topics).build().report(values[i % 3]);
                assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
                deliveries.add(o.delivery());
            }
            raw.send(new ProducerRecord<>(topics.localReports(), "run-garbage",
                    "not a report".getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
            CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && !(count(meters, "pgw.reports.accepted") >= 20 // local only
                && count(meters, "pgw.reports.rejected") >= 1
                && published(meters, local.id()) >= 1 && published(meters, central.id()) >= 1
                && windowReports(meters, local.id()) >= 20)) {
            Thread.sleep(100);
        }
        assertThat(gateway.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
    }

    static double count(PrometheusMeterRegistry meters, String name) {
        return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    static double published(PrometheusMeterRegistry meters, String workload) {
        return meters.find("pgw.answers.published").tag("workload", workload).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    /** Reports counted into released windows of {@code workload} so far. */
    static double windowReports(PrometheusMeterRegistry meters, String workload) {
        return meters.find("pgw.window.reports").tag("workload", workload).summaries().stream()
                .mapToDouble(s -> s.totalAmount()).sum();
    }

    static HttpResponse<String> get(HttpClient http, URI uri, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static boolean reachable(HttpClient http, URI uri) {
        try {
            get(http, uri, null);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void anUnreachableBrokerFailsWithinTheConnectTimeoutWithOneLineNamingTheAddress() throws Exception {
        int closed = freePort(); // nothing listens there
        Path cfg = config("127.0.0.1:" + closed, "http://127.0.0.1:" + freePort(), "metrics: {port: 0}");
        Result r = execute(Main.commandLine(), "run", "--config", cfg.toString(), "--connect-timeout", "2s");
        assertThat(r.exit()).isEqualTo(Main.FAILURE);
        assertThat(r.err()).isEqualTo("privacy-gateway: error: cannot reach the Kafka brokers at 127.0.0.1:" + closed
                + " (bootstrapServers): no broker answered within 2s (--connect-timeout)" + System.lineSeparator());
        assertThat(r.out()).doesNotContain("running");

        // --verbose adds the stack trace
        Result verbose = execute(Main.commandLine(), "run", "--config", cfg.toString(), "--connect-timeout", "1s",
                "--verbose");
        assertThat(verbose.exit()).isEqualTo(Main.FAILURE);
        assertThat(verbose.err().lines().findFirst().orElseThrow()).isEqualTo("privacy-gateway: error: cannot reach"
                + " the Kafka brokers at 127.0.0.1:" + closed + " (bootstrapServers): no broker answered within 1s"
                + " (--connect-timeout)");
        assertThat(verbose.err()).contains("RuntimeFailure").contains("\tat ");
    }

    @Test
    void anUnreachableRegistryFailsWithOneLineNamingTheAddress() throws Exception {
        int closed = freePort();
        Path cfg = config(kafka.bootstrapServers(), "http://127.0.0.1:" + closed, "metrics: {port: 0}");
        Result r = execute(Main.commandLine(), "run", "--config", cfg.toString(), "--connect-timeout", "2s");
        assertThat(r.exit()).isEqualTo(Main.FAILURE);
        assertThat(r.err()).startsWith("privacy-gateway: error: cannot reach the schema registry at http://127.0.0.1:"
                + closed + " (schemaRegistryUrl): GET /config at http://127.0.0.1:" + closed + " -> no response")
                .endsWith(System.lineSeparator());
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void configurationAndUsageErrorsExitWith2AndNameTheFieldOrOption() throws Exception {
        Path cfg = config(kafka.bootstrapServers(), registry.ccompatUrl(), "metrics: {port: 70000}");
        Result bad = execute(Main.commandLine(), "run", "--config", cfg.toString());
        assertThat(bad.exit()).isEqualTo(Main.USAGE);
        assertThat(bad.err()).isEqualTo("privacy-gateway: error: metrics.port: must be in [0, 65535], got 70000"
                + System.lineSeparator());

        Result unknown = execute(Main.commandLine(), "run", "--config", config("b:1", "http://r", "brokers: x")
                .toString());
        assertThat(unknown.exit()).isEqualTo(Main.USAGE);
        assertThat(unknown.err()).startsWith("privacy-gateway: error: brokers: unknown setting");

        Result timeout = execute(Main.commandLine(), "run", "--config", cfg.toString(), "--connect-timeout", "soon");
        assertThat(timeout.exit()).isEqualTo(Main.USAGE);
        assertThat(timeout.err()).contains("--connect-timeout").contains("soon");

        Result zero = execute(Main.commandLine(), "run", "--config", cfg.toString(), "--connect-timeout", "0s");
        assertThat(zero.exit()).isEqualTo(Main.USAGE);
        assertThat(zero.err()).contains("--connect-timeout must be > 0");

        Result missing = execute(Main.commandLine(), "run", "--config", dir.resolve("nope.yaml").toString());
        assertThat(missing.exit()).isEqualTo(Main.USAGE);
        assertThat(missing.err()).contains("(file)").contains("nope.yaml");
    }

    @Test
    void aTakenMetricsPortFailsWithOneLineNamingTheSettings() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Path cfg = config(kafka.bootstrapServers(), registry.ccompatUrl(), "applicationId: run-port-test",
                    "topicPrefix: runport.", "metrics: {port: " + taken.getLocalPort() + ", host: 127.0.0.1}");
            Result r = execute(Main.commandLine(), "run", "--config", cfg.toString());
            assertThat(r.exit()).isEqualTo(Main.FAILURE);
            assertThat(r.err()).startsWith("privacy-gateway: error: cannot serve metrics on 127.0.0.1:"
                    + taken.getLocalPort() + " (metrics.host, metrics.port): ");
            assertThat(r.err().lines()).hasSize(1);
        }
    }
}

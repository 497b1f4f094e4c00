package io.privacygateway.demo;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.app.answers.AnswersOptions;
import io.privacygateway.app.answers.AnswersServer;
import io.privacygateway.app.dashboard.AnswerBoard;
import io.privacygateway.app.dashboard.AnswerHistory;
import io.privacygateway.app.dashboard.DashboardOptions;
import io.privacygateway.app.dashboard.DashboardServer;
import io.privacygateway.app.metrics.GatewayHealth;
import io.privacygateway.app.metrics.MeterBindings;
import io.privacygateway.app.metrics.MetricsServer;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.harness.KafkaHarness;
import io.privacygateway.harness.registry.EmbeddedRegistry;
import io.privacygateway.ingest.IngestService;
import io.privacygateway.ingest.IngestSettings;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.simulator.FleetSimulator;
import io.privacygateway.simulator.FleetStats;
import io.privacygateway.simulator.ReportKind;
import io.privacygateway.simulator.WindowTruth;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.identity.DeviceAuthentication;
import io.privacygateway.topology.release.CentralReleaser;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;

/**
 * The embedded demo: a Kafka broker (in-JVM KRaft, or a container when Docker answers), an Apicurio schema
 * registry, the gateway itself (exactly-once, both modes) with its Prometheus and health endpoint on a free
 * port, the example workloads (a screen-usage histogram, a latency CDF and feature-flag marginals in local
 * mode; session-length ranges in central mode; the window-analytics families; and 3-way marginals over 20 feature
 * flags by mwem and certified synthetic data over 6 survey answers, whose synthetic records are printed as they
 * arrive on the synthetic-data topic), a fleet of
 * simulated devices (some misbehaving) and the dashboard. Every published answer is
 * printed with the true values the simulator sent, so the error bars can be checked by eye.
 *
 * <p>Everything binds to 127.0.0.1 and lives in temporary directories removed by {@link #close()}, which
 * stops the parts in order (fleet, dashboard, gateway, registry, broker); the caller must call it, also on
 * Ctrl-C (the broker's and registry's own exit hooks are turned off so they do not stop first).
 */
public final class Demo implements AutoCloseable {
    /** The example workloads, resources under {@code /demo/}. */
    public static final List<String> WORKLOADS =
            List.of("screen-usage.yaml", "latency-cdf.yaml", "feature-flags.yaml", "session-length-central.yaml",
                    // window analytics (docs/analytics.md): one workload of each family
                    "top-app-mode.yaml", "usage-regression.yaml", "churn-erm.yaml",
                    // numeric means (docs/local-accuracy.md)
                    "latency-mean.yaml",
                    // vector means (issue 13 §2): the mean of a bounded vector, one bar per coordinate
                    "resource-usage.yaml",
                    // open-domain heavy hitters (docs/heavy-hitters.md): frequent short strings
                    "top-crash-signatures.yaml",
                    // a wide domain (docs/wide-domains.md): 3-way marginals over 20 flags, mwem, synthetic records
                    "feature-flags-wide.yaml",
                    // certified synthetic data (docs/synthetic-data.md §10): 2-way marginals over 6 answers
                    "survey-certified.yaml");
    /** What misbehaving devices do (each bad device one of these, round-robin). */
    static final ReportKind[] MISBEHAVIOURS = {ReportKind.DUPLICATE, ReportKind.OVER_BUDGET, ReportKind.GARBAGE,
        ReportKind.WRONG_EPSILON, ReportKind.LATE, ReportKind.CLOCK_SKEW};

    /**
     * Demo options.
     *
     * @param devices simulated devices (each reports about once per window per workload)
     * @param misbehaving fraction of devices that misbehave, in [0, 1)
     * @param dashboardPort dashboard port on 127.0.0.1 (0: any free port; if taken, any free port is used)
     * @param seed seed of the simulated data (public randomness; the devices' noise is always secret)
     * @param maxRows query rows printed per answer
     * @param viaIngest whether the fleet sends through the HTTPS ingestion service (as phones do; the default) or
     *     straight to Kafka (as servers and relays do)
     */
    public record Options(int devices, double misbehaving, int dashboardPort, long seed, int maxRows,
            boolean viaIngest) {
        /** Options with the fleet sending through the ingestion service. */
        public Options(int devices, double misbehaving, int dashboardPort, long seed, int maxRows) {
            this(devices, misbehaving, dashboardPort, seed, maxRows, true);
        }

        public Options {
            if (devices < 1 || devices > 1_000_000) {
                throw new IllegalArgumentException("devices must lie in [1, 1000000], got " + devices);
            }
            if (!(misbehaving >= 0 && misbehaving < 1)) {
                throw new IllegalArgumentException("misbehaving must lie in [0, 1), got " + misbehaving);
            }
            if (dashboardPort < 0 || dashboardPort > 65_535) {
                throw new IllegalArgumentException("dashboard port must lie in [0, 65535], got " + dashboardPort);
            }
            if (maxRows < 0) {
                throw new IllegalArgumentException("rows must be >= 0, got " + maxRows);
            }
        }
    }

    private final PrintWriter out;
    private final Clock clock;
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private IngestService ingest;
    private final Map<String, AtomicLong> answersByWorkload = new ConcurrentHashMap<>();
    private final AtomicLong valuesChecked = new AtomicLong();
    private final AtomicLong valuesInside = new AtomicLong();
    private final Map<String, WorkloadSpec> registered = new TreeMap<>();
    private GatewayService gateway;
    private FleetSimulator fleet;
    private DashboardServer dashboard;
    private MetricsServer metrics;
    private AnswersServer answersApi;
    private Path stateDir;

    private Demo(PrintWriter out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    /** Loads the example workloads from the class path. */
    public static List<WorkloadSpec> exampleWorkloads() {
        List<WorkloadSpec> specs = new ArrayList<>();
        for (String name : WORKLOADS) {
            try (InputStream in = Demo.class.getResourceAsStream("/demo/" + name)) {
                if (in == null) {
                    throw new IllegalStateException("demo workload " + name + " is missing from the class path");
                }
                specs.add(WorkloadFiles.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "demo/" + name));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return specs;
    }

    /**
     * Starts everything and returns once the fleet is sending; answers are printed to {@code out} as they
     * are published. On failure, whatever was started is stopped again.
     */
    public static Demo start(Options o, PrintWriter out, Clock clock) throws Exception {
        Demo d = new Demo(out, clock);
        try {
            d.startAll(o);
            return d;
        } catch (Exception | Error e) {
            d.close();
            throw e;
        }
    }

    /** Registers every workload (the planner resolves {@code auto}) and waits until the gateway runs each. */
    private List<WorkloadSpec> registerAll(List<WorkloadSpec> specs, Map<String, Object> kafkaConfig,
            SchemaRegistryClient registryClient, GatewayTopics topics) throws Exception {
        List<WorkloadSpec> resolved = new ArrayList<>();
        try (WorkloadRegistrar registrar = WorkloadRegistrar.create(kafkaConfig, registryClient, topics)) {
            for (WorkloadSpec s : specs) {
                WorkloadSpec r = registrar.register(s);
                gateway.awaitWorkload(r.id(), CanonicalForm.contentHash(r), Duration.ofSeconds(60));
                registered.put(r.id(), r);
                resolved.add(r);
                say("  registered workload %-15s %-8s %s (%s)", r.id(), r.mode().name().toLowerCase(Locale.ROOT),
                        r.mechanism().wireName(), s.mechanism().wireName().equals(r.mechanism().wireName())
                                ? "as declared" : "chosen by the planner for " + s.mechanism().wireName());
            }
        }
        return resolved;
    }

    /**
     * Starts the HTTPS ingestion service the fleet posts to (open identities, like this demo's gateway; plain HTTP on
     * loopback), which checks and produces the reports; garbage bytes still go straight to Kafka. Returns the fleet's
     * producer through it.
     */
    private HttpReportProducer startIngest(KafkaHarness kafka, EmbeddedRegistry registry, GatewayConfig config)
            throws Exception {
        IngestSettings.Limits limits = IngestSettings.Limits.defaults().withRates(
                new IngestSettings.Rate(1e6, 1e6), new IngestSettings.Rate(1e6, 1e6)).withRecentReports(0);
        ingest = IngestService.start(new IngestSettings(kafka.bootstrapServers(), registry.ccompatUrl(),
                config.topicPrefix(), Map.of(), "127.0.0.1", 0, null, List.of(), Map.of(), true, null, limits,
                config.maxFutureSkew(), config.maxEventAge()), meters, null, 0);
        resources.push(ingest);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!ingest.ready() && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        say("ingest:    %s/v1/reports (the fleet sends through it; --fleet-transport kafka sends to Kafka)",
                ingest.base());
        return new HttpReportProducer(ingest.base().toString());
    }

    private void startAll(Options o) throws Exception {
        List<WorkloadSpec> specs = exampleWorkloads();
        say("starting the Kafka broker…");
        KafkaHarness kafka = remember(KafkaHarness.start().closedByCaller());
        say("  broker %s (%s)", kafka.bootstrapServers(), kafka.kind() == KafkaHarness.Kind.EMBEDDED
                ? "in-JVM KRaft, Kafka 4.3.1" : "container");
        say("starting the schema registry (Apicurio, Confluent-compatible API)…");
        EmbeddedRegistry registry = remember(EmbeddedRegistry.start().closedByCaller());
        say("  registry %s", registry.ccompatUrl());
        SchemaRegistryClient registryClient = SchemaRegistryClient.forUrl(registry.ccompatUrl());

        stateDir = Files.createTempDirectory("pgw-demo-state");
        // open identities: the demo declares, as an operator would, a lower bound on the honest reports in every
        // answer (half of its well-behaved devices), so local answers carry amplified figures over that crowd only
        long honest = Math.max(1, (long) (o.devices() * (1 - o.misbehaving()) / 2));
        GatewayConfig config = GatewayConfig.builder(2, 2).topicPrefix(GatewayTopics.DEFAULT_PREFIX)
                .applicationId("pgw-demo").watermarkSlack(Duration.ofMillis(500)).answersStore(true)
                .authentication(new DeviceAuthentication.Open(honest)).build();
        GatewaySettings settings = new GatewaySettings(kafka.bootstrapServers(), registry.ccompatUrl(), config,
                (short) 1, 1, stateDir, "exactly_once_v2", Map.of(), Map.of());
        meters.config().meterFilter(MeterBindings.withoutCentralCounts(config)); // as run does by default
        remember(MeterBindings.bindProcess(meters));
        GatewayHealth health = new GatewayHealth();
        metrics = remember(MetricsServer.start("127.0.0.1", 0, meters, health));
        say("starting the gateway (Kafka Streams, exactly-once)…");
        gateway = GatewayService.start(settings, meters, CentralReleaser.secure(), Duration.ofMinutes(2));
        resources.push(gateway);
        health.started(gateway);
        remember(MeterBindings.bindGateway(meters, gateway));
        GatewayService running = gateway;
        answersApi = remember(AnswersServer.start(AnswersOptions.onPort(0), running::answers,
                id -> running.catalog().current(id) != null));

        Map<String, Object> kafkaConfig = new HashMap<>();
        kafkaConfig.put("bootstrap.servers", kafka.bootstrapServers());
        GatewayTopics topics = new GatewayTopics(config.topicPrefix());
        List<WorkloadSpec> resolved = registerAll(specs, kafkaConfig, registryClient, topics);

        AnswerPrinter printer = new AnswerPrinter(o.maxRows(), clock.getZone());
        AnswerHistory history = new AnswerHistory(AnswerHistory.DEFAULT_WINDOWS, clock);
        remember(new AnswerBoard(kafka.bootstrapServers(), Map.of(), registryClient, config.answersTopic(), history,
                a -> onAnswer(printer, a)));
        remember(new SyntheticFeed(kafka.bootstrapServers(), registryClient, config.syntheticTopic(),
                s -> say("%s", SyntheticFeed.describe(s, "[" + printer.timeOfDay(s.getWindowStart()) + ", "
                        + printer.timeOfDay(s.getWindowEnd()) + ")"))));
        dashboard = startDashboard(o.dashboardPort(), history);
        resources.push(dashboard);

        Producer<String, SpecificRecord> reports;
        if (o.viaIngest()) {
            reports = remember(startIngest(kafka, registry, config));
        } else {
            reports = remember(ReportProducers.avro(kafkaConfig, registryClient));
        }
        Producer<String, byte[]> raw = remember(ReportProducers.raw(kafkaConfig));
        // Each device reports about once per budget period per workload: a turn cycle 5% longer than the period
        // (the examples allow one report per 10-second period; a real deployment would use a day).
        long period = resolved.stream().mapToLong(r -> r.budget().period().toMillis()).max().orElseThrow();
        long window = resolved.stream().mapToLong(r -> r.window().size().toMillis()).max().orElseThrow();
        double turnsPerSecond = o.devices() * resolved.size() / (1.05 * period / 1000.0);
        FleetSimulator.Builder b = FleetSimulator.builder(reports, clock).devices(o.devices())
                .turnsPerSecond(turnsPerSecond).topics(topics).seed(o.seed()).rawProducer(raw);
        if (o.misbehaving() > 0) {
            b.misbehaving(o.misbehaving(), MISBEHAVIOURS);
        }
        resolved.forEach(b::workload);
        fleet = b.build();
        resources.push(fleet);
        // start on a window boundary, so that the first answers cover whole windows
        long now = clock.millis();
        long boundary = Math.floorDiv(now, window) * window + window;
        say("the fleet starts with the next window, at %s", printer.timeOfDay(Instant.ofEpochMilli(boundary)));
        Thread.sleep(boundary - now);
        fleet.start();
        announce(o, turnsPerSecond, window);
    }

    /** Where to look: the fleet's rate, the dashboard, the metrics and the answers API. */
    private void announce(Options o, double turnsPerSecond, long window) {
        say("fleet: %,d devices (%.0f%% misbehaving), %,.0f reports/s", o.devices(), 100 * o.misbehaving(),
                turnsPerSecond);
        say("dashboard: %s", dashboard.url());
        say("metrics:   %s (health: /health/live, /health/ready)", metrics.metricsUrl());
        say("answers:   %sv1/answers/{workload} (JSON, CSV, NDJSON; docs/answers-api.md, examples/python)",
                answersApi.base());
        say("answers appear as windows close (%d s windows + grace); Ctrl-C stops everything.", window / 1000);
        out.flush();
    }

    private DashboardServer startDashboard(int port, AnswerHistory history) throws IOException {
        DashboardOptions options = DashboardOptions.onPort(port);
        try {
            return DashboardServer.start(options, history, meters, this::trueAnswers, clock);
        } catch (BindException e) {
            say("  port %d is taken; the dashboard uses a free port instead", port);
            return DashboardServer.start(options.withPort(0), history, meters, this::trueAnswers, clock);
        }
    }

    /** The dashboard's truth: the simulator's true mean answers of the window, by the answer's labels. */
    private double[] trueAnswers(String workloadId, long windowStart, List<String> labels) {
        return fleet == null ? null
                : truthOf(workloadId, windowStart, null).map(t -> t.meanAnswerFor(labels)).orElse(null);
    }

    private Optional<WindowTruth> truthOf(String workloadId, long windowStart, String contentHash) {
        return fleet.truth().windows(workloadId).stream()
                .filter(t -> t.windowStart() == windowStart && (contentHash == null || t.contentHash().equals(contentHash)))
                .findFirst();
    }

    /** The truth of the windows a longer-horizon answer covers, taken together. */
    private Optional<WindowTruth> spanTruthOf(WindowAnswer a) {
        long start = a.getWindowStart().toEpochMilli();
        long end = a.getWindowEnd().toEpochMilli();
        return WindowTruth.combined(fleet.truth().windows(a.getWorkloadId()).stream()
                .filter(t -> t.contentHash().equals(a.getContentHash()) && t.windowStart() >= start
                        && t.windowEnd() <= end)
                .toList());
    }

    private void onAnswer(AnswerPrinter printer, WindowAnswer a) {
        WindowTruth t = fleet == null ? null
                : a.getHorizon() != null ? spanTruthOf(a).orElse(null)
                : truthOf(a.getWorkloadId(), a.getWindowStart().toEpochMilli(), a.getContentHash()).orElse(null);
        AnswerPrinter.Comparison c = t == null ? null : AnswerPrinter.compare(a, t.meanAnswerFor(a.getLabels()));
        if (c != null) {
            valuesChecked.addAndGet(c.rows());
            valuesInside.addAndGet(c.inside());
        }
        answersByWorkload.computeIfAbsent(a.getWorkloadId(), k -> new AtomicLong()).incrementAndGet();
        synchronized (out) {
            out.print(printer.format(a, t));
            out.flush();
        }
    }

    /** A one-paragraph status: reports sent, accepted and rejected by reason, answers published. */
    public String status() {
        FleetStats f = fleet == null ? null : fleet.stats();
        StringBuilder b = new StringBuilder("status: ");
        if (f != null) {
            b.append(String.format(Locale.ROOT, "devices sent %,d records (%,d from misbehaving devices)",
                    f.totalSent(), f.totalSent() - f.sent(ReportKind.VALID)));
        }
        double accepted = meters.find("pgw.reports.accepted").counters().stream().mapToDouble(Counter::count).sum();
        // central workloads' accepted reports are not counted on the meters (metrics.exactCentralCounts)
        b.append(String.format(Locale.ROOT, " · gateway accepted %,.0f local reports", accepted));
        Map<String, Double> rejected = new TreeMap<>();
        for (var m : meters.find("pgw.reports.rejected").counters()) {
            rejected.merge(m.getId().getTag("reason"), m.count(), Double::sum);
        }
        if (!rejected.isEmpty()) {
            b.append(" · rejected ");
            rejected.forEach((k, v) -> b.append(String.format(Locale.ROOT, "%s %,.0f, ", k, v)));
            b.setLength(b.length() - 2);
        }
        Map<String, Double> edge = new TreeMap<>(); // what the ingestion service answered itself (fleet over HTTP)
        for (var m : meters.find("pgw.ingest.reports").counters()) {
            String status = m.getId().getTag("status");
            if ("DUPLICATE".equals(status) || "REJECTED".equals(status)) {
                edge.merge("DUPLICATE".equals(status) ? status : m.getId().getTag("reason"), m.count(), Double::sum);
            }
        }
        if (!edge.isEmpty()) {
            b.append(" · ingest answered ");
            edge.forEach((k, v) -> b.append(String.format(Locale.ROOT, "%s %,.0f, ", k, v)));
            b.setLength(b.length() - 2);
        }
        b.append(String.format(Locale.ROOT, " · answers %,d", answersByWorkload.values().stream()
                .mapToLong(AtomicLong::get).sum()));
        long checked = valuesChecked.get();
        if (checked > 0) {
            b.append(String.format(Locale.ROOT, " · %.1f%% of %,d true values inside the published intervals",
                    100.0 * valuesInside.get() / checked, checked));
        }
        return b.toString();
    }

    /** Answers published so far, by workload id. */
    public Map<String, Long> answersByWorkload() {
        Map<String, Long> m = new TreeMap<>();
        answersByWorkload.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    /** How many published values were compared with the truth, and how many lay inside their intervals. */
    public long[] coverage() {
        return new long[] {valuesChecked.get(), valuesInside.get()};
    }

    /** The registered (resolved) workloads, by id. */
    public Map<String, WorkloadSpec> workloads() {
        return Map.copyOf(registered);
    }

    public GatewayService gateway() {
        return gateway;
    }

    public FleetSimulator fleet() {
        return fleet;
    }

    public DashboardServer dashboard() {
        return dashboard;
    }

    /** The answers API (127.0.0.1, a free port). */
    public AnswersServer answersApi() {
        return answersApi;
    }

    /** The Prometheus and health endpoint (127.0.0.1, a free port). */
    public MetricsServer metrics() {
        return metrics;
    }

    private <T extends AutoCloseable> T remember(T r) {
        resources.push(r);
        return r;
    }

    private void say(String format, Object... args) {
        synchronized (out) {
            out.printf(Locale.ROOT, format + "%n", args);
            out.flush();
        }
    }

    /** Stops the fleet, the dashboard, the gateway, the registry and the broker, and removes the state. */
    @Override
    public void close() {
        while (!resources.isEmpty()) {
            AutoCloseable r = resources.pop();
            try {
                r.close();
            } catch (Exception | Error e) {
                say("stopping %s failed: %s", r.getClass().getSimpleName(), e);
            }
        }
        if (stateDir != null) {
            try (Stream<Path> files = Files.walk(stateDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                say("could not remove %s: %s", stateDir, e);
            }
            stateDir = null;
        }
    }
}

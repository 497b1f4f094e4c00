package io.privacygateway.app.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.app.answers.AnswersOptions;
import io.privacygateway.app.answers.AnswersServer;
import io.privacygateway.app.dashboard.AnswerBoard;
import io.privacygateway.app.dashboard.AnswerHistory;
import io.privacygateway.app.dashboard.DashboardOptions;
import io.privacygateway.app.dashboard.DashboardServer;
import io.privacygateway.app.metrics.Failures;
import io.privacygateway.app.metrics.GatewayHealth;
import io.privacygateway.app.metrics.GatewayWatch;
import io.privacygateway.app.metrics.MeterBindings;
import io.privacygateway.app.metrics.MetricsServer;
import io.privacygateway.app.run.GatewayConfigFile;
import io.privacygateway.mechanisms.param.Durations;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryConfig;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.release.CentralReleaser;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code privacy-gateway run}: the gateway against an external Kafka cluster and schema registry, until Ctrl-C or
 * until the gateway dies.
 *
 * <p>Start-up: the configuration is read (errors name the field: exit 2); the brokers and the registry must answer
 * within {@code --connect-timeout} (else one line naming the address and what failed: exit 1); the metrics and
 * health endpoint starts (before the gateway, so that a liveness probe passes while state is restored); then the
 * gateway. While it runs, a {@link GatewayWatch} looks at its streams client: when that reaches ERROR or
 * NOT_RUNNING the command stops everything, prints one line naming what failed and exits 1, so a supervisor sees a
 * dead gateway instead of a live process that processes nothing.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the gateway against an external cluster and a Confluent-API schema registry until Ctrl-C"
                + " (or until the gateway fails: then one line on stderr and exit code 1).")
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    GatewayConnectionOptions connection = new GatewayConnectionOptions();

    @Option(names = "--startup-timeout", defaultValue = "5m", paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "How long the gateway may take to reach RUNNING (topics, schemas, restoring its state from"
                    + " the changelogs) (default ${DEFAULT-VALUE}).")
    Duration startupTimeout;

    /** What a test sees once the gateway runs. */
    record Started(GatewayService gateway, MetricsServer metrics, PrometheusMeterRegistry meters) {}

    /** Called once the gateway runs, on the command's thread (tests use it). */
    Consumer<Started> onStarted = s -> {};

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Duration connectTimeout = connection.connectTimeout();
        if (startupTimeout.isZero() || startupTimeout.isNegative()) {
            throw new IllegalArgumentException("--startup-timeout must be > 0, got " + format(startupTimeout));
        }
        GatewayConfigFile.Loaded loaded = GatewayConfigFile.load(connection.config);
        GatewaySettings s = loaded.settings();
        Preflight.kafka(s, connectTimeout);
        Preflight.registry(s, connectTimeout);

        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        if (!s.gateway().exactCentralCounts()) { // before any meter: no exact count of central reports
            meters.config().meterFilter(MeterBindings.withoutCentralCounts(s.gateway()));
        }
        Resources open = new Resources();
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch closedByHook = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            open.closeAll();
            closedByHook.countDown();
        }, "gateway-shutdown");
        try {
            open.push(MeterBindings.bindProcess(meters));
            GatewayHealth health = new GatewayHealth();
            MetricsServer metrics = null;
            if (loaded.metricsPort() > 0) {
                metrics = startMetrics(loaded, meters, health);
                open.push(metrics);
                out.printf("metrics: %s (health: /health/live, /health/ready)%n", metrics.metricsUrl());
                out.flush();
            }
            Runtime.getRuntime().addShutdownHook(hook);
            GatewayService gateway;
            try {
                gateway = GatewayService.start(s, meters, CentralReleaser.secure(), startupTimeout);
            } catch (IllegalStateException e) {
                health.startFailed();
                if (String.valueOf(e.getMessage()).startsWith("the gateway stopped while starting")) {
                    throw new RuntimeFailure(e.getMessage(), e);
                }
                throw e;
            } catch (Exception | Error e) {
                health.startFailed();
                throw e;
            }
            open.push(gateway);
            health.started(gateway);
            open.push(MeterBindings.bindGateway(meters, gateway));
            if (loaded.dashboardPort() > 0) {
                startDashboard(loaded, gateway, meters, open, out);
            }
            if (loaded.answers() != null) {
                AnswersServer answers = startAnswers(loaded, gateway);
                open.push(answers);
                out.printf("answers API: %sv1/answers/{workload} (OpenAPI: %sv1/openapi.json)%n", answers.base(),
                        answers.base());
            }
            out.printf("privacy gateway running (application %s, %s); Ctrl-C stops it%n", s.applicationId(),
                    s.processingGuarantee());
            out.flush();
            onStarted.accept(new Started(gateway, metrics, meters));
            Optional<String> failed = GatewayWatch.of(gateway).await(stop);
            if (failed.isEmpty()) {
                closedByHook.await(60, TimeUnit.SECONDS); // the hook stops everything; the JVM exits after it
                return ExitCodes.OK;
            }
            throw new RuntimeFailure(failed.get(), gateway.failure());
        } finally {
            if (stop.getCount() > 0) { // not shutting down: stop everything here
                open.closeAll();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException | IllegalArgumentException e) {
                    // the JVM is shutting down already, or the hook was never added
                }
            }
        }
    }

    /** The dashboard and the answer board that feeds it, both closed with {@code open}. */
    private static void startDashboard(GatewayConfigFile.Loaded loaded, GatewayService gateway,
            PrometheusMeterRegistry meters, Resources open, PrintWriter out) throws Exception {
        GatewaySettings s = loaded.settings();
        AnswerHistory history = new AnswerHistory(AnswerHistory.DEFAULT_WINDOWS, Clock.systemUTC());
        open.push(new AnswerBoard(s.bootstrapServers(), s.kafkaProperties(), gateway.registry(),
                s.gateway().answersTopic(), history, null));
        DashboardServer dashboard = DashboardServer.start(DashboardOptions.onPort(loaded.dashboardPort())
                .withBindHost(loaded.dashboardHost()), history, meters, null, Clock.systemUTC());
        open.push(dashboard);
        out.printf("dashboard: %s%n", dashboard.url());
    }

    private static AnswersServer startAnswers(GatewayConfigFile.Loaded loaded, GatewayService gateway) {
        AnswersOptions o = loaded.answers();
        try {
            return AnswersServer.start(o, gateway::answers, id -> gateway.catalog().current(id) != null
                    || !gateway.catalog().history(id).isEmpty());
        } catch (IOException e) {
            throw new RuntimeFailure("cannot serve the answers API on " + o.host() + ":" + o.port()
                    + " (answers.host, answers.port): " + Failures.oneLine(e), e);
        }
    }

    private static MetricsServer startMetrics(GatewayConfigFile.Loaded loaded, PrometheusMeterRegistry meters,
            GatewayHealth health) {
        try {
            return MetricsServer.start(loaded.metricsHost(), loaded.metricsPort(), meters, health);
        } catch (IOException e) {
            throw new RuntimeFailure("cannot serve metrics on " + loaded.metricsHost() + ":" + loaded.metricsPort()
                    + " (metrics.host, metrics.port): " + Failures.oneLine(e), e);
        }
    }

    /** What the command opened, closed once, in reverse order, by whichever thread gets there first. */
    private static final class Resources {
        private final Deque<AutoCloseable> open = new ArrayDeque<>();

        synchronized void push(AutoCloseable r) {
            open.push(r);
        }

        synchronized void closeAll() {
            while (!open.isEmpty()) {
                AutoCloseable r = open.pop();
                try {
                    r.close();
                } catch (Exception | Error e) {
                    // keep stopping the rest; the failure is already on its way to the log or the user
                    LoggerFactory.getLogger(RunCommand.class).warn("stopping {} failed: {}",
                            r.getClass().getSimpleName(), e.toString());
                }
            }
        }
    }

    /**
     * Start-up checks that the brokers and the schema registry answer within a bounded time, so that an unreachable
     * one fails the command with one line naming its address instead of hanging in the gateway's own retries.
     */
    static final class Preflight {
        private Preflight() {}

        /**
         * Asks the brokers for their cluster id.
         *
         * @throws GatewayConfigFile.ConfigException when the Kafka client settings are invalid (exit code 2)
         * @throws RuntimeFailure when no broker answers within {@code timeout}, or one refuses (exit code 1)
         */
        static void kafka(GatewaySettings s, Duration timeout) {
            Properties p = new Properties();
            p.putAll(s.kafkaProperties());
            p.remove("commit.interval.ms");  // Kafka Streams settings the admin client does not know
            p.remove("group.instance.id");
            int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
            p.put(AdminClientConfig.CLIENT_ID_CONFIG, s.applicationId() + "-connection-check");
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
            // a few connection attempts within the timeout, not one every second (each logs a client WARN line)
            p.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, Math.max(50, ms / 4));
            p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, Math.max(50, ms / 2));
            String where = "the Kafka brokers at " + s.bootstrapServers() + " (bootstrapServers)";
            Admin admin;
            try {
                admin = Admin.create(p);
            } catch (KafkaException e) {
                if (Failures.causedBy(e, ConfigException.class)) {
                    throw new GatewayConfigFile.ConfigException("bootstrapServers / kafka",
                            "the Kafka client settings are invalid: " + Failures.oneLine(e));
                }
                throw new RuntimeFailure("cannot connect to " + where + ": " + Failures.oneLine(e), e);
            }
            try {
                admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms)).clusterId()
                        .get(ms + 5_000L, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new RuntimeFailure("cannot reach " + where + ": no broker answered within "
                        + format(timeout) + " (--connect-timeout)", e);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
                    throw new RuntimeFailure("cannot reach " + where + ": no broker answered within "
                            + format(timeout) + " (--connect-timeout)", cause);
                }
                throw new RuntimeFailure("cannot use " + where + ": " + Failures.oneLine(cause), cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RuntimeFailure("interrupted while connecting to " + where, e);
            } finally {
                admin.close(Duration.ZERO);
            }
        }

        /**
         * Asks the schema registry for its compatibility setting (a request every Confluent-API registry answers).
         *
         * @throws RuntimeFailure when it does not answer within {@code timeout}, or refuses (exit code 1)
         */
        static void registry(GatewaySettings s, Duration timeout) {
            Map<String, Object> cfg = new HashMap<>(s.registryProperties());
            cfg.put(SchemaRegistryConfig.URL, s.schemaRegistryUrl());
            cfg.put(SchemaRegistryConfig.CONNECT_TIMEOUT_MS, timeout.toMillis());
            cfg.put(SchemaRegistryConfig.REQUEST_TIMEOUT_MS, timeout.toMillis());
            String where = "the schema registry at " + s.schemaRegistryUrl() + " (schemaRegistryUrl)";
            try (SchemaRegistryClient c = SchemaRegistryClient.fromConfigs(cfg)) {
                c.getGlobalCompatibility();
            } catch (SchemaRegistryException e) {
                String what = e.httpStatus() < 0 ? "cannot reach " : "cannot use ";
                throw new RuntimeFailure(what + where + ": " + e.getMessage().replaceAll("\\s+", " "), e);
            }
        }
    }

    /** {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 1d} or an ISO-8601 duration ({@code PT30S}). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** A duration as a person writes it ({@code 30s}, {@code 500ms}, {@code 2m}). */
    static String format(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}

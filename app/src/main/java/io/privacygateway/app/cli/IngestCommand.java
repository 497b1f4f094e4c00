package io.privacygateway.app.cli;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.app.metrics.Failures;
import io.privacygateway.app.metrics.MeterBindings;
import io.privacygateway.app.run.IngestConfigFile;
import io.privacygateway.ingest.IngestService;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code privacy-gateway ingest --config ingest.yaml}: the HTTPS ingestion service (module {@code ingest},
 * docs/ingest.md) until Ctrl-C. Stateless: run as many as the load needs behind a load balancer.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Runs the HTTPS ingestion service for devices (POST /v1/reports, GET /v1/workloads) in front of"
                + " the gateway's report topics until Ctrl-C. Configuration: see docs/ingest.md.")
public final class IngestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "ingest.yaml", description = "Service configuration.")
    Path config;

    /** Called once the service listens, on the command's thread (tests use it). */
    Consumer<IngestService> onStarted = s -> {};

    /** Counted down to stop the command (tests); Ctrl-C stops it too. */
    final CountDownLatch stop = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        IngestConfigFile.Loaded loaded = IngestConfigFile.load(config);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AutoCloseable process = MeterBindings.bindProcess(meters);
        IngestService service;
        try {
            service = IngestService.start(loaded.settings(), meters, loaded.metricsPort() > 0 ? loaded.metricsHost()
                    : null, loaded.metricsPort());
        } catch (IOException e) {
            process.close();
            throw new RuntimeFailure("cannot start the ingest service on " + loaded.settings().host() + ":"
                    + loaded.settings().port() + " (listen.host, listen.port): " + Failures.oneLine(e), e);
        }
        Thread hook = new Thread(() -> {
            stop.countDown();
            service.close();
        }, "ingest-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.printf("ingest: %s/v1/reports%s%n", service.base(), service.opsPort() > 0 ? ", metrics and health on"
                    + " port " + service.opsPort() : "");
            out.flush();
            onStarted.accept(service);
            stop.await();
            return ExitCodes.OK;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException | IllegalArgumentException e) {
                // shutting down already
            }
            service.close();
            process.close();
        }
    }
}

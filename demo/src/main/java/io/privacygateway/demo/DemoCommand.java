package io.privacygateway.demo;

import io.privacygateway.app.Main;
import io.privacygateway.app.cli.RuntimeFailure;
import io.privacygateway.app.cli.ToolCommand;
import io.privacygateway.app.metrics.GatewayWatch;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway demo}: everything embedded, live answers printed until Ctrl-C. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Starts an embedded Kafka broker, a schema registry, the gateway, example workloads, a fleet"
                + " of simulated devices and the dashboard, and prints every answer as it is published, next to the"
                + " true values, and serves Prometheus metrics and health probes on a free port. Ctrl-C stops"
                + " everything."})
public final class DemoCommand implements Callable<Integer>, ToolCommand {
    @Spec
    CommandSpec spec;

    @Option(names = "--devices", defaultValue = "3000", description = "Simulated devices (default ${DEFAULT-VALUE}).")
    int devices;

    @Option(names = "--misbehaving", defaultValue = "0.05",
            description = "Fraction of devices that misbehave: duplicates, garbage, wrong ε, late or skewed clocks,"
                    + " sequence numbers beyond their budget (default ${DEFAULT-VALUE}).")
    double misbehaving;

    @Option(names = "--dashboard-port", defaultValue = "8080",
            description = "Dashboard port on 127.0.0.1; a free port is used if it is taken (default ${DEFAULT-VALUE}).")
    int dashboardPort;

    @Option(names = "--fleet-transport", defaultValue = "http", paramLabel = "http|kafka",
            description = "How the simulated fleet sends: http through the HTTPS ingestion service (as phones do), or"
                    + " kafka straight to the report topics (as servers do) (default ${DEFAULT-VALUE}).")
    String fleetTransport;

    @Option(names = "--seed", defaultValue = "20261122", description = "Seed of the simulated data (public).")
    long seed;

    @Option(names = "--rows", defaultValue = "10", description = "Query rows printed per answer (default ${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--duration", paramLabel = "SECONDS",
            description = "Stop by itself after this many seconds (default: run until Ctrl-C).")
    Long durationSeconds;

    @Option(names = "--status-every", defaultValue = "30", paramLabel = "SECONDS",
            description = "Print a status line (records sent, accepted, rejected by reason) this often; 0: never.")
    int statusEvery;

    private static final long WATCH_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (durationSeconds != null && durationSeconds <= 0) {
            throw new IllegalArgumentException("--duration must be > 0 seconds, got " + durationSeconds);
        }
        if (statusEvery < 0) {
            throw new IllegalArgumentException("--status-every must be >= 0 seconds, got " + statusEvery);
        }
        if (!fleetTransport.equals("http") && !fleetTransport.equals("kafka")) {
            throw new IllegalArgumentException("--fleet-transport must be http or kafka, got " + fleetTransport);
        }
        Demo.Options options = new Demo.Options(devices, misbehaving, dashboardPort, seed, rows,
                fleetTransport.equals("http"));
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                stopped.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            try (Demo demo = Demo.start(options, out, Clock.systemDefaultZone())) {
                runUntilStopped(demo, out, stop);
                printLine(out, "stopping…");
                printLine(out, demo.status());
            }
            printLine(out, "stopped.");
        } finally {
            stopped.countDown();
            if (stop.getCount() > 0) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down already
                }
            }
        }
        return 0;
    }

    /**
     * Prints a status line every {@code --status-every} seconds until Ctrl-C or {@code --duration}; fails (exit code
     * 1, one line) if the gateway's streams client stops by itself.
     */
    private void runUntilStopped(Demo demo, PrintWriter out, CountDownLatch stop) throws InterruptedException {
        long deadline = durationSeconds == null ? Long.MAX_VALUE
                : System.nanoTime() + Duration.ofSeconds(durationSeconds).toNanos();
        long every = statusEvery == 0 ? Long.MAX_VALUE / 4 : TimeUnit.SECONDS.toNanos(statusEvery);
        long nextStatus = System.nanoTime() + every;
        GatewayWatch watch = GatewayWatch.of(demo.gateway());
        while (System.nanoTime() < deadline) {
            long wait = Math.min(Math.min(deadline, nextStatus) - System.nanoTime(), WATCH_EVERY_NANOS);
            if (stop.await(Math.max(1, wait), TimeUnit.NANOSECONDS)) {
                return;
            }
            Optional<String> failed = watch.check();
            if (failed.isPresent()) {
                throw new RuntimeFailure(failed.get(), watch.failure());
            }
            if (System.nanoTime() >= nextStatus) {
                printLine(out, demo.status());
                nextStatus += every;
            }
        }
    }

    private static void printLine(PrintWriter out, String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }
}

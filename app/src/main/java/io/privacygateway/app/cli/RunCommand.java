package io.privacygateway.app.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.app.dashboard.AnswerBoard;
import io.privacygateway.app.dashboard.AnswerHistory;
import io.privacygateway.app.dashboard.DashboardOptions;
import io.privacygateway.app.dashboard.DashboardServer;
import io.privacygateway.app.run.GatewayConfigFile;
import io.privacygateway.topology.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.release.CentralReleaser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway run}: the gateway against an external Kafka cluster and schema registry. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the gateway against an external cluster and a Confluent-API schema registry until Ctrl-C.")
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "gateway.yaml", description = "Gateway configuration.")
    Path config;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        GatewayConfigFile.Loaded loaded = GatewayConfigFile.load(config);
        GatewaySettings s = loaded.settings();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayService gateway = GatewayService.start(s, meters, CentralReleaser.secure(), Duration.ofMinutes(5));
        AnswerBoard board = null;
        DashboardServer dashboard = null;
        if (loaded.dashboardPort() > 0) {
            AnswerHistory history = new AnswerHistory(AnswerHistory.DEFAULT_WINDOWS, Clock.systemUTC());
            board = new AnswerBoard(s.bootstrapServers(), s.kafkaProperties(), gateway.registry(),
                    s.gateway().answersTopic(), history, null);
            dashboard = DashboardServer.start(DashboardOptions.onPort(loaded.dashboardPort())
                    .withBindHost(loaded.dashboardHost()), history, meters, null, Clock.systemUTC());
            out.printf("dashboard: %s%n", dashboard.url());
        }
        out.printf("privacy gateway running (application %s, %s); Ctrl-C stops it%n", s.applicationId(),
                s.processingGuarantee());
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        AnswerBoard b = board;
        DashboardServer d = dashboard;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (d != null) {
                d.close();
            }
            if (b != null) {
                b.close();
            }
            gateway.close();
            stopped.countDown();
        }, "gateway-shutdown"));
        stopped.await();
        return 0;
    }
}

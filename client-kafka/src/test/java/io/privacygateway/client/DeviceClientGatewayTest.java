package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Devices using the SDK against the real gateway: every report they send is counted, none rejected. */
@ExtendWith(GatewayFixture.Extension.class)
public class DeviceClientGatewayTest {
    static final String WORKLOAD = """
            id: client-it-apps
            version: 1
            family: histogram
            domain: {labels: [mail, maps, music, news, video]}
            mechanism: auto
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 1.0, period: 1d}
            window: {size: 2s, grace: 1s}
            expectedReportsPerWindow: 200
            """;

    /** The start of a 2-second window that begins 1–3 s from now (event times may lead the broker by 1 min). */
    public static long nextWindowStart(long windowMillis) {
        long now = System.currentTimeMillis(); // the test picks the window; the SDK reads only its clock
        return (Math.floorDiv(now + 1000, windowMillis) + 1) * windowMillis;
    }

    @Test
    void twoHundredDevicesReportOnceAndTheGatewayAnswersForExactlyThemWithoutRejections(GatewayFixture g)
            throws Exception {
        WorkloadSpec resolved;
        try (WorkloadRegistrar registrar = g.registrar()) {
            resolved = registrar.register(WorkloadFiles.parse(WORKLOAD, "test"));
        }
        assertThat(resolved.mechanism()).isNotEqualTo(MechanismId.AUTO);
        g.awaitGatewayKnows(resolved, Duration.ofSeconds(30));

        long windowStart = nextWindowStart(2000);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 100), ZoneOffset.UTC);
        String[] labels = {"mail", "maps", "music", "news", "video"};
        List<CompletableFuture<?>> deliveries = new ArrayList<>();
        long[] truth = new long[5];
        for (int i = 0; i < 200; i++) {
            DeviceClient device = DeviceClient.builder("dev-a-" + i, resolved).producer(g.reports).clock(clock)
                    .topics(g.topics()).secretRandomness(new SeededRandomBits(i)).build();
            int x = i % 7 < 3 ? 0 : i % 5; // skewed towards "mail"
            Outcome first = device.report(labels[x]);
            assertThat(first.status()).isEqualTo(Outcome.Status.SENT);
            assertThat(first.coordinates().sequence()).isZero();
            assertThat(first.coordinates().period()).isEqualTo(Math.floorDiv(windowStart + 100, 86_400_000L));
            deliveries.add(first.delivery());
            truth[x]++;
            // the budget (1.0) pays for one report of ε = 1 per day: the device refuses the second itself
            Outcome second = device.report(labels[x]);
            assertThat(second.status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
            assertThat(second.delivery()).isNull();
            assertThat(device.remainingInCurrentPeriod()).isZero();
        }
        CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        List<WindowAnswer> answers = g.answersFrom(resolved.id(), windowStart, 1, Duration.ofSeconds(45));
        assertThat(answers).hasSize(1);
        WindowAnswer a = answers.get(0);
        assertThat(a.getN()).isEqualTo(200);
        assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(windowStart));
        assertThat(a.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(windowStart + 2000));
        assertThat(a.getContentHash()).isEqualTo(CanonicalForm.contentHash(resolved));
        assertThat(a.getMechanism()).isEqualTo(resolved.mechanism().wireName());
        assertThat(a.getLabels()).containsExactly(labels);
        // the most common true value is "mail" (about half the devices); with n = 200 and ε = 1 the estimate
        // of its share is well inside its error bar's neighbourhood of the truth
        double trueMail = truth[0] / 200.0;
        assertThat(a.getEstimates().get(0)).isBetween(trueMail - 0.35, trueMail + 0.35);

        List<Rejection> rejections = g.rejections("dev-a-", l -> true, Duration.ofSeconds(10));
        assertThat(rejections).isEmpty();
    }

    public static final String CENTRAL = """
            id: client-it-central
            version: 1
            family: histogram
            domain: {labels: [low, mid, high]}
            mode: central
            mechanism: laplace
            central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 2}
            budget: {epsilonPerPeriod: 2.0, period: 1h}
            window: {size: 2s, grace: 1s}
            """;

    @Test
    void centralModeContributionsWithinLAreAllAcceptedByTheGateway(GatewayFixture g) throws Exception {
        WorkloadSpec resolved = g.registerAndAwait(CENTRAL);
        double before = accepted(g, resolved); // other tests of this class share the workload and the gateway
        long windowStart = nextWindowStart(2000);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 100), ZoneOffset.UTC);
        String[] values = {"low", "mid", "high"};
        List<CompletableFuture<?>> deliveries = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            DeviceClient device = DeviceClient.builder("dev-c-" + i, resolved).producer(g.reports).clock(clock)
                    .topics(g.topics()).build();
            for (int k = 0; k < 2; k++) {
                Outcome o = device.report(values[(i + k) % 3]);
                assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
                deliveries.add(o.delivery());
            }
            assertThat(device.report("low").status()).isEqualTo(Outcome.Status.CONTRIBUTION_LIMIT);
        }
        CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (accepted(g, resolved) - before < 100 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(accepted(g, resolved) - before).isEqualTo(100.0);
        assertThat(g.rejections("dev-c-", l -> true, Duration.ofSeconds(10))).isEmpty();
    }

    static double accepted(GatewayFixture g, WorkloadSpec s) {
        return g.gateway.metrics().count("pgw.reports.accepted", "workload", s.id(), "mode", "central");
    }
}

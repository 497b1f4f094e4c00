package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The mean family through the SDK against the real gateway: {@code DeviceClient.report(String)} parses a number,
 * rejects a value outside the range on the device, and the gateway answers the window's mean with its bar.
 */
@ExtendWith(GatewayFixture.Extension.class)
class MeanClientGatewayTest {
    static final String WORKLOAD = """
            id: client-it-latency
            version: 1
            family: mean
            domain: {range: {lo: 0, hi: 1000}}
            mechanism: auto
            epsilonPerReport: 2.0
            budget: {epsilonPerPeriod: 2.0, period: 1d}
            window: {size: 2s, grace: 1s}
            expectedReportsPerWindow: 300
            """;

    @Test
    void devicesReportNumbersAndTheGatewayAnswersTheirMean(GatewayFixture g) throws Exception {
        WorkloadSpec resolved;
        try (WorkloadRegistrar registrar = g.registrar()) {
            resolved = registrar.register(WorkloadFiles.parse(WORKLOAD, "test"));
        }
        assertThat(MechanismId.MEAN_MECHANISMS).contains(resolved.mechanism());
        g.awaitGatewayKnows(resolved, Duration.ofSeconds(30));

        long windowStart = DeviceClientGatewayTest.nextWindowStart(2000);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 100), ZoneOffset.UTC);
        List<CompletableFuture<?>> deliveries = new ArrayList<>();
        double sum = 0;
        int n = 300;
        for (int i = 0; i < n; i++) {
            DeviceClient device = DeviceClient.builder("dev-m-" + i, resolved).producer(g.reports).clock(clock)
                    .topics(g.topics()).secretRandomness(new SeededRandomBits(i)).build();
            double v = 200 + (i % 10) * 20.5; // 200 .. 384.5
            sum += v;
            Outcome o = device.report(Double.toString(v));
            assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
            deliveries.add(o.delivery());
        }
        DeviceClient outside = DeviceClient.builder("dev-m-x", resolved).producer(g.reports).clock(clock)
                .topics(g.topics()).secretRandomness(new SeededRandomBits(1)).build();
        assertThat(outside.report("1000.5").status()).isEqualTo(Outcome.Status.INVALID_VALUE);
        CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        List<WindowAnswer> answers = g.answersFrom(resolved.id(), windowStart, 1, Duration.ofSeconds(45));
        assertThat(answers).hasSize(1);
        WindowAnswer a = answers.get(0);
        assertThat(a.getFamily()).isEqualTo("mean");
        assertThat(a.getN()).isEqualTo(n);
        double mean = a.getEstimates().get(0);
        assertThat(a.getScalars()).containsEntry("mean", mean);
        // bar at 95% confidence; the values are rounded to levels of width 1000/1024 at most half a level off
        assertThat(a.getLower().get(0)).isLessThanOrEqualTo(sum / n + 0.5);
        assertThat(a.getUpper().get(0)).isGreaterThanOrEqualTo(sum / n - 0.5);
    }
}

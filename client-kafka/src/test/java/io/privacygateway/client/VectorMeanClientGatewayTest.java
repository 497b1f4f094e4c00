package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Vector means through the SDK against the real gateway (real broker and registry): {@code DeviceClient.report(double[])}
 * randomizes a vector of a box, refuses one outside the box (and any vector on a workload that is not a vector mean)
 * without repeating its coordinates and without spending budget, and the gateway answers the mean per coordinate with
 * its bars.
 */
@ExtendWith(GatewayFixture.Extension.class)
class VectorMeanClientGatewayTest {
    static final String WORKLOAD = """
            id: client-it-resources
            version: 1
            family: mean
            domain: {box: {coordinates: [cpu, memory, battery], lo: 0, hi: 100}}
            mechanism: auto
            epsilonPerReport: 2.0
            budget: {epsilonPerPeriod: 2.0, period: 1d}
            window: {size: 2s, grace: 1s}
            confidence: 0.99
            expectedReportsPerWindow: 3000
            """;

    static final String SCALAR = """
            id: client-it-scalar-latency
            version: 1
            family: mean
            domain: {range: {lo: 0, hi: 100}}
            mechanism: auto
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 1.0, period: 1d}
            window: {size: 2s, grace: 1s}
            """;

    @Test
    void devicesReportVectorsAndTheGatewayAnswersTheMeanPerCoordinate(GatewayFixture g) throws Exception {
        WorkloadSpec resolved;
        WorkloadSpec scalar;
        try (WorkloadRegistrar registrar = g.registrar()) {
            resolved = registrar.register(WorkloadFiles.parse(WORKLOAD, "test"));
            scalar = registrar.register(WorkloadFiles.parse(SCALAR, "test"));
        }
        assertThat(resolved.mechanism().wireName()).isIn("duchi", "piecewise", "hybrid");
        g.awaitGatewayKnows(resolved, Duration.ofSeconds(30));

        long windowStart = DeviceClientGatewayTest.nextWindowStart(2000);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 100), ZoneOffset.UTC);
        List<CompletableFuture<?>> deliveries = new ArrayList<>();
        int n = 3000;
        double[] truth = new double[3];
        Random data = new Random(4);
        for (int i = 0; i < n; i++) {
            DeviceClient device = DeviceClient.builder("dev-v-" + i, resolved).producer(g.reports).clock(clock)
                    .topics(g.topics()).secretRandomness(new SeededRandomBits(i)).build();
            double[] v = {Math.min(100, Math.max(0, 35 + 20 * data.nextGaussian())), 70 + 10 * data.nextDouble(),
                    i % 2 == 0 ? 5 : 15};
            for (int q = 0; q < 3; q++) {
                truth[q] += v[q] / n;
            }
            Outcome o = device.report(v);
            assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
            deliveries.add(o.delivery());
        }
        DeviceClient outside = DeviceClient.builder("dev-v-x", resolved).producer(g.reports).clock(clock)
                .topics(g.topics()).secretRandomness(new SeededRandomBits(1)).build();
        double[][] bad = {{12.345, 67.891}, {12.345, 167.891, 3.25}, {12.345, Double.NaN, 3.25},
                {-0.125, 50.5, 3.25}, {12.345, 67.891, 3.25, 9.75}};
        for (double[] v : bad) {
            Outcome o = outside.report(v);
            assertThat(o.status()).isEqualTo(Outcome.Status.INVALID_VALUE);
            for (double x : v) { // the coordinates are never repeated
                assertThat(o.detail()).doesNotContain(Double.toString(x));
            }
        }
        assertThat(outside.report("12.345, 167.891, 3.25").status()).isEqualTo(Outcome.Status.INVALID_VALUE);
        assertThat(outside.remainingInCurrentPeriod()).isEqualTo(1); // nothing was charged for the refusals
        DeviceClient other = DeviceClient.builder("dev-s-x", scalar).producer(g.reports).clock(clock)
                .topics(g.topics()).secretRandomness(new SeededRandomBits(2)).build();
        Outcome wrong = other.report(new double[] {1, 2, 3});
        assertThat(wrong.status()).isEqualTo(Outcome.Status.INVALID_VALUE);
        assertThat(wrong.detail()).contains("does not take vector values");
        assertThat(other.remainingInCurrentPeriod()).isEqualTo(1);
        CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        List<WindowAnswer> answers = g.answersFrom(resolved.id(), windowStart, 1, Duration.ofSeconds(45));
        assertThat(answers).hasSize(1);
        WindowAnswer a = answers.get(0);
        assertThat(a.getFamily()).isEqualTo("mean");
        assertThat(a.getMechanism()).isEqualTo(resolved.mechanism().wireName());
        assertThat(a.getN()).isEqualTo(n);
        assertThat(a.getLabels()).containsExactly("cpu", "memory", "battery");
        for (int q = 0; q < 3; q++) {
            assertThat(a.getLower().get(q)).as(a.getLabels().get(q)).isLessThanOrEqualTo(truth[q]);
            assertThat(a.getUpper().get(q)).as(a.getLabels().get(q)).isGreaterThanOrEqualTo(truth[q]);
            assertThat(a.getEstimates().get(q)).isBetween(0.0, 100.0);
        }
        assertThat(a.getScalars()).containsEntry("dimension", 3.0);
    }
}

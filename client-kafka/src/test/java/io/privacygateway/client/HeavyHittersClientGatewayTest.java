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
 * The heavy-hitters family through the SDK against the real gateway (real broker and registry):
 * {@code DeviceClient.report(String)} randomizes a string, refuses one outside the domain without repeating it, and
 * the gateway answers the window's frequent strings with their bars and the threshold.
 */
@ExtendWith(GatewayFixture.Extension.class)
class HeavyHittersClientGatewayTest {
    static final String WORKLOAD = """
            id: client-it-crashes
            version: 1
            family: heavy-hitters
            domain: {strings: {maxBytes: 8}}
            mechanism: auto
            epsilonPerReport: 4.0
            budget: {epsilonPerPeriod: 4.0, period: 1d}
            window: {size: 2s, grace: 1s}
            expectedReportsPerWindow: 2000
            """;

    @Test
    void devicesReportStringsAndTheGatewayAnswersTheFrequentOnes(GatewayFixture g) throws Exception {
        WorkloadSpec resolved;
        try (WorkloadRegistrar registrar = g.registrar()) {
            resolved = registrar.register(WorkloadFiles.parse(WORKLOAD, "test"));
        }
        assertThat(resolved.mechanism()).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
        g.awaitGatewayKnows(resolved, Duration.ofSeconds(30));

        long windowStart = DeviceClientGatewayTest.nextWindowStart(2000);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 100), ZoneOffset.UTC);
        List<CompletableFuture<?>> deliveries = new ArrayList<>();
        int n = 2000;
        int oom = 0;
        for (int i = 0; i < n; i++) {
            DeviceClient device = DeviceClient.builder("dev-h-" + i, resolved).producer(g.reports).clock(clock)
                    .topics(g.topics()).secretRandomness(new SeededRandomBits(i)).build();
            String v = i % 10 < 6 ? "oom" : i % 10 < 9 ? "anr" : "sig" + (i % 97); // 60%, 30%, 10% spread thin
            oom += v.equals("oom") ? 1 : 0;
            Outcome o = device.report(v);
            assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
            deliveries.add(o.delivery());
        }
        DeviceClient outside = DeviceClient.builder("dev-h-x", resolved).producer(g.reports).clock(clock)
                .topics(g.topics()).secretRandomness(new SeededRandomBits(1)).build();
        for (String bad : new String[] {"longer-than-8", "", "a\u0000b", "\ud800"}) {
            Outcome o = outside.report(bad);
            assertThat(o.status()).isEqualTo(Outcome.Status.INVALID_VALUE);
            if (!bad.isEmpty()) {
                assertThat(o.detail()).doesNotContain(bad);
            }
        }
        assertThat(outside.remainingInCurrentPeriod()).isEqualTo(1); // nothing was charged for the refusals
        CompletableFuture.allOf(deliveries.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

        List<WindowAnswer> answers = g.answersFrom(resolved.id(), windowStart, 1, Duration.ofSeconds(45));
        assertThat(answers).hasSize(1);
        WindowAnswer a = answers.get(0);
        assertThat(a.getFamily()).isEqualTo("heavy-hitters");
        assertThat(a.getMechanism()).isEqualTo("prefix-tree-sketch");
        assertThat(a.getN()).isEqualTo(n);
        assertThat(a.getLabels()).startsWith("oom", "anr");
        // The window's time comes from the wall clock and the reports' public coins (level, row) from their
        // coordinates, so each run draws a different sketch: the 95% interval misses the truth in one run of 20 by
        // design (it did once in CI: lower 0.6016 for a true 0.6). The estimate is held to 2.1 half-widths of its
        // interval instead, about 4.1 standard errors: a false failure has probability about 4·10⁻⁵.
        double truth = (double) oom / n;
        double estimate = a.getEstimates().get(0);
        double halfWidth = (a.getUpper().get(0) - a.getLower().get(0)) / 2;
        assertThat(a.getLower().get(0)).isLessThanOrEqualTo(estimate);
        assertThat(a.getUpper().get(0)).isGreaterThanOrEqualTo(estimate);
        assertThat(Math.abs(estimate - truth)).isLessThanOrEqualTo(2.1 * halfWidth);
        assertThat(a.getScalars()).containsKey("thresholdShare");
        assertThat(a.getScalars().get("thresholdShare")).isBetween(0.0, 0.3);
    }
}

package io.privacygateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.GatewayFixtureAccess;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.Test;

/** A fleet with misbehaving devices against the real gateway. */
class FleetSimulatorGatewayTest extends GatewayFixtureAccess {
    static final String WORKLOAD = """
            id: client-it-fleet
            version: 1
            family: histogram
            domain: {labels: [social, video, games, news, music, shopping]}
            mechanism: oue
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 2.0, period: 1d}
            window: {size: 2s, grace: 1s}
            expectedReportsPerWindow: 300
            """;

    @Test
    void everyMisbehaviourIsRejectedWithItsReasonAndTheValidReportsAreAnswered() throws Exception {
        WorkloadSpec resolved;
        try (WorkloadRegistrar registrar = fixture().registrar()) {
            resolved = registrar.register(WorkloadFiles.parse(WORKLOAD, "test"));
        }
        awaitGatewayKnows(resolved);
        long windowStart = nextWindowStart(2000);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 200), ZoneOffset.UTC);
        ReportKind[] bad = {ReportKind.DUPLICATE, ReportKind.OVER_BUDGET, ReportKind.GARBAGE,
                ReportKind.WRONG_EPSILON, ReportKind.WRONG_MECHANISM, ReportKind.LATE, ReportKind.CLOCK_SKEW};
        FleetStats stats;
        FleetSimulator sim;
        try (Producer<String, byte[]> raw = ReportProducers.raw(kafkaConfig())) {
            sim = FleetSimulator.builder(reports(), clock).rawProducer(raw).topics(topics()).devices(300)
                    .deviceIdPrefix("fleet-").workload(resolved).misbehaving(0.2, bad).seed(42)
                    .secretRandomness(new SeededRandomBits(7)).build();
            sim.step(300); // every device once
            stats = sim.stop();
        }
        assertThat(stats.turns()).isEqualTo(300);
        assertThat(stats.deliveryFailures()).isZero();
        for (ReportKind k : bad) {
            assertThat(stats.sent(k)).as(k.name()).isBetween(8L, 9L); // 60 misbehaving devices over 7 kinds
        }
        // honest devices, plus the accepted originals of the duplicates
        assertThat(stats.sent(ReportKind.VALID)).isEqualTo(240 + stats.sent(ReportKind.DUPLICATE));

        String hash = CanonicalForm.contentHash(resolved);
        WindowTruth truth = sim.truth().window(hash, windowStart).orElseThrow();
        assertThat(truth.n()).isEqualTo(stats.sent(ReportKind.VALID));

        List<WindowAnswer> answers = fixture().answersFrom(resolved.id(), windowStart, 1, Duration.ofSeconds(45));
        assertThat(answers).hasSize(1);
        WindowAnswer a = answers.get(0);
        assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(windowStart));
        assertThat(a.getN()).isEqualTo(truth.n());
        printNextToTruth(a, truth);

        Map<String, Long> expected = new java.util.TreeMap<>();
        for (ReportKind k : bad) {
            expected.merge(k.expectedRejection(), stats.sent(k), Long::sum);
        }
        long total = expected.values().stream().mapToLong(Long::longValue).sum();
        List<Rejection> rejections = fixture().rejections("fleet-", l -> l.size() >= total, Duration.ofSeconds(30));
        Map<String, Long> byReason = rejections.stream().collect(Collectors.groupingBy(
                r -> r.getReasonCode().name(), java.util.TreeMap::new, Collectors.counting()));
        assertThat(byReason).isEqualTo(expected);
        // each rejection comes from a device that misbehaves in the matching way
        for (Rejection r : rejections) {
            ReportKind k = sim.behaviourOf(keyOf(r));
            assertThat(k.expectedRejection()).isEqualTo(r.getReasonCode().name());
        }
    }

    static void printNextToTruth(WindowAnswer a, WindowTruth truth) {
        double[] t = truth.meanAnswer();
        StringBuilder sb = new StringBuilder("window " + Instant.ofEpochMilli(truth.windowStart()) + ", n = " + a.getN()
                + "\n  label        estimate   [lower, upper]     truth\n");
        for (int q = 0; q < t.length; q++) {
            sb.append(String.format("  %-10s %8.3f   [%6.3f, %6.3f]  %6.3f%n", a.getLabels().get(q),
                    a.getEstimates().get(q), a.getLower().get(q), a.getUpper().get(q), t[q]));
        }
        System.out.print(sb);
    }
}

package io.privacygateway.simulator;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.client.GatewayFixtureAccess;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.harness.testing.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.Test;

/** Pacing, stopping and the truth record, on a real broker (topics no gateway reads). */
class FleetSimulatorPacingTest extends GatewayFixtureAccess {
    static final GatewayTopics TOPICS = new GatewayTopics("pace-test.");
    static final long T0 = 1_800_000_000_000L;

    static WorkloadSpec cdf() {
        return WorkloadFiles.parse("""
                id: pace-cdf
                version: 1
                family: cdf
                domain: {buckets: [0, 10, 20, 50, 100, 1000]}
                mechanism: grr
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 40.0, period: 1d}
                window: {size: 1s, grace: 0s}
                """, "test");
    }

    Producer<String, SpecificRecord> producer() {
        return ReportProducers.avro(kafkaConfig(), fixture().registryClient, true);
    }

    @Test
    void aPacedRunOnAVirtualClockTakesTurnsAtTheRateAndRecordsTheTruthPerWindow() throws Exception {
        MutableClock clock = new MutableClock(T0); // only moves when the simulator's sleeper advances it
        List<Long> sleeps = new ArrayList<>();
        try (Producer<String, SpecificRecord> p = producer()) {
            FleetSimulator sim = FleetSimulator.builder(p, clock).topics(TOPICS).devices(30).deviceIdPrefix("pace-")
                    .workload(cdf()).turnsPerSecond(20).maxTurns(60).seed(3)
                    .secretRandomness(new SeededRandomBits(3)).sleeper(d -> {
                        sleeps.add(d.toMillis());
                        clock.advance(d);
                    }).build();
            sim.start();
            assertThat(sim.await(Duration.ofSeconds(30))).isTrue();
            FleetStats stats = sim.stop();
            assertThat(stats.turns()).isEqualTo(60);
            assertThat(stats.sent(ReportKind.VALID)).isEqualTo(60);
            assertThat(stats.deliveryFailures()).isZero();
            // turn k is due at T0 + k·50 ms: the clock ends at the last turn's due time, 59 · 50 ms
            assertThat(clock.millis()).isEqualTo(T0 + 59 * 50);
            assertThat(sleeps).allMatch(s -> s == 50);
            // 20 turns per 1-second window, 30 devices each with a fixed value
            List<WindowTruth> windows = sim.truth().windows("pace-cdf");
            assertThat(windows).extracting(WindowTruth::windowStart).containsExactly(T0, T0 + 1000, T0 + 2000);
            assertThat(windows).extracting(WindowTruth::n).containsExactly(20L, 20L, 20L);
            WindowTruth w = windows.get(0);
            assertThat(w.labels()).containsExactly("< 10", "< 20", "< 50", "< 100"); // the k − 1 inner edges
            double[] cdf = w.meanAnswer();
            for (int q = 1; q < cdf.length; q++) {
                assertThat(cdf[q]).isGreaterThanOrEqualTo(cdf[q - 1]);
            }
            assertThat(sim.truth().total()).isEqualTo(60);
        }
    }

    @Test
    void stopEndsARealTimeRunAndStepIsRefusedWhileRunning() throws Exception {
        try (Producer<String, SpecificRecord> p = producer()) {
            FleetSimulator sim = FleetSimulator.builder(p, Clock.systemUTC()).topics(TOPICS).devices(50)
                    .deviceIdPrefix("pace-rt-").workload(cdf()).turnsPerSecond(40).seed(4).build();
            sim.start();
            assertThatThrownBy(() -> sim.step(1)).isInstanceOf(IllegalStateException.class);
            Thread.sleep(500);
            FleetStats stats = sim.stop(); // returns once the turn in flight has finished (no timing asserted)
            assertThat(sim.running()).isFalse();
            assertThat(stats.turns()).isBetween(5L, 40L);
            assertThat(sim.stats().turns()).isEqualTo(stats.turns());
            assertThat(sim.stop().turns()).isEqualTo(stats.turns()); // idempotent
            sim.step(2); // stepping works again once stopped
            assertThat(sim.stats().turns()).isEqualTo(stats.turns() + 2);
        }
    }

    @Test
    void devicesBeyondTheirBudgetAreRefusedLocallyNotSent() throws Exception {
        WorkloadSpec tight = WorkloadFiles.parse("""
                id: pace-tight
                version: 1
                family: histogram
                domain: {labels: [a, b]}
                mechanism: grr
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 2.0, period: 1d}
                window: {size: 1m, grace: 0s}
                """, "test");
        try (Producer<String, SpecificRecord> p = producer()) {
            FleetSimulator sim = FleetSimulator.builder(p, Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC))
                    .topics(TOPICS).devices(10).deviceIdPrefix("pace-tight-").workload(tight).seed(5).build();
            FleetStats s = sim.step(35); // 3.5 cycles: every device has 2 reports a day
            assertThat(s.sent(ReportKind.VALID)).isEqualTo(20);
            assertThat(s.refusedLocally()).isEqualTo(15);
            sim.stop();
        }
    }
}

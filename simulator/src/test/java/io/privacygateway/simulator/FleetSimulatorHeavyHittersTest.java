package io.privacygateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.client.GatewayTopics;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** A fleet reporting strings for a heavy-hitters workload, misbehaving devices included (mock producers, no broker). */
class FleetSimulatorHeavyHittersTest {
    @Test
    void everyKindOfDeviceReportsForAnOpenDomainAndTheTruthIsPerString() {
        WorkloadSpec spec = Planner.resolve(WorkloadFiles.parse("""
                id: fleet-strings
                version: 1
                family: heavy-hitters
                domain: {strings: {maxBytes: 8}}
                mechanism: auto
                epsilonPerReport: 2.0
                budget: {epsilonPerPeriod: 4.0, period: 1d}
                window: {size: 1m, grace: 0s}
                """, "test"));
        MockProducer<String, SpecificRecord> reports = new MockProducer<>(true, null, new StringSerializer(),
                (topic, r) -> new byte[0]);
        MockProducer<String, byte[]> raw = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer());
        Clock clock = Clock.fixed(Instant.ofEpochMilli(1_800_000_000_000L), ZoneOffset.UTC);
        FleetSimulator sim = FleetSimulator.builder(reports, clock).topics(new GatewayTopics("hh.")).devices(200)
                .workload(spec).misbehaving(0.5, java.util.Arrays.stream(ReportKind.values())
                        .filter(k -> k != ReportKind.VALID).toArray(ReportKind[]::new)).rawProducer(raw).seed(5)
                .secretRandomness(new SeededRandomBits(5)).build();
        FleetStats stats = sim.step(400);
        assertThat(stats.turns()).isEqualTo(400);
        assertThat(stats.sent(ReportKind.VALID)).isGreaterThan(100);
        for (ReportKind k : ReportKind.values()) {
            assertThat(stats.sent(k)).as(k.name()).isPositive();
        }
        List<WindowTruth> truth = sim.truth().windows("fleet-strings");
        assertThat(truth).hasSize(1);
        assertThat(truth.get(0).labels()).isNotEmpty().allMatch(s -> s.length() <= 8);
        assertThat(truth.get(0).meanAnswer()[0]).isGreaterThan(0.3); // the default strings' head
    }
}

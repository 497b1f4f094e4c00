package io.privacygateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A fleet reporting vectors for vector-mean workloads (a box and a ball), misbehaving devices included (mock
 * producers, no broker): every kind of report is produced and the window's truth is the mean per coordinate.
 */
class FleetSimulatorVectorMeanTest {
    static final String BOX = """
            id: fleet-box
            version: 1
            family: mean
            domain: {box: {coordinates: [cpu, memory, battery], lo: 0, hi: 100}}
            mechanism: auto
            epsilonPerReport: 2.0
            budget: {epsilonPerPeriod: 4.0, period: 1d}
            window: {size: 1m, grace: 0s}
            """;
    static final String BALL = """
            id: fleet-ball
            version: 1
            family: mean
            domain: {ball: {coordinates: [x1, x2, x3], radius: 1.0}}
            mechanism: auto
            epsilonPerReport: 2.0
            budget: {epsilonPerPeriod: 4.0, period: 1d}
            window: {size: 1m, grace: 0s}
            """;

    @Test
    void everyKindOfDeviceReportsVectorsAndTheTruthIsTheMeanPerCoordinate() {
        for (String file : List.of(BOX, BALL)) {
            WorkloadSpec spec = Planner.resolve(WorkloadFiles.parse(file, "test"));
            MockProducer<String, SpecificRecord> reports = new MockProducer<>(true, null, new StringSerializer(),
                    (topic, r) -> new byte[0]);
            MockProducer<String, byte[]> raw = new MockProducer<>(true, null, new StringSerializer(),
                    new ByteArraySerializer());
            Clock clock = Clock.fixed(Instant.ofEpochMilli(1_800_000_000_000L), ZoneOffset.UTC);
            FleetSimulator sim = FleetSimulator.builder(reports, clock).topics(new GatewayTopics("vm.")).devices(200)
                    .workload(spec).misbehaving(0.5, java.util.Arrays.stream(ReportKind.values())
                            .filter(k -> k != ReportKind.VALID).toArray(ReportKind[]::new)).rawProducer(raw).seed(5)
                    .secretRandomness(new SeededRandomBits(5)).build();
            FleetStats stats = sim.step(400);
            assertThat(stats.turns()).isEqualTo(400);
            assertThat(stats.sent(ReportKind.VALID)).as(spec.id()).isGreaterThan(100);
            for (ReportKind k : ReportKind.values()) {
                assertThat(stats.sent(k)).as(spec.id() + " " + k.name()).isPositive();
            }
            List<WindowTruth> truth = sim.truth().windows(spec.id());
            assertThat(truth).hasSize(1);
            WindowTruth t = truth.get(0);
            assertThat(t.n()).isPositive();
            if (spec.id().equals("fleet-box")) { // the default skewed box: cpu about 20, memory about 40
                assertThat(t.labels()).containsExactly("cpu", "memory", "battery");
                assertThat(t.meanAnswer()[0]).isBetween(12.0, 28.0);
                assertThat(t.meanAnswer()[1]).isBetween(30.0, 50.0);
            } else { // the default skewed ball leans along its first coordinate
                assertThat(t.labels()).containsExactly("x1", "x2", "x3");
                assertThat(t.meanAnswer()[0]).isGreaterThan(t.meanAnswer()[1]).isGreaterThan(0.3);
            }
            assertThat(t.meanAnswerFor(t.labels())).containsExactly(t.meanAnswer());
        }
    }
}

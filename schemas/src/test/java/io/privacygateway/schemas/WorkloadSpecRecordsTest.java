package io.privacygateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.WorkloadSpecRecords.InvalidWorkloadRecordException;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.wire.WireFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/** WorkloadSpec ↔ WorkloadSpecRecord: the content hash survives, inconsistent records are refused. */
class WorkloadSpecRecordsTest {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The example workloads of the repository, and hand-made ones covering every family and mode. */
    static List<WorkloadSpec> specs() throws IOException {
        List<WorkloadSpec> specs = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("..", "examples"))) {
            // every .yaml there is a workload except gateway.yaml and ingest.yaml, the example service configurations
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> !List.of("gateway.yaml", "ingest.yaml").contains(p.getFileName().toString())).sorted().toList()) {
                specs.add(WorkloadSpecParser.parse(YAML.readValue(f.toFile(), Map.class)));
            }
        }
        assertThat(specs).as("example workloads in ../examples").hasSizeGreaterThanOrEqualTo(3);
        specs.add(parseYaml("""
                id: central.points_v2
                version: 7
                family: points
                domain:
                  points:
                    - {label: "a \\"quoted\\" label", answer: [0, 0.1, 1]}
                    - {label: "ünïcödé 😀", answer: [0.3333333333333333, 1, 0]}
                    - {label: "tab\\there", answer: [1e-7, 0.5, 0.25]}
                queries:
                  labels: [q-zero, q-one, q-two]
                mode: central
                mechanism: central-projection
                budget: {epsilonPerPeriod: 2.5, period: PT36H}
                window: {size: 90s, grace: 0ms}
                confidence: 0.9
                epsilonSplit: equal
                central: {epsilonPerRelease: 0.7, neighbour: replace-one, contributionsPerWindow: 3}
                """));
        specs.add(parseYaml("""
                id: ranges
                version: 1
                family: range
                domain:
                  buckets: [-1.5, 0.1, 0.2, 1e3, 12345.678]
                mechanism: chaining
                alpha: 0.05
                epsilonPerReport: 0.3
                budget: {epsilonPerPeriod: 0.9, period: 1h}
                window: {size: 1m, grace: 10s}
                expectedReportsPerWindow: 123456789
                """));
        specs.add(parseYaml("""
                id: flags
                version: 2
                family: marginals
                domain: {attributes: [a, b, c, d]}
                queries: {way: 2}
                mechanism: olh
                epsilonPerReport: 1.1
                budget: {epsilonPerPeriod: 3.3, period: 1d}
                window: {size: 5m}
                """));
        specs.add(parseYaml("""
                id: latency-central
                version: 3
                family: cdf
                domain: {buckets: [0, 10, 20, 40, 80]}
                mode: central
                mechanism: laplace
                budget: {epsilonPerPeriod: 1, period: 1d}
                window: {size: 1m, grace: 10s}
                central: {epsilonPerRelease: 1, neighbour: add-remove}
                """));
        return specs;
    }

    static WorkloadSpec parseYaml(String yaml) throws IOException {
        return WorkloadSpecParser.parse(YAML.readValue(yaml, Map.class));
    }

    @Test
    void everySpecRoundTripsWithTheSameContentHash() throws IOException {
        for (WorkloadSpec spec : specs()) {
            String hash = CanonicalForm.contentHash(spec);
            WorkloadSpecRecord record = WorkloadSpecRecords.toRecord(spec);

            assertThat(record.getContentHash()).isEqualTo(hash);
            assertThat(record.getSpecJson()).isEqualTo(CanonicalForm.of(spec));
            assertThat(record.getId()).isEqualTo(spec.id());
            assertThat(record.getVersion()).isEqualTo(spec.version());
            assertThat(record.getMode()).isEqualTo(spec.mode().wireName());
            assertThat(record.getMechanism()).isEqualTo(spec.mechanism().wireName());

            WorkloadSpec back = WorkloadSpecRecords.toSpec(record);
            assertThat(CanonicalForm.contentHash(back)).as(spec.id()).isEqualTo(hash);
            assertThat(back).as(spec.id()).isEqualTo(spec);
        }
    }

    @Test
    void throughTheWireFormatToo() throws IOException {
        for (WorkloadSpec spec : specs()) {
            byte[] bytes = WireFormat.encode(9, WorkloadSpecRecords.toRecord(spec));
            WorkloadSpecRecord decoded = WireFormat.decode(bytes, id -> WorkloadSpecRecord.getClassSchema(),
                    WorkloadSpecRecord.getClassSchema(), SpecificData.getForClass(WorkloadSpecRecord.class));
            assertThat(CanonicalForm.contentHash(WorkloadSpecRecords.toSpec(decoded)))
                    .isEqualTo(CanonicalForm.contentHash(spec));
        }
    }

    @Test
    void resolvedMechanismsAndRandomEpsilonsKeepTheirHash() throws IOException {
        // Doubles whose exact decimal expansions are long: the canonical text must parse back to the
        // same double through Jackson.
        Random random = new Random(11);
        WorkloadSpec base = specs().get(0);
        for (int i = 0; i < 200; i++) {
            double eps = Math.scalb(1 + random.nextDouble(), -random.nextInt(8));
            io.privacygateway.mechanisms.param.Epsilon e = new io.privacygateway.mechanisms.param.Epsilon(eps);
            WorkloadSpec spec = base.toBuilder().mechanism(MechanismId.OUE).epsilonPerAnswer(e)
                    .budgetAtLeastOneCharge().build();
            WorkloadSpec back = WorkloadSpecRecords.toSpec(WorkloadSpecRecords.toRecord(spec));
            assertThat(CanonicalForm.contentHash(back)).isEqualTo(CanonicalForm.contentHash(spec));
            assertThat(back.epsilonPerReport()).isEqualTo(e);
            assertThat(back.epsilonPerReport().value()).isEqualTo(e.value());
        }
    }

    @Test
    void inconsistentRecordsAreRefused() throws IOException {
        WorkloadSpec spec = specs().get(0);
        WorkloadSpecRecord good = WorkloadSpecRecords.toRecord(spec);

        WorkloadSpecRecord wrongHash = WorkloadSpecRecord.newBuilder(good).setContentHash("00".repeat(32)).build();
        assertThatThrownBy(() -> WorkloadSpecRecords.toSpec(wrongHash))
                .isInstanceOf(InvalidWorkloadRecordException.class).hasMessageContaining("contentHash");

        WorkloadSpecRecord wrongVersion = WorkloadSpecRecord.newBuilder(good).setVersion(good.getVersion() + 1).build();
        assertThatThrownBy(() -> WorkloadSpecRecords.toSpec(wrongVersion)).hasMessageContaining("version");

        WorkloadSpecRecord wrongMechanism = WorkloadSpecRecord.newBuilder(good).setMechanism("grr").build();
        assertThatThrownBy(() -> WorkloadSpecRecords.toSpec(wrongMechanism)).hasMessageContaining("mechanism");

        WorkloadSpecRecord wrongMode = WorkloadSpecRecord.newBuilder(good).setMode("central").build();
        assertThatThrownBy(() -> WorkloadSpecRecords.toSpec(wrongMode)).hasMessageContaining("mode");

        // Same spec, not canonical text: its bytes would hash differently, so it is refused.
        String pretty = new ObjectMapper().writerWithDefaultPrettyPrinter()
                .writeValueAsString(new ObjectMapper().readTree(good.getSpecJson()));
        WorkloadSpecRecord notCanonical = WorkloadSpecRecord.newBuilder(good).setSpecJson(pretty).build();
        assertThatThrownBy(() -> WorkloadSpecRecords.toSpec(notCanonical)).hasMessageContaining("canonical");

        for (String json : List.of("", "not json", "[1,2]", "null", "{\"id\":\"x\"}", "{\"a\":1} trailing",
                good.getSpecJson().replace("{\"budget\"", "{\"id\":\"dup\",\"budget\""))) {
            WorkloadSpecRecord bad = WorkloadSpecRecord.newBuilder(good).setSpecJson(json).build();
            assertThatThrownBy(() -> WorkloadSpecRecords.toSpec(bad)).as(json)
                    .isInstanceOf(InvalidWorkloadRecordException.class);
        }
    }
}

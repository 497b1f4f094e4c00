package io.privacygateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.CompatibilityLevel;
import io.privacygateway.schemas.registry.CompatibilityResult;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.schemas.testing.SampleRecords;
import io.privacygateway.schemas.wire.WireFormat;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The compatibility policy against a real registry: the startup setup, an accepted evolution that
 * old and new readers and writers interoperate across through the serdes, and rejected breaking
 * changes.
 */
class SchemaEvolutionTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.perClass();

    static Function<ProjectTopic, String> prefixed(String prefix) {
        return t -> prefix + t.defaultName();
    }

    /** A copy of {@code schema} with its JSON edited. */
    static Schema edit(Schema schema, Consumer<ObjectNode> change) {
        try {
            ObjectNode tree = (ObjectNode) JSON.readTree(schema.toString());
            change.accept(tree);
            return new Schema.Parser().parse(JSON.writeValueAsString(tree));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static ArrayNode fields(ObjectNode record) {
        return (ArrayNode) record.get("fields");
    }

    static int indexOf(ArrayNode fields, String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).get("name").asText().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /** WindowAnswer plus an optional field with a default: the kind of change the policy allows. */
    static final Schema ANSWER_V2 = edit(WindowAnswer.getClassSchema(), r -> fields(r).addObject()
            .put("name", "suppressedCells")
            .put("type", "int")
            .put("default", 0)
            .put("doc", "Cells withheld from this answer (added in v2)."));

    @Test
    void setUpAppliesThePolicyToEverySubjectAndIsIdempotent() {
        Function<ProjectTopic, String> names = prefixed("setup.");
        Map<ProjectTopic, Integer> ids = SchemaCompatibility.setUp(registry.client(), names);

        assertThat(ids).containsOnlyKeys(ProjectTopic.values());
        for (ProjectTopic topic : ProjectTopic.values()) {
            String subject = SchemaRegistryClient.valueSubject(names.apply(topic));
            assertThat(registry.client().getCompatibility(subject)).as(subject).isEqualTo(SchemaCompatibility.POLICY);
            assertThat(registry.client().latest(subject).id()).isEqualTo(ids.get(topic));
            assertThat(registry.client().latest(subject).schema()).isEqualTo(topic.valueSchema());
        }
        assertThat(SchemaCompatibility.POLICY).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);

        // At every restart: same ids, no new versions.
        SchemaRegistryClient restarted = SchemaRegistryClient.forUrl(registry.ccompatUrl());
        assertThat(SchemaCompatibility.setUp(restarted, names)).isEqualTo(ids);
        for (ProjectTopic topic : ProjectTopic.values()) {
            assertThat(restarted.versions(SchemaRegistryClient.valueSubject(names.apply(topic)))).containsExactly(1);
        }
        assertThat(SchemaCompatibility.check(restarted, names).values())
                .allSatisfy(r -> assertThat(r.compatible()).isTrue());
    }

    @Test
    void anOptionalFieldWithADefaultIsAcceptedAndOldAndNewInteroperate() throws Exception {
        Function<ProjectTopic, String> names = prefixed("evolve.");
        SchemaCompatibility.setUp(registry.client(), names);
        String topic = names.apply(ProjectTopic.ANSWERS);
        String subject = SchemaRegistryClient.valueSubject(topic);

        CompatibilityResult check = registry.client().testCompatibility(subject, ANSWER_V2);
        assertThat(check.compatible()).as("%s", check.messages()).isTrue();
        int v2Id = registry.client().register(subject, ANSWER_V2);
        assertThat(registry.client().versions(subject)).containsExactly(1, 2);

        WindowAnswer sample = SampleRecords.windowAnswer();

        // New writer (v2, a generic record with the new field set) -> old reader (generated v1 class).
        GenericRecord v2Record = asGeneric(sample, ANSWER_V2);
        assertThat(v2Record.get("suppressedCells")).as("default filled in").isEqualTo(0);
        v2Record.put("suppressedCells", 3);
        byte[] newBytes = new AvroSerializer<GenericRecord>(registry.client()).serialize(topic, v2Record);
        assertThat(WireFormat.schemaId(newBytes)).isEqualTo(v2Id);
        AvroDeserializer<WindowAnswer> oldReader = new AvroDeserializer<>(WindowAnswer.class,
                SchemaRegistryClient.forUrl(registry.ccompatUrl()));
        assertThat(oldReader.deserialize(topic, newBytes)).isEqualTo(sample);

        // Old writer (generated v1 class) -> new reader (v2 schema): the new field takes its default.
        byte[] oldBytes = new AvroSerializer<WindowAnswer>(registry.client()).serialize(topic, sample);
        assertThat(WireFormat.schemaId(oldBytes)).isNotEqualTo(v2Id);
        AvroDeserializer<GenericRecord> newReader = AvroDeserializer.generic(ANSWER_V2,
                SchemaRegistryClient.forUrl(registry.ccompatUrl()));
        GenericRecord read = newReader.deserialize(topic, oldBytes);
        assertThat(read.get("suppressedCells")).isEqualTo(0);
        assertThat(read.get("workloadId").toString()).isEqualTo(sample.getWorkloadId());
        assertThat(read.get("n")).isEqualTo(sample.getN());
        assertThat(read.get("windowStart")).isEqualTo(sample.getWindowStart().toEpochMilli());
        assertThat(read.get("estimates")).isEqualTo(sample.getEstimates());
        // And new writer -> new reader keeps the value.
        assertThat(newReader.deserialize(topic, newBytes).get("suppressedCells")).isEqualTo(3);
    }

    /** The specific record re-read as a generic record of {@code schema} (Avro resolution). */
    static GenericRecord asGeneric(WindowAnswer answer, Schema schema) throws java.io.IOException {
        byte[] bytes = WireFormat.encode(1, answer);
        return WireFormat.decodeBody(bytes, 1,
                new GenericDatumReader<GenericRecord>(WindowAnswer.getClassSchema(), schema, GenericData.get()));
    }

    @Test
    void breakingChangesAreRejectedByTheRegistry() {
        Function<ProjectTopic, String> names = prefixed("break.");
        SchemaCompatibility.setUp(registry.client(), names);
        String subject = SchemaRegistryClient.valueSubject(names.apply(ProjectTopic.ANSWERS));

        Schema withoutN = edit(WindowAnswer.getClassSchema(), r -> fields(r).remove(indexOf(fields(r), "n")));
        Schema nAsString = edit(WindowAnswer.getClassSchema(), r -> ((ObjectNode) fields(r).get(indexOf(fields(r), "n")))
                .put("type", "string"));
        Schema requiredAddition = edit(WindowAnswer.getClassSchema(), r -> fields(r).addObject()
                .put("name", "suppressedCells").put("type", "int"));
        Schema renamedField = edit(WindowAnswer.getClassSchema(), r -> ((ObjectNode) fields(r).get(indexOf(fields(r), "n")))
                .put("name", "count"));

        for (Map.Entry<String, Schema> change : Map.of(
                "remove required field n", withoutN,
                "n: long -> string", nAsString,
                "add a field without default", requiredAddition,
                "rename n to count", renamedField).entrySet()) {
            CompatibilityResult result = registry.client().testCompatibility(subject, change.getValue());
            assertThat(result.compatible()).as(change.getKey()).isFalse();
            assertThat(result.messages()).as(change.getKey()).isNotEmpty();
            SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class,
                    () -> registry.client().register(subject, change.getValue()));
            assertThat(e.isIncompatible()).as(change.getKey()).isTrue();
        }
        assertThat(registry.client().versions(subject)).containsExactly(1);
    }

    @Test
    void aNewRejectionReasonIsAcceptedAndOldReadersSeeUnknown() {
        Function<ProjectTopic, String> names = prefixed("enum.");
        SchemaCompatibility.setUp(registry.client(), names);
        String topic = names.apply(ProjectTopic.REJECTIONS);
        Schema v2 = edit(Rejection.getClassSchema(), r -> {
            ObjectNode reason = (ObjectNode) fields(r).get(indexOf(fields(r), "reasonCode")).get("type");
            ((ArrayNode) reason.get("symbols")).add("RATE_LIMITED");
        });

        CompatibilityResult check = registry.client().testCompatibility(SchemaRegistryClient.valueSubject(topic), v2);
        System.out.println("new enum symbol: " + check);
        assertThat(check.compatible()).as("%s", check.messages()).isTrue();

        Rejection sample = SampleRecords.rejection();
        GenericRecord record = new GenericData.Record(v2);
        for (Schema.Field f : v2.getFields()) {
            Object value = sample.get(f.name());
            record.put(f.name(), value instanceof Enum<?> ? null : value);
        }
        record.put("reasonCode", new GenericData.EnumSymbol(v2.getField("reasonCode").schema(), "RATE_LIMITED"));
        byte[] bytes = new AvroSerializer<GenericRecord>(registry.client()).serialize(topic, record);

        Rejection old = new AvroDeserializer<>(Rejection.class, registry.client()).deserialize(topic, bytes);
        assertThat(old.getReasonCode()).isEqualTo(RejectionReason.UNKNOWN);
        assertThat(old.getMessage()).isEqualTo(sample.getMessage());
    }
}

package io.privacygateway.schemas;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import java.util.Map;

/**
 * Conversion between {@link WorkloadSpec} and the workloads topic's {@link WorkloadSpecRecord}.
 *
 * <p>The record carries the spec's canonical JSON ({@link CanonicalForm#of}). Reading it back goes
 * JSON text → Jackson → map tree → {@link WorkloadSpecParser}, and is verified: the text must be
 * exactly the canonical form of the spec it parses to, and the record's content hash, id,
 * version, mode and mechanism must agree with it. So a record that is read successfully yields a
 * spec with the content hash the writer computed, bit for bit — the public coins and every
 * versioned artifact depend on that.
 */
public final class WorkloadSpecRecords {
    private WorkloadSpecRecords() {}

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** A record of a spec (normally a resolved one: mechanism not {@code auto}). */
    public static WorkloadSpecRecord toRecord(WorkloadSpec spec) {
        String json = CanonicalForm.of(spec);
        return WorkloadSpecRecord.newBuilder()
                .setId(spec.id())
                .setVersion(spec.version())
                .setContentHash(CanonicalForm.contentHash(spec))
                .setMode(spec.mode().wireName())
                .setMechanism(spec.mechanism().wireName())
                .setSpecJson(json)
                .build();
    }

    /**
     * The spec in a record, verified as described in the class comment.
     *
     * @throws InvalidWorkloadRecordException if the JSON does not parse, is not a valid workload,
     *     is not canonical, or disagrees with the record's other fields
     */
    public static WorkloadSpec toSpec(WorkloadSpecRecord record) {
        String json = record.getSpecJson();
        WorkloadSpec spec = parseJson(json);
        String canonical = CanonicalForm.of(spec);
        if (!canonical.equals(json)) {
            throw new InvalidWorkloadRecordException(record.getId(), "specJson is not in canonical form: its spec"
                    + " renders as " + canonical);
        }
        String hash = CanonicalForm.contentHash(spec);
        check(record, "contentHash", record.getContentHash(), hash);
        check(record, "id", record.getId(), spec.id());
        check(record, "version", record.getVersion(), spec.version());
        check(record, "mode", record.getMode(), spec.mode().wireName());
        check(record, "mechanism", record.getMechanism(), spec.mechanism().wireName());
        return spec;
    }

    /**
     * Parses workload JSON (canonical or not) through Jackson and {@link WorkloadSpecParser}.
     *
     * @throws InvalidWorkloadRecordException if it is not JSON or not a valid workload
     */
    public static WorkloadSpec parseJson(String json) {
        Map<?, ?> tree;
        try {
            tree = JSON.readValue(json, Map.class);
        } catch (JsonProcessingException e) {
            throw new InvalidWorkloadRecordException(null, "specJson is not a JSON object: " + e.getOriginalMessage());
        }
        try {
            return WorkloadSpecParser.parse(tree);
        } catch (InvalidWorkloadException e) {
            throw new InvalidWorkloadRecordException(null, "specJson is not a valid workload: " + e.getMessage());
        }
    }

    private static void check(WorkloadSpecRecord record, String field, Object recorded, Object actual) {
        if (!recorded.equals(actual)) {
            throw new InvalidWorkloadRecordException(record.getId(), field + " is " + recorded
                    + " but specJson says " + actual);
        }
    }

    /** A workloads-topic record that does not hold a consistent, valid workload spec. */
    public static final class InvalidWorkloadRecordException extends IllegalArgumentException {
        public InvalidWorkloadRecordException(String workloadId, String message) {
            super((workloadId == null ? "" : "workload record " + workloadId + ": ") + message);
        }
    }
}

package io.privacygateway.itests.support;

import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.harness.testing.TopicReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * When a workload version became active: the broker's append time of its first registration record on the
 * compacted workloads topic (LogAppendTime), which is what the gateway reads too (re-publishing the active version
 * changes nothing).
 */
public final class Registrations {
    private Registrations() {}

    public static long activatedAt(Map<String, Object> kafka, SchemaRegistryClient registry, String workloadsTopic,
            String id, String contentHash) {
        AvroDeserializer<WorkloadSpecRecord> d = new AvroDeserializer<>(WorkloadSpecRecord.class, registry);
        List<ConsumerRecord<byte[], byte[]>> records = TopicReader.read(kafka, workloadsTopic,
                r -> id.equals(TopicReader.string(r.key())) && r.value() != null
                        && contentHash.equals(d.deserialize(workloadsTopic, r.value()).getContentHash()),
                l -> !l.isEmpty(), Duration.ofSeconds(30));
        if (records.isEmpty()) {
            throw new AssertionError("no registration of " + id + " (" + contentHash + ") on " + workloadsTopic);
        }
        return records.get(0).timestamp();
    }
}

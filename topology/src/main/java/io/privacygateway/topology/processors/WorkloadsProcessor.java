package io.privacygateway.topology.processors;

import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.wire.WireFormatException;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.workload.WorkloadCache;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maintains the global workloads store from the compacted workloads topic: key = workload id, value =
 * its current content hash; and key {@code spec:<contentHash>}, value = the canonical spec JSON (so a
 * report's lookup reads 64 characters, and specs of replaced versions stay resolvable). A record that cannot be decoded or whose spec does not
 * validate is not stored (the previous version stays active) and is counted in
 * {@code pgw.workloads.invalid}; a tombstone removes the workload.
 */
public final class WorkloadsProcessor implements Processor<String, byte[], Void, Void> {
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadsProcessor.class);
    private final String storeName;
    private final Deserializer<WorkloadSpecRecord> deserializer;
    private final WorkloadCache cache;
    private final GatewayMetrics metrics;
    private KeyValueStore<String, String> store;
    private String topic;

    public WorkloadsProcessor(String storeName, String topic, Deserializer<WorkloadSpecRecord> deserializer,
            WorkloadCache cache, GatewayMetrics metrics) {
        this.storeName = storeName;
        this.topic = topic;
        this.deserializer = deserializer;
        this.cache = cache;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.key() == null) {
            metrics.invalidWorkload();
            LOG.warn("ignoring a workload record without a key");
            return;
        }
        if (record.value() == null) {
            store.delete(record.key()); // the spec entry stays so windows of that version can still be released
            return;
        }
        try {
            WorkloadSpecRecord r = deserializer.deserialize(topic, record.value());
            if (!r.getId().equals(record.key())) {
                throw new IllegalArgumentException("record key " + record.key() + " differs from spec id " + r.getId());
            }
            cache.get(r.getSpecJson(), r.getContentHash()); // validates and builds the pipeline once
            store.put(specKey(r.getContentHash()), r.getSpecJson());
            store.put(record.key(), r.getContentHash());
        } catch (WireFormatException e) {
            if (!e.isRecordFault()) {
                throw e; // registry unavailable: retry rather than ignore a workload
            }
            metrics.invalidWorkload();
            LOG.warn("ignoring an undecodable workload record for {}: {}", record.key(), e.getMessage());
        } catch (RuntimeException e) {
            metrics.invalidWorkload();
            LOG.warn("ignoring an invalid workload record for {}: {}", record.key(), e.getMessage());
        }
    }

    /** The store key of a spec by content hash. */
    public static String specKey(String contentHash) {
        return "spec:" + contentHash;
    }

    /** Whether a store key is a spec entry rather than a workload id. */
    public static boolean isSpecKey(String key) {
        return key.startsWith("spec:");
    }
}

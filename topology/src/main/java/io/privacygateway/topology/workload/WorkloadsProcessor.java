package io.privacygateway.topology.workload;

import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.wire.WireFormatException;
import io.privacygateway.topology.GatewayMetrics;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maintains the global workloads store and the instance's {@link WorkloadCatalog} from the compacted workloads
 * topic (also while restoring): key = workload id, value = {@code <contentHash>@<activation time>} (with
 * {@code !<deletion time>} once deleted); key {@code spec:<contentHash>}, value = the canonical spec JSON. The activation time is
 * the record's timestamp (the topic uses LogAppendTime: the broker's time of registration). Re-publishing the
 * active version changes nothing (its activation time stays). A record that cannot be decoded or whose spec does
 * not validate is not stored (the previous version stays active) and is counted in {@code pgw.workloads.invalid}.
 */
public final class WorkloadsProcessor implements Processor<String, byte[], Void, Void> {
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadsProcessor.class);
    private final String storeName;
    private final String topic;
    private final Deserializer<WorkloadSpecRecord> deserializer;
    private final WorkloadCatalog catalog;
    private final GatewayMetrics metrics;
    private KeyValueStore<String, String> store;

    public WorkloadsProcessor(String storeName, String topic, Deserializer<WorkloadSpecRecord> deserializer,
            WorkloadCatalog catalog, GatewayMetrics metrics) {
        this.storeName = storeName;
        this.topic = topic;
        this.deserializer = deserializer;
        this.catalog = catalog;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
        catalog.specStore(hash -> store.get(specKey(hash)));
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String id = record.key();
        if (id == null || id.isEmpty() || id.length() > 100) {
            metrics.invalidWorkload();
            LOG.warn("ignoring a workload record without a valid key");
            return;
        }
        if (record.value() == null) {
            Registration r = catalog.delete(id, record.timestamp());
            if (r != null) {
                store.put(id, r.storeValue()); // specs stay so windows of that version can still be released
            }
            return;
        }
        try {
            WorkloadSpecRecord r = deserializer.deserialize(topic, record.value());
            if (!r.getId().equals(id)) {
                throw new IllegalArgumentException("record key " + id + " differs from spec id " + r.getId());
            }
            Registration prior = catalog.current(id);
            if (prior != null && !prior.deleted() && r.getContentHash().equals(prior.contentHash())) {
                return; // the active version again: nothing changes
            }
            Registration now = catalog.activate(id, r.getSpecJson(), r.getContentHash(), record.timestamp());
            store.put(specKey(r.getContentHash()), r.getSpecJson());
            store.put(id, now.storeValue());
        } catch (WireFormatException e) {
            if (!e.isRecordFault()) {
                throw e; // registry unavailable: retry rather than ignore a workload
            }
            metrics.invalidWorkload();
            LOG.warn("ignoring an undecodable workload record for {}: {}", id, e.getMessage());
        } catch (RuntimeException e) {
            metrics.invalidWorkload();
            LOG.warn("ignoring an invalid workload record for {}: {}", id, e.getMessage());
        }
    }

    /** The store key of a spec by content hash. */
    public static String specKey(String contentHash) {
        return "spec:" + contentHash;
    }
}

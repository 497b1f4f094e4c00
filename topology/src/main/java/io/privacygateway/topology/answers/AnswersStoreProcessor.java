package io.privacygateway.topology.answers;

import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.wire.WireFormatException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the global answers store from the answers topic (also while restoring): every answer record that decodes is
 * stored as published (its Confluent wire-format bytes, so a later schema version still reads it through the
 * registry) under its {@link AnswerKey}. Tombstones and records that are not answers (undecodable, a schema outside
 * the topic's subject) are skipped with a warning naming the record key only; a registry that does not answer is
 * not the record's fault, so that failure is thrown and the record read again.
 */
public final class AnswersStoreProcessor implements Processor<String, byte[], Void, Void> {
    private static final Logger LOG = LoggerFactory.getLogger(AnswersStoreProcessor.class);
    private final String storeName;
    private final String topic;
    private final Deserializer<WindowAnswer> deserializer;
    private KeyValueStore<Bytes, byte[]> store;

    public AnswersStoreProcessor(String storeName, String topic, Deserializer<WindowAnswer> deserializer) {
        this.storeName = storeName;
        this.topic = topic;
        this.deserializer = deserializer;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.value() == null) {
            return;
        }
        WindowAnswer a;
        try {
            a = deserializer.deserialize(topic, record.value());
        } catch (WireFormatException e) {
            if (!e.isRecordFault()) {
                throw e;
            }
            LOG.warn("answers store: skipping an undecodable record with key {}: {}", printable(record.key()),
                    e.reason());
            return;
        } catch (RuntimeException e) {
            LOG.warn("answers store: skipping an unreadable record with key {}: {}", printable(record.key()),
                    e.getClass().getSimpleName());
            return;
        }
        AnswerKey key;
        try {
            key = AnswerKey.of(a);
        } catch (IllegalArgumentException e) {
            LOG.warn("answers store: skipping an answer with key {}: {}", printable(record.key()), e.getMessage());
            return;
        }
        store.put(Bytes.wrap(key.encode()), record.value());
    }

    private static String printable(String key) {
        if (key == null) {
            return "(none)";
        }
        return key.length() <= 100 && key.matches("[A-Za-z0-9._-]*") ? key : "(not a workload id)";
    }
}

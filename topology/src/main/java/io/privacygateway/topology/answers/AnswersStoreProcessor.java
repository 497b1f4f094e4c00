package io.privacygateway.topology.answers;

import java.time.Instant;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.wire.WireFormatException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the global answers store from the answers topic (also while restoring): every answer record that decodes is
 * stored as published (its Confluent wire-format bytes, so a later schema version still reads it through the
 * registry) under its {@link AnswerKey}. Tombstones and records that are not answers (undecodable, a schema outside
 * the topic's subject) are skipped with a warning naming the record key only; a registry that does not answer is
 * not the record's fault, so that failure is thrown and the record read again.
 *
 * <p>With a finite retention ({@code retention.answers}) the store forgets what the topic forgets: whenever the newest
 * window end it has read has advanced by {@link #pruneInterval} since the last time, it deletes the answers whose window
 * ended more than the retention before that newest end (a record's timestamp is its window's end, which the broker's
 * time-based retention compares). So a long-running instance and a fresh one, restored from the topic, serve the same
 * history up to the broker's segment granularity. With retention forever ({@code -1}) nothing is ever deleted.
 */
public final class AnswersStoreProcessor implements Processor<String, byte[], Void, Void> {
    private static final Logger LOG = LoggerFactory.getLogger(AnswersStoreProcessor.class);
    private final String storeName;
    private final String topic;
    private final Deserializer<WindowAnswer> deserializer;
    private final long retentionMs;
    private KeyValueStore<Bytes, byte[]> store;
    private long newestEnd = Long.MIN_VALUE;
    private long prunedAt = Long.MIN_VALUE;

    /**
     * @param retentionMs the answers topic's retention in milliseconds, or {@code -1} (forever: nothing is deleted)
     */
    public AnswersStoreProcessor(String storeName, String topic, Deserializer<WindowAnswer> deserializer,
            long retentionMs) {
        if (retentionMs != -1 && retentionMs < 1) {
            throw new IllegalArgumentException("retentionMs must be -1 or positive, got " + retentionMs);
        }
        this.storeName = storeName;
        this.topic = topic;
        this.deserializer = deserializer;
        this.retentionMs = retentionMs;
    }

    /** How far the newest window end must advance between two prunings: a tenth of the retention, in [1 min, 1 h]. */
    public static long pruneInterval(long retentionMs) {
        return Math.max(60_000L, Math.min(3_600_000L, retentionMs / 10));
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
        if (retentionMs > 0) {
            newestEnd = Math.max(newestEnd, a.getWindowEnd().toEpochMilli());
            if (prunedAt == Long.MIN_VALUE || newestEnd - prunedAt >= pruneInterval(retentionMs)) {
                prune(newestEnd - retentionMs);
                prunedAt = newestEnd;
            }
        }
    }

    /** Deletes the answers whose window ended before {@code cutoff} (decoding only those that started before it). */
    private void prune(long cutoff) {
        List<Bytes> expired = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                AnswerKey k;
                try {
                    k = AnswerKey.decode(kv.key.get());
                } catch (IllegalArgumentException e) {
                    expired.add(kv.key); // not written by this processor
                    continue;
                }
                if (k.windowStart() < cutoff) {
                    try {
                        if (deserializer.deserialize(topic, kv.value).getWindowEnd().toEpochMilli() < cutoff) {
                            expired.add(kv.key);
                        }
                    } catch (WireFormatException e) {
                        if (e.isRecordFault()) {
                            expired.add(kv.key);
                        } else {
                            throw e;
                        }
                    }
                }
            }
        }
        for (Bytes k : expired) {
            store.delete(k);
        }
        if (!expired.isEmpty()) {
            LOG.info("answers store: forgot {} answers that ended before {} (retention.answers)", expired.size(),
                    Instant.ofEpochMilli(cutoff));
        }
    }

    private static String printable(String key) {
        if (key == null) {
            return "(none)";
        }
        return key.length() <= 100 && key.matches("[A-Za-z0-9._-]*") ? key : "(not a workload id)";
    }
}

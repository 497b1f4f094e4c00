package io.privacygateway.topology.answers;

import java.util.Arrays;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.wire.WireFormatException;
import java.util.Objects;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Every answer retained on the answers topic, as the gateway instance keeps it: a Kafka Streams global store
 * ({@value #NAME}, RocksDB under the state directory) that every instance holds in full, filled by
 * {@link AnswersStoreProcessor} from the answers topic and queried here interactively (no request reads the topic).
 *
 * <p>Guarantees: the store holds what the topic holds ({@code read_committed}: answers of committed transactions
 * only), one entry per {@link AnswerKey}, in key order; it is queryable while the streams client is RUNNING or
 * REBALANCING, and a fresh instance restores it from the topic before it reaches RUNNING. A scan holds a RocksDB
 * iterator only for the duration of the call. Thread-safe.
 */
public final class AnswersStore {
    /** The global store's name. */
    public static final String NAME = "answers";

    /** One stored answer with its encoded key (what a cursor resumes from). */
    public record Entry(byte[] key, WindowAnswer answer) {}

    /** The store cannot be read now (the gateway is starting or stopped, or the registry does not answer). */
    public static final class UnavailableException extends Exception {
        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final KafkaStreams streams;
    private final String topic;
    private final Deserializer<WindowAnswer> deserializer;

    /**
     * @param streams the gateway's streams client, whose topology has the store (built with
     *     {@code GatewayConfig.answersStore})
     * @param topic the answers topic (the deserializer checks ids against its subject)
     * @param deserializer reads the stored wire-format bytes
     */
    public AnswersStore(KafkaStreams streams, String topic, Deserializer<WindowAnswer> deserializer) {
        this.streams = Objects.requireNonNull(streams, "streams");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.deserializer = Objects.requireNonNull(deserializer, "deserializer");
    }

    /**
     * Visits the answers of {@code workload} from key {@code startKey} (inclusive; at least
     * {@link AnswerKey#lowerBound(String, long)} of the workload) to the first window starting at or after
     * {@code toExclusive}, in key order (window start, horizon, version), until {@code visitor} returns false.
     *
     * @throws UnavailableException if the store is not queryable now, or a stored answer's schema cannot be fetched
     */
    public void scan(String workload, byte[] startKey, long toExclusive, Predicate<Entry> visitor)
            throws UnavailableException {
        byte[] end = AnswerKey.lowerBound(workload, toExclusive);
        if (Arrays.compareUnsigned(startKey, end) >= 0) {
            return;
        }
        ReadOnlyKeyValueStore<Bytes, byte[]> store = store();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(Bytes.wrap(startKey), Bytes.wrap(end))) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                WindowAnswer a;
                try {
                    a = deserializer.deserialize(topic, kv.value);
                } catch (WireFormatException e) {
                    if (!e.isRecordFault()) {
                        throw new UnavailableException("the schema registry did not answer: " + e.reason(), e);
                    }
                    continue; // checked when stored; a schema deleted from the registry since
                }
                if (!visitor.test(new Entry(kv.key.get(), a))) {
                    return;
                }
            }
        } catch (InvalidStateStoreException e) {
            throw new UnavailableException("the answers store is not queryable now (" + streams.state() + ")", e);
        }
    }

    /** Whether the store holds any answer of {@code workload}. */
    public boolean hasAny(String workload) throws UnavailableException {
        ReadOnlyKeyValueStore<Bytes, byte[]> store = store();
        try (KeyValueIterator<Bytes, byte[]> it = store.range(Bytes.wrap(AnswerKey.lowerBound(workload, Long.MIN_VALUE)),
                Bytes.wrap(AnswerKey.lowerBound(workload, Long.MAX_VALUE)))) {
            return it.hasNext();
        } catch (InvalidStateStoreException e) {
            throw new UnavailableException("the answers store is not queryable now (" + streams.state() + ")", e);
        }
    }

    /** The number of stored answers (RocksDB's estimate). */
    public long approximateCount() throws UnavailableException {
        return store().approximateNumEntries();
    }

    private ReadOnlyKeyValueStore<Bytes, byte[]> store() throws UnavailableException {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(NAME,
                    QueryableStoreTypes.<Bytes, byte[]>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw new UnavailableException("the answers store is not queryable now (" + streams.state() + ")", e);
        }
    }
}

package io.privacygateway.topology.state;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds a {@link WriteBehindStore}: an in-memory or RocksDB byte store with a changelog (always: the
 * gateway's state must survive crashes) and no Kafka Streams cache (the store is its own, typed cache).
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class WriteBehindStoreBuilder<K, V> implements StoreBuilder<WriteBehindStore<K, V>> {
    private final String name;
    private final KeyValueBytesStoreSupplier supplier;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final boolean retainClean;
    private Map<String, String> logConfig = new HashMap<>();

    private WriteBehindStoreBuilder(String name, boolean persistent, Serde<K> keySerde, Serde<V> valueSerde,
            boolean retainClean) {
        this.name = name;
        this.supplier = persistent ? Stores.persistentKeyValueStore(name) : Stores.inMemoryKeyValueStore(name);
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.retainClean = retainClean;
    }

    /** A store whose values stay live between commits (small, hot state such as open windows). */
    public static <K, V> WriteBehindStoreBuilder<K, V> live(String name, Serde<K> keySerde, Serde<V> valueSerde) {
        return new WriteBehindStoreBuilder<>(name, false, keySerde, valueSerde, true);
    }

    /** A RocksDB-backed store whose values are kept in memory only until the next commit (large state). */
    public static <K, V> WriteBehindStoreBuilder<K, V> persistent(String name, Serde<K> keySerde, Serde<V> valueSerde) {
        return new WriteBehindStoreBuilder<>(name, true, keySerde, valueSerde, false);
    }

    @Override
    public WriteBehindStoreBuilder<K, V> withCachingEnabled() {
        return this; // the store is its own cache
    }

    @Override
    public WriteBehindStoreBuilder<K, V> withCachingDisabled() {
        return this;
    }

    @Override
    public WriteBehindStoreBuilder<K, V> withLoggingEnabled(Map<String, String> config) {
        this.logConfig = new HashMap<>(config);
        return this;
    }

    /** Refused: gateway state without a changelog would not survive a crash. */
    @Override
    public WriteBehindStoreBuilder<K, V> withLoggingDisabled() {
        throw new UnsupportedOperationException("gateway state stores are always changelogged");
    }

    @Override
    public WriteBehindStore<K, V> build() {
        var inner = Stores.keyValueStoreBuilder(supplier, Serdes.Bytes(), Serdes.ByteArray())
                .withLoggingEnabled(logConfig).withCachingDisabled().build();
        return new WriteBehindStore<>(inner, keySerde, valueSerde, retainClean);
    }

    @Override
    public Map<String, String> logConfig() {
        return logConfig;
    }

    @Override
    public boolean loggingEnabled() {
        return true;
    }

    @Override
    public String name() {
        return name;
    }
}

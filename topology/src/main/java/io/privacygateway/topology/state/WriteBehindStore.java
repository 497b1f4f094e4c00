package io.privacygateway.topology.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.processor.internals.ProcessorContextUtils;
import org.apache.kafka.streams.processor.internals.ProcessorRecordContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A typed, changelogged key-value store that keeps its values as <b>live objects</b> between commits and
 * serializes each changed value once per commit, not once per update. The hot path of the gateway updates a
 * window's aggregate for every report; with Kafka Streams' own cache every update serializes the whole
 * aggregate, here an update is an in-place change of a {@code long[]}.
 *
 * <p><b>Exactly once.</b> Kafka Streams flushes caches before it commits a task (it calls
 * {@link CachedStateStore#flushCache()} on every registered store, then flushes the producer, then commits
 * the transaction with the input offsets). This store registers itself as the root store of its inner
 * logged store, so {@link #flushCache()} runs at that point and writes every changed value to the inner store
 * and its changelog inside the same transaction as the input offsets and the records that depend on them.
 * After a crash the inner store is restored from the changelog and the live objects are rebuilt from it, so
 * no update can be lost or applied twice. Each dirty entry remembers the record context of its last update,
 * which is set while it is written (as Kafka Streams' caching store does).
 *
 * <p>This uses two interfaces of Kafka Streams' internals ({@code CachedStateStore},
 * {@code InternalProcessorContext}); the gateway pins the Kafka version and its tests (including kill -9
 * recovery against a real broker) cover the behaviour.
 *
 * <p>Not thread-safe: one store instance belongs to one task, used by its stream thread only.
 *
 * @param <K> key type (with a serde that preserves the order range scans need)
 * @param <V> value type; values handed to {@link #put} may be mutated afterwards only if {@link #markDirty}
 *     is called after each mutation
 */
public final class WriteBehindStore<K, V> implements StateStore, CachedStateStore<Bytes, byte[]>, TypedStore<K, V> {
    private final KeyValueStore<Bytes, byte[]> inner;
    private final Serde<K> keySerde;
    private final Serde<V> valueSerde;
    private final boolean retainClean;
    private final Map<K, Entry<V>> live = new HashMap<>();
    private InternalProcessorContext<?, ?> context;
    private boolean loaded;

    private static final class Entry<V> {
        V value; // null: deleted
        boolean dirty;
        ProcessorRecordContext recordContext;

        Entry(V value, boolean dirty, ProcessorRecordContext recordContext) {
            this.value = value;
            this.dirty = dirty;
            this.recordContext = recordContext;
        }
    }

    /**
     * @param inner the logged byte store (name = this store's name)
     * @param retainClean whether values stay live after they are written (small stores that are read for every
     *     record, such as open window aggregates, which are also loaded completely at start); otherwise only
     *     values changed since the last commit are kept in memory
     */
    WriteBehindStore(KeyValueStore<Bytes, byte[]> inner, Serde<K> keySerde, Serde<V> valueSerde, boolean retainClean) {
        this.inner = inner;
        this.keySerde = keySerde;
        this.valueSerde = valueSerde;
        this.retainClean = retainClean;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void init(StateStoreContext stateStoreContext, StateStore root) {
        this.context = ProcessorContextUtils.asInternalProcessorContext(stateStoreContext);
        inner.init(stateStoreContext, root == null ? this : root);
        live.clear();
        loaded = false;
    }

    private Bytes rawKey(K k) {
        return Bytes.wrap(keySerde.serializer().serialize(name(), k));
    }

    private ProcessorRecordContext currentContext() {
        return context == null ? null : context.recordContext();
    }

    @Override
    /** The value of {@code key}, or {@code null}. */
    public V get(K key) {
        Entry<V> e = live.get(key);
        if (e != null) {
            return e.value;
        }
        byte[] raw = inner.get(rawKey(key));
        if (raw == null) {
            return null;
        }
        V v = valueSerde.deserializer().deserialize(name(), raw);
        if (retainClean) {
            live.put(key, new Entry<>(v, false, null));
        }
        return v;
    }

    @Override
    /** Sets {@code key} to {@code value} (written to the changelog at the next commit). */
    public void put(K key, V value) {
        if (value == null) {
            throw new IllegalArgumentException("use delete(key) to remove a value");
        }
        Entry<V> e = live.get(key);
        if (e == null) {
            live.put(key, new Entry<>(value, true, currentContext()));
        } else {
            e.value = value;
            e.dirty = true;
            e.recordContext = currentContext();
        }
    }

    @Override
    /** Records that the live value of {@code key} was changed in place (it must be live: obtained by get/put). */
    public void markDirty(K key) {
        Entry<V> e = live.get(key);
        if (e == null || e.value == null) {
            throw new IllegalStateException("markDirty on a key without a live value");
        }
        e.dirty = true;
        e.recordContext = currentContext();
    }

    @Override
    /** Removes {@code key}. */
    public void delete(K key) {
        live.put(key, new Entry<>(null, true, currentContext()));
    }

    /**
     * Visits every entry (live ones first written through, so the view is complete). For stores that retain
     * clean values and are loaded at start ({@link #loadAll()}), this visits the live map only.
     */
    @Override
    public void forEach(BiConsumer<K, V> visitor) {
        if (retainClean && loaded) {
            List<Map.Entry<K, Entry<V>>> snapshot = new ArrayList<>(live.entrySet());
            for (Map.Entry<K, Entry<V>> e : snapshot) {
                if (e.getValue().value != null) {
                    visitor.accept(e.getKey(), e.getValue().value);
                }
            }
            return;
        }
        flushCache();
        try (KeyValueIterator<Bytes, byte[]> it = inner.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                visitor.accept(keySerde.deserializer().deserialize(name(), kv.key.get()),
                        valueSerde.deserializer().deserialize(name(), kv.value));
            }
        }
    }

    /**
     * Visits the entries with keys in {@code [from, to)} ({@code to == null}: no upper bound) in key order
     * (serialized order), at most {@code limit} of them; changed values are written through first. Returns how many were visited.
     */
    @Override
    public int range(K from, K to, int limit, BiConsumer<K, V> visitor) {
        flushCache();
        int n = 0;
        Bytes end = to == null ? null : rawKey(to);
        try (KeyValueIterator<Bytes, byte[]> it = inner.range(rawKey(from), end)) {
            while (it.hasNext() && n < limit) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (end != null && kv.key.compareTo(end) >= 0) {
                    break; // range() includes the upper bound; this scan does not
                }
                visitor.accept(keySerde.deserializer().deserialize(name(), kv.key.get()),
                        valueSerde.deserializer().deserialize(name(), kv.value));
                n++;
            }
        }
        return n;
    }

    /** Loads every stored value into memory (for small stores that retain clean values), once after init. */
    public void loadAll() {
        if (loaded) {
            return;
        }
        try (KeyValueIterator<Bytes, byte[]> it = inner.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                K k = keySerde.deserializer().deserialize(name(), kv.key.get());
                live.putIfAbsent(k, new Entry<>(valueSerde.deserializer().deserialize(name(), kv.value), false, null));
            }
        }
        loaded = true;
    }

    /** How many values are held in memory. */
    public int liveSize() {
        return live.size();
    }

    /** Writes every changed value to the inner store and its changelog (called by Kafka Streams before a commit). */
    @Override
    public void flushCache() {
        if (live.isEmpty()) {
            return;
        }
        ProcessorRecordContext current = currentContext();
        try {
            Iterator<Map.Entry<K, Entry<V>>> it = live.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<K, Entry<V>> me = it.next();
                Entry<V> e = me.getValue();
                if (e.dirty) {
                    if (e.recordContext != null && context != null) {
                        context.setRecordContext(e.recordContext);
                    }
                    Bytes k = rawKey(me.getKey());
                    if (e.value == null) {
                        inner.delete(k);
                    } else {
                        inner.put(k, valueSerde.serializer().serialize(name(), e.value));
                    }
                    e.dirty = false;
                    e.recordContext = null;
                }
                if (e.value == null || !retainClean) {
                    it.remove();
                }
            }
        } finally {
            if (current != null && context != null) {
                context.setRecordContext(current);
            }
        }
    }

    /** Drops every live value without writing it (Kafka Streams calls this when a task's work is discarded). */
    @Override
    public void clearCache() {
        live.clear();
        loaded = false;
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Bytes, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public void flush() {
        flushCache();
        inner.flush();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        flushCache();
        inner.commit(changelogOffsets);
    }

    @Override
    public void close() {
        live.clear();
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }
}

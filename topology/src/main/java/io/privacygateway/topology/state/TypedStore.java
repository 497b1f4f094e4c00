package io.privacygateway.topology.state;

import java.util.function.BiConsumer;

/**
 * The typed key-value view the gateway's logic uses for its state, so the logic does not depend on how the
 * state is kept: {@link WriteBehindStore} in the stream (changelogged, written once per commit),
 * {@code InMemoryTypedStore} (test sources) in benchmarks and tests of the logic alone.
 *
 * @param <K> key type
 * @param <V> value type (values may be mutated in place, followed by {@link #markDirty})
 */
public interface TypedStore<K, V> {
    /** The value of {@code key}, or {@code null}. */
    V get(K key);

    /** Sets {@code key} to {@code value}. */
    void put(K key, V value);

    /** Records that the value of {@code key}, obtained from {@link #get} or {@link #put}, was changed in place. */
    void markDirty(K key);

    /** Removes {@code key}. */
    void delete(K key);

    /** Visits every entry. */
    void forEach(BiConsumer<K, V> visitor);

    /**
     * Visits the entries with keys in {@code [from, to)} ({@code to == null}: no upper bound) in key order, at most
     * {@code limit}; returns how many.
     */
    int range(K from, K to, int limit, BiConsumer<K, V> visitor);
}

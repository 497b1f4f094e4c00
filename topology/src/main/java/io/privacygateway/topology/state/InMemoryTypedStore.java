package io.privacygateway.topology.state;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A {@link TypedStore} in a sorted map, without a changelog: for benchmarks and tests of the gateway's logic
 * outside a stream. Keys are ordered by {@code order} (the serialized order of the real store).
 */
public final class InMemoryTypedStore<K, V> implements TypedStore<K, V> {
    private final TreeMap<K, V> map;

    public InMemoryTypedStore(Comparator<K> order) {
        this.map = new TreeMap<>(order);
    }

    @Override
    public V get(K key) {
        return map.get(key);
    }

    @Override
    public void put(K key, V value) {
        map.put(key, value);
    }

    @Override
    public void markDirty(K key) {
        // values are live objects already
    }

    @Override
    public void delete(K key) {
        map.remove(key);
    }

    @Override
    public void forEach(BiConsumer<K, V> visitor) {
        new ArrayList<>(map.entrySet()).forEach(e -> visitor.accept(e.getKey(), e.getValue()));
    }

    @Override
    public int range(K from, K to, int limit, BiConsumer<K, V> visitor) {
        List<Map.Entry<K, V>> entries = new ArrayList<>(map.subMap(from, true, to, false).entrySet());
        int n = 0;
        for (Map.Entry<K, V> e : entries) {
            if (n >= limit) {
                break;
            }
            visitor.accept(e.getKey(), e.getValue());
            n++;
        }
        return n;
    }

    /** How many entries are held. */
    public int size() {
        return map.size();
    }
}

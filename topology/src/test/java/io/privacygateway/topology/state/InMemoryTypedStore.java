package io.privacygateway.topology.state;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A {@link TypedStore} in a hash map, without a changelog: for benchmarks and tests of the gateway's logic
 * outside a stream. Range scans sort the keys by {@code order} (the serialized order of the real store).
 */
public final class InMemoryTypedStore<K, V> implements TypedStore<K, V> {
    private final Map<K, V> map = new HashMap<>();
    private final Comparator<K> order;

    public InMemoryTypedStore(Comparator<K> order) {
        this.order = order;
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
        List<K> keys = new ArrayList<>();
        for (K k : map.keySet()) {
            if (order.compare(k, from) >= 0 && (to == null || order.compare(k, to) < 0)) {
                keys.add(k);
            }
        }
        keys.sort(order);
        int n = 0;
        for (K k : keys) {
            if (n >= limit) {
                break;
            }
            visitor.accept(k, map.get(k));
            n++;
        }
        return n;
    }

    /** How many entries are held. */
    public int size() {
        return map.size();
    }
}

package io.privacygateway.mechanisms.nets;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Alpha;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A memo of the deterministic decompositions of workload point sets (nets are the costly part of
 * building a coarse or chaining protocol, and the planner asks for several α of the same workload).
 * Keyed by point-set content and parameters; bounded (least recently used entries are dropped).
 */
public final class Decompositions {
    private static final int SIZE = 32;
    private static final Map<Object, Object> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, Object> e) {
            return size() > SIZE;
        }
    };

    private Decompositions() {}

    private record Key(String kind, PointSet.ContentKey points, int levels, double alpha) {}

    public static ChainingDecomposition chaining(PointSet points, Alpha alpha) {
        int k = alpha.chainingLevels();
        return get(new Key("chain", points.contentKey(), k, 0),
                () -> ChainingDecomposition.of(NestedNets.build(points, k)));
    }

    public static CoarseDecomposition coarse(PointSet points, Alpha alpha) {
        return get(new Key("coarse", points.contentKey(), 0, alpha.value()),
                () -> CoarseDecomposition.build(points, alpha));
    }

    @SuppressWarnings("unchecked")
    private static <T> T get(Key key, Supplier<T> make) {
        synchronized (CACHE) {
            Object hit = CACHE.get(key);
            if (hit != null) {
                return (T) hit;
            }
        }
        T made = make.get();
        synchronized (CACHE) {
            CACHE.put(key, made);
        }
        return made;
    }
}

package io.privacygateway.ingest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Token buckets by key (a source address, a credential) in bounded memory: at most {@code maxKeys} buckets, the
 * least recently used forgotten first (a forgotten key starts again with a full bucket, so a client cycling through
 * more keys than are tracked escapes this limit; the per-address limit in front of the per-credential one bounds
 * what that buys). Thread-safe.
 */
final class TokenBuckets {
    private final double perNano;
    private final double burst;
    private final LongSupplier nanos;
    private final LinkedHashMap<String, double[]> buckets;

    TokenBuckets(IngestSettings.Rate rate, int maxKeys, LongSupplier nanos) {
        this.perNano = rate.perSecond() / 1e9;
        this.burst = rate.burst();
        this.nanos = nanos;
        this.buckets = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
                return size() > maxKeys;
            }
        };
    }

    /**
     * Takes {@code cost} tokens from {@code key}'s bucket.
     *
     * @return 0 if taken, else how many milliseconds until they would be there (at least 1); nothing is taken then
     */
    synchronized long take(String key, double cost) {
        long now = nanos.getAsLong();
        double[] b = buckets.get(key);
        if (b == null) {
            b = new double[] {burst, now};
            buckets.put(key, b);
        } else {
            b[0] = Math.min(burst, b[0] + (now - (long) b[1]) * perNano);
            b[1] = now;
        }
        double need = Math.min(cost, burst);
        if (b[0] >= need) {
            b[0] -= need;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((need - b[0]) / perNano / 1e6));
    }

    synchronized int size() {
        return buckets.size();
    }
}

package io.privacygateway.client;

import io.privacygateway.mechanisms.device.DeviceWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The process-wide cache of workloads as devices run them ({@link DeviceWorkload}): building a protocol can take about
 * a second (chaining builds nets, factorization its strategy), so every device of a process that reports for one
 * workload version shares one. At most {@value #CACHE_LIMIT} versions are kept (least recently used evicted; rebuilt
 * when needed again). Thread-safe; a version is built outside the lock (two threads may build the same version once
 * each; the results are equal).
 */
public final class DeviceWorkloads {
    /** How many workload versions the process keeps. */
    public static final int CACHE_LIMIT = 32;
    private static final Map<String, DeviceWorkload> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, DeviceWorkload> eldest) {
            return size() > CACHE_LIMIT;
        }
    };

    private DeviceWorkloads() {}

    /**
     * The device runtime of a resolved spec, built once per content hash.
     *
     * @throws IllegalArgumentException if the spec names {@code auto} or its protocol cannot be built
     */
    public static DeviceWorkload of(WorkloadSpec spec) {
        String key = CanonicalForm.contentHash(spec);
        synchronized (CACHE) {
            DeviceWorkload hit = CACHE.get(key);
            if (hit != null) {
                return hit;
            }
        }
        DeviceWorkload built = DeviceWorkload.of(spec);
        synchronized (CACHE) {
            CACHE.put(key, built);
        }
        return built;
    }
}

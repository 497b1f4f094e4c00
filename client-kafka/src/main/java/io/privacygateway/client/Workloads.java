package io.privacygateway.client;

import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkloadCache;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/**
 * The process-wide cache of resolved workloads: building a protocol can take about a second (chaining builds
 * nets), so every device of a process that reports for one workload version shares one. At most
 * {@value #CACHE_LIMIT} versions are kept (least recently used evicted; rebuilt when needed again).
 */
public final class Workloads {
    /** How many workload versions the process keeps. */
    public static final int CACHE_LIMIT = 32;
    private static final ResolvedWorkloadCache CACHE = new ResolvedWorkloadCache(CACHE_LIMIT);

    private Workloads() {}

    /**
     * The runtime of a resolved spec, built once per content hash.
     *
     * @throws IllegalArgumentException if the spec names {@code auto} (resolve it with the planner, or
     *     {@link WorkloadRegistrar#register}, first) or its pipeline cannot be built
     */
    public static ResolvedWorkload resolve(WorkloadSpec spec) {
        return CACHE.get(spec);
    }
}

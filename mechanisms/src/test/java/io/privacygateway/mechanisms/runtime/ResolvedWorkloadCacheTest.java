package io.privacygateway.mechanisms.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The cache of workload runtimes stays bounded: least recently used versions are evicted and rebuilt on demand. */
class ResolvedWorkloadCacheTest {

    private static WorkloadSpec version(int v) {
        return WorkloadSpec.builder().id("w").version(v).family(QueryFamily.HISTOGRAM)
                .domain(new Domain.Labels(List.of("a", "b", "c"))).local(Epsilon.of(1)).mechanism(MechanismId.GRR)
                .budget(Epsilon.of(4), Duration.ofDays(1)).window(Duration.ofMinutes(1), Duration.ofSeconds(10))
                .expectedReportsPerWindow(1000).build();
    }

    @Test
    void keepsAtMostItsCapacityAndRebuildsTheLeastRecentlyUsed() {
        ResolvedWorkloadCache cache = new ResolvedWorkloadCache(2);
        ResolvedWorkload v1 = cache.get(version(1));
        ResolvedWorkload v2 = cache.get(version(2));
        assertThat(cache.get(version(1))).as("a cached version is built once").isSameAs(v1);
        ResolvedWorkload v3 = cache.get(version(3)); // evicts v2, the least recently used
        assertThat(cache.get(version(1))).isSameAs(v1);
        assertThat(cache.get(version(3))).isSameAs(v3);
        ResolvedWorkload v2again = cache.get(version(2));
        assertThat(v2again).as("an evicted version is rebuilt").isNotSameAs(v2);
        assertThat(v2again.contentHash()).isEqualTo(v2.contentHash());
        assertThat(cache.get(version(3))).as("v1 was evicted by v2's rebuild, v3 stays").isSameAs(v3);
        assertThat(cache.get(version(1))).isNotSameAs(v1);
        assertThat(cache.builds()).isEqualTo(5); // v1, v2, v3, v2 again, v1 again
    }

    @Test
    void concurrentCallersShareOneBuild() throws Exception {
        ResolvedWorkloadCache cache = new ResolvedWorkloadCache(4);
        WorkloadSpec spec = version(7);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<ResolvedWorkload>> all = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) {
                all.add(pool.submit(() -> {
                    go.await();
                    return cache.get(spec);
                }));
            }
            go.countDown();
            var distinct = ConcurrentHashMap.<ResolvedWorkload>newKeySet();
            for (Future<ResolvedWorkload> f : all) {
                distinct.add(f.get());
            }
            assertThat(distinct).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void refusesANonPositiveCapacity() {
        assertThatThrownBy(() -> new ResolvedWorkloadCache(0)).hasMessageContaining("capacity");
    }
}

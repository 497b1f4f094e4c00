package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.release.CentralReleaser;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 27 item 1: a central answer's publication time is a function of public information only — when its window was
 * found due and the workload's delay — whatever any workload's data. Workload {@code slow-a} ({@code erm-exponential})
 * takes {@value #SLOW_MS} ms of the gateway's clock when its window holds reports (about what the grid exponential
 * mechanism takes on a 2,048-cell grid with every cell occupied: 4.8–6.4 s measured on the 2-core reference machine)
 * and no time when its window is empty; workload {@code fast-b} (a histogram) gets the same reports in both runs.
 *
 * <p>How the gateway's clock moves while a computation runs is modelled exactly: a computation on the stream thread
 * blocks it, so the clock moves on by {@value #SLOW_MS} ms before the thread does anything else (this is what the
 * release step did before: every computation ran on the stream thread, one after the other, and each answer was
 * written a fixed delay after its own computation started, so {@code fast-b}'s answer followed {@code slow-a}'s
 * computation time); a computation off the stream thread finishes once the test has advanced the clock by
 * {@value #SLOW_MS} ms. Before every step of the mock clock the test waits until every computation that can finish has
 * finished, so nothing depends on the machine's speed. The publication time of an answer is the gateway clock's
 * reading at the punctuation that wrote it (steps of 100 ms).
 */
class CentralPublicationTimeTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // a minute boundary
    static final long SLOW_MS = 5_000;
    static final long STEP_MS = 100;

    static Map<String, Object> base(String id, String family, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", family);
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        t.put("central", new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove",
                "contributionsPerWindow", 1)));
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 200);
        return t;
    }

    static WorkloadSpec slowA() {
        Map<String, Object> t = base("slow-a", "erm", "erm-exponential");
        t.put("domain", Map.of("features", List.of(Map.of("name", "bias", "values", List.of(1)),
                        Map.of("name", "activity", "values", List.of(-1, -0.5, 0, 0.5, 1))),
                "response", Map.of("name", "churned", "values", List.of(0, 1))));
        t.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.01));
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec fastB() {
        Map<String, Object> t = base("fast-b", "histogram", "central-projection");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        return WorkloadSpecParser.parse(t);
    }

    /** When each workload's first answer was written (gateway clock) and the answers. */
    record Published(long a, long b, WindowAnswer answerA, WindowAnswer answerB) {}

    /**
     * The real releases, run off the stream thread on a pool (or on the stream thread, where the release step runs
     * them there), with {@code slow-a}'s computation taking {@value #SLOW_MS} ms of the gateway's clock when its
     * window holds reports.
     */
    static final class TimedReleaser implements CentralReleaser {
        final Thread streamThread = Thread.currentThread(); // TopologyTestDriver runs the topology on the caller
        final AtomicReference<java.util.concurrent.atomic.AtomicLong> clock = new AtomicReference<>();
        final ExecutorService pool = Executors.newCachedThreadPool();
        /** Computations submitted and neither finished nor waiting for the clock. */
        final AtomicInteger running = new AtomicInteger();
        final CentralReleaser real = CentralReleaser.withSecret(new SecureRandomBits());

        @Override
        public RandomBits secret() {
            return real.secret();
        }

        @Override
        public ReleaseResult release(WindowRelease.Central r, WindowRelease.Window window) {
            CentralWorkload c = r.workload();
            long[] counts = window.state();
            boolean hasData = java.util.Arrays.stream(counts).anyMatch(x -> x > 0);
            if (c.id().equals("slow-a") && hasData) {
                long until = clock.get().get() + SLOW_MS;
                if (Thread.currentThread() == streamThread) {
                    clock.get().addAndGet(SLOW_MS); // the stream thread is blocked while the clock moves on
                } else {
                    running.decrementAndGet();
                    try {
                        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                        while (clock.get().get() < until && System.nanoTime() < deadline) {
                            Thread.sleep(1);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        running.incrementAndGet();
                    }
                }
            }
            return real.release(r, window);
        }

        // (no @Override, so this test also compiles against the release step before executors existed)
        public java.util.concurrent.Executor executor() {
            return task -> {
                running.incrementAndGet();
                pool.execute(() -> {
                    try {
                        task.run();
                    } finally {
                        running.decrementAndGet();
                    }
                });
            };
        }

        /** Waits (real time) until every computation that does not wait for the mock clock has finished. */
        void settle() {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (running.get() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(running.get()).as("computations still running").isZero();
        }
    }

    static Published run(boolean slowData) {
        WorkloadSpec a = slowA();
        WorkloadSpec b = fastB();
        CentralWorkload ca = (CentralWorkload) ResolvedWorkload.of(a);
        CentralWorkload cb = (CentralWorkload) ResolvedWorkload.of(b);
        TimedReleaser releaser = new TimedReleaser();
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1)
                .applicationId("publication-time").build(), T0, releaser)) {
            releaser.clock.set(g.brokerTime);
            g.register(a, T0);
            g.register(b, T0);
            long t = T0 + 1_000;
            List<String> labels = List.of("a", "b", "c", "d");
            for (int i = 0; i < 40; i++) {
                g.sendCentral(GatewayWideTest.report(cb, "b" + i, t + i, labels.get(i % 4)), t + i);
            }
            if (slowData) { // every cell of the grid occupied
                int k = 0;
                for (String activity : List.of("-1", "-0.5", "0", "0.5", "1")) {
                    for (String churned : List.of("0", "1")) {
                        g.sendCentral(GatewayWideTest.report(ca, "a" + k, t + k, "1," + activity + "," + churned),
                                t + k);
                        k++;
                    }
                }
            }
            assertThat(g.rejections.readValuesToList()).isEmpty();
            // the window [T0, T0 + 1 min) closes at T0 + 70 s; with the shards' progress it is found due at T0 + 72 s
            g.advance(Duration.ofSeconds(71));
            Long pa = null;
            Long pb = null;
            WindowAnswer answerA = null;
            WindowAnswer answerB = null;
            while ((pa == null || pb == null) && g.brokerTime.get() < T0 + 100_000) {
                releaser.settle();
                g.advance(Duration.ofMillis(STEP_MS));
                for (WindowAnswer x : g.answers.readValuesToList()) {
                    if (x.getWorkloadId().equals("slow-a") && pa == null) {
                        pa = g.brokerTime.get();
                        answerA = x;
                    }
                    if (x.getWorkloadId().equals("fast-b") && pb == null) {
                        pb = g.brokerTime.get();
                        answerB = x;
                    }
                }
            }
            assertThat(pa).as("slow-a answered").isNotNull();
            assertThat(pb).as("fast-b answered").isNotNull();
            releaser.pool.shutdownNow();
            return new Published(pa, pb, answerA, answerB);
        }
    }

    @Test
    void anAnswersPublicationTimeDoesNotDependOnAnotherWorkloadsData() {
        Published empty = run(false);
        Published worst = run(true);
        // fast-b: the same publication time whether slow-a's window is empty or takes 5 s to compute
        assertThat(worst.b()).isEqualTo(empty.b());
        assertThat(worst.answerB().getFallback()).isFalse();
        assertThat(empty.answerB().getFallback()).isFalse();
        // slow-a itself: published at its own fixed time too; the computation still running then is replaced by the
        // data-independent fallback, charged the same
        assertThat(worst.a()).isEqualTo(empty.a());
        assertThat(empty.answerA().getFallback()).isFalse();
        assertThat(worst.answerA().getFallback()).isTrue();
        assertThat(worst.answerA().getCumulativeEpsilon()).isEqualTo(empty.answerA().getCumulativeEpsilon());
        assertThat(worst.answerA().getEpsilon()).isEqualTo(empty.answerA().getEpsilon());
        // both times are the time the window was found due plus the workload's delay (200 ms; 1 s for erm-exponential)
        assertThat(empty.a() - empty.b()).isEqualTo(800);
    }
}

package io.privacygateway.topology.release;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads central window releases are computed on, off the stream threads, so that the time a computation takes
 * (which can depend on its window's data) never delays the stream thread's punctuations and therefore never moves the
 * time another workload's answer is written.
 *
 * <p>At most {@value #THREADS} daemon threads, created on demand and ended after a minute idle; the release step runs
 * one computation at a time per workload, so up to {@value #THREADS} workloads compute concurrently, each on its own
 * thread, and more queue. The threads share the machine's cores: a heavy computation can still slow another one down
 * (and make it miss its publication time, when it then falls back); the per-workload delay is meant to stay well above
 * every computation's worst case under load.
 */
public final class ReleaseThreads {
    /** The most threads. */
    public static final int THREADS = 64;
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final ThreadPoolExecutor SHARED = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "pgw-central-release-" + COUNT.incrementAndGet());
                t.setDaemon(true);
                return t;
            });

    static {
        SHARED.allowCoreThreadTimeOut(true);
    }

    private ReleaseThreads() {}

    /** The process-wide pool (never shut down: its threads are daemons and end when idle). */
    public static Executor shared() {
        return SHARED;
    }
}

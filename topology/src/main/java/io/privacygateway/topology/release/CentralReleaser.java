package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import java.util.concurrent.Executor;

/**
 * Where the release step gets its secret randomness and its threads for central windows: it runs a window's
 * {@link WindowRelease.Central} ({@link #release}) on {@link #executor()}, off the stream thread (one window at a time per
 * workload, different workloads concurrently), so implementations must be safe to call from several threads at once
 * for different workloads; {@link #runningTotals} is called on the stream thread. Nothing here chooses or adapts a
 * mechanism: that is {@link WindowRelease}. Tests replace it to seed the randomness, run on the calling thread, or make
 * a release slow or fail.
 */
@FunctionalInterface
public interface CentralReleaser {
    /** The secret randomness of central releases. */
    RandomBits secret();

    /** Releases a central window: noise, projection and purification, pure ε-DP (δ = 0); empty windows too. */
    default ReleaseResult release(WindowRelease.Central release, WindowRelease.Window window) {
        return release.release(window, secret());
    }

    /** Adds a window to the running totals of a workload with horizons (the tree's node noise from {@link #secret()}). */
    default ContinualState runningTotals(WindowRelease.Central release, ContinualState state, long windowStart,
            long[] counts) {
        return release.addToRunningTotals(state, windowStart, counts, secret());
    }

    /**
     * Where the release step runs {@link #release}: by default a shared pool of daemon threads
     * ({@link ReleaseThreads#shared()}), so that how long one workload's release takes never delays another's
     * publication. An executor that runs tasks on the calling thread makes every release run on the stream thread, in
     * order (tests with a mock clock and seeded randomness).
     */
    default Executor executor() {
        return ReleaseThreads.shared();
    }

    /**
     * Releases with this secret randomness, every release run on the calling (stream) thread in order, so a seeded
     * source gives reproducible answers: for tests and tools. Production uses {@link #secure()}.
     */
    static CentralReleaser withSecret(RandomBits secret) {
        return withSecret(secret, Runnable::run);
    }

    /** Releases with this secret randomness, run on {@code executor}. */
    static CentralReleaser withSecret(RandomBits secret, Executor executor) {
        return new CentralReleaser() {
            @Override
            public RandomBits secret() {
                return secret;
            }

            @Override
            public Executor executor() {
                return executor;
            }
        };
    }

    /**
     * The production releaser: noise from {@link java.security.SecureRandom} (thread-safe), releases off the stream
     * thread on {@link ReleaseThreads#shared()}.
     */
    static CentralReleaser secure() {
        return withSecret(new SecureRandomBits(), ReleaseThreads.shared());
    }
}

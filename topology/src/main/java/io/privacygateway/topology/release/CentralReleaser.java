package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import java.util.concurrent.Executor;

/**
 * Releases a central-mode window from its exact counts per universe value (or, for a wide workload, its exact
 * marginal counts: {@link #releaseWide}): noise, projection and purification happen here, with secret randomness, so the answer is pure ε-DP (δ = 0). All-zero counts (no
 * report arrived) are released the same way: a noise-only answer.
 *
 * <p>The release step calls {@link #release} and {@link #releaseWide} on {@link #executor()}, off the stream thread
 * (one window at a time per workload, different workloads concurrently), so they must be safe to call from several
 * threads at once for different workloads; {@link #runningTotals} is called on the stream thread.
 */
@FunctionalInterface
public interface CentralReleaser {
    Answer release(CentralWorkload workload, long[] counts);

    /**
     * Adds a window to the running totals of a workload with horizons (the continual-release tree draws its node
     * noise here, with secret randomness). By default from {@link java.security.SecureRandom}.
     */
    default ContinualState runningTotals(ContinualCounter counter, ContinualState state, long windowStart,
            long[] counts) {
        return counter.update(state, windowStart, counts, new SecureRandomBits());
    }

    /**
     * Releases a window of a wide workload ({@link CentralWorkload#wide()}) from its exact marginal counts: the answer
     * and, for mwem, the synthetic records. By default with secret randomness from {@link java.security.SecureRandom}.
     */
    default WideAnswer releaseWide(CentralWorkload workload, MarginalCounts counts) {
        return workload.wideRelease().release(counts, new SecureRandomBits());
    }

    /**
     * Where the release step runs {@link #release} and {@link #releaseWide}: by default a shared pool of daemon threads
     * ({@link ReleaseThreads#shared()}), so that how long one workload's release takes never delays another's
     * publication. An executor that runs tasks on the calling thread makes every release run on the stream thread, in
     * order (tests with a mock clock and seeded randomness).
     */
    default Executor executor() {
        return ReleaseThreads.shared();
    }

    /**
     * The workload's release, and its running totals, with this secret randomness, every release run on the calling
     * (stream) thread in order, so a seeded source gives reproducible answers: for tests and tools. Production uses
     * {@link #secure()}.
     */
    static CentralReleaser withSecret(RandomBits secret) {
        return withSecret(secret, Runnable::run);
    }

    /** The workload's release, and its running totals, with this secret randomness, releases run on {@code executor}. */
    static CentralReleaser withSecret(RandomBits secret, Executor executor) {
        return new CentralReleaser() {
            @Override
            public Executor executor() {
                return executor;
            }

            @Override
            public Answer release(CentralWorkload workload, long[] counts) {
                return workload.release().release(counts, secret);
            }

            @Override
            public WideAnswer releaseWide(CentralWorkload workload, MarginalCounts counts) {
                return workload.wideRelease().release(counts, secret);
            }

            @Override
            public ContinualState runningTotals(ContinualCounter counter, ContinualState state, long windowStart,
                    long[] counts) {
                return counter.update(state, windowStart, counts, secret);
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

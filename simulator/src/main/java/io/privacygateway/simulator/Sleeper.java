package io.privacygateway.simulator;

import java.time.Duration;

/**
 * How a paced {@link FleetSimulator} waits until its clock reaches the next report's due time. The default
 * waits in real time (and wakes up at once when the simulator is stopped); a simulation on a virtual clock
 * injects a sleeper that advances that clock instead.
 */
@FunctionalInterface
public interface Sleeper {
    /** Waits about {@code duration} (may return early; the simulator re-reads its clock). */
    void sleep(Duration duration) throws InterruptedException;
}

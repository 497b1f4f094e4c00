package io.privacygateway.app.cli;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

/** How the commands that read a workload file (plan, simulate, audit) read their shared options. */
final class WorkloadOptions {
    private WorkloadOptions() {
    }

    /**
     * The trust model to run in: {@code --mode} when given, else the workload's own.
     *
     * @throws IllegalArgumentException for an unknown mode name
     */
    static Mode effectiveMode(String mode, WorkloadSpec ws) {
        return mode == null ? ws.mode() : Mode.fromWireName(mode);
    }

    /**
     * {@code --epsilon} as an ε, or null when not given.
     *
     * @throws IllegalArgumentException when it is not a valid ε (the message names {@code --epsilon})
     */
    static Epsilon epsilonOption(Double epsilon) {
        return epsilon == null ? null : Epsilon.of("--epsilon", epsilon);
    }

    /**
     * A local workload file run in central mode: ε per release is {@code given} or else the file's ε per report, the
     * neighbour relation is {@code neighbour} (its wire name), one report per device and window. Precondition:
     * {@code local} is a local-mode spec.
     *
     * @throws IllegalArgumentException for an unknown neighbour relation
     */
    static WorkloadSpec localAsCentral(WorkloadSpec local, Epsilon given, String neighbour) {
        return local.toBuilder().inCentralMode(given != null ? given : local.epsilonPerReport(),
                NeighbourRelation.fromWireName(neighbour), 1).build();
    }
}

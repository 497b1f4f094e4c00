package io.privacygateway.app.cli;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of the commands that read a workload file (plan, simulate, audit), declared once: a picocli mixin
 * ({@code @Mixin WorkloadOptions input = new WorkloadOptions();}) holding {@code --workload} and {@code --mode}, and
 * how those commands read their other shared options.
 */
final class WorkloadOptions {
    @Option(names = "--workload", required = true, paramLabel = "FILE", description = "Workload declaration (YAML or JSON).")
    Path workload;

    @Option(names = "--mode", paramLabel = "local|central",
            description = "Trust model (default: the workload's); a local file is converted to central mode (ε per"
                    + " release: --epsilon, else the file's ε per report).")
    String mode;

    /**
     * The trust model to run in: {@code --mode} when given, else the workload's own.
     *
     * @throws IllegalArgumentException for an unknown mode name
     */
    Mode effectiveMode(WorkloadSpec ws) {
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
     * {@code --neighbour} of the commands that convert a local workload file to central mode without other central
     * options (plan, simulate): a mixin.
     */
    static final class Conversion {
        @Option(names = "--neighbour", defaultValue = "add-remove", paramLabel = "add-remove|replace-one",
                description = "Central mode, converting a local file: the neighbour relation (default ${DEFAULT-VALUE}).")
        String neighbour;

        /**
         * A local workload file run in central mode: ε per release is {@code given} or else the file's ε per report,
         * the neighbour relation is {@code --neighbour}, one report per device and window. Precondition: {@code local}
         * is a local-mode spec.
         *
         * @throws IllegalArgumentException for an unknown neighbour relation
         */
        WorkloadSpec localAsCentral(WorkloadSpec local, Epsilon given) {
            return local.toBuilder().inCentralMode(given != null ? given : local.epsilonPerReport(),
                    NeighbourRelation.fromWireName(neighbour), 1).build();
        }
    }
}

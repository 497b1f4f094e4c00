package io.privacygateway.app.cli;

import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.planner.ReferenceData;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway plan}: predicted error of every applicable mechanism, and what auto picks. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Predicts the error of every applicable mechanism for a workload, ε and n, and the choice auto makes.")
public final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--workload", required = true, paramLabel = "FILE", description = "Workload declaration (YAML or JSON).")
    Path workload;

    @Option(names = "--epsilon", paramLabel = "E", description = "ε per report (default: the workload's).")
    Double epsilon;

    @Option(names = "--n", required = true, paramLabel = "N", description = "Reports per window.")
    long n;

    @Option(names = "--json", description = "Print the plan as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        WorkloadSpec ws = WorkloadFiles.load(workload);
        if (n < 1) {
            throw new IllegalArgumentException("--n must be >= 1, got " + n);
        }
        Epsilon eps = epsilon == null ? ws.epsilonPerReport() : Epsilon.of("--epsilon", epsilon);
        Plan p = LocalPlanner.plan(ws, eps, n);
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(Json.plan(p)));
            return 0;
        }
        Workload w = Workload.of(ws);
        out.printf("Plan for %s v%d (%s: %d values, %d queries), ε = %s per report, n = %d%n", ws.id(), ws.version(),
                ws.family().wireName(), w.universeSize(), w.queryCount(), eps.value(), n);
        out.printf("Predicted per-answer RMS error ‖estimate − truth‖₂/√m of the published (projected) answer.%n");
        out.printf("%-38s %12s %10s", "mechanism", "unprojected", "§3 bound");
        for (ReferenceData r : p.references()) {
            out.printf(" %10s", r.label());
        }
        out.printf(" %8s%n", "regret");
        for (Prediction pr : p.predictions()) {
            String name = pr.candidate().label() + (pr == p.choice() ? " *" : "");
            if (!pr.applicable()) {
                out.printf("%-38s n/a: %s%n", name, pr.note());
                continue;
            }
            out.printf("%-38s %12.5f %10.5f", name, pr.unprojectedRms(), pr.boundRms());
            for (double v : pr.simulatedRms()) {
                out.printf(" %10.5f", v);
            }
            out.printf(" %8.3f%s%n", pr.regret(), pr.note().isEmpty() ? "" : "  (" + pr.note() + ")");
        }
        out.printf("auto → %s%n", p.choice().candidate().label());
        out.printf("(unprojected and §3 bound: closed forms at n on uniform data; columns per reference distribution:%n"
                + " %s; regret: worst ratio to the best mechanism over the reference distributions)%n", p.method());
        return 0;
    }
}

package io.privacygateway.app.cli;

import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.analytics.release.AnalyticsMechanisms;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.HeavyHitterPrediction;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Confidence;
import io.privacygateway.mechanisms.robustness.PoisoningBound;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway plan}: predicted error of every applicable mechanism, and what auto picks. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Predicts the error of every applicable mechanism for a workload, ε and n, and the choice auto makes.")
public final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions input = new WorkloadOptions();

    @Option(names = "--epsilon", paramLabel = "E", description = "ε per report (default: the workload's).")
    Double epsilon;

    @Option(names = "--n", required = true, paramLabel = "N", description = "Reports per window.")
    long n;

    @Mixin
    WorkloadOptions.Conversion conversion = new WorkloadOptions.Conversion();

    @Option(names = "--json", description = "Print the plan as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        WorkloadSpec ws = WorkloadFiles.load(input.workload);
        if (n < 1) {
            throw new IllegalArgumentException("--n must be >= 1, got " + n);
        }
        Mode effective = input.effectiveMode(ws);
        Epsilon given = WorkloadOptions.epsilonOption(epsilon);
        if (effective == Mode.CENTRAL && ws.mode() == Mode.LOCAL) {
            ws = conversion.localAsCentral(ws, given);
        }
        Epsilon eps = given != null ? given
                : effective == Mode.CENTRAL ? ws.central().epsilonPerRelease() : ws.epsilonPerReport();
        Plan p = Planner.plan(ws, eps, n);
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(Json.plan(p)));
            return 0;
        }
        if (ws.family().isOpenDomain()) { // heavy-hitters: no universe, one protocol, a closed-form prediction
            printHeavyHitters(out, ws, eps, n, p);
            return 0;
        }
        if (ws.isVectorMean()) { // vector means: no universe, a closed-form standard error per candidate
            printVectorMean(out, ws, eps, n, p);
            return 0;
        }
        boolean wide = p.resolved().isWide() && p.predictions().stream().allMatch(x -> x.candidate().id().isWide());
        long universe;
        int queries;
        if (wide) { // never materialised: 2^d values
            var shape = ((CentralWorkload)
                    ResolvedWorkload.of(p.resolved())).wide().orElseThrow();
            universe = 1L << shape.attributeCount();
            queries = shape.queryCount();
        } else {
            Workload w = Workload.of(ws);
            universe = w.universeSize();
            queries = w.queryCount();
        }
        out.printf("Plan for %s v%d (%s: %d values, %d queries), %s mode, ε = %s per %s, n = %d%n", ws.id(), ws.version(),
                ws.family().wireName(), universe, queries, effective.wireName(), eps.value(),
                effective == Mode.CENTRAL ? "release (pure, δ = 0)" : "report", n);
        boolean analytics = ws.family().isWindowAnalytics();
        if (wide) {
            out.printf("Maximum error over all marginals: closed form, and simulated on the wide reference data (the"
                    + " wide releases publish an l∞ bound).%n");
        } else if (analytics) {
            out.printf("Predicted %s.%n",
                    AnalyticsMechanisms.errorMeasure(ws.family()));
        } else {
            out.printf("Predicted per-answer RMS error ‖estimate − truth‖₂/√m of the published (projected) answer.%n");
        }
        boolean local = effective == Mode.LOCAL && !analytics;
        out.printf("%-38s %12s %10s", "mechanism", "unprojected", analytics ? "predicted" : wide ? "closed form" : "§3 bound");
        if (local) {
            out.printf(" %9s %9s", "n·Δ∞", "n·Δ₂");
        }
        if (wide) { // one figure: the wide reference data
            out.printf(" %10s", "simulated");
        } else {
            for (ReferenceData r : p.references()) {
                out.printf(" %10s", r.label());
            }
        }
        out.printf(" %8s%n", "regret");
        for (Prediction pr : p.predictions()) {
            printPrediction(out, p, pr, ws, eps, n, local, wide, analytics);
        }
        printNotes(out, p, local, wide, analytics);
        return 0;
    }

    /** One row of the plan's table: the candidate's predictions (and its poisoning bound in local mode). */
    private static void printPrediction(PrintWriter out, Plan p, Prediction pr, WorkloadSpec ws, Epsilon eps, long n,
            boolean local, boolean wide, boolean analytics) {
        String name = pr.candidate().label() + (pr == p.choice() ? " *" : "");
        if (!pr.applicable()) {
            out.printf("%-38s n/a: %s%n", name, pr.note());
            return;
        }
        out.printf("%-38s %12s %10s", name, Double.isNaN(pr.unprojectedRms()) ? "-"
                : String.format("%.5f", pr.unprojectedRms()), Double.isNaN(pr.boundRms()) ? "-"
                : String.format(analytics ? "%.3g" : "%.5f", pr.boundRms()));
        if (local) {
            try {
                PoisoningBound b = PoisoningBound.of(LocalPipeline.of(Workload.of(pr.candidate().apply(ws, eps,
                        n))));
                out.printf(" %9.2f %9.2f", b.worst().linf(), b.worst().projectedL2());
            } catch (IllegalArgumentException e) { // too costly to enumerate: the columns say so
                out.printf(" %9s %9s", "-", "-");
            }
        }
        if (wide) {
            out.printf(" %10.5f", pr.simulatedRms()[0]);
        } else {
            for (double v : pr.simulatedRms()) {
                out.printf(analytics ? " %10.3g" : " %10.5f", v);
            }
        }
        out.printf(" %8.3f%s%n", pr.regret(), pr.note().isEmpty() ? "" : "  (" + pr.note() + ")");
    }

    /** The notes under the table: what the columns mean. */
    private static void printNotes(PrintWriter out, Plan p, boolean local, boolean wide, boolean analytics) {
        out.printf("auto → %s%n", p.choice().candidate().label());
        if (wide) {
            out.printf("(max error: %s; mwem's is a model of its achieved error, worst-case chaining's its theoretical"
                    + " bound, which is loose: its published bound is usually the measured one, docs/wide-domains.md)%n",
                    p.method());
        } else if (analytics) {
            out.printf("(columns per public synthetic window, one per reference distribution: %s; regret: worst ratio to"
                    + " the best mechanism)%n", p.method());
        } else {
            out.printf("(unprojected and §3 bound: closed forms at n on uniform data; columns per reference distribution:%n"
                    + " %s; regret: worst ratio to the best mechanism over the reference distributions)%n", p.method());
        }
        if (local) {
            out.printf("(poisoning bound, docs/poisoning.md: k reports with any payloads and any public coins move a coordinate of%n"
                    + " the unprojected estimate by at most k·n·Δ∞/n and the published answer by at most k·n·Δ₂/n in ℓ2;"
                    + " -: not computed, the mechanism has too many outputs to enumerate)%n");
        }
    }

    /**
     * The plan of a heavy-hitters workload: the protocol's parameters, the predicted threshold share and the standard
     * error of an item's share at n, all in closed form from the protocol's variance
     * ({@link io.privacygateway.mechanisms.planner.HeavyHitterPrediction}).
     */
    private static void printHeavyHitters(PrintWriter out, WorkloadSpec ws, Epsilon eps, long n, Plan p) {
        var h = HeavyHitterPrediction.of(p.resolved(), n);
        var params = h.params();
        out.printf("Plan for %s v%d (%s: an open domain of strings of at most %d UTF-8 bytes), local mode, ε = %s per"
                + " report, n = %d%n", ws.id(), ws.version(), ws.family().wireName(), params.maxBytes(), eps.value(), n);
        out.printf("auto → %s: %d levels of %d byte(s), %d rows × %d buckets per level, %d candidates per level"
                + " (%d longs of state); each report sends %d bit(s) of its bucket's code in one byte%n",
                p.choice().candidate().label(), params.levels(), params.segmentBytes(), params.rows(), params.width(),
                params.candidates(), params.stateLength(), params.payloadBits());
        out.printf("Predicted threshold share %.5f: strings holding well less than this share of the reports are"
                + " found only by chance%n", h.thresholdShare());
        out.printf("Predicted standard error of a found string's share: %.5f at share 0, %.5f at the threshold,"
                + " %.5f at share 0.25 (±%.5f at 95%%)%n", h.standardErrorAtZero(), h.standardError(h.thresholdShare()),
                h.standardError(0.25), 1.96 * h.standardError(0.25));
        out.printf("(%s)%n", p.method());
    }

    /**
     * The plan of a vector-mean workload (family mean over a ball or a box): for every candidate protocol its
     * predicted per-coordinate standard error at n, the worst case over feasible values in closed form
     * ({@code VectorMeanProtocol.worstStandardError}), and auto's choice (the smallest).
     */
    private static void printVectorMean(PrintWriter out, WorkloadSpec ws, Epsilon eps, long n, Plan p) {
        var dom = (Domain.Vector) ws.domain();
        String shape = dom instanceof Domain.Ball b
                ? "the ball of radius " + b.radius()
                : "the box [" + dom.coordinateLo() + ", " + dom.coordinateHi() + "]^" + dom.dimension();
        out.printf("Plan for %s v%d (%s of a vector in %s: %d coordinates %s), local mode, ε = %s per report, n = %d%n",
                ws.id(), ws.version(), ws.family().wireName(), shape, dom.dimension(), dom.coordinates(), eps.value(), n);
        double z = Confidence.twoSidedZ(ws.confidence());
        out.printf("Predicted standard error of each coordinate of the mean (worst case over feasible values; the"
                + " projection onto the %s can only lower it):%n", dom.kind());
        out.printf("%-22s %16s %16s%n", "mechanism", "standard error", String.format(Locale.ROOT, "±%.0f%% bar",
                100 * ws.confidence().value()));
        for (var pred : p.predictions()) {
            if (pred.applicable()) {
                out.printf("%-22s %16.5f %16.5f%n", pred.candidate().label(), pred.unprojectedRms(),
                        z * pred.unprojectedRms());
            } else {
                out.printf("%-22s %16s   (%s)%n", pred.candidate().label(), "n/a", pred.note());
            }
        }
        out.printf("auto → %s%n", p.choice().candidate().label());
        out.printf("(%s)%n", p.method());
    }
}

package io.privacygateway.app.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.audit.AuditReport;
import io.privacygateway.mechanisms.audit.AuditRow;
import io.privacygateway.mechanisms.audit.AuditSettings;
import io.privacygateway.mechanisms.audit.CentralAudit;
import io.privacygateway.mechanisms.audit.CentralReleases;
import io.privacygateway.mechanisms.audit.LocalAudit;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code privacy-gateway audit}: a black-box statistical lower bound on the privacy loss of every
 * randomizer or release a workload uses, driven through the production code (device randomizer and
 * gateway aggregation in local mode, the window release in central mode), next to the declared ε.
 */
@Command(name = "audit", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Looks for evidence that a workload's mechanisms leak more than they declare. It runs the"
                + " production randomizer (local mode: device code and gateway aggregation, one level at a time for"
                + " chaining) or the window release (central mode) many times on chosen neighbouring inputs, searches"
                + " training outputs for the event that best tells the inputs apart, counts that event on fresh outputs"
                + " and reports a lower confidence bound ε̂ on the privacy loss (exact Clopper–Pearson bounds, holding"
                + " jointly for all rows) next to the declared ε.",
            "ε̂ > ε is evidence, at the stated confidence, that the declared ε is false (exit code 3). ε̂ ≤ ε proves"
                + " nothing: an audit can find leaks, never certify their absence. Method: docs/audit.md."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no lower bound exceeds its declared ε",
            "2:usage or configuration error (bad option, invalid workload file)",
            "3:some lower bound ε̂ exceeds its declared ε: evidence that the declared privacy is violated. A mechanism"
                + " that meets its declaration exits 3 with probability at most 1 − C (C = --confidence); one that"
                + " attains its ε exactly can come within about a factor 2 of that, so confirm with a fresh run at a"
                + " higher --confidence"})
public final class AuditCommand implements Callable<Integer> {
    /** Exit code when some ε̂ exceeds its declared ε. */
    public static final int VIOLATION = 3;
    /** Default test samples per input and row, local mode (cheap: one randomization each). */
    public static final long DEFAULT_LOCAL_SAMPLES = 200_000;
    /** Default test samples per input and row, central mode (a window release each). */
    public static final long DEFAULT_CENTRAL_SAMPLES = 50_000;

    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions input = new WorkloadOptions();

    @Option(names = "--samples", paramLabel = "N",
            description = "Test outputs per input and row (default " + DEFAULT_LOCAL_SAMPLES + " local, "
                    + DEFAULT_CENTRAL_SAMPLES + " central); the search draws about as many again, so a row runs the"
                    + " mechanism about 4·N times.")
    Long samples;

    @Option(names = "--confidence", defaultValue = "0.999", paramLabel = "C",
            description = "Probability that every ε̂ of the audit is a true lower bound at once (default ${DEFAULT-VALUE}).")
    double confidence;

    @Option(names = "--seed", paramLabel = "S",
            description = "Seed of the audit's randomness (default: a fresh seed from SecureRandom, printed, so the run"
                    + " can be repeated).")
    Long seed;

    @Option(names = "--secure-random",
            description = "Feed the mechanisms SecureRandom instead of the seeded generator, as devices and the gateway"
                    + " do (slower; the audit's validity does not depend on it).")
    boolean secureRandom;

    @Option(names = "--mechanism", paramLabel = "M",
            description = "Mechanism overriding the workload's (auto, projection, coarse-projection, chaining, grr, oue,"
                    + " olh, subset-selection, hadamard-response, tree, factorization, fourier; central: central-projection,"
                    + " central-chaining, laplace).")
    String mechanism;

    @Option(names = "--epsilon", paramLabel = "E", description = "ε per report (local) or per release (central) overriding the workload's.")
    Double epsilon;

    @Option(names = "--alpha", paramLabel = "A",
            description = "Target error α for coarse-projection and chaining (default: the workload's).")
    Double alpha;

    @Option(names = "--neighbour", paramLabel = "add-remove|replace-one",
            description = "Central mode: the neighbour relation (default: the workload's; add-remove when converting).")
    String neighbour;

    @Option(names = "--contributions", paramLabel = "L",
            description = "Central mode: reports per device and window (default: the workload's; 1 when converting).")
    Integer contributions;

    @Option(names = "--json", description = "Print the audit as JSON.")
    boolean json;

    private final Function<Workload, LocalProtocol> localProtocols;
    private final Function<Workload, CentralReleases.Release> centralReleases;

    /** The production mechanisms. */
    public AuditCommand() {
        this(w -> LocalPipeline.of(w).protocol(), CentralReleases::of);
    }

    /** Other mechanisms for the same declarations: for tests only (under-noised controls). */
    AuditCommand(Function<Workload, LocalProtocol> localProtocols, Function<Workload, CentralReleases.Release> centralReleases) {
        this.localProtocols = localProtocols;
        this.centralReleases = centralReleases;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        WorkloadSpec resolvedSpec = resolve(WorkloadFiles.load(input.workload));
        if (resolvedSpec.family().isOpenDomain()) {
            throw new IllegalArgumentException("family " + resolvedSpec.family().wireName() + " has an open domain of"
                    + " strings that is never materialised; the black-box audit needs a universe (the heavy-hitter"
                    + " protocol's privacy is tested exactly in its own tests, docs/heavy-hitters.md)");
        }
        if (resolvedSpec.isVectorMean()) {
            throw new IllegalArgumentException("family mean over a " + resolvedSpec.domain().kind() + " has real vector"
                    + " values that are never materialised; the black-box audit needs a universe (the vector"
                    + " protocols' privacy is tested in their own tests, local.vector)");
        }
        if (resolvedSpec.isWide()) {
            throw new IllegalArgumentException("mechanism " + resolvedSpec.mechanism().wireName() + " releases a wide"
                    + " workload whose universe is never materialised; the black-box audit needs one (the wide releases"
                    + " are audited on 8 values in their tests, docs/wide-domains.md §7)");
        }
        Workload w = Workload.of(resolvedSpec);
        WorkloadSpec s = w.spec();
        boolean central = s.mode() == Mode.CENTRAL;
        long n = samples != null ? samples : central ? DEFAULT_CENTRAL_SAMPLES : DEFAULT_LOCAL_SAMPLES;
        AuditSettings settings;
        try {
            settings = AuditSettings.of(n, confidence);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--samples/--confidence: " + e.getMessage(), e);
        }
        long usedSeed = seed != null ? seed : new SecureRandom().nextLong();
        RandomBits randomness = secureRandom ? new SecureRandomBits() : new SeededRandomBits(usedSeed);
        AuditReport report = central
                ? CentralAudit.run(w, centralReleases.apply(w), settings, randomness)
                : LocalAudit.run(w, localProtocols.apply(w), s.epsilonPerReport(), settings, randomness);
        int exit = report.violation() ? VIOLATION : 0;
        if (json) {
            out.println(Json.MAPPER.writeValueAsString(toJson(w, report, secureRandom ? null : usedSeed, exit)));
        } else {
            print(out, w, report, secureRandom ? null : usedSeed);
        }
        out.flush();
        return exit;
    }

    /** Applies the overrides and resolves {@code auto} as deployment does ({@link Planner#resolve}). */
    private WorkloadSpec resolve(WorkloadSpec ws) {
        Mode effective = input.effectiveMode(ws);
        Epsilon eps = WorkloadOptions.epsilonOption(epsilon);
        if (effective == Mode.CENTRAL) {
            if (ws.mode() == Mode.LOCAL || eps != null || neighbour != null || contributions != null) {
                Epsilon e = eps != null ? eps : ws.mode() == Mode.CENTRAL ? ws.central().epsilonPerRelease()
                        : ws.epsilonPerReport();
                NeighbourRelation rel = neighbour != null ? NeighbourRelation.fromWireName(neighbour)
                        : ws.mode() == Mode.CENTRAL ? ws.central().neighbour() : NeighbourRelation.ADD_REMOVE;
                int l = contributions != null ? contributions : ws.mode() == Mode.CENTRAL
                        ? ws.central().contributionsPerWindow() : 1;
                if (l < 1) {
                    throw new IllegalArgumentException("--contributions must be an integer >= 1, got " + l);
                }
                ws = ws.toBuilder().inCentralMode(e, rel, l).build();
            }
        } else {
            if (ws.mode() == Mode.CENTRAL) {
                throw new IllegalArgumentException("--mode local needs a local-mode workload; " + input.workload
                        + " is central");
            }
            if (neighbour != null || contributions != null) {
                throw new IllegalArgumentException("--neighbour and --contributions apply to central mode only");
            }
            if (eps != null) {
                ws = ws.toBuilder().epsilonPerAnswer(eps).budgetAtLeastOneCharge().build();
            }
        }
        if (mechanism != null) {
            MechanismId m = MechanismId.fromWireName(mechanism);
            if (m != MechanismId.AUTO && m.mode() != effective) {
                throw new IllegalArgumentException("--mechanism " + mechanism + " is a " + m.mode().wireName()
                        + "-mode mechanism, but the audit is in " + effective.wireName() + " mode");
            }
            ws = ws.toBuilder().mechanism(m).build();
        }
        if (alpha != null) {
            ws = ws.toBuilder().alpha(Alpha.of(alpha)).build();
        }
        WorkloadSpec resolved = Planner.resolve(ws);
        MechanismId m = resolved.mechanism();
        if (resolved.alpha() == null && (m == MechanismId.LOCAL_CHAINING || m == MechanismId.LOCAL_COARSE_PROJECTION
                || m == MechanismId.CENTRAL_CHAINING)) {
            throw new IllegalArgumentException("mechanism " + m.wireName() + " needs a target error α: set alpha in "
                    + input.workload + " or pass --alpha");
        }
        return resolved;
    }

    private static String fmt(double v) {
        return String.format("%.4f", v);
    }

    private static String interval(double[] ci) {
        return "[" + fmt(ci[0]) + ", " + fmt(ci[1]) + "]";
    }

    private static String declared(AuditRow r) {
        return String.format("%.4g", r.declared().doubleValue());
    }

    private static String truncate(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "…";
    }

    private static void print(PrintWriter o, Workload w, AuditReport r, Long seed) {
        WorkloadSpec s = w.spec();
        boolean central = s.mode() == Mode.CENTRAL;
        o.printf("Privacy audit of %s v%d · %s mode · %s · declared ε = %s per %s%s%n", s.id(), s.version(), r.mode(),
                r.mechanism(), (central ? s.central().epsilonPerRelease() : s.epsilonPerReport()).exact().toPlainString(),
                central ? "release" : "report", central ? " (" + s.central().neighbour().wireName() + ", L = "
                        + s.central().contributionsPerWindow() + ")" : "");
        o.printf("%,d test outputs per input and row; all %d lower bounds hold together with probability ≥ %s; %s%n",
                r.samples(), r.rows().size(), r.confidence(), seed != null ? "seed " + seed : "SecureRandom");
        o.println();
        String head = String.format("%-26s %-34s %-28s %-26s %-26s %8s %9s %6s  %s", "release", "input pair (1 vs 2)",
                "event E", "P(E | 1) [CI]", "P(E | 2) [CI]", "ε̂ ≥", "declared", "ε̂/ε", "verdict");
        o.println(head);
        o.println("-".repeat(head.length()));
        for (AuditRow row : r.rows()) {
            o.printf("%-26s %-34s %-28s %-26s %-26s %8.4f %9s %6.3f  %s%n", truncate(row.part(), 26),
                    truncate(row.first() + " vs " + row.second(), 34), truncate(row.event(), 28),
                    fmt(row.firstEstimate()) + " " + interval(row.firstInterval()),
                    fmt(row.secondEstimate()) + " " + interval(row.secondInterval()), row.epsilonLowerBound(),
                    declared(row), row.ratio(), row.violation() ? "VIOLATION" : "ok");
        }
        o.println();
        for (AuditRow row : r.rows()) {
            o.printf("%s: %s vs %s; %s%n    E = %s%n", row.part(), row.first(), row.second(), row.context(), row.event());
        }
        o.println();
        if (r.violation()) {
            o.printf("VIOLATION: some ε̂ exceeds its declared ε. If the mechanism met its declaration this would happen with"
                    + " probability at most %.3g; confirm with a fresh run (another --seed) at a higher --confidence.%n",
                    1 - r.confidence());
        } else {
            o.printf("No violation found (largest ε̂/ε = %.3f). An audit finds leaks; it cannot certify their absence.%n",
                    r.maxRatio());
        }
    }

    private static ObjectNode toJson(Workload w, AuditReport r, Long seed, int exit) {
        WorkloadSpec s = w.spec();
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("workload", s.id());
        root.put("version", s.version());
        root.put("contentHash", w.contentHash());
        root.put("mode", r.mode());
        root.put("mechanism", r.mechanism());
        if (s.mode() == Mode.CENTRAL) {
            root.put("epsilonPerRelease", s.central().epsilonPerRelease().exact());
            root.put("neighbour", s.central().neighbour().wireName());
            root.put("contributionsPerWindow", s.central().contributionsPerWindow());
        } else {
            root.put("epsilonPerReport", s.epsilonPerReport().exact());
        }
        root.put("confidence", r.confidence());
        root.put("samples", r.samples());
        if (seed != null) {
            root.put("seed", seed);
        } else {
            root.put("randomness", "SecureRandom");
        }
        root.put("method", "search on training outputs, exact Clopper–Pearson bounds on fresh outputs, union bound over"
                + " rows; see docs/audit.md");
        ArrayNode rows = root.putArray("rows");
        for (AuditRow row : r.rows()) {
            ObjectNode o = rows.addObject();
            o.put("release", row.part());
            o.put("first", row.first());
            o.put("second", row.second());
            o.put("context", row.context());
            o.put("event", row.event());
            o.put("eventTypicalOf", row.favoursFirst() ? "first" : "second");
            o.put("samples", row.samples());
            o.put("hitsFirst", row.hitsFirst());
            o.put("hitsSecond", row.hitsSecond());
            o.put("pFirst", row.firstEstimate());
            o.set("pFirstInterval", interval(List.of(row.firstInterval()[0], row.firstInterval()[1])));
            o.put("pSecond", row.secondEstimate());
            o.set("pSecondInterval", interval(List.of(row.secondInterval()[0], row.secondInterval()[1])));
            o.put("epsilonLowerBound", row.epsilonLowerBound());
            o.put("declaredEpsilon", row.declared().doubleValue());
            o.put("ratio", row.ratio());
            o.put("errorProbability", row.errorProbability());
            o.put("verdict", row.violation() ? "violation" : "ok");
        }
        root.put("violation", r.violation());
        root.put("maxRatio", r.maxRatio());
        root.put("exitCode", exit);
        return root;
    }

    private static ArrayNode interval(List<Double> ci) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        ci.forEach(a::add);
        return a;
    }
}

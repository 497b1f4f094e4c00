package io.privacygateway.app.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.privacygateway.app.files.ValuesFile;
import io.privacygateway.app.simulate.CentralSimulation;
import io.privacygateway.app.simulate.LocalSimulation;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code privacy-gateway simulate}: run a values file through the real device and gateway code. */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Turns every value in a values file into one device report through the real device code,",
            "then releases the answer through the real gateway pipeline, and writes the answers, error bars,",
            "the true answers computed from the file and the achieved error as JSON."})
public final class SimulateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions input = new WorkloadOptions();

    @Option(names = "--values", required = true, paramLabel = "FILE",
            description = "One value per line: a label, a number, comma-separated 0/1 attributes, or (regression, erm)"
                    + " comma-separated feature values then the response.")
    Path values;

    @Option(names = "--epsilon", paramLabel = "E", description = "ε per report (default: the workload's).")
    Double epsilon;

    @Option(names = "--mechanism", paramLabel = "M",
            description = "Mechanism overriding the workload's (auto, projection, coarse-projection, chaining, grr, oue,"
                    + " olh, subset-selection, hadamard-response, tree, factorization, fourier).")
    String mechanism;

    @Option(names = "--seed", paramLabel = "S",
            description = "Seed for a reproducible simulation (device randomness from a seeded generator; without it,"
                    + " SecureRandom as on real devices).")
    Long seed;

    @Mixin
    WorkloadOptions.Conversion conversion = new WorkloadOptions.Conversion();

    @Option(names = "--skip-invalid", description = "Report invalid lines (with line numbers) but simulate the rest.")
    boolean skipInvalid;

    @Option(names = "--out", required = true, paramLabel = "FILE.json", description = "Where to write the JSON result.")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        Epsilon eps = WorkloadOptions.epsilonOption(epsilon);
        MechanismId mech = mechanism == null ? null : MechanismId.fromWireName(mechanism);
        WorkloadSpec ws = WorkloadFiles.load(input.workload);
        if (ws.mode() == Mode.CENTRAL && (ws.isWide() || (mech != null && mech.isWide())
                || (ws.mechanism() == MechanismId.AUTO && mech == null && !fits(ws)))) {
            return simulateWide(ws, eps, mech, err, stdout);
        }
        if (ws.family().isOpenDomain()) {
            return simulateHeavyHitters(ws, eps, mech, err, stdout);
        }
        if (ws.isVectorMean()) {
            return simulateVectorMean(ws, eps, mech, err, stdout);
        }
        Workload w = Workload.of(ws);
        ValuesFile.Contents contents = ValuesFile.read(values, w);
        if (stopsOnRejected(contents, err)) {
            return 2;
        }
        RandomBits secret = seed == null ? new SecureRandomBits() : new SeededRandomBits(seed);
        Mode effective = input.effectiveMode(ws);
        ObjectNode root = Json.MAPPER.createObjectNode();
        Answer a;
        double[] truth;
        boolean auto;
        if (effective == Mode.CENTRAL) {
            WorkloadSpec central = ws.mode() == Mode.CENTRAL ? ws : conversion.localAsCentral(ws, eps);
            CentralSimulation.Result r = CentralSimulation.run(central, contents.values(), eps, mech, secret);
            a = r.answer();
            truth = r.truth();
            auto = r.plan() != null;
            putWorkload(root, r.resolved());
            putMechanism(root, "central", a, mech != null ? mech : central.mechanism());
            root.set("privacy", Json.centralPrivacy(r.pipeline(), a));
            if (r.resolved().family().isWindowAnalytics()) {
                root.set("analytics", Json.analytics(r.resolved().family(), a, r.familyError()));
            }
            if (r.plan() != null) {
                root.set("plan", Json.plan(r.plan()));
            }
        } else {
            LocalSimulation.Result r = LocalSimulation.run(ws, contents.values(), eps, mech, secret);
            a = r.answer();
            truth = r.truth();
            auto = r.plan() != null;
            putWorkload(root, r.resolved());
            putMechanism(root, "local", a, mech != null ? mech : ws.mechanism());
            if (r.resolved().alpha() != null) {
                root.put("alpha", r.resolved().alpha().value());
            }
            putLocalPrivacy(root, a);
            if (r.plan() != null) {
                root.set("plan", Json.plan(r.plan()));
            }
        }
        putRun(root, a);
        root.set("answers", Json.answers(a, truth));
        root.set("error", Json.error(a, truth));
        root.set("levels", Json.levels(a));
        putRejectedLines(root, contents);
        Files.writeString(out, Json.MAPPER.writeValueAsString(root));
        printSummary(stdout, a, truth, auto);
        stdout.printf("wrote %s%n", out);
        return 0;
    }

    /** Whether a materialised workload of this spec would fit (a marginals universe of at most 2^16 values). */
    private static boolean fits(WorkloadSpec ws) {
        return !(ws.domain() instanceof Domain.Attributes a)
                || (1L << a.names().size()) <= WorkloadSpec.MAX_UNIVERSE;
    }

    /**
     * A wide marginal workload (mwem, worst-case-chaining; docs/wide-domains.md): the values' exact marginal counts,
     * one release, the answer with its l∞ bound and, for mwem, the synthetic records, without materialising 2^d values.
     */
    private Integer simulateWide(WorkloadSpec ws, Epsilon eps, MechanismId mech, PrintWriter err, PrintWriter stdout)
            throws Exception {
        WorkloadSpec.Builder b = ws.toBuilder();
        if (eps != null) {
            b.epsilonPerAnswer(eps).budgetAtLeastOneCharge();
        }
        if (mech != null) {
            b.mechanism(mech);
        }
        WorkloadSpec requested = b.build();
        boolean auto = requested.mechanism() == MechanismId.AUTO;
        WorkloadSpec resolved = Planner.resolve(requested);
        var c = (CentralWorkload)
                ResolvedWorkload.of(resolved);
        ValuesFile.Contents contents = ValuesFile.read(values, c);
        if (stopsOnRejected(contents, err)) {
            return 2;
        }
        long[] cells = new long[c.aggregateLength()];
        for (int x : contents.values()) {
            c.accumulate(x, cells);
        }
        var counts = c.marginalCounts(contents.values().length, cells);
        RandomBits secret = seed == null ? new SecureRandomBits() : new SeededRandomBits(seed);
        var released = c.wideRelease().release(counts, secret);
        Answer a = released.answer();
        double[] truth = counts.n() == 0 ? new double[a.estimates().length] : counts.answers();
        ObjectNode root = Json.MAPPER.createObjectNode();
        var shape = c.wide().orElseThrow();
        root.set("workload", Json.workload(resolved, c.contentHash(), (int) Math.min(Integer.MAX_VALUE,
                1L << shape.attributeCount()), shape.queryCount()));
        putMechanism(root, "central", a, requested.mechanism());
        ObjectNode privacy = root.putObject("privacy");
        Json.put(privacy, "epsilon", a.cost().epsilon());
        privacy.put("delta", 0); // PrivacyCost.Pure
        privacy.put("guarantee", "every answer (and every synthetic record) is ε-DP (δ = 0) for every device");
        putRun(root, a);
        double maxError = 0;
        for (int q = 0; q < truth.length; q++) {
            maxError = Math.max(maxError, Math.abs(a.estimates()[q] - truth[q]));
        }
        a.extras().maxErrorBound().ifPresent(v -> Json.put(root, "maxErrorBound", v));
        Json.put(root, "maxError", maxError);
        root.set("answers", Json.answers(a, truth));
        root.set("error", Json.error(a, truth));
        root.set("levels", Json.levels(a));
        released.records().ifPresent(r -> {
            ArrayNode rows = root.putArray("syntheticRecords");
            for (long x : r.records()) {
                rows.add(x);
            }
        });
        putRejectedLines(root, contents);
        Files.writeString(out, Json.MAPPER.writeValueAsString(root));
        printSummary(stdout, a, truth, auto);
        stdout.printf("max error %.5f, published l∞ bound %.5f%s%n", maxError,
                a.extras().maxErrorBound().orElse(Double.NaN), released.records().map(r -> ", " + r.size()
                        + " synthetic records in the JSON").orElse(""));
        stdout.printf("wrote %s%n", out);
        return 0;
    }

    /**
     * The workload resolved as the gateway would run it, for a family that runs in local mode only (heavy-hitters,
     * vector means): its domain reads and checks the values file before ε or n are known.
     *
     * @throws IllegalArgumentException naming {@code mode} when the command asks for central mode
     */
    private LocalWorkload localOnly(WorkloadSpec ws, String family) {
        if (input.effectiveMode(ws) != Mode.LOCAL) {
            throw new IllegalArgumentException("mode: family " + family + " runs in local mode only");
        }
        return (LocalWorkload) ResolvedWorkload
                .of(Planner.resolve(ws));
    }

    /**
     * A heavy-hitters workload (an open domain of strings, local mode): every line one device's string, randomized by
     * the real device code and accumulated and released by the real gateway code; the truth of each found string is
     * its share of the file's lines, and the strings the file holds most often are listed next to the answer.
     */
    private Integer simulateHeavyHitters(WorkloadSpec ws, Epsilon eps, MechanismId mech, PrintWriter err,
            PrintWriter stdout) throws Exception {
        LocalWorkload probe = localOnly(ws, "heavy-hitters");
        ValuesFile.Strings contents = ValuesFile.readStrings(values, probe); // the domain does not depend on ε or n
        ValuesFile.Contents rejectedOnly = new ValuesFile.Contents(new int[0], new long[0], contents.rejected());
        if (stopsOnRejected(rejectedOnly, err)) {
            return 2;
        }
        List<String> strings = contents.values();
        if (strings.isEmpty()) {
            throw new IllegalArgumentException("values: " + values + " holds no valid string");
        }
        var trial = Planner.forTrial(ws, eps, mech, strings.size());
        var w = (LocalWorkload)
                ResolvedWorkload.of(trial.resolved());
        RandomBits secret = seed == null ? new SecureRandomBits() : new SeededRandomBits(seed);
        long[] state = new long[w.aggregateLength()];
        Map<String, Long> counts = new HashMap<>();
        for (int i = 0; i < strings.size(); i++) {
            var coords = new ReportCoordinates("device-" + (i + 1), 0, 0);
            if (!w.accumulator().accumulate(w.randomize(strings.get(i), coords, secret), coords, state)) {
                throw new IllegalStateException("the gateway rejected a report the device produced");
            }
            counts.merge(strings.get(i), 1L, Long::sum);
        }
        Answer a = w.release(state, strings.size());
        double[] truth = new double[a.labels().size()];
        for (int q = 0; q < truth.length; q++) {
            truth[q] = (double) counts.getOrDefault(a.labels().get(q), 0L) / strings.size();
        }
        ObjectNode root = localResult(trial, w.contentHash(), a, mech != null ? mech : ws.mechanism(), truth);
        List<Map.Entry<String, Long>> top = new ArrayList<>(counts.entrySet());
        top.sort(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey()));
        ArrayNode truthTop = root.putArray("trueTop");
        for (var e : top.subList(0, Math.min(20, top.size()))) {
            ObjectNode o = truthTop.addObject();
            o.put("value", e.getKey());
            Json.put(o, "share", (double) e.getValue() / strings.size());
            o.put("found", a.labels().contains(e.getKey()));
        }
        putRejectedLines(root, rejectedOnly);
        Files.writeString(out, Json.MAPPER.writeValueAsString(root));
        printSummary(stdout, a, truth, trial.plan() != null);
        stdout.printf("threshold share %.5f; the file's most frequent strings: %s%n",
                a.extras().scalars().getOrDefault("thresholdShare", Double.NaN), top.subList(0, Math.min(5, top.size()))
                        .stream().map(e -> String.format(Locale.ROOT, "%s %.4f%s", e.getKey(),
                                (double) e.getValue() / strings.size(), a.labels().contains(e.getKey()) ? "" : " (not found)"))
                        .collect(Collectors.joining(", ")));
        stdout.printf("wrote %s%n", out);
        return 0;
    }

    /**
     * Prints every rejected line of the values file to {@code err} as {@code FILE:LINE: reason}; when there are any
     * and {@code --skip-invalid} is not given, also the summary line.
     *
     * @return true when the command must stop with exit code 2 (rejected lines without {@code --skip-invalid})
     */
    private boolean stopsOnRejected(ValuesFile.Contents contents, PrintWriter err) {
        for (ValuesFile.Rejected r : contents.rejected()) {
            err.printf("%s:%d: %s%n", values, r.line(), r.reason());
        }
        if (!contents.rejected().isEmpty() && !skipInvalid) {
            err.printf("privacy-gateway: %d invalid line(s) in %s; fix them or pass --skip-invalid%n",
                    contents.rejected().size(), values);
            return true;
        }
        return false;
    }

    /** Puts {@code workload}: the resolved spec with its content hash, universe size and query count (materialised). */
    private static void putWorkload(ObjectNode root, WorkloadSpec resolved) {
        Workload w = Workload.of(resolved);
        root.set("workload", Json.workload(resolved, w.contentHash(), w.universeSize(), w.queryCount()));
    }

    /** Puts {@code mode}, {@code mechanism} (the one that released {@code a}) and {@code mechanismRequested}, in order. */
    private static void putMechanism(ObjectNode root, String mode, Answer a, MechanismId requested) {
        root.put("mode", mode);
        root.put("mechanism", a.mechanism().wireName());
        root.put("mechanismRequested", requested.wireName());
    }

    /**
     * A vector-mean workload (family mean over a ball or a box, local mode): every line one device's vector
     * (comma-separated coordinates), randomized by the real device code and accumulated and released by the real
     * gateway code; the truth is the file's mean per coordinate.
     */
    private Integer simulateVectorMean(WorkloadSpec ws, Epsilon eps, MechanismId mech, PrintWriter err,
            PrintWriter stdout) throws Exception {
        LocalWorkload probe = localOnly(ws, "mean");
        ValuesFile.VectorLines contents = ValuesFile.readVectors(values, probe.vectors()); // the domain fixes them
        ValuesFile.Contents rejectedOnly = new ValuesFile.Contents(new int[0], new long[0], contents.rejected());
        if (stopsOnRejected(rejectedOnly, err)) {
            return 2;
        }
        List<double[]> vectors = contents.values();
        if (vectors.isEmpty()) {
            throw new IllegalArgumentException("values: " + values + " holds no valid vector");
        }
        var trial = Planner.forTrial(ws, eps, mech, vectors.size());
        var w = (LocalWorkload)
                ResolvedWorkload.of(trial.resolved());
        RandomBits secret = seed == null ? new SecureRandomBits() : new SeededRandomBits(seed);
        long[] state = new long[w.aggregateLength()];
        double[] truth = new double[w.queryLabels().size()];
        for (int i = 0; i < vectors.size(); i++) {
            var coords = new ReportCoordinates("device-" + (i + 1), 0, 0);
            double[] v = vectors.get(i);
            if (!w.accumulator().accumulate(w.vectors().randomize(v, coords, secret), coords, state)) {
                throw new IllegalStateException("the gateway rejected a report the device produced");
            }
            for (int q = 0; q < truth.length; q++) {
                truth[q] += v[q] / vectors.size();
            }
        }
        Answer a = w.release(state, vectors.size());
        ObjectNode root = localResult(trial, w.contentHash(), a, mech != null ? mech : ws.mechanism(), truth);
        putRejectedLines(root, rejectedOnly);
        Files.writeString(out, Json.MAPPER.writeValueAsString(root));
        printSummary(stdout, a, truth, trial.plan() != null);
        stdout.printf("wrote %s%n", out);
        return 0;
    }

    /**
     * The JSON result of a local workload simulated outside the universe path (heavy-hitters, vector means): the
     * resolved workload, mechanism, privacy, plan (for auto), run, named scalars, answers with their truth and the
     * error.
     */
    private ObjectNode localResult(Planner.Trial trial, String contentHash,
            Answer a, MechanismId mechanism, double[] truth) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.set("workload", Json.workload(trial.resolved(), contentHash, 0, a.labels().size()));
        putMechanism(root, "local", a, mechanism);
        putLocalPrivacy(root, a);
        if (trial.plan() != null) {
            root.set("plan", Json.plan(trial.plan()));
        }
        putRun(root, a);
        ObjectNode scalars = root.putObject("scalars");
        new TreeMap<>(a.extras().scalars()).forEach((k, v) -> Json.put(scalars, k, v));
        root.set("answers", Json.answers(a, truth));
        root.set("error", Json.error(a, truth));
        return root;
    }

    /** Puts {@code privacy} of a local answer: ε per report, δ = 0, and the guarantee in words. */
    private static void putLocalPrivacy(ObjectNode root, Answer a) {
        ObjectNode privacy = root.putObject("privacy");
        Json.put(privacy, "epsilonPerReport", a.cost().epsilon());
        privacy.put("delta", 0); // the answer's cost is PrivacyCost.Pure
        privacy.put("guarantee", "every report is ε-LDP for its device; every answer is ε-DP (δ = 0) post-processing");
    }

    /** Puts {@code n} and {@code confidence} of {@code a} and, when {@code --seed} was given, {@code seed}, in order. */
    private void putRun(ObjectNode root, Answer a) {
        root.put("n", a.n());
        root.put("confidence", a.confidence());
        if (seed != null) {
            root.put("seed", seed);
        }
    }

    /** Puts {@code rejectedLines}: one {@code {line, reason}} object per rejected line of the values file, in order. */
    private static void putRejectedLines(ObjectNode root, ValuesFile.Contents contents) {
        ArrayNode rej = root.putArray("rejectedLines");
        for (ValuesFile.Rejected x : contents.rejected()) {
            ObjectNode o = rej.addObject();
            o.put("line", x.line());
            o.put("reason", x.reason());
        }
    }

    private static void printSummary(PrintWriter o, Answer a, double[] truth, boolean auto) {
        boolean central = a.mechanism().mode() == Mode.CENTRAL;
        o.printf("%s%s, ε = %s per %s (δ = 0), n = %d, %d answers, error bars at %.0f%% confidence%n",
                a.mechanism().wireName(), auto ? " (chosen by auto)" : "", a.cost().epsilon(), central ? "release" : "report",
                a.n(), truth.length, 100 * a.confidence());
        o.printf("%-28s %10s %23s %10s%n", "answer", "estimate", "error bar", "true");
        int shown = Math.min(truth.length, 20);
        double sq = 0;
        for (int q = 0; q < truth.length; q++) {
            sq += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
            if (q < shown) {
                String label = a.labels().get(q);
                o.printf("%-28s %10.5f  [%9.5f, %9.5f] %10.5f%n", label.length() > 28 ? label.substring(0, 27) + "…"
                        : label, a.estimates()[q], a.lower()[q], a.upper()[q], truth[q]);
            }
        }
        if (shown < truth.length) {
            o.printf("… %d more in the JSON%n", truth.length - shown);
        }
        o.printf("achieved RMS error %.5f (expected bound %.5f)%n", Math.sqrt(sq / Math.max(1, truth.length)),
                a.expectedRmsError());
    }
}

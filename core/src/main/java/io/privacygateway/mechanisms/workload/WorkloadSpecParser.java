package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Durations;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns a parsed YAML/JSON tree (maps, lists, strings, numbers, booleans) into a validated
 * {@link WorkloadSpec}. Any error is an {@link InvalidWorkloadException} naming the field path and the
 * bad value; unknown fields are errors too, so a typo never silently falls back to a default.
 *
 * <pre>
 * id: screen-usage            # [A-Za-z0-9._-]{1,100}
 * version: 1                  # >= 1
 * family: histogram           # histogram | cdf | range | marginals | points | mode | regression | erm | mean
 *                             # | heavy-hitters
 * domain:                     # exactly one of:
 *   labels: [social, video]   #   histogram
 *   buckets: [0, 10, 50, 100] #   histogram, cdf, range (k+1 increasing edges)
 *   attributes: [a, b, c]     #   marginals (at most 16; central mwem / worst-case-chaining: at most 26)
 *   points:                   #   points: label and answer vector Q(x) in [0,1]^m
 *     - {label: x, answer: [0, 1]}
 *   features:                 #   regression, erm: numeric axes, each buckets (edges) or values
 *     - {name: x1, buckets: [0, 1, 2]}
 *   response: {name: y, values: [0, 1]}
 *   range: {lo: 0, hi: 120, levels: 1025}   #   mean (levels optional, default 1025)
 *   strings: {maxBytes: 16}   #   heavy-hitters: an open domain of strings of 1..64 UTF-8 bytes (default 16)
 *   ball: {coordinates: [cpu, memory], radius: 1.0}     #   mean of vectors in an l2 ball (1..256 coordinates)
 *   box: {coordinates: [cpu, memory], lo: 0, hi: 100}   #   mean of vectors in a box (levels optional, 1025)
 * model: {loss: logistic, radius: 4, regularization: 0.001}   # erm only
 * queries:                    # marginals: way (k); points: labels of the m coordinates (optional)
 *   way: 3
 * mode: local                 # local (default) | central
 * mechanism: auto             # see MechanismId
 * epsilonPerReport: 1.0       # local mode
 * amplification: {delta: 1e-8}   # local mode: δ of the amplified (ε, δ) on answers (default 1e-8)
 * budget: {epsilonPerPeriod: 4.0, period: 1d}   # group: {name: telemetry, epsilonPerPeriod: 6} (optional)
 * window: {size: 1m, grace: 10s}   # horizons: [1h, 1d] (rollups; central also since-activation)
 * confidence: 0.95            # default 0.95
 * alpha: 0.1                  # coarse projection / chaining (optional)
 * epsilonSplit: optimal       # equal | optimal (default)
 * expectedReportsPerWindow: 100000   # n used to resolve auto in the gateway (optional)
 * protocol: pgw-v1           # optional; written by the canonical form, checked when present
 * protocolVersion: 2          # optional, a named local mechanism only: the version of its device protocol that
 *                             # devices randomize with and the gateway serves (default: its current version;
 *                             # ProtocolVersions lists the versions this build derives); in a canonical
 *                             # form (one with "protocol"), absent means 1, as the canonical form omits 1
 * central:                    # central mode only
 *   epsilonPerRelease: 1.0
 *   neighbour: add-remove     # add-remove | replace-one
 *   contributionsPerWindow: 1
 *   epsilonPerRunningTotal: 0.5   # with window.horizons: ε of the running totals per window
 *   synthetic: {records: 1024}    # mwem only: publish this many synthetic records per window (1..4096)
 * </pre>
 * Durations are ISO-8601 ({@code PT1M}, {@code P1D}) or a number with unit {@code ms, s, m, h, d}.
 */
public final class WorkloadSpecParser {
    private static final Set<String> TOP_FIELDS = Set.of("id", "version", "family", "domain", "queries", "mode",
            "amplification",
            "mechanism", "epsilonPerReport", "budget", "window", "confidence", "alpha", "epsilonSplit",
            "expectedReportsPerWindow", "central", "protocol", "model", "protocolVersion");
    /** Upper limits that keep materialized workloads in memory (see {@link WorkloadSpec}). */
    public static final int MAX_UNIVERSE = WorkloadSpec.MAX_UNIVERSE;
    public static final long MAX_CELLS = WorkloadSpec.MAX_CELLS;

    private WorkloadSpecParser() {}

    /**
     * Parses a workload tree and validates it: this method only maps the tree onto
     * {@link WorkloadSpec#builder()} (shape errors: missing, unknown or mistyped fields); every rule about
     * values lives in {@link WorkloadSpec} and {@link Domain}, which name the field of a violated rule.
     */
    public static WorkloadSpec parse(Map<?, ?> tree) {
        if (tree == null) {
            throw new InvalidWorkloadException("(root)", "the workload file is empty");
        }
        Errors errors = new Errors();
        errors.run(() -> checkKnown("", tree, TOP_FIELDS));
        if (tree.containsKey("protocol")) {
            errors.run(() -> {
                String protocol = string(tree, "protocol");
                if (!protocol.equals(CanonicalForm.PROTOCOL_VERSION)) {
                    throw new InvalidWorkloadException("protocol", "\"" + protocol + "\" is not supported by this"
                            + " version (supports " + CanonicalForm.PROTOCOL_VERSION + ")");
                }
            });
        }
        WorkloadSpec.Builder b = WorkloadSpec.builder();
        errors.run(() -> b.id(string(tree, "id")));
        errors.run(() -> b.version((int) integer(tree, "version", 1, Integer.MAX_VALUE)));
        QueryFamily family = errors.get(() -> enumValue("family", string(tree, "family"), QueryFamily::fromWireName));
        if (family != null) { // the domain and the queries are read as the family says
            b.family(family);
            errors.run(() -> b.domain(domain(family, map(tree, "domain"))));
            errors.run(() -> queries(tree, family, b));
        }
        Mode mode = tree.containsKey("mode")
                ? errors.get(() -> enumValue("mode", string(tree, "mode"), Mode::fromWireName)) : Mode.LOCAL;
        if (tree.containsKey("mechanism")) {
            errors.run(() -> b.mechanism(enumValue("mechanism", string(tree, "mechanism"), MechanismId::fromWireName)));
        }
        if (mode != null) {
            errors.run(() -> modeParameters(tree, mode, b));
        }
        errors.run(() -> budget(tree, b));
        errors.run(() -> window(tree, b));
        if (tree.containsKey("confidence")) {
            errors.run(() -> b.confidence(wrap("confidence", () -> new ConfidenceLevel(number(tree, "", "confidence")))));
        }
        if (tree.containsKey("alpha")) {
            errors.run(() -> b.alpha(wrap("alpha", () -> new Alpha(number(tree, "", "alpha")))));
        }
        if (tree.containsKey("epsilonSplit")) {
            errors.run(() -> b.epsilonSplit(enumValue("epsilonSplit", string(tree, "epsilonSplit"),
                    EpsilonSplit::fromWireName)));
        }
        if (tree.containsKey("expectedReportsPerWindow")) {
            errors.run(() -> b.expectedReportsPerWindow(integer(tree, "", "expectedReportsPerWindow", 1,
                    Long.MAX_VALUE / 4)));
        }
        if (tree.containsKey("model")) {
            errors.run(() -> {
                Map<?, ?> m = map(tree, "model");
                checkKnown("model.", m, Set.of("loss", "radius", "regularization"));
                b.model(new WorkloadSpec.Model(string(m, "model.", "loss"), number(m, "model.", "radius"),
                        m.containsKey("regularization") ? number(m, "model.", "regularization") : 0.0));
            });
        }
        errors.run(() -> {
            if (tree.containsKey("protocolVersion")) { // checked against the mechanism's derivable versions by the spec
                b.protocolVersion((int) integer(tree, "", "protocolVersion", 1, Integer.MAX_VALUE));
            } else if (tree.containsKey("protocol") && ProtocolVersions.hasProtocol(b.mechanism())) {
                b.protocolVersion(1); // a canonical form (it carries "protocol") omits version 1: CanonicalForm
            }
        });
        errors.throwIfAny(); // every shape error of the file at once; the rules across fields need a complete spec
        return b.build();
    }

    /** Collects the shape errors of one file, so that all of them are reported at once. */
    private static final class Errors {
        private final List<InvalidWorkloadException> found = new ArrayList<>();

        void run(Runnable step) {
            try {
                step.run();
            } catch (InvalidWorkloadException e) {
                found.addAll(e.errors());
            }
        }

        /** The step's value, or {@code null} after recording its error. */
        <T> T get(Supplier<T> step) {
            try {
                return step.get();
            } catch (InvalidWorkloadException e) {
                found.addAll(e.errors());
                return null;
            }
        }

        void throwIfAny() {
            if (!found.isEmpty()) {
                throw InvalidWorkloadException.of(found);
            }
        }
    }

    /** Reads the {@code queries} fields the family takes ({@link FamilyRules#queryKeys()}); any other is an error. */
    private static void queries(Map<?, ?> tree, QueryFamily family, WorkloadSpec.Builder b) {
        Map<?, ?> queries = tree.containsKey("queries") ? map(tree, "queries") : Map.of();
        Set<String> keys = family.rules().queryKeys();
        checkKnown("queries.", queries, keys);
        if (keys.contains("way")) {
            b.marginalWay((int) integer(queries, "queries.", "way", 1, Integer.MAX_VALUE));
        }
        if (keys.contains("labels")) {
            if (queries.containsKey("labels")) {
                b.queryLabels(strings(queries, "queries.", "labels"));
            } else { // q0, q1, ...: one per coordinate of the first point's answer
                List<?> pts = list(map(tree, "domain"), "domain.", "points");
                int m = pts.get(0) instanceof Map<?, ?> p0 && p0.get("answer") instanceof List<?> a ? a.size() : 0;
                List<String> gen = new ArrayList<>();
                for (int j = 0; j < m; j++) {
                    gen.add("q" + j);
                }
                b.queryLabels(gen);
            }
        }
    }

    private static void modeParameters(Map<?, ?> tree, Mode mode, WorkloadSpec.Builder b) {
        if (mode == Mode.LOCAL) {
            if (tree.containsKey("central")) {
                throw new InvalidWorkloadException("central", "is only allowed with mode: central");
            }
            Double delta = null;
            if (tree.containsKey("amplification")) {
                Map<?, ?> a = map(tree, "amplification");
                checkKnown("amplification.", a, Set.of("delta"));
                delta = number(a, "amplification.", "delta");
            }
            Epsilon perReport = epsilon(tree, "", "epsilonPerReport");
            Double amplificationDelta = delta;
            b.modeParameters(wrap("amplification.delta", () -> new WorkloadSpec.Local(perReport, amplificationDelta)));
        } else {
            if (tree.containsKey("epsilonPerReport")) {
                throw new InvalidWorkloadException("epsilonPerReport",
                        "is a local-mode field; central mode uses central.epsilonPerRelease");
            }
            Map<?, ?> c = map(tree, "central");
            if (tree.containsKey("amplification")) {
                throw new InvalidWorkloadException("amplification", "is a local-mode field: central answers are not"
                        + " amplified by shuffling");
            }
            checkKnown("central.", c, Set.of("epsilonPerRelease", "neighbour", "contributionsPerWindow",
                    "epsilonPerRunningTotal", "synthetic"));
            WorkloadSpec.Synthetic synthetic = null;
            if (c.containsKey("synthetic")) {
                if (!(c.get("synthetic") instanceof Map<?, ?> sm)) {
                    throw new InvalidWorkloadException("central.synthetic", "must be a map {records}, got "
                            + c.get("synthetic"));
                }
                checkKnown("central.synthetic.", sm, Set.of("records"));
                synthetic = new WorkloadSpec.Synthetic((int) integer(sm, "central.synthetic.", "records", 1,
                        WorkloadSpec.Synthetic.MAX_RECORDS));
            }
            b.modeParameters(new WorkloadSpec.Central(epsilon(c, "central.", "epsilonPerRelease"),
                    enumValue("central.neighbour", string(c, "central.", "neighbour"), NeighbourRelation::fromWireName),
                    c.containsKey("contributionsPerWindow")
                            ? (int) integer(c, "central.", "contributionsPerWindow", 1, WorkloadSpec.MAX_CONTRIBUTIONS) : 1,
                    c.containsKey("epsilonPerRunningTotal") ? epsilon(c, "central.", "epsilonPerRunningTotal") : null,
                    synthetic));
        }
    }

    private static void budget(Map<?, ?> tree, WorkloadSpec.Builder b) {
        Map<?, ?> budgetTree = map(tree, "budget");
        checkKnown("budget.", budgetTree, Set.of("epsilonPerPeriod", "period", "group"));
        WorkloadSpec.Group group = null;
        if (budgetTree.containsKey("group")) {
            Object g = budgetTree.get("group");
            if (!(g instanceof Map<?, ?> gm)) {
                throw new InvalidWorkloadException("budget.group", "must be a map {name, epsilonPerPeriod}, got " + g);
            }
            checkKnown("budget.group.", gm, Set.of("name", "epsilonPerPeriod"));
            String name = string(gm, "budget.group.", "name");
            group = wrap("budget.group", () -> new WorkloadSpec.Group(name,
                    epsilon(gm, "budget.group.", "epsilonPerPeriod")));
        }
        b.budget(new WorkloadSpec.Budget(epsilon(budgetTree, "budget.", "epsilonPerPeriod"),
                positiveDuration(budgetTree, "budget.", "period"), group));
    }

    private static void window(Map<?, ?> tree, WorkloadSpec.Builder b) {
        Map<?, ?> windowTree = map(tree, "window");
        checkKnown("window.", windowTree, Set.of("size", "grace", "horizons"));
        Duration size = positiveDuration(windowTree, "window.", "size");
        Duration grace = windowTree.containsKey("grace") ? duration(windowTree, "window.", "grace") : Duration.ZERO;
        List<Horizon> horizons = new ArrayList<>();
        if (windowTree.containsKey("horizons")) {
            if (!(windowTree.get("horizons") instanceof List<?> hs)) {
                throw new InvalidWorkloadException("window.horizons", "must be a list such as [1h, 1d], got "
                        + windowTree.get("horizons"));
            }
            for (Object h : hs) {
                horizons.add(Horizon.parse(h == null ? null : h.toString()));
            }
        }
        b.window(new WorkloadSpec.Window(size, grace, horizons));
    }

    /** Maps the domain tree (exactly one kind, as the family requires) onto a {@link Domain}, which validates it. */
    private static Domain domain(QueryFamily family, Map<?, ?> d) {
        checkKnown("domain.", d, Set.of("labels", "buckets", "attributes", "points", "features", "response", "range",
                "strings", "ball", "box"));
        Set<String> present = new TreeSet<>();
        for (Object k : d.keySet()) {
            present.add(String.valueOf(k));
        }
        Set<String> allowed = family.rules().domainKeys();
        if (family.rules().needsEveryDomainKey()) {
            if (!present.equals(allowed)) {
                throw new InvalidWorkloadException("domain", "family " + family.wireName()
                        + " needs features and response, got " + (present.isEmpty() ? "none" : present));
            }
            return grid(d);
        }
        if (present.size() != 1 || !allowed.contains(present.iterator().next())) {
            throw new InvalidWorkloadException("domain", "family " + family.wireName() + " needs exactly one of "
                    + new TreeSet<>(allowed) + ", got " + (present.isEmpty() ? "none" : present));
        }
        return switch (present.iterator().next()) {
            case "labels" -> new Domain.Labels(strings(d, "domain.", "labels"));
            case "buckets" -> {
                List<?> raw = list(d, "domain.", "buckets");
                List<Double> edges = new ArrayList<>();
                for (int i = 0; i < raw.size(); i++) {
                    edges.add(asNumber("domain.buckets[" + i + "]", raw.get(i)));
                }
                yield new Domain.Buckets(edges);
            }
            case "attributes" -> new Domain.Attributes(strings(d, "domain.", "attributes"));
            case "range" -> range(d);
            case "strings" -> stringDomain(d);
            case "ball" -> ball(d);
            case "box" -> box(d);
            default -> {
                List<?> raw = list(d, "domain.", "points");
                List<String> labels = new ArrayList<>();
                List<List<Double>> answers = new ArrayList<>();
                for (int i = 0; i < raw.size(); i++) {
                    String f = "domain.points[" + i + "]";
                    if (!(raw.get(i) instanceof Map<?, ?> p)) {
                        throw new InvalidWorkloadException(f, "must be a map {label, answer}, got " + raw.get(i));
                    }
                    checkKnown(f + ".", p, Set.of("label", "answer"));
                    labels.add(string(p, f + ".", "label"));
                    List<?> a = list(p, f + ".", "answer");
                    List<Double> vec = new ArrayList<>();
                    for (int j = 0; j < a.size(); j++) {
                        vec.add(asNumber(f + ".answer[" + j + "]", a.get(j)));
                    }
                    answers.add(vec);
                }
                yield new Domain.Points(labels, answers);
            }
        };
    }

    /** Maps {@code domain.range} ({@code {lo, hi, levels?}}) onto a {@link Domain.Range} (family mean). */
    private static Domain.Range range(Map<?, ?> d) {
        Object r = required(d, "domain.", "range");
        if (!(r instanceof Map<?, ?> m)) {
            throw new InvalidWorkloadException("domain.range", "must be a map {lo, hi, levels}, got " + r);
        }
        checkKnown("domain.range.", m, Set.of("lo", "hi", "levels"));
        int levels = m.containsKey("levels") ? (int) integer(m, "domain.range.", "levels", 2, 65536)
                : Domain.Range.DEFAULT_LEVELS;
        return new Domain.Range(number(m, "domain.range.", "lo"), number(m, "domain.range.", "hi"), levels);
    }

    /** Maps {@code domain.ball} ({@code {coordinates, radius}}) onto a {@link Domain.Ball} (family mean, vectors). */
    private static Domain.Ball ball(Map<?, ?> d) {
        Object r = required(d, "domain.", "ball");
        if (!(r instanceof Map<?, ?> m)) {
            throw new InvalidWorkloadException("domain.ball", "must be a map {coordinates, radius}, got a "
                    + kindOf(r));
        }
        checkKnown("domain.ball.", m, Set.of("coordinates", "radius"));
        return new Domain.Ball(strings(m, "domain.ball.", "coordinates"), number(m, "domain.ball.", "radius"));
    }

    /**
     * Maps {@code domain.box} ({@code {coordinates, lo, hi, levels?}}, the bounds in the style of {@code range})
     * onto a {@link Domain.Box} (family mean, vectors).
     */
    private static Domain.Box box(Map<?, ?> d) {
        Object r = required(d, "domain.", "box");
        if (!(r instanceof Map<?, ?> m)) {
            throw new InvalidWorkloadException("domain.box", "must be a map {coordinates, lo, hi, levels}, got a "
                    + kindOf(r));
        }
        checkKnown("domain.box.", m, Set.of("coordinates", "lo", "hi", "levels"));
        int levels = m.containsKey("levels") ? (int) integer(m, "domain.box.", "levels", 2, 65536)
                : Domain.Range.DEFAULT_LEVELS;
        return new Domain.Box(strings(m, "domain.box.", "coordinates"), number(m, "domain.box.", "lo"),
                number(m, "domain.box.", "hi"), levels);
    }

    private static String kindOf(Object v) {
        return v instanceof List ? "list" : v instanceof String ? "string" : v instanceof Number ? "number"
                : v.getClass().getSimpleName();
    }

    /** Maps {@code domain.strings} ({@code {maxBytes?}}) onto a {@link Domain.Strings} (family heavy-hitters). */
    private static Domain.Strings stringDomain(Map<?, ?> d) {
        Object r = d.get("strings");
        if (r == null) {
            r = Map.of(); // "strings:" with nothing under it: the defaults
        }
        if (!(r instanceof Map<?, ?> m)) {
            throw new InvalidWorkloadException("domain.strings", "must be a map {maxBytes}, got " + r);
        }
        checkKnown("domain.strings.", m, Set.of("maxBytes"));
        return new Domain.Strings(m.containsKey("maxBytes")
                ? (int) integer(m, "domain.strings.", "maxBytes", 1, Domain.Strings.MAX_BYTES)
                : Domain.Strings.DEFAULT_MAX_BYTES);
    }

    /** Maps {@code domain.features} and {@code domain.response} onto a {@link Domain.Grid}. */
    private static Domain.Grid grid(Map<?, ?> d) {
        List<?> raw = list(d, "domain.", "features");
        List<Domain.Grid.Axis> features = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            String f = "domain.features[" + i + "]";
            if (!(raw.get(i) instanceof Map<?, ?> a)) {
                throw new InvalidWorkloadException(f, "must be a map {name, buckets | values}, got " + raw.get(i));
            }
            features.add(axis(f, a));
        }
        Object r = required(d, "domain.", "response");
        if (!(r instanceof Map<?, ?> rm)) {
            throw new InvalidWorkloadException("domain.response", "must be a map {name, buckets | values}, got " + r);
        }
        Map<Object, Object> withName = new LinkedHashMap<>(rm);
        withName.putIfAbsent("name", "y");
        return new Domain.Grid(features, axis("domain.response", withName));
    }

    private static Domain.Grid.Axis axis(String f, Map<?, ?> a) {
        checkKnown(f + ".", a, Set.of("name", "buckets", "values"));
        String name = string(a, f + ".", "name");
        List<Double> edges = a.containsKey("buckets") ? numbers(a, f + ".", "buckets") : List.of();
        List<Double> values = a.containsKey("values") ? numbers(a, f + ".", "values") : List.of();
        return new Domain.Grid.Axis(name, edges, values);
    }

    private static List<Double> numbers(Map<?, ?> tree, String prefix, String key) {
        List<?> raw = list(tree, prefix, key);
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            out.add(asNumber(prefix + key + "[" + i + "]", raw.get(i)));
        }
        return out;
    }

    // ---- typed accessors -------------------------------------------------------------------------

    /** Every unknown field of {@code tree} (all of them in one exception). */
    private static void checkKnown(String prefix, Map<?, ?> tree, Set<String> known) {
        List<InvalidWorkloadException> unknown = new ArrayList<>();
        for (Object k : tree.keySet()) {
            if (!known.contains(String.valueOf(k))) {
                unknown.add(new InvalidWorkloadException(prefix + k, "unknown field"
                        + (known.isEmpty() ? "" : " (known: " + String.join(", ", new TreeSet<>(known)) + ")")));
            }
        }
        if (!unknown.isEmpty()) {
            throw InvalidWorkloadException.of(unknown);
        }
    }

    private static Object required(Map<?, ?> tree, String prefix, String key) {
        Object v = tree.get(key);
        if (v == null) {
            throw new InvalidWorkloadException(prefix + key, "is required");
        }
        return v;
    }

    private static String string(Map<?, ?> tree, String key) {
        return string(tree, "", key);
    }

    private static String string(Map<?, ?> tree, String prefix, String key) {
        Object v = required(tree, prefix, key);
        if (!(v instanceof String s) || Require.isBlank(s)) {
            throw new InvalidWorkloadException(prefix + key, "must be a non-empty string, got " + v);
        }
        return s.trim();
    }

    private static Map<?, ?> map(Map<?, ?> tree, String key) {
        Object v = required(tree, "", key);
        if (!(v instanceof Map<?, ?> m)) {
            throw new InvalidWorkloadException(key, "must be a map, got " + v);
        }
        return m;
    }

    private static List<?> list(Map<?, ?> tree, String prefix, String key) {
        Object v = required(tree, prefix, key);
        if (!(v instanceof List<?> l)) {
            throw new InvalidWorkloadException(prefix + key, "must be a list, got " + v);
        }
        return l;
    }

    /** A list of scalars as trimmed strings (shape only; uniqueness and content are the spec's rules). */
    private static List<String> strings(Map<?, ?> tree, String prefix, String key) {
        List<?> raw = list(tree, prefix, key);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            Object v = raw.get(i);
            if (v == null || v instanceof Map || v instanceof List) {
                throw new InvalidWorkloadException(prefix + key + "[" + i + "]", "must be a non-empty string, got " + v);
            }
            out.add(String.valueOf(v).trim());
        }
        return out;
    }

    private static double number(Map<?, ?> tree, String prefix, String key) {
        return asNumber(prefix + key, required(tree, prefix, key));
    }

    private static double asNumber(String field, Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        throw new InvalidWorkloadException(field, "must be a number, got " + v);
    }

    private static long integer(Map<?, ?> tree, String key, long lo, long hi) {
        return integer(tree, "", key, lo, hi);
    }

    private static long integer(Map<?, ?> tree, String prefix, String key, long lo, long hi) {
        Object v = required(tree, prefix, key);
        long x;
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            x = ((Number) v).longValue();
        } else if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
                && Math.abs(n.doubleValue()) < 9e15) {
            x = (long) n.doubleValue();
        } else {
            throw new InvalidWorkloadException(prefix + key, "must be an integer, got " + v);
        }
        if (x < lo || x > hi) {
            throw new InvalidWorkloadException(prefix + key, "must be in [" + lo + ", " + hi + "], got " + x);
        }
        return x;
    }

    /**
     * An ε as declared: exact for integers, decimal strings and {@link java.math.BigDecimal}s; a double is read
     * as its shortest round-tripping decimal (what was written in the file).
     */
    private static Epsilon epsilon(Map<?, ?> tree, String prefix, String key) {
        Object raw = required(tree, prefix, key);
        BigDecimal exact;
        if (raw instanceof BigDecimal b) {
            exact = b;
        } else if (raw instanceof Integer || raw instanceof Long || raw instanceof BigInteger) {
            exact = new BigDecimal(raw.toString());
        } else if (raw instanceof String str && str.trim().matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            exact = new BigDecimal(str.trim());
        } else {
            double v = asNumber(prefix + key, raw);
            if (!Double.isFinite(v)) {
                return wrap(prefix + key, () -> Epsilon.of(prefix + key, v));
            }
            exact = new BigDecimal(Double.toString(v));
        }
        BigDecimal e = exact;
        return wrap(prefix + key, () -> Epsilon.exactly(prefix + key, e));
    }

    private static Duration positiveDuration(Map<?, ?> tree, String prefix, String key) {
        Duration d = duration(tree, prefix, key);
        if (d.isZero()) {
            throw new InvalidWorkloadException(prefix + key, "must be > 0, got " + required(tree, prefix, key));
        }
        return d;
    }

    private static Duration duration(Map<?, ?> tree, String prefix, String key) {
        String s = String.valueOf(required(tree, prefix, key)).trim();
        return wrap(prefix + key, () -> Durations.parse(s));
    }

    private static <T> T enumValue(String field, String value, Function<String, T> parse) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidWorkloadException(field, e.getMessage());
        }
    }

    private static <T> T wrap(String field, Supplier<T> make) {
        try {
            return make.get();
        } catch (InvalidWorkloadException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidWorkloadException(field, e.getMessage());
        }
    }

    /** For tests and tools: a mutable ordered map, handy to build trees in code. */
    public static Map<String, Object> tree() {
        return new LinkedHashMap<>();
    }
}

package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a parsed YAML/JSON tree (maps, lists, strings, numbers, booleans) into a validated
 * {@link WorkloadSpec}. Any error is an {@link InvalidWorkloadException} naming the field path and the
 * bad value; unknown fields are errors too, so a typo never silently falls back to a default.
 *
 * <pre>
 * id: screen-usage            # [A-Za-z0-9._-]{1,100}
 * version: 1                  # >= 1
 * family: histogram           # histogram | cdf | range | marginals | points
 * domain:                     # exactly one of:
 *   labels: [social, video]   #   histogram
 *   buckets: [0, 10, 50, 100] #   histogram, cdf, range (k+1 increasing edges)
 *   attributes: [a, b, c]     #   marginals
 *   points:                   #   points: label and answer vector Q(x) in [0,1]^m
 *     - {label: x, answer: [0, 1]}
 * queries:                    # marginals: way (k); points: labels of the m coordinates (optional)
 *   way: 3
 * mode: local                 # local (default) | central
 * mechanism: auto             # see MechanismId
 * epsilonPerReport: 1.0       # local mode
 * budget: {epsilonPerPeriod: 4.0, period: 1d}
 * window: {size: 1m, grace: 10s}
 * confidence: 0.95            # default 0.95
 * alpha: 0.1                  # coarse projection / chaining (optional)
 * epsilonSplit: optimal       # equal | optimal (default)
 * expectedReportsPerWindow: 100000   # n used to resolve auto in the gateway (optional)
 * protocol: pgw-v1           # optional; written by the canonical form, checked when present
 * central:                    # central mode only
 *   epsilonPerRelease: 1.0
 *   neighbour: add-remove     # add-remove | replace-one
 *   contributionsPerWindow: 1
 * </pre>
 * Durations are ISO-8601 ({@code PT1M}, {@code P1D}) or a number with unit {@code ms, s, m, h, d}.
 */
public final class WorkloadSpecParser {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final Set<String> TOP_FIELDS = Set.of("id", "version", "family", "domain", "queries", "mode",
            "mechanism", "epsilonPerReport", "budget", "window", "confidence", "alpha", "epsilonSplit",
            "expectedReportsPerWindow", "central", "protocol");
    /** Upper limits that keep materialized workloads in memory (N·m doubles). */
    public static final int MAX_UNIVERSE = 1 << 16;
    public static final long MAX_CELLS = 1L << 24;

    private WorkloadSpecParser() {}

    /** Parses and validates a workload tree. */
    public static WorkloadSpec parse(Map<?, ?> tree) {
        if (tree == null) {
            throw new InvalidWorkloadException("(root)", "the workload file is empty");
        }
        checkKnown("", tree, TOP_FIELDS);
        if (tree.containsKey("protocol")) {
            String protocol = string(tree, "protocol");
            if (!protocol.equals(CanonicalForm.PROTOCOL_VERSION)) {
                throw new InvalidWorkloadException("protocol", "\"" + protocol + "\" is not supported by this version"
                        + " (supports " + CanonicalForm.PROTOCOL_VERSION + ")");
            }
        }
        String id = string(tree, "id");
        if (!ID.matcher(id).matches()) {
            throw new InvalidWorkloadException("id", "must match [A-Za-z0-9._-]{1,100}, got \"" + id + "\"");
        }
        int version = (int) integer(tree, "version", 1, Integer.MAX_VALUE);
        QueryFamily family = enumValue("family", string(tree, "family"), QueryFamily::fromWireName);
        Map<?, ?> domainTree = map(tree, "domain");
        Map<?, ?> queries = tree.containsKey("queries") ? map(tree, "queries") : Map.of();
        Domain domain = domain(family, domainTree);
        int way = 0;
        List<String> queryLabels = List.of();
        switch (family) {
            case MARGINALS -> {
                checkKnown("queries.", queries, Set.of("way"));
                int d = ((Domain.Attributes) domain).names().size();
                way = (int) integer(queries, "queries.", "way", 1, d);
            }
            case POINTS -> {
                checkKnown("queries.", queries, Set.of("labels"));
                int m = ((Domain.Points) domain).answers().get(0).size();
                if (queries.containsKey("labels")) {
                    queryLabels = uniqueStrings(queries, "queries.", "labels");
                    if (queryLabels.size() != m) {
                        throw new InvalidWorkloadException("queries.labels",
                                "must have one label per answer coordinate (" + m + "), got " + queryLabels.size());
                    }
                } else {
                    List<String> gen = new ArrayList<>();
                    for (int j = 0; j < m; j++) {
                        gen.add("q" + j);
                    }
                    queryLabels = gen;
                }
            }
            default -> checkKnown("queries.", queries, Set.of());
        }
        checkSize(family, domain, way);

        Mode mode = tree.containsKey("mode") ? enumValue("mode", string(tree, "mode"), Mode::fromWireName) : Mode.LOCAL;
        MechanismId mechanism = tree.containsKey("mechanism")
                ? enumValue("mechanism", string(tree, "mechanism"), MechanismId::fromWireName)
                : MechanismId.AUTO;
        if (mechanism.mode() != null && mechanism.mode() != mode) {
            throw new InvalidWorkloadException("mechanism", "\"" + mechanism.wireName() + "\" is a "
                    + mechanism.mode().wireName() + "-mode mechanism but mode is " + mode.wireName());
        }
        if (mechanism == MechanismId.TREE && family != QueryFamily.CDF && family != QueryFamily.RANGE
                && !(family == QueryFamily.HISTOGRAM && domain instanceof Domain.Buckets)) {
            throw new InvalidWorkloadException("mechanism", "\"tree\" needs ordered buckets (cdf, range, or a "
                    + "bucketed histogram), family is " + family.wireName());
        }
        Epsilon epsPerReport = null;
        WorkloadSpec.Central central = null;
        if (mode == Mode.LOCAL) {
            epsPerReport = epsilon(tree, "", "epsilonPerReport");
            if (tree.containsKey("central")) {
                throw new InvalidWorkloadException("central", "is only allowed with mode: central");
            }
        } else {
            if (tree.containsKey("epsilonPerReport")) {
                throw new InvalidWorkloadException("epsilonPerReport",
                        "is a local-mode field; central mode uses central.epsilonPerRelease");
            }
            Map<?, ?> c = map(tree, "central");
            checkKnown("central.", c, Set.of("epsilonPerRelease", "neighbour", "contributionsPerWindow"));
            central = new WorkloadSpec.Central(epsilon(c, "central.", "epsilonPerRelease"),
                    enumValue("central.neighbour", string(c, "central.", "neighbour"), NeighbourRelation::fromWireName),
                    c.containsKey("contributionsPerWindow")
                            ? (int) integer(c, "central.", "contributionsPerWindow", 1, 1_000_000) : 1);
        }
        Map<?, ?> budgetTree = map(tree, "budget");
        checkKnown("budget.", budgetTree, Set.of("epsilonPerPeriod", "period"));
        WorkloadSpec.Budget budget = new WorkloadSpec.Budget(epsilon(budgetTree, "budget.", "epsilonPerPeriod"),
                positiveDuration(budgetTree, "budget.", "period"));
        Epsilon charge = mode == Mode.LOCAL ? epsPerReport : central.epsilonPerRelease();
        if (budget.epsilonPerPeriod().value() < charge.value() * (1 - 1e-12)) {
            throw new InvalidWorkloadException("budget.epsilonPerPeriod", "(" + budget.epsilonPerPeriod().value()
                    + ") is smaller than the ε charged per " + (mode == Mode.LOCAL ? "report" : "release") + " ("
                    + charge.value() + "): a device could never contribute");
        }
        Map<?, ?> windowTree = map(tree, "window");
        checkKnown("window.", windowTree, Set.of("size", "grace"));
        Duration size = positiveDuration(windowTree, "window.", "size");
        Duration grace = windowTree.containsKey("grace") ? duration(windowTree, "window.", "grace") : Duration.ZERO;
        ConfidenceLevel confidence = tree.containsKey("confidence")
                ? wrap("confidence", () -> new ConfidenceLevel(number(tree, "", "confidence")))
                : new ConfidenceLevel(0.95);
        Alpha alpha = tree.containsKey("alpha") ? wrap("alpha", () -> new Alpha(number(tree, "", "alpha"))) : null;
        if (alpha == null && (mechanism == MechanismId.LOCAL_COARSE_PROJECTION
                || mechanism == MechanismId.LOCAL_CHAINING || mechanism == MechanismId.CENTRAL_CHAINING)) {
            throw new InvalidWorkloadException("alpha", "is required for mechanism " + mechanism.wireName());
        }
        EpsilonSplit split = tree.containsKey("epsilonSplit")
                ? enumValue("epsilonSplit", string(tree, "epsilonSplit"), EpsilonSplit::fromWireName)
                : EpsilonSplit.OPTIMAL;
        long expected = tree.containsKey("expectedReportsPerWindow")
                ? integer(tree, "", "expectedReportsPerWindow", 1, Long.MAX_VALUE / 4) : 0;
        return new WorkloadSpec(id, version, family, domain, way, queryLabels, mode, mechanism, epsPerReport, budget,
                new WorkloadSpec.Window(size, grace), confidence, alpha, split, expected, central);
    }

    private static Domain domain(QueryFamily family, Map<?, ?> d) {
        checkKnown("domain.", d, Set.of("labels", "buckets", "attributes", "points"));
        Set<String> present = new TreeSet<>();
        for (Object k : d.keySet()) {
            present.add(String.valueOf(k));
        }
        Set<String> allowed = switch (family) {
            case HISTOGRAM -> Set.of("labels", "buckets");
            case CDF, RANGE -> Set.of("buckets");
            case MARGINALS -> Set.of("attributes");
            case POINTS -> Set.of("points");
        };
        if (present.size() != 1 || !allowed.contains(present.iterator().next())) {
            throw new InvalidWorkloadException("domain", "family " + family.wireName() + " needs exactly one of "
                    + new TreeSet<>(allowed) + ", got " + (present.isEmpty() ? "none" : present));
        }
        String kind = present.iterator().next();
        return switch (kind) {
            case "labels" -> {
                List<String> labels = uniqueStrings(d, "domain.", "labels");
                if (labels.size() < 2) {
                    throw new InvalidWorkloadException("domain.labels", "needs at least 2 labels, got " + labels.size());
                }
                yield new Domain.Labels(labels);
            }
            case "buckets" -> {
                List<?> raw = list(d, "domain.", "buckets");
                List<Double> edges = new ArrayList<>();
                for (int i = 0; i < raw.size(); i++) {
                    String f = "domain.buckets[" + i + "]";
                    double e = asNumber(f, raw.get(i));
                    if (!Double.isFinite(e)) {
                        throw new InvalidWorkloadException(f, "must be a finite number, got " + e);
                    }
                    if (i > 0 && !(e > edges.get(i - 1))) {
                        throw new InvalidWorkloadException(f, "edges must increase strictly, got " + e + " after "
                                + edges.get(i - 1));
                    }
                    edges.add(e);
                }
                if (edges.size() < 3) {
                    throw new InvalidWorkloadException("domain.buckets",
                            "needs at least 3 edges (2 buckets), got " + edges.size());
                }
                yield new Domain.Buckets(edges);
            }
            case "attributes" -> {
                List<String> names = uniqueStrings(d, "domain.", "attributes");
                if (names.size() > 16) {
                    throw new InvalidWorkloadException("domain.attributes",
                            "at most 16 binary attributes are supported, got " + names.size());
                }
                yield new Domain.Attributes(names);
            }
            default -> {
                List<?> raw = list(d, "domain.", "points");
                if (raw.size() < 2) {
                    throw new InvalidWorkloadException("domain.points", "needs at least 2 points, got " + raw.size());
                }
                List<String> labels = new ArrayList<>();
                List<List<Double>> answers = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                int m = -1;
                for (int i = 0; i < raw.size(); i++) {
                    String f = "domain.points[" + i + "]";
                    if (!(raw.get(i) instanceof Map<?, ?> p)) {
                        throw new InvalidWorkloadException(f, "must be a map {label, answer}, got " + raw.get(i));
                    }
                    checkKnown(f + ".", p, Set.of("label", "answer"));
                    String label = string(p, f + ".", "label");
                    if (!seen.add(label)) {
                        throw new InvalidWorkloadException(f + ".label", "duplicate label \"" + label + "\"");
                    }
                    List<?> a = list(p, f + ".", "answer");
                    if (m < 0) {
                        m = a.size();
                        if (m < 1) {
                            throw new InvalidWorkloadException(f + ".answer", "must not be empty");
                        }
                    } else if (a.size() != m) {
                        throw new InvalidWorkloadException(f + ".answer", "has " + a.size() + " coordinates, expected " + m);
                    }
                    List<Double> vec = new ArrayList<>();
                    for (int j = 0; j < a.size(); j++) {
                        String fj = f + ".answer[" + j + "]";
                        double v = asNumber(fj, a.get(j));
                        if (!(v >= 0 && v <= 1)) {
                            throw new InvalidWorkloadException(fj, "must be a number in [0, 1], got " + v);
                        }
                        vec.add(v);
                    }
                    labels.add(label);
                    answers.add(vec);
                }
                yield new Domain.Points(labels, answers);
            }
        };
    }

    private static void checkSize(QueryFamily family, Domain domain, int way) {
        long universe;
        long m;
        switch (family) {
            case HISTOGRAM -> {
                universe = domain instanceof Domain.Labels l ? l.labels().size() : ((Domain.Buckets) domain).bucketCount();
                m = universe;
            }
            case CDF -> {
                universe = ((Domain.Buckets) domain).bucketCount();
                m = universe - 1;
            }
            case RANGE -> {
                universe = ((Domain.Buckets) domain).bucketCount();
                m = universe * (universe + 1) / 2;
            }
            case MARGINALS -> {
                int d = ((Domain.Attributes) domain).names().size();
                universe = 1L << d;
                m = binomial(d, way) << way;
            }
            default -> {
                Domain.Points p = (Domain.Points) domain;
                universe = p.labels().size();
                m = p.answers().get(0).size();
            }
        }
        if (universe > MAX_UNIVERSE) {
            throw new InvalidWorkloadException("domain", "the universe has " + universe + " values; at most "
                    + MAX_UNIVERSE + " are supported");
        }
        if (universe * m > MAX_CELLS) {
            throw new InvalidWorkloadException("domain", "universe × queries = " + universe + " × " + m
                    + " exceeds the supported " + MAX_CELLS + " cells");
        }
    }

    static long binomial(int n, int k) {
        long r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return r;
    }

    // ---- typed accessors -------------------------------------------------------------------------

    private static void checkKnown(String prefix, Map<?, ?> tree, Set<String> known) {
        for (Object k : tree.keySet()) {
            if (!known.contains(String.valueOf(k))) {
                throw new InvalidWorkloadException(prefix + k, "unknown field"
                        + (known.isEmpty() ? "" : " (known: " + String.join(", ", new TreeSet<>(known)) + ")"));
            }
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
        if (!(v instanceof String s) || s.isBlank()) {
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

    private static List<String> uniqueStrings(Map<?, ?> tree, String prefix, String key) {
        List<?> raw = list(tree, prefix, key);
        List<String> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < raw.size(); i++) {
            String f = prefix + key + "[" + i + "]";
            Object v = raw.get(i);
            if (v == null || v instanceof Map || v instanceof List || String.valueOf(v).isBlank()) {
                throw new InvalidWorkloadException(f, "must be a non-empty string, got " + v);
            }
            String s = String.valueOf(v).trim();
            if (s.contains("\n")) {
                throw new InvalidWorkloadException(f, "must be a single line, got \"" + s + "\"");
            }
            if (!seen.add(s)) {
                throw new InvalidWorkloadException(f, "duplicate \"" + s + "\"");
            }
            out.add(s);
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

    private static Epsilon epsilon(Map<?, ?> tree, String prefix, String key) {
        double v = number(tree, prefix, key);
        return wrap(prefix + key, () -> new Epsilon(v));
    }

    private static Duration positiveDuration(Map<?, ?> tree, String prefix, String key) {
        Duration d = duration(tree, prefix, key);
        if (d.isZero()) {
            throw new InvalidWorkloadException(prefix + key, "must be > 0, got " + required(tree, prefix, key));
        }
        return d;
    }

    private static Duration duration(Map<?, ?> tree, String prefix, String key) {
        Object v = required(tree, prefix, key);
        String s = String.valueOf(v).trim();
        Duration d;
        Matcher m = SHORT_DURATION.matcher(s.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        } else {
            try {
                d = Duration.parse(s.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new InvalidWorkloadException(prefix + key,
                        "must be a duration such as 10s, 1m, 1h, 1d or PT1M, got \"" + s + "\"");
            }
        }
        if (d.isNegative()) {
            throw new InvalidWorkloadException(prefix + key, "must not be negative, got \"" + s + "\"");
        }
        return d;
    }

    private static <T> T enumValue(String field, String value, java.util.function.Function<String, T> parse) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidWorkloadException(field, e.getMessage());
        }
    }

    private static <T> T wrap(String field, java.util.function.Supplier<T> make) {
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

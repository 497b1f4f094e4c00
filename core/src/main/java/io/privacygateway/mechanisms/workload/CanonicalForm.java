package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.codec.Hex;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The canonical text of a workload spec and its content hash.
 *
 * <p>Canonical form: JSON with keys sorted, no whitespace, strings JSON-escaped, integers in decimal,
 * and every other number as the exact decimal expansion of its binary double
 * ({@link BigDecimal#toPlainString()} with trailing zeros stripped), so the text is identical on every
 * JVM. The content hash is the lower-case hex SHA-256 of its UTF-8 bytes; it versions everything
 * derived from the workload (nets, public seeds, answers). The canonical form includes
 * {@link #PROTOCOL_VERSION}, so a change to the code that derives protocols from a spec (nets, wire
 * format, randomizer encodings) changes every hash and devices and gateways on different protocol
 * versions can never silently disagree. Each local mechanism's protocol also has its own version
 * ({@link ProtocolVersions}, {@link WorkloadSpec#protocolVersion()}): written as {@code protocolVersion} when it is
 * above 1, so the hashes of protocols that never changed are those of the specs before versions existed.
 */
public final class CanonicalForm {
    /**
     * The version of everything a spec deterministically derives: the public-coin and Gaussian-sign wire
     * format ({@code pgw-gauss-v1}), the frequency-oracle encodings, and the nets algorithm
     * ({@code privacygateway-nets/1}). Bump it when any of them changes.
     */
    public static final String PROTOCOL_VERSION = "pgw-v1";

    private CanonicalForm() {}

    /** The canonical JSON of a spec. */
    public static String of(WorkloadSpec s) {
        Map<String, Object> t = new TreeMap<>();
        t.put("protocol", PROTOCOL_VERSION);
        t.put("id", s.id());
        t.put("version", (long) s.version());
        t.put("family", s.family().wireName());
        t.put("domain", domain(s.domain()));
        Map<String, Object> q = new TreeMap<>();
        if (s.marginalWay() > 0) {
            q.put("way", (long) s.marginalWay());
        }
        if (!s.queryLabels().isEmpty()) {
            q.put("labels", s.queryLabels());
        }
        t.put("queries", q);
        t.put("mode", s.mode().wireName());
        t.put("mechanism", s.mechanism().wireName());
        if (s.protocolVersion() > 1) { // absent at version 1 (and without a protocol): hashes of unchanged protocols stay
            t.put("protocolVersion", (long) s.protocolVersion());
        }
        if (s.modeParameters() instanceof WorkloadSpec.Local l) {
            t.put("epsilonPerReport", l.epsilonPerReport().exact());
            if (l.amplificationDelta() != null) { // absent when not declared: older content hashes unchanged
                t.put("amplification", new TreeMap<>(Map.of("delta", l.amplificationDelta())));
            }
        }
        t.put("budget", budget(s.budget()));
        t.put("window", window(s.window()));
        t.put("confidence", s.confidence().value());
        if (s.alpha() != null) {
            t.put("alpha", s.alpha().value());
        }
        t.put("epsilonSplit", s.epsilonSplit().wireName());
        if (s.expectedReportsPerWindow() > 0) {
            t.put("expectedReportsPerWindow", s.expectedReportsPerWindow());
        }
        if (s.modeParameters() instanceof WorkloadSpec.Central c) {
            t.put("central", central(c));
        }
        if (s.model() != null) {
            t.put("model", new TreeMap<>(Map.of("loss", s.model().loss(), "radius", s.model().radius(),
                    "regularization", s.model().regularization())));
        }
        StringBuilder sb = new StringBuilder();
        write(sb, t);
        return sb.toString();
    }

    /** The {@code domain} object: one key, the domain's kind. */
    private static Map<String, Object> domain(Domain dom) {
        Map<String, Object> d = new TreeMap<>();
        if (dom instanceof Domain.Labels l) {
            d.put("labels", l.labels());
        } else if (dom instanceof Domain.Buckets b) {
            d.put("buckets", b.edges());
        } else if (dom instanceof Domain.Attributes a) {
            d.put("attributes", a.names());
        } else if (dom instanceof Domain.Range r) {
            d.put("range", new TreeMap<>(Map.of("lo", r.lo(), "hi", r.hi(), "levels", (long) r.levels())));
        } else if (dom instanceof Domain.Strings st) { // heavy-hitters: a new kind, older hashes unchanged
            d.put("strings", new TreeMap<>(Map.of("maxBytes", (long) st.maxBytes())));
        } else if (dom instanceof Domain.Ball b) { // vector means: new kinds, older hashes unchanged
            d.put("ball", new TreeMap<>(Map.of("coordinates", b.coordinates(), "radius", b.radius())));
        } else if (dom instanceof Domain.Box b) {
            d.put("box", new TreeMap<>(Map.of("coordinates", b.coordinates(), "lo", b.lo(), "hi", b.hi(), "levels",
                    (long) b.levels())));
        } else if (dom instanceof Domain.Grid g) {
            List<Map<String, Object>> fs = new ArrayList<>();
            for (Domain.Grid.Axis a : g.features()) {
                fs.add(axis(a));
            }
            d.put("features", fs);
            d.put("response", axis(g.response()));
        } else {
            Domain.Points p = (Domain.Points) dom;
            List<Map<String, Object>> pts = new ArrayList<>();
            for (int i = 0; i < p.labels().size(); i++) {
                Map<String, Object> pt = new TreeMap<>();
                pt.put("label", p.labels().get(i));
                pt.put("answer", p.answers().get(i));
                pts.add(pt);
            }
            d.put("points", pts);
        }
        return d;
    }

    private static Map<String, Object> budget(WorkloadSpec.Budget b) {
        Map<String, Object> budget = new TreeMap<>(Map.of("epsilonPerPeriod", b.epsilonPerPeriod().exact(),
                "period", b.period().toString()));
        if (b.group() != null) {
            budget.put("group", new TreeMap<>(Map.of("name", b.group().name(), "epsilonPerPeriod",
                    b.group().epsilonPerPeriod().exact())));
        }
        return budget;
    }

    private static Map<String, Object> window(WorkloadSpec.Window w) {
        Map<String, Object> window = new TreeMap<>(Map.of("size", w.size().toString(),
                "grace", w.grace().toString()));
        if (!w.horizons().isEmpty()) { // absent when empty: content hashes of older specs are unchanged
            window.put("horizons", w.horizons().stream().map(Horizon::wireName).collect(Collectors.toList()));
        }
        return window;
    }

    private static Map<String, Object> central(WorkloadSpec.Central c) {
        Map<String, Object> central = new TreeMap<>(Map.of(
                "epsilonPerRelease", c.epsilonPerRelease().exact(),
                "neighbour", c.neighbour().wireName(),
                "contributionsPerWindow", (long) c.contributionsPerWindow()));
        if (c.epsilonPerRunningTotal() != null) { // absent without running totals: older hashes unchanged
            central.put("epsilonPerRunningTotal", c.epsilonPerRunningTotal().exact());
        }
        if (c.synthetic() != null) { // absent without synthetic records: older hashes unchanged
            central.put("synthetic", new TreeMap<>(Map.of("records", (long) c.synthetic().records())));
        }
        return central;
    }

    private static Map<String, Object> axis(Domain.Grid.Axis a) {
        Map<String, Object> m = new TreeMap<>();
        m.put("name", a.name());
        m.put(a.bucketed() ? "buckets" : "values", a.bucketed() ? a.edges() : a.values());
        return m;
    }

    /** Lower-case hex SHA-256 of the canonical form. */
    public static String contentHash(WorkloadSpec s) {
        return Hex.format(sha256(of(s).getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    private static void write(StringBuilder sb, Object v) {
        if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                writeString(sb, String.valueOf(e.getKey()));
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                write(sb, l.get(i));
            }
            sb.append(']');
        } else if (v instanceof Long || v instanceof Integer) {
            sb.append(((Number) v).longValue());
        } else if (v instanceof Double x) {
            writeDecimal(sb, new BigDecimal(x));
        } else if (v instanceof BigDecimal x) {
            writeDecimal(sb, x); // an exact declared value (ε): written as declared, so parsing it back is exact

        } else {
            writeString(sb, String.valueOf(v));
        }
    }

    private static void writeDecimal(StringBuilder sb, BigDecimal v) {
        BigDecimal b = v.stripTrailingZeros();
        sb.append(b.scale() <= 0 ? b.toBigInteger().toString() : b.toPlainString());
    }

    private static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}

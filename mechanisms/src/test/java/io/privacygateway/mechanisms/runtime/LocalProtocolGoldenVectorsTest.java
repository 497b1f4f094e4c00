package io.privacygateway.mechanisms.runtime;

import static io.privacygateway.mechanisms.testing.GoldenVectors.coordinates;
import static io.privacygateway.mechanisms.testing.GoldenVectors.longs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.protocols.LocalProtocols;
import io.privacygateway.mechanisms.local.ReportAccumulator;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterParameters;
import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.BoxCoordinates;
import io.privacygateway.mechanisms.local.vector.VectorMeanProtocol;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.testing.GoldenVectors;
import io.privacygateway.mechanisms.testing.GoldenVectors.ScriptedBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * JSON golden vectors of the local protocols of docs/wire-format.md §3–§11 in the layout of the frequency oracles'
 * files ({@code docs/test-vectors/{gaussian-sign,mean,factorization,fourier,heavy-hitters,vector-means}.json},
 * docs/test-vectors/README.md): whole device reports from a raw value and secret <em>words</em> (the Markdown
 * tables of those sections script draw outcomes instead), and aggregates as exact states. Every file is read and
 * recomputed with the production code ({@link LocalWorkload}: canonical form, hash, universe index when there is a
 * universe, base word, payload, words consumed, state). {@code -Dgolden.write=true} rewrites them.
 */
class LocalProtocolGoldenVectorsTest {
    static final String[] FILES = {"gaussian-sign", "mean", "factorization", "fourier", "heavy-hitters", "vector-means"};

    @ParameterizedTest
    @ValueSource(strings = {"gaussian-sign", "mean", "factorization", "fourier", "heavy-hitters", "vector-means"})
    void everyVectorIsReproduced(String file) throws InvalidValueException {
        JsonNode doc = GoldenVectors.read(file);
        Map<String, LocalWorkload> workloads = new LinkedHashMap<>();
        for (JsonNode w : doc.get("workloads")) {
            String name = w.get("name").asText();
            WorkloadSpec spec = GoldenVectors.spec(w.get("canonical").asText());
            assertThat(CanonicalForm.contentHash(spec)).as(name).isEqualTo(w.get("contentHash").asText());
            LocalWorkload lw = (LocalWorkload) ResolvedWorkload.of(spec);
            assertThat(derived(lw)).as(name).isEqualTo(GoldenVectors.tree(w.get("derived")));
            workloads.put(name, lw);
        }
        for (JsonNode c : doc.get("cases")) {
            String what = c.get("name").asText();
            LocalWorkload lw = workloads.get(c.get("workload").asText());
            ReportCoordinates rc = coordinates(c.get("coordinates"));
            assertThat(GoldenVectors.hex(new PublicCoins(lw.contentHash()).base(rc))).as(what)
                    .isEqualTo(c.get("baseWord").asText());
            String raw = c.get("value").asText();
            if (c.has("universeIndex")) {
                assertThat(lw.encode(raw)).as(what).isEqualTo(c.get("universeIndex").asInt());
            }
            List<Long> words = new ArrayList<>();
            c.get("secretWords").forEach(x -> words.add(GoldenVectors.word(x.asText())));
            ScriptedBits bits = new ScriptedBits(words.stream().mapToLong(Long::longValue).toArray(), null);
            assertThat(GoldenVectors.hex(lw.randomize(raw, rc, bits))).as(what).isEqualTo(c.get("payloadHex").asText());
            assertThat(bits.consumed()).as(what).hasSize(c.get("wordsConsumed").asInt()).hasSameSizeAs(words);
        }
        for (JsonNode a : doc.get("aggregates")) {
            LocalWorkload lw = workloads.get(a.get("workload").asText());
            ReportAccumulator acc = lw.values().accumulator();
            long[] state = new long[acc.stateLength()];
            long n = 0;
            for (JsonNode r : a.get("reports")) {
                if (acc.accumulate(GoldenVectors.bytes(r.get("payloadHex").asText()), coordinates(r.get("coordinates")),
                        state)) {
                    n++;
                }
            }
            assertThat(n).isEqualTo(a.get("n").asLong());
            assertThat(GoldenVectors.tree(a.get("state"))).as(a.get("name").asText()).isEqualTo(longs(state));
        }
    }

    @Test
    void filesMatchTheirDefinitions() {
        if (GoldenVectors.writing()) {
            return;
        }
        for (String f : FILES) {
            assertThat(GoldenVectors.tree(GoldenVectors.read(f)))
                    .as("docs/test-vectors/%s.json (regenerate with -Dgolden.write=true)", f)
                    .isEqualTo(GoldenVectors.tree(GoldenVectors.toJson(build(f))));
        }
    }

    @Test
    void generate() {
        if (GoldenVectors.writing()) {
            for (String f : FILES) {
                GoldenVectors.write(f, build(f));
            }
        }
    }

    // ------------------------------------------------------------------ shared

    static Map<String, Object> derived(LocalWorkload lw) {
        ReportAccumulator acc = lw.values().accumulator();
        Map<String, Object> m = new LinkedHashMap<>();
        if (lw.values() instanceof LocalWorkload.Universe u) {
            m.put("k", (long) u.workload().universeSize());
        }
        m.put("mechanism", acc.id().wireName());
        m.put("epsilonValue", Double.toHexString(acc.epsilon().value()));
        m.put("payloadBytes", (long) acc.payloadBytes());
        m.put("stateLength", (long) acc.stateLength());
        WorkloadSpec spec = lw.spec();
        if (lw.values() instanceof LocalWorkload.OpenDomain) {
            // wire-format §9.1: the parameters a device derives from the spec
            HeavyHitterParameters p = LocalProtocols.heavyHitterParameters(spec);
            m.put("segmentBytes", (long) p.segmentBytes());
            m.put("rows", (long) p.rows());
            m.put("width", (long) p.width());
            m.put("payloadBits", (long) p.payloadBits());
        }
        if (lw.values() instanceof LocalWorkload.Universe u
                && u.pipeline().protocol() instanceof GaussianSignProtocol g) {
            // wire-format §3.1: per level, the ε (hex double) and the public radius (hex double)
            List<Object> levels = new ArrayList<>();
            for (int j = 0; j < g.levels().size(); j++) {
                Map<String, Object> l = new LinkedHashMap<>();
                l.put("epsilon", Double.toHexString(g.levels().get(j).epsilon().value()));
                l.put("radius", Double.toHexString(g.radius(j)));
                l.put("biasNumerator", g.biasNumerator(j));
                levels.add(l);
            }
            m.put("levels", levels);
        }
        if (lw.values() instanceof LocalWorkload.Vectors) {
            // wire-format §10.1 and §10.5: the parameters a device derives from the spec
            VectorMeanProtocol v = LocalProtocols.vectorMean(spec, lw.contentHash());
            if (v instanceof BallCandidates b) {
                m.put("candidateBits", (long) b.candidateBits());
                m.put("topSize", (long) b.topSize());
            } else {
                m.put("sampled", (long) ((BoxCoordinates) v).sampledCoordinates());
            }
        }
        return m;
    }

    // ------------------------------------------------------------------ definitions

    record W(String name, String family, Map<String, Object> domain, Map<String, Object> queries, String mechanism,
            String epsilon, String alpha, String epsilonSplit) {
        W(String name, String family, Map<String, Object> domain, Map<String, Object> queries, String mechanism,
                String epsilon, String alpha) {
            this(name, family, domain, queries, mechanism, epsilon, alpha, null);
        }
    }

    record C(String name, String workload, ReportCoordinates coords, String value) {}

    static final ReportCoordinates C42 = new ReportCoordinates("device-42", 19876, 3);
    static final ReportCoordinates C0 = new ReportCoordinates("d", 0, 0);
    static final ReportCoordinates CU = new ReportCoordinates("ünïcødé-device", 20000, 7);

    static WorkloadSpec spec(W w) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "vectors-" + w.name());
        t.put("version", 1);
        t.put("family", w.family());
        t.put("domain", w.domain());
        if (w.queries() != null) {
            t.put("queries", w.queries());
        }
        if (w.alpha() != null) {
            t.put("alpha", new BigDecimal(w.alpha()));
        }
        t.put("mechanism", w.mechanism());
        if (w.epsilonSplit() != null) {
            t.put("epsilonSplit", w.epsilonSplit());
        }
        t.put("epsilonPerReport", new BigDecimal(w.epsilon()));
        t.put("budget", Map.of("epsilonPerPeriod", 40, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return WorkloadSpecParser.parse(t);
    }

    static List<String> labels(int k) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            l.add("v" + i);
        }
        return l;
    }

    static List<Object> edges(int k) {
        List<Object> e = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            e.add((long) i);
        }
        return e;
    }

    /** Workloads and cases of a file; every workload gets an aggregate of 24 reports of its cases' values. */
    static Object[] definition(String file) {
        List<W> ws = new ArrayList<>();
        List<C> cs = new ArrayList<>();
        switch (file) {
            case "gaussian-sign" -> {
                ws.add(new W("projection-labels-4-eps1", "histogram", Map.of("labels", labels(4)), null, "projection",
                        "1", null));
                ws.add(new W("chaining-cdf-8-eps2", "cdf", Map.of("buckets", edges(8)), null, "chaining", "2", "0.25"));
                cs.add(new C("projection, first value", "projection-labels-4-eps1", C42, "v0"));
                cs.add(new C("projection, last value", "projection-labels-4-eps1", CU, "v3"));
                cs.add(new C("chaining, first bucket", "chaining-cdf-8-eps2", C42, "0"));
                cs.add(new C("chaining, top edge (last bucket)", "chaining-cdf-8-eps2", C0, "8"));
                // wire-format §3.1: the value vectors of every family, coarse projection, chaining with the equal split
                ws.add(new W("projection-range-4-eps0.5", "range", Map.of("buckets", edges(4)), null, "projection",
                        "0.5", null));
                ws.add(new W("projection-marginals-3-way2-eps1", "marginals", Map.of("attributes",
                        List.of("a", "b", "c")), Map.of("way", 2), "projection", "1", null));
                ws.add(new W("coarse-range-6-eps1", "range", Map.of("buckets", edges(6)), null, "coarse-projection",
                        "1", "0.6"));
                ws.add(new W("chaining-equal-cdf-16-eps1", "cdf", Map.of("buckets", edges(16)), null, "chaining", "1",
                        "0.1", "equal"));
                cs.add(new C("projection range, bucket 2", "projection-range-4-eps0.5", C42, "2.5"));
                cs.add(new C("projection marginals, 1,0,1", "projection-marginals-3-way2-eps1", CU, "1,0,1"));
                cs.add(new C("coarse range, bucket 0", "coarse-range-6-eps1", C42, "0"));
                cs.add(new C("coarse range, bucket 4", "coarse-range-6-eps1", C0, "4.5"));
                cs.add(new C("chaining equal, bucket 0", "chaining-equal-cdf-16-eps1", C42, "0.5"));
                cs.add(new C("chaining equal, bucket 11", "chaining-equal-cdf-16-eps1", CU, "11"));
            }
            case "mean" -> {
                for (String m : new String[] {"duchi", "piecewise", "hybrid"}) {
                    ws.add(new W(m + "-range-eps1", "mean", Map.of("range", Map.of("lo", -1, "hi", 1)), null, m, "1",
                            null));
                    cs.add(new C(m + ", lo", m + "-range-eps1", C42, "-1"));
                    cs.add(new C(m + ", hi", m + "-range-eps1", CU, "1"));
                    cs.add(new C(m + ", 0.3 (nearest level: 665.6 rounds to 666)", m + "-range-eps1", C0, "0.3"));
                }
            }
            case "factorization" -> {
                ws.add(new W("cdf-4-eps1", "cdf", Map.of("buckets", edges(4)), null, "factorization", "1", null));
                ws.add(new W("range-8-eps0.5", "range", Map.of("buckets", edges(8)), null, "factorization", "0.5", null));
                cs.add(new C("cdf k=4, first bucket", "cdf-4-eps1", C42, "0"));
                cs.add(new C("cdf k=4, last bucket", "cdf-4-eps1", CU, "4"));
                cs.add(new C("range k=8, bucket 5", "range-8-eps0.5", C0, "5.5"));
            }
            case "fourier" -> {
                ws.add(new W("marginals-4-way2-eps1", "marginals", Map.of("attributes", List.of("a", "b", "c", "d")),
                        Map.of("way", 2), "fourier", "1", null));
                cs.add(new C("all zeros", "marginals-4-way2-eps1", C42, "0,0,0,0"));
                cs.add(new C("all ones", "marginals-4-way2-eps1", CU, "1,1,1,1"));
                cs.add(new C("1,0,1,1 is index 13", "marginals-4-way2-eps1", C0, "1,0,1,1"));
            }
            case "heavy-hitters" -> {
                ws.add(new W("strings-16-eps2", "heavy-hitters", Map.of("strings", Map.of("maxBytes", 16)), null,
                        "prefix-tree-sketch", "2", null));
                cs.add(new C("one byte", "strings-16-eps2", C42, "a"));
                cs.add(new C("a word", "strings-16-eps2", CU, "hello"));
                cs.add(new C("16 bytes, the longest", "strings-16-eps2", C0, "0123456789abcdef"));
                cs.add(new C("non-ASCII (UTF-8 bytes)", "strings-16-eps2", C42, "ünï"));
                // wire-format §9.1: the default rule at other maxBytes (b = 1; R capped at 8; W halved to 512, 256)
                ws.add(new W("strings-1-eps1", "heavy-hitters", Map.of("strings", Map.of("maxBytes", 1)), null,
                        "prefix-tree-sketch", "1", null));
                ws.add(new W("strings-5-eps4", "heavy-hitters", Map.of("strings", Map.of("maxBytes", 5)), null,
                        "prefix-tree-sketch", "4", null));
                ws.add(new W("strings-33-eps0.5", "heavy-hitters", Map.of("strings", Map.of("maxBytes", 33)), null,
                        "prefix-tree-sketch", "0.5", null));
                ws.add(new W("strings-64-eps1", "heavy-hitters", Map.of("strings", Map.of("maxBytes", 64)), null,
                        "prefix-tree-sketch", "1", null));
                cs.add(new C("maxBytes 1: one byte", "strings-1-eps1", C42, "z"));
                cs.add(new C("maxBytes 1: non-ASCII would be 2 bytes, so ASCII", "strings-1-eps1", CU, "~"));
                cs.add(new C("maxBytes 5: five bytes", "strings-5-eps4", C42, "crash"));
                cs.add(new C("maxBytes 5: one byte (odd length, padded)", "strings-5-eps4", C0, "e"));
                cs.add(new C("maxBytes 33: 33 bytes", "strings-33-eps0.5", CU, "0123456789abcdef0123456789abcdefX"));
                cs.add(new C("maxBytes 33: a word", "strings-33-eps0.5", C42, "hello"));
                cs.add(new C("maxBytes 64: 64 bytes", "strings-64-eps1", C0,
                        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
                cs.add(new C("maxBytes 64: non-ASCII", "strings-64-eps1", C42, "ünïcødé/päth"));
            }
            case "vector-means" -> {
                ws.add(new W("ball-3-eps2", "mean", Map.of("ball", Map.of("coordinates", List.of("x", "y", "z"),
                        "radius", 1)), null, "privunit-g", "2", null));
                ws.add(new W("box-2-duchi-eps1", "mean", Map.of("box", Map.of("coordinates", List.of("cpu", "mem"),
                        "lo", 0, "hi", 100)), null, "duchi", "1", null));
                ws.add(new W("box-2-piecewise-eps1", "mean", Map.of("box", Map.of("coordinates", List.of("cpu", "mem"),
                        "lo", 0, "hi", 100)), null, "piecewise", "1", null));
                cs.add(new C("ball, a unit vector", "ball-3-eps2", C42, "[1, 0, 0]"));
                cs.add(new C("ball, the origin", "ball-3-eps2", CU, "0,0,0"));
                cs.add(new C("ball, inside", "ball-3-eps2", C0, "[0.3, -0.4, 0.5]"));
                cs.add(new C("box duchi, corners", "box-2-duchi-eps1", C42, "0, 100"));
                cs.add(new C("box duchi, inside", "box-2-duchi-eps1", CU, "37.5, 62.25"));
                cs.add(new C("box piecewise, inside", "box-2-piecewise-eps1", C42, "12, 99.9"));
            }
            default -> throw new IllegalArgumentException(file);
        }
        return new Object[] {ws, cs};
    }

    private static final Map<String, LocalWorkload> BUILT = new java.util.concurrent.ConcurrentHashMap<>();

    static LocalWorkload built(W w) {
        return BUILT.computeIfAbsent(w.name() + "/" + w.mechanism(), x -> (LocalWorkload) ResolvedWorkload.of(spec(w)));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> build(String file) {
        Object[] def = definition(file);
        List<W> ws = (List<W>) def[0];
        List<C> cs = (List<C>) def[1];
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", file);
        out.put("specSection", switch (file) {
            case "gaussian-sign" -> "docs/wire-format.md §1-§5";
            case "mean" -> "docs/wire-format.md §7";
            case "factorization" -> "docs/wire-format.md §8";
            case "heavy-hitters" -> "docs/wire-format.md §9";
            case "vector-means" -> "docs/wire-format.md §10";
            default -> "docs/wire-format.md §11";
        });
        out.put("generator", "mechanisms/src/test/java/io/privacygateway/mechanisms/runtime/"
                + "LocalProtocolGoldenVectorsTest.java (-Dgolden.write=true)");
        Map<String, W> byName = new LinkedHashMap<>();
        List<Object> wl = new ArrayList<>();
        for (W w : ws) {
            byName.put(w.name(), w);
            LocalWorkload lw = built(w);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", w.name());
            m.put("canonical", CanonicalForm.of(lw.spec()));
            m.put("contentHash", lw.contentHash());
            m.put("derived", derived(lw));
            wl.add(m);
        }
        out.put("workloads", wl);
        List<Object> cl = new ArrayList<>();
        long seed = 5000;
        try {
            for (C c : cs) {
                LocalWorkload lw = built(byName.get(c.workload()));
                ScriptedBits bits = new ScriptedBits(new long[0], new SeededRandomBits(seed++));
                byte[] payload = lw.randomize(c.value(), c.coords(), bits);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", c.name());
                m.put("workload", c.workload());
                m.put("coordinates", coordinates(c.coords()));
                m.put("baseWord", GoldenVectors.hex(new PublicCoins(lw.contentHash()).base(c.coords())));
                m.put("value", c.value());
                if (lw.values() instanceof LocalWorkload.Universe) {
                    m.put("universeIndex", (long) lw.encode(c.value()));
                }
                m.put("wordsConsumed", (long) bits.consumed().size());
                m.put("secretWords", bits.consumedHex());
                m.put("payloadHex", GoldenVectors.hex(payload));
                cl.add(m);
            }
            out.put("cases", cl);
            List<Object> al = new ArrayList<>();
            for (W w : ws) {
                LocalWorkload lw = built(w);
                List<String> values = cs.stream().filter(c -> c.workload().equals(w.name())).map(C::value).toList();
                ReportAccumulator acc = lw.values().accumulator();
                SeededRandomBits secret = new SeededRandomBits(seed++);
                long[] state = new long[acc.stateLength()];
                List<Object> reports = new ArrayList<>();
                int n = 24;
                for (int i = 0; i < n; i++) {
                    ReportCoordinates rc = new ReportCoordinates("agg-device-" + i, 20001, i % 3);
                    byte[] payload = lw.randomize(values.get(i % values.size()), rc, secret);
                    assertThat(acc.accumulate(payload, rc, state)).isTrue();
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("coordinates", coordinates(rc));
                    r.put("payloadHex", GoldenVectors.hex(payload));
                    reports.add(r);
                }
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", w.name() + ", " + n + " reports");
                m.put("workload", w.name());
                m.put("reports", reports);
                m.put("n", (long) n);
                m.put("state", longs(state));
                al.add(m);
            }
            out.put("aggregates", al);
        } catch (InvalidValueException e) {
            throw new AssertionError(e);
        }
        return out;
    }
}

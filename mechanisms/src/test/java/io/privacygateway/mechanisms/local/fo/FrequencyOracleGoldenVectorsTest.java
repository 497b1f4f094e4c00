package io.privacygateway.mechanisms.local.fo;

import static io.privacygateway.mechanisms.testing.GoldenVectors.coordinates;
import static io.privacygateway.mechanisms.testing.GoldenVectors.longs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.testing.GoldenVectors;
import io.privacygateway.mechanisms.testing.GoldenVectors.ScriptedBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON golden vectors of the frequency oracles ({@code docs/test-vectors/{grr,oue,olh,subset-selection,
 * hadamard-response,tree}.json}, docs/wire-format.md §13–§15): every file is read and everything in it is recomputed
 * with the production code (canonical form and content hash of each workload, its derived parameters, the universe
 * index of each raw value, the base word, the payload of the scripted secret words and how many words are consumed,
 * and each aggregate's state and estimate). With {@code -Dgolden.write=true}, {@link #generate} rewrites the files
 * from the definitions below instead.
 */
class FrequencyOracleGoldenVectorsTest {
    static final String[] PROTOCOLS = {"grr", "oue", "olh", "subset-selection", "hadamard-response", "tree"};

    // ------------------------------------------------------------------ checking

    @ParameterizedTest
    @ValueSource(strings = {"grr", "oue", "olh", "subset-selection", "hadamard-response", "tree"})
    void everyVectorIsReproduced(String protocol) {
        JsonNode doc = GoldenVectors.read(protocol);
        assertThat(doc.get("protocol").asText()).isEqualTo(protocol);
        Map<String, LocalWorkload> workloads = new LinkedHashMap<>();
        for (JsonNode w : doc.get("workloads")) {
            String name = w.get("name").asText();
            WorkloadSpec spec = GoldenVectors.spec(w.get("canonical").asText());
            assertThat(CanonicalForm.contentHash(spec)).as(name).isEqualTo(w.get("contentHash").asText());
            assertThat(spec.mechanism().wireName()).as(name).isEqualTo(protocol);
            LocalWorkload lw = (LocalWorkload) ResolvedWorkload.of(spec);
            assertThat(derived(lw)).as(name + " derived").isEqualTo(GoldenVectors.tree(w.get("derived")));
            workloads.put(name, lw);
        }
        int cases = 0;
        for (JsonNode c : doc.get("cases")) {
            String what = c.get("name").asText();
            LocalWorkload lw = workloads.get(c.get("workload").asText());
            ReportCoordinates coords = coordinates(c.get("coordinates"));
            FrequencyOracleProtocol p = protocol(lw);
            assertThat(GoldenVectors.hex(p.publicBase(coords))).as(what).isEqualTo(c.get("baseWord").asText());
            String raw = c.get("value").asText();
            assertThat(encode(lw, raw)).as(what).isEqualTo(c.get("universeIndex").asInt());
            List<Long> words = new ArrayList<>();
            c.get("secretWords").forEach(x -> words.add(GoldenVectors.word(x.asText())));
            ScriptedBits bits = new ScriptedBits(words.stream().mapToLong(Long::longValue).toArray(), null);
            byte[] payload = randomize(lw, raw, coords, bits);
            assertThat(GoldenVectors.hex(payload)).as(what).isEqualTo(c.get("payloadHex").asText());
            assertThat(bits.consumed()).as(what + ": every scripted word is consumed").hasSameSizeAs(words);
            assertThat(c.get("wordsConsumed").asInt()).as(what).isEqualTo(words.size());
            cases++;
        }
        assertThat(cases).isPositive();
        for (JsonNode a : doc.get("aggregates")) {
            String what = a.get("name").asText();
            LocalWorkload lw = workloads.get(a.get("workload").asText());
            FrequencyOracleProtocol p = protocol(lw);
            long[] state = new long[p.stateLength()];
            long n = 0;
            for (JsonNode r : a.get("reports")) {
                if (p.accumulate(GoldenVectors.bytes(r.get("payloadHex").asText()), coordinates(r.get("coordinates")),
                        state)) {
                    n++;
                }
            }
            assertThat(n).as(what).isEqualTo(a.get("n").asLong());
            assertThat(GoldenVectors.tree(a.get("state"))).as(what).isEqualTo(longs(state));
            double[] est = FrequencyOracleEstimator.of(p.oracle()).estimate(state, n);
            double tol = a.get("tolerance").asDouble();
            JsonNode expected = a.get("estimate");
            assertThat(expected.size()).as(what).isEqualTo(est.length);
            for (int i = 0; i < est.length; i++) {
                assertThat(Math.abs(est[i] - expected.get(i).asDouble())).as(what + " estimate[" + i + "]")
                        .isLessThanOrEqualTo(tol);
            }
        }
    }

    /**
     * The rows of the table of docs/wire-format.md §15.8, built from the JSON files: {protocol, workload, case,
     * workload description, derived template ({@code {key}} replaced by {@code derived.key}), suffix of the value cell}.
     */
    static final String[][] TABLE = {
        {"grr", "labels-2-eps1", "k=2, first label", "labels `no, yes`, ε = 1", "`N = {keepNumerator}`", ""},
        {"grr", "labels-300-eps2", "k=300 (2-byte payload), last value", "300 labels, ε = 2",
            "`N = {keepNumerator}`, {payloadBytes} bytes", ""},
        {"oue", "labels-9-eps0.5", "k=9 (7 padding bits), last value", "9 labels, ε = 0.5", "`M = {qNumerator}`", ""},
        {"olh", "labels-10-eps0.4054652", "g=3 (e^eps+1 = 2.50000014 rounds up)", "10 labels, ε = 0.4054652",
            "`g = {g}`, `N = {keepNumerator}`", ""},
        {"olh", "labels-10-eps0.405465", "g=2 (e^eps+1 = 2.49999984 rounds down)", "10 labels, ε = 0.405465",
            "`g = {g}`, `N = {keepNumerator}`", ""},
        {"subset-selection", "labels-10-eps1", "k=10, first value", "10 labels, ε = 1",
            "`d = {d}`, `N = {piNumerator}`", ""},
        {"hadamard-response", "labels-8-eps2", "k=8, value 5: j=0 is in C_5, the coin says out, so j XOR 2 (lowest set"
            + " bit of 6)", "8 labels, ε = 2", "`K = {K}`, `N = {piNumerator}`", ", words `0`, `ffff…`"},
        {"tree", "cdf-100-eps1", "k=100 (OLH leaves), bucket 99", "cdf over 100 buckets, ε = 1",
            "`B = {B}`, `h = {height}`, levels grr 4, olh 20 (`g = 4`), olh 100", ""},
        {"tree", "histogram-2100-eps1", "k=2100 (B=4 without search), bucket 2099", "histogram over 2100 buckets, ε = 1",
            "`B = {B}`, `h = {height}`, {payloadBytes} byte", ""},
    };

    @Test
    void markdownTableIsTheJson() throws java.io.IOException {
        List<String> rows = new ArrayList<>();
        for (String[] t : TABLE) {
            JsonNode doc = GoldenVectors.read(t[0]);
            JsonNode derived = null;
            for (JsonNode w : doc.get("workloads")) {
                if (w.get("name").asText().equals(t[1])) {
                    derived = w.get("derived");
                }
            }
            JsonNode c = null;
            for (JsonNode x : doc.get("cases")) {
                if (x.get("name").asText().equals(t[2])) {
                    c = x;
                }
            }
            assertThat(derived).as(t[1]).isNotNull();
            assertThat(c).as(t[2]).isNotNull();
            String d = t[4];
            var names = derived.fieldNames();
            while (names.hasNext()) {
                String key = names.next();
                d = d.replace("{" + key + "}", derived.get(key).asText());
            }
            rows.add("| " + t[0] + " | " + t[3] + " | " + d + " | `" + c.get("value").asText() + "` → "
                    + c.get("universeIndex").asText() + t[5] + " | `" + c.get("payloadHex").asText() + "` |");
        }
        io.privacygateway.mechanisms.testing.WireFormatDocument.assertContainsAll("§15.8", rows);
    }

    /** Whether the generator's definitions still give the files (regenerated in memory, compared as trees). */
    @Test
    void filesMatchTheirDefinitions() {
        if (GoldenVectors.writing()) {
            return;
        }
        for (String protocol : PROTOCOLS) {
            assertThat(GoldenVectors.tree(GoldenVectors.read(protocol)))
                    .as("docs/test-vectors/%s.json (regenerate with -Dgolden.write=true)", protocol)
                    .isEqualTo(GoldenVectors.tree(GoldenVectors.toJson(build(protocol))));
        }
    }

    @Test
    void generate() {
        if (!GoldenVectors.writing()) {
            return;
        }
        for (String protocol : PROTOCOLS) {
            GoldenVectors.write(protocol, build(protocol));
        }
    }

    // ------------------------------------------------------------------ shared

    static FrequencyOracleProtocol protocol(LocalWorkload lw) {
        return (FrequencyOracleProtocol) ((LocalWorkload.Universe) lw.values()).pipeline().protocol();
    }

    static int encode(LocalWorkload lw, String raw) {
        try {
            return lw.encode(raw);
        } catch (io.privacygateway.mechanisms.workload.InvalidValueException e) {
            throw new AssertionError(e);
        }
    }

    static byte[] randomize(LocalWorkload lw, String raw, ReportCoordinates c, ScriptedBits bits) {
        try {
            return lw.randomize(raw, c, bits);
        } catch (io.privacygateway.mechanisms.workload.InvalidValueException e) {
            throw new AssertionError(e);
        }
    }

    /** The derived parameters of a workload's oracle, as listed in the vectors (docs/test-vectors/README.md). */
    static Map<String, Object> derived(LocalWorkload lw) {
        FrequencyOracleProtocol p = protocol(lw);
        FrequencyOracle o = p.oracle();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("k", (long) o.domainSize());
        m.put("epsilonValue", Double.toHexString(o.epsilon().value()));
        m.put("payloadBytes", (long) o.payloadBytes());
        m.put("stateLength", (long) o.stateLength());
        if (o instanceof GeneralizedRandomizedResponse g) {
            m.put("keepNumerator", g.keepProbability().numerator());
        } else if (o instanceof OptimizedLocalHashing h) {
            m.put("g", (long) h.range());
            m.put("keepNumerator", h.keepProbability().numerator());
        } else if (o instanceof OptimizedUnaryEncoding u) {
            m.put("qNumerator", u.flipProbability().numerator());
        } else if (o instanceof SubsetSelection s) {
            m.put("d", (long) s.subsetSize());
            m.put("piNumerator", s.inclusionProbability().numerator());
        } else if (o instanceof HadamardResponse h) {
            m.put("K", (long) h.order());
            m.put("piNumerator", h.inSetProbability().numerator());
        } else if (o instanceof TreeMechanism t) {
            m.put("B", (long) t.branching());
            m.put("height", (long) t.height());
            List<Object> levels = new ArrayList<>();
            for (int l = 1; l <= t.height(); l++) {
                Map<String, Object> lv = new LinkedHashMap<>();
                lv.put("level", (long) l);
                lv.put("nodes", (long) t.levelSize(l));
                SupportCountOracle lo = t.levelOracle(l);
                lv.put("oracle", lo.id().wireName());
                if (lo instanceof OptimizedLocalHashing h) {
                    lv.put("g", (long) h.range());
                    lv.put("keepNumerator", h.keepProbability().numerator());
                } else {
                    lv.put("keepNumerator", ((GeneralizedRandomizedResponse) lo).keepProbability().numerator());
                }
                levels.add(lv);
            }
            m.put("levels", levels);
        }
        return m;
    }

    // ------------------------------------------------------------------ definitions and generation

    record W(String name, String family, Map<String, Object> domain, Map<String, Object> queries, String epsilon) {}

    /** A case: a raw value at coordinates, with scripted leading secret words (the rest come from a seeded source). */
    record C(String name, String workload, ReportCoordinates coords, String value, long[] lead) {}

    /** An aggregate: {@code reports} reports of seeded random values. */
    record A(String name, String workload, int reports, long seed) {}

    record Def(String section, List<W> workloads, List<C> cases, List<A> aggregates) {}

    static Map<String, Object> labels(int k) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            l.add("v" + i);
        }
        return Map.of("labels", l);
    }

    static Map<String, Object> buckets(int k, double width) {
        List<Double> e = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            e.add(i * width);
        }
        return Map.of("buckets", e);
    }

    static final ReportCoordinates C42 = new ReportCoordinates("device-42", 19876, 3);
    static final ReportCoordinates C0 = new ReportCoordinates("d", 0, 0);
    static final ReportCoordinates CU = new ReportCoordinates("ünïcødé-device", 20000, 7);
    static final long[] NONE = {};

    static WorkloadSpec spec(W w, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "vectors-" + w.name());
        t.put("version", 1);
        t.put("family", w.family());
        t.put("domain", w.domain());
        if (w.queries() != null) {
            t.put("queries", w.queries());
        }
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", new java.math.BigDecimal(w.epsilon()));
        t.put("budget", Map.of("epsilonPerPeriod", 40, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return WorkloadSpecParser.parse(t);
    }

    static Def definition(String protocol) {
        List<W> ws = new ArrayList<>();
        List<C> cs = new ArrayList<>();
        List<A> as = new ArrayList<>();
        switch (protocol) {
            case "grr" -> {
                ws.add(new W("labels-2-eps1", "histogram", Map.of("labels", List.of("no", "yes")), null, "1"));
                ws.add(new W("labels-5-eps0.5", "histogram", labels(5), null, "0.5"));
                ws.add(new W("labels-300-eps2", "histogram", labels(300), null, "2"));
                ws.add(new W("cdf-4-eps0.1", "cdf", buckets(4, 10), null, "0.1"));
                ws.add(new W("marginals-3-eps4", "marginals", Map.of("attributes", List.of("a", "b", "c")),
                        Map.of("way", 2), "4"));
                cs.add(new C("k=2, first label", "labels-2-eps1", C42, "no", NONE));
                cs.add(new C("k=2, last label", "labels-2-eps1", C42, "yes", NONE));
                cs.add(new C("k=5, first value", "labels-5-eps0.5", C0, "v0", NONE));
                cs.add(new C("k=5, last value", "labels-5-eps0.5", C0, "v4", NONE));
                cs.add(new C("k=5, surrounding blanks are trimmed", "labels-5-eps0.5", CU, "  v2\t", NONE));
                cs.add(new C("k=300 (2-byte payload), last value", "labels-300-eps2", C42, "v299", NONE));
                cs.add(new C("k=300, first value", "labels-300-eps2", CU, "v0", NONE));
                cs.add(new C("buckets: the lowest edge", "cdf-4-eps0.1", C42, "0", NONE));
                cs.add(new C("buckets: the highest edge is in the last bucket", "cdf-4-eps0.1", C42, "40", NONE));
                cs.add(new C("buckets: an inner edge starts its bucket", "cdf-4-eps0.1", C0, "20", NONE));
                cs.add(new C("buckets: just below an edge", "cdf-4-eps0.1", C0, "19.999", NONE));
                cs.add(new C("attributes: 1,0,1 is index 5", "marginals-3-eps4", C42, "1,0,1", NONE));
                cs.add(new C("attributes: all ones", "marginals-3-eps4", C42, "1,1,1", NONE));
                cs.add(new C("attributes: all zeros, blanks around flags", "marginals-3-eps4", C0, " 0, 0 ,0", NONE));
                long n = keep("labels-5-eps0.5", protocol);
                cs.add(new C("keep boundary: (w >>> 11) == N is not kept", "labels-5-eps0.5", C42, "v1",
                        new long[] {n << 11}));
                cs.add(new C("keep boundary: (w >>> 11) == N - 1 is kept", "labels-5-eps0.5", C42, "v1",
                        new long[] {((n - 1) << 11) | 0x7FF}));
                cs.add(new C("uniformInt(4) never rejects; word 0 gives 0", "labels-5-eps0.5", C42, "v0",
                        new long[] {-1L, 0L}));
                cs.add(new C("uniformInt(299) rejects the word 0 and draws again", "labels-300-eps2", C42, "v7",
                        new long[] {-1L, 0L}));
                as.add(new A("labels-5-eps0.5, 40 reports", "labels-5-eps0.5", 40, 11));
                as.add(new A("cdf-4-eps0.1, 25 reports", "cdf-4-eps0.1", 25, 12));
            }
            case "oue" -> {
                ws.add(new W("labels-2-eps1", "histogram", labels(2), null, "1"));
                ws.add(new W("labels-9-eps0.5", "histogram", labels(9), null, "0.5"));
                ws.add(new W("labels-16-eps4", "histogram", labels(16), null, "4"));
                ws.add(new W("labels-70-eps0.1", "histogram", labels(70), null, "0.1"));
                cs.add(new C("k=2, first value", "labels-2-eps1", C42, "v0", NONE));
                cs.add(new C("k=2, last value", "labels-2-eps1", C0, "v1", NONE));
                cs.add(new C("k=9 (7 padding bits), last value", "labels-9-eps0.5", C42, "v8", NONE));
                cs.add(new C("k=9, first value", "labels-9-eps0.5", CU, "v0", NONE));
                cs.add(new C("k=16, value 9", "labels-16-eps4", C42, "v9", NONE));
                cs.add(new C("k=70, value 69", "labels-70-eps0.1", C42, "v69", NONE));
                long[] allOnes = new long[17];
                java.util.Arrays.fill(allOnes, 0);
                cs.add(new C("k=16, every word 0: every bit 1 (the own bit too)", "labels-16-eps4", C42, "v3", allOnes));
                long[] allMax = new long[17];
                java.util.Arrays.fill(allMax, -1L);
                cs.add(new C("k=16, every word all ones: every bit 0", "labels-16-eps4", C42, "v3", allMax));
                as.add(new A("labels-9-eps0.5, 40 reports", "labels-9-eps0.5", 40, 21));
                as.add(new A("labels-16-eps4, 30 reports", "labels-16-eps4", 30, 22));
            }
            case "olh" -> {
                ws.add(new W("labels-10-eps0.1", "histogram", labels(10), null, "0.1"));
                ws.add(new W("labels-10-eps0.405465", "histogram", labels(10), null, "0.405465"));
                ws.add(new W("labels-10-eps0.4054652", "histogram", labels(10), null, "0.4054652"));
                ws.add(new W("labels-50-eps3", "histogram", labels(50), null, "3"));
                ws.add(new W("labels-500-eps6", "histogram", labels(500), null, "6"));
                ws.add(new W("cdf-2-eps1", "cdf", buckets(2, 1), null, "1"));
                cs.add(new C("g=2 (e^0.1+1 = 2.105)", "labels-10-eps0.1", C42, "v0", NONE));
                cs.add(new C("g=2 (e^eps+1 = 2.49999984 rounds down)", "labels-10-eps0.405465", C42, "v9", NONE));
                cs.add(new C("g=3 (e^eps+1 = 2.50000014 rounds up)", "labels-10-eps0.4054652", C42, "v9", NONE));
                cs.add(new C("g=3, another device", "labels-10-eps0.4054652", CU, "v0", NONE));
                cs.add(new C("g=21, first value", "labels-50-eps3", C0, "v0", NONE));
                cs.add(new C("g=21, last value", "labels-50-eps3", C42, "v49", NONE));
                cs.add(new C("g=404 (2-byte payload)", "labels-500-eps6", C42, "v499", NONE));
                cs.add(new C("g=404, first value", "labels-500-eps6", CU, "v0", NONE));
                cs.add(new C("k=2 buckets, top edge", "cdf-2-eps1", C42, "2", NONE));
                cs.add(new C("uniformInt(20) rejects the word 0", "labels-50-eps3", C42, "v7", new long[] {0L, 0L}));
                as.add(new A("labels-50-eps3, 40 reports", "labels-50-eps3", 40, 31));
                as.add(new A("labels-10-eps0.4054652, 30 reports", "labels-10-eps0.4054652", 30, 32));
            }
            case "subset-selection" -> {
                ws.add(new W("labels-2-eps1", "histogram", labels(2), null, "1"));
                ws.add(new W("labels-10-eps1", "histogram", labels(10), null, "1"));
                ws.add(new W("labels-17-eps0.1", "histogram", labels(17), null, "0.1"));
                ws.add(new W("labels-40-eps0.5", "histogram", labels(40), null, "0.5"));
                ws.add(new W("labels-100-eps3", "histogram", labels(100), null, "3"));
                cs.add(new C("k=2 (d=1), first value", "labels-2-eps1", C42, "v0", NONE));
                cs.add(new C("k=2 (d=1), last value", "labels-2-eps1", C42, "v1", NONE));
                cs.add(new C("k=10, first value", "labels-10-eps1", C42, "v0", NONE));
                cs.add(new C("k=10, last value", "labels-10-eps1", CU, "v9", NONE));
                cs.add(new C("k=17, value 8", "labels-17-eps0.1", C42, "v8", NONE));
                cs.add(new C("k=40, last value", "labels-40-eps0.5", C0, "v39", NONE));
                cs.add(new C("k=100, value 50", "labels-100-eps3", C42, "v50", NONE));
                cs.add(new C("k=10, hit (word 0)", "labels-10-eps1", C42, "v4", new long[] {0L}));
                cs.add(new C("k=10, miss (word all ones)", "labels-10-eps1", C42, "v4", new long[] {-1L}));
                as.add(new A("labels-10-eps1, 40 reports", "labels-10-eps1", 40, 41));
                as.add(new A("labels-40-eps0.5, 30 reports", "labels-40-eps0.5", 30, 42));
            }
            case "hadamard-response" -> {
                ws.add(new W("labels-2-eps1", "histogram", labels(2), null, "1"));
                ws.add(new W("labels-7-eps0.5", "histogram", labels(7), null, "0.5"));
                ws.add(new W("labels-8-eps2", "histogram", labels(8), null, "2"));
                ws.add(new W("labels-300-eps1", "histogram", labels(300), null, "1"));
                cs.add(new C("k=2 (K=4), first value", "labels-2-eps1", C42, "v0", NONE));
                cs.add(new C("k=2, last value", "labels-2-eps1", CU, "v1", NONE));
                cs.add(new C("k=7 (K=8), last value", "labels-7-eps0.5", C42, "v6", NONE));
                cs.add(new C("k=8 (K=16), last value", "labels-8-eps2", C42, "v7", NONE));
                cs.add(new C("k=8, first value", "labels-8-eps2", C0, "v0", NONE));
                cs.add(new C("k=300 (K=512, 2-byte payload), last value", "labels-300-eps1", C42, "v299", NONE));
                cs.add(new C("k=8, value 5: j=0 is in C_5, the coin says out, so j XOR 2 (lowest set bit of 6)", "labels-8-eps2",
                        C42, "v5", new long[] {0L, -1L}));
                cs.add(new C("k=8, value 5: j=0 is in C_5 and the coin says in", "labels-8-eps2", C42, "v5", new long[] {0L, 0L}));
                as.add(new A("labels-7-eps0.5, 40 reports", "labels-7-eps0.5", 40, 51));
                as.add(new A("labels-8-eps2, 30 reports", "labels-8-eps2", 30, 52));
            }
            case "tree" -> {
                ws.add(new W("cdf-2-eps1", "cdf", buckets(2, 1), null, "1"));
                ws.add(new W("cdf-8-eps1", "cdf", buckets(8, 1), null, "1"));
                ws.add(new W("range-16-eps2", "range", buckets(16, 0.5), null, "2"));
                ws.add(new W("histogram-10-eps0.5", "histogram", buckets(10, 1), null, "0.5"));
                ws.add(new W("cdf-100-eps1", "cdf", buckets(100, 1), null, "1"));
                ws.add(new W("histogram-2100-eps1", "histogram", buckets(2100, 1), null, "1"));
                cs.add(new C("k=2, lowest edge", "cdf-2-eps1", C42, "0", NONE));
                cs.add(new C("k=2, highest edge", "cdf-2-eps1", CU, "2", NONE));
                cs.add(new C("k=8, first bucket", "cdf-8-eps1", C42, "0.5", NONE));
                cs.add(new C("k=8, last bucket", "cdf-8-eps1", C0, "8", NONE));
                cs.add(new C("k=8, last bucket, another device", "cdf-8-eps1", CU, "7.25", NONE));
                cs.add(new C("range k=16, value 3.75", "range-16-eps2", C42, "3.75", NONE));
                cs.add(new C("histogram k=10, bucket 9", "histogram-10-eps0.5", C42, "9.5", NONE));
                cs.add(new C("k=100 (OLH leaves), bucket 99", "cdf-100-eps1", C42, "99.9", NONE));
                cs.add(new C("k=100, bucket 0", "cdf-100-eps1", CU, "0", NONE));
                cs.add(new C("k=100, bucket 37", "cdf-100-eps1", C0, "37", NONE));
                cs.add(new C("k=2100 (B=4 without search), bucket 2099", "histogram-2100-eps1", C42, "2100", NONE));
                cs.add(new C("k=2100, bucket 1234", "histogram-2100-eps1", CU, "1234.5", NONE));
                as.add(new A("cdf-8-eps1, 60 reports", "cdf-8-eps1", 60, 61));
                as.add(new A("cdf-100-eps1, 60 reports", "cdf-100-eps1", 60, 62));
            }
            default -> throw new IllegalArgumentException(protocol);
        }
        return new Def("docs/wire-format.md §15", ws, cs, as);
    }

    private static final Map<String, LocalWorkload> BUILT = new java.util.concurrent.ConcurrentHashMap<>();

    static LocalWorkload built(W w, String protocol) {
        return BUILT.computeIfAbsent(protocol + "/" + w.name(),
                x -> (LocalWorkload) ResolvedWorkload.of(spec(w, protocol)));
    }

    /** The keep numerator of a GRR workload of the definitions (for boundary words). */
    static long keep(String name, String protocol) {
        W w = switch (name) {
            case "labels-5-eps0.5" -> new W(name, "histogram", labels(5), null, "0.5");
            default -> throw new IllegalArgumentException(name);
        };
        return ((GeneralizedRandomizedResponse) protocol(built(w, protocol)).oracle()).keepProbability().numerator();
    }

    static Map<String, Object> build(String protocol) {
        Def def = definition(protocol);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", protocol);
        out.put("specSection", "docs/wire-format.md §15 (" + protocol + ")");
        out.put("generator", "mechanisms/src/test/java/io/privacygateway/mechanisms/local/fo/"
                + "FrequencyOracleGoldenVectorsTest.java (mvn ... -Dtest=FrequencyOracleGoldenVectorsTest"
                + " -Dgolden.write=true)");
        Map<String, W> byName = new LinkedHashMap<>();
        List<Object> wl = new ArrayList<>();
        for (W w : def.workloads()) {
            byName.put(w.name(), w);
            LocalWorkload lw = built(w, protocol);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", w.name());
            m.put("canonical", CanonicalForm.of(lw.spec()));
            m.put("contentHash", lw.contentHash());
            m.put("derived", derived(lw));
            wl.add(m);
        }
        out.put("workloads", wl);
        List<Object> cl = new ArrayList<>();
        long seed = 1000;
        for (C c : def.cases()) {
            LocalWorkload lw = built(byName.get(c.workload()), protocol);
            ScriptedBits bits = new ScriptedBits(c.lead(), new SeededRandomBits(seed++));
            byte[] payload = randomize(lw, c.value(), c.coords(), bits);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("workload", c.workload());
            m.put("coordinates", coordinates(c.coords()));
            m.put("baseWord", GoldenVectors.hex(protocol(lw).publicBase(c.coords())));
            m.put("value", c.value());
            m.put("universeIndex", (long) encode(lw, c.value()));
            m.put("wordsConsumed", (long) bits.consumed().size());
            m.put("secretWords", bits.consumedHex());
            m.put("payloadHex", GoldenVectors.hex(payload));
            cl.add(m);
        }
        out.put("cases", cl);
        List<Object> al = new ArrayList<>();
        for (A a : def.aggregates()) {
            LocalWorkload lw = built(byName.get(a.workload()), protocol);
            FrequencyOracleProtocol p = protocol(lw);
            SeededRandomBits values = new SeededRandomBits(a.seed());
            SeededRandomBits secret = new SeededRandomBits(a.seed() + 1_000_000);
            long[] state = new long[p.stateLength()];
            List<Object> reports = new ArrayList<>();
            for (int i = 0; i < a.reports(); i++) {
                ReportCoordinates rc = new ReportCoordinates("agg-device-" + i, 20001, i % 3);
                int x = (int) Long.remainderUnsigned(values.nextLong(), p.oracle().domainSize());
                // skew the values toward the low end so the estimate is not flat
                if ((i & 1) == 0) {
                    x = x / 3;
                }
                byte[] payload = p.randomize(x, rc, secret);
                p.accumulate(payload, rc, state);
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("coordinates", coordinates(rc));
                r.put("payloadHex", GoldenVectors.hex(payload));
                reports.add(r);
            }
            double[] est = FrequencyOracleEstimator.of(p.oracle()).estimate(state, a.reports());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", a.name());
            m.put("workload", a.workload());
            m.put("reports", reports);
            m.put("n", (long) a.reports());
            m.put("state", longs(state));
            List<Object> e = new ArrayList<>();
            for (double d : est) {
                e.add(new java.math.BigDecimal(Double.toString(d)));
            }
            m.put("estimate", e);
            m.put("tolerance", protocol.equals("tree") ? new java.math.BigDecimal("1e-9") : java.math.BigDecimal.ZERO);
            al.add(m);
        }
        out.put("aggregates", al);
        return out;
    }
}

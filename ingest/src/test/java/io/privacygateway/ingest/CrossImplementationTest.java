package io.privacygateway.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.client.Client;
import io.privacygateway.client.ClientConfig;
import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.client.ReportOutcome;
import io.privacygateway.client.Transport;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.local.ReportAccumulator;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.BoxCoordinates;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.topology.validate.ReportValidator;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Java and TypeScript, beyond the shared golden vectors: the bundled TypeScript SDK ({@code sdk/typescript/dist/
 * full.min.js}, run under Node by {@code sdk/typescript/scripts/cross-impl.mjs}) reports the same values as the Java
 * SDK ({@link Client}) for every local protocol the TypeScript SDK supports, each device with the same public test
 * seed for its secret words (SplitMix64, tests only) and the same clock. The gateway side decodes every TypeScript
 * report from the JSON envelope the ingestion service reads ({@link ReportEnvelope#fromJson}), runs the edge's
 * admission checks on it ({@link ReportValidator}), aggregates it with the workload's accumulator and releases the
 * answer; the TypeScript reports must equal the Java ones field for field and byte for byte, so the states and the
 * answers are identical. Second, the TypeScript SDK computes the protocol fingerprints of docs/wire-format.md §12 for
 * every pinned (workload file, mechanism) it can derive, which must equal {@code docs/test-vectors/
 * protocol-fingerprints.json}. Skipped with a message when {@code node} or the bundle is missing.
 */
class CrossImplementationTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path SDK = Path.of("..", "sdk", "typescript");
    static final Path BUNDLE = SDK.resolve("dist").resolve("full.min.js");
    static final Path SCRIPT = SDK.resolve("scripts").resolve("cross-impl.mjs");
    static final long NOW = 1_717_286_400_000L + 90_000;
    static final int DEVICES = 3;
    static final int PER_DEVICE = 8;

    /** Every local protocol the TypeScript SDK derives from a spec (or, for vectors, from the gateway's parameters). */
    static final List<String> WORKLOADS = List.of(
            hist("x-grr", "grr"), hist("x-oue", "oue"), hist("x-olh", "olh"),
            hist("x-subset", "subset-selection"), hist("x-hadamard", "hadamard-response"),
            """
            id: x-tree
            family: cdf
            domain: {buckets: [0, 10, 20, 30, 50, 75, 100, 150, 200]}
            mechanism: tree
            epsilonPerReport: 1.0
            """,
            mean("x-duchi", "duchi"), mean("x-piecewise", "piecewise"), mean("x-hybrid", "hybrid"),
            """
            id: x-fourier
            family: marginals
            domain: {attributes: [a, b, c, d, e]}
            queries: {way: 2}
            mechanism: fourier
            epsilonPerReport: 2.0
            """,
            """
            id: x-heavy
            family: heavy-hitters
            domain: {strings: {maxBytes: 16}}
            mechanism: prefix-tree-sketch
            epsilonPerReport: 4.0
            """,
            """
            id: x-ball
            family: mean
            domain: {ball: {coordinates: [x, y, z], radius: 2}}
            mechanism: privunit-g
            epsilonPerReport: 2.0
            """,
            box("x-box-duchi", "duchi"), box("x-box-piecewise", "piecewise"), box("x-box-hybrid", "hybrid"),
            // run when the TypeScript SDK derives them (wire-format §3.1, §8.1, §9.1), listed as not derived otherwise
            hist("x-factorization", "factorization"), hist("x-projection", "projection"),
            hist("x-coarse", "coarse-projection") + "alpha: 0.25\n", hist("x-chaining", "chaining") + "alpha: 0.25\n",
            """
            id: x-heavy-4
            family: heavy-hitters
            domain: {strings: {maxBytes: 4}}
            mechanism: prefix-tree-sketch
            epsilonPerReport: 4.0
            """);

    /** The protocols the TypeScript SDK of this repository must derive (the others run when it does). */
    static final List<String> REQUIRED = List.of("x-grr", "x-oue", "x-olh", "x-subset", "x-hadamard", "x-tree",
            "x-duchi", "x-piecewise", "x-hybrid", "x-fourier", "x-heavy", "x-ball", "x-box-duchi", "x-box-piecewise",
            "x-box-hybrid");

    static String hist(String id, String mechanism) {
        return "id: " + id + "\nfamily: histogram\ndomain: {labels: [a, b, c, d, e, f]}\nmechanism: " + mechanism
                + "\nepsilonPerReport: 1.5\n";
    }

    static String mean(String id, String mechanism) {
        return "id: " + id + "\nfamily: mean\ndomain: {range: {lo: 0, hi: 2000}}\nmechanism: " + mechanism
                + "\nepsilonPerReport: 1.0\n";
    }

    static String box(String id, String mechanism) {
        return "id: " + id + "\nfamily: mean\ndomain: {box: {coordinates: [cpu, mem, disk, net], lo: 0, hi: 100}}\n"
                + "mechanism: " + mechanism + "\nepsilonPerReport: 2.0\n";
    }

    static Path node;

    @BeforeAll
    static void findNode() {
        node = Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .map(d -> Path.of(d, "node")).filter(Files::isExecutable).findFirst().orElse(null);
    }

    static void assumeTools() {
        Assumptions.assumeTrue(node != null, "SKIPPED: no node on PATH (the TypeScript SDK runs under Node 20)");
        Assumptions.assumeTrue(Files.isRegularFile(BUNDLE), "SKIPPED: no SDK bundle at " + BUNDLE.toAbsolutePath()
                + " (run `npm ci && npm run build` in sdk/typescript)");
    }

    static WorkloadSpec spec(String yaml) throws IOException {
        return WorkloadSpecParser.parse(YAML.readValue(yaml + "version: 1\nbudget: {epsilonPerPeriod: 40, period: 1d}\n"
                + "window: {size: 1h, grace: 1m}\n", Map.class));
    }

    /** The spec as served, with the vector parameters the gateway derived (the spec does not carry them). */
    static ObjectNode served(WorkloadSpec spec) {
        ObjectNode o = JSON.createObjectNode();
        o.put("canonical", CanonicalForm.of(spec));
        o.put("contentHash", CanonicalForm.contentHash(spec));
        if (spec.domain() instanceof Domain.Vector) { // only then is the protocol built here
            ReportAccumulator a = ((LocalWorkload) ResolvedWorkload.of(spec)).accumulator();
            if (a instanceof BallCandidates b) {
                o.putObject("ball").put("candidates", b.candidateCount()).put("s", b.topSize());
            } else if (a instanceof BoxCoordinates b) {
                o.putObject("box").put("k", b.sampledCoordinates());
            }
        }
        return o;
    }

    /** The values device {@code d} reports for a workload: strings, or vectors for ball and box. */
    static List<Object> values(LocalWorkload w, int d) {
        List<Object> out = new ArrayList<>();
        String id = w.spec().id();
        for (int i = 0; i < PER_DEVICE; i++) {
            int j = d * PER_DEVICE + i;
            Object v = switch (id) {
                case "x-tree" -> String.valueOf((j * 37) % 201);
                case "x-duchi", "x-piecewise", "x-hybrid" -> j % 5 == 0 ? "2000" : String.valueOf((j * 173.25) % 2000);
                case "x-fourier" -> (j & 1) + "," + ((j >> 1) & 1) + "," + ((j >> 2) & 1) + ",1,0";
                case "x-heavy" -> List.of("crash-a", "crash-b", "ünïcode", "a-sixteen-bytes!", "x").get(j % 5);
                case "x-heavy-4" -> List.of("ab", "crsh", "x", "é", "ab").get(j % 5);
                case "x-ball" -> new double[] {(j % 3 - 1) * 0.6, (j % 5 - 2) * 0.3, j % 2 == 0 ? 0 : 1.1};
                default -> id.startsWith("x-box") ? new double[] {j % 101, (j * 7.5) % 100, 100, 0.125 * j}
                        : String.valueOf("abcdef".charAt(j % 6));
            };
            out.add(v);
        }
        return out;
    }

    @Test
    void typeScriptReportsDecodePassAdmissionAndAggregateLikeTheJavaSdksWithTheSameSeed(@TempDir Path dir)
            throws Exception {
        assumeTools();
        Map<String, LocalWorkload> workloads = new LinkedHashMap<>();
        ObjectNode ask = JSON.createObjectNode().put("now", NOW);
        ArrayNode supports = ask.putArray("supports");
        List<WorkloadSpec> specs = new ArrayList<>();
        for (String y : WORKLOADS) {
            specs.add(spec(y));
            supports.add(served(specs.get(specs.size() - 1)));
        }
        JsonNode supported = runNode(ask).path("supports");
        List<String> skipped = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            if (supported.get(i).isBoolean()) {
                LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(specs.get(i));
                workloads.put(w.spec().id(), w);
            } else {
                skipped.add(specs.get(i).id() + " (" + supported.get(i).asText() + ")");
            }
        }
        assertThat(workloads.keySet()).as("not derived by the TypeScript SDK: %s", skipped).containsAll(REQUIRED);
        if (!skipped.isEmpty()) {
            System.out.println("cross-implementation: not derived by the TypeScript SDK yet: " + skipped);
        }
        ObjectNode request = JSON.createObjectNode().put("now", NOW);
        ArrayNode served = request.putArray("workloads");
        workloads.values().forEach(w -> served.add(served(w.spec())));
        ArrayNode devices = request.putArray("devices");
        Map<String, List<DeviceReport>> java = new TreeMap<>();
        for (int d = 0; d < DEVICES; d++) {
            String deviceId = "cross-device-" + d;
            long seed = 0x5EED_0000L + d; // public test seed: the secret words of both SDKs in this test
            ObjectNode dev = devices.addObject().put("deviceId", deviceId).put("seed", Long.toString(seed));
            ArrayNode reports = dev.putArray("reports");
            List<DeviceReport> captured = new ArrayList<>();
            Transport capture = new Transport() {
                @Override
                public List<ReportEnvelope.Result> send(List<DeviceReport> batch) {
                    captured.addAll(batch);
                    return batch.stream().map(r -> new ReportEnvelope.Result(ReportEnvelope.Status.ACCEPTED, "", 0))
                            .toList();
                }

                @Override
                public int maxBatch() {
                    return 500;
                }

                @Override
                public void close() {}
            };
            List<CompletableFuture<ReportOutcome>> outcomes = new ArrayList<>();
            try (Client c = Client.create(ClientConfig.builder(deviceId, dir.resolve(deviceId))
                    .workloads(workloads.values().stream().map(LocalWorkload::spec).toList()).transport(capture)
                    .clock(Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC)).secretRandomness(new SplitMix64(seed))
                    .sendInBackground(false).build())) {
                c.ready().get(60, TimeUnit.SECONDS);
                // one device reports its values workload by workload, in the same order in both SDKs
                for (LocalWorkload w : workloads.values()) {
                    for (Object v : values(w, d)) {
                        ObjectNode r = reports.addObject().put("workload", w.spec().id());
                        if (v instanceof double[] vec) {
                            ArrayNode a = r.putArray("value");
                            for (double x : vec) {
                                a.add(x);
                            }
                            outcomes.add(c.report(w.spec().id(), vec));
                        } else {
                            r.put("value", (String) v);
                            outcomes.add(c.report(w.spec().id(), (String) v));
                        }
                    }
                }
                assertThat(c.flush(Duration.ofSeconds(30))).isTrue();
            }
            for (CompletableFuture<ReportOutcome> o : outcomes) {
                assertThat(o.get().status()).isEqualTo(ReportOutcome.Status.ACCEPTED);
            }
            java.put(deviceId, captured);
        }
        JsonNode answer = runNode(request);

        ReportValidator validator = new ReportValidator(Duration.ofMinutes(5), Duration.ofDays(1));
        Map<String, long[]> tsStates = new TreeMap<>();
        Map<String, long[]> javaStates = new TreeMap<>();
        Map<String, Integer> counts = new TreeMap<>();
        int total = 0;
        for (JsonNode dev : answer.path("devices")) {
            String deviceId = dev.path("deviceId").asText();
            for (JsonNode o : dev.path("outcomes")) {
                assertThat(o.asText()).as("TypeScript outcome").isEqualTo("ACCEPTED");
            }
            List<DeviceReport> ts = ReportEnvelope.fromJson(dev.path("envelope").asText()
                    .getBytes(StandardCharsets.UTF_8));
            // the Java reports through the same envelope, both ways
            List<DeviceReport> js = ReportEnvelope.fromJson(ReportEnvelope.toJson(java.get(deviceId))
                    .getBytes(StandardCharsets.UTF_8));
            assertThat(ts).hasSize(workloads.size() * PER_DEVICE).hasSameSizeAs(js);
            for (int i = 0; i < ts.size(); i++) {
                DeviceReport t = ts.get(i);
                LocalWorkload w = workloads.get(t.workloadId());
                for (var pair : List.of(Map.entry(t, tsStates), Map.entry(js.get(i), javaStates))) {
                    DeviceReport r = pair.getKey();
                    assertThat(admit(validator, r, w)).as("%s %s", r.workloadId(), r).isEqualTo(Verdict.ACCEPT);
                    long[] state = pair.getValue().computeIfAbsent(r.workloadId(),
                            k -> new long[w.accumulator().stateLength()]);
                    assertThat(w.accumulator().accumulate(r.payload(), r.deviceId(), r.period(), r.sequence(), state))
                            .as("decoded: %s", r).isTrue();
                }
                assertThat(t).as("report %d of %s (workload %s): TypeScript vs Java", i, deviceId, t.workloadId())
                        .isEqualTo(js.get(i));
                counts.merge(t.workloadId(), 1, Integer::sum);
                total++;
            }
        }
        assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(workloads.keySet());
        for (String id : workloads.keySet()) {
            assertThat(tsStates.get(id)).as("aggregate of %s", id).isEqualTo(javaStates.get(id));
            if (id.equals("x-heavy")) {
                continue; // its release decodes the whole string domain (about 13 s here); equal states, equal answers
            }
            Answer a = workloads.get(id).values().release(tsStates.get(id), counts.get(id));
            Answer b = workloads.get(id).values().release(javaStates.get(id), counts.get(id));
            assertThat(a.estimates()).as("answer of %s", id).isEqualTo(b.estimates());
        }
        System.out.printf("cross-implementation: %d TypeScript reports over %d protocols equal the Java SDK's,"
                + " admitted and aggregated identically%n", total, workloads.size());
    }

    static Verdict admit(ReportValidator v, DeviceReport r, LocalWorkload w) {
        ReportView view = new ReportView(r.workloadId(), r.workloadVersion(), r.contentHash(), r.deviceId(), r.period(),
                r.sequence(), r.eventTime(), r.mechanism(), r.epsilon(), r.payload(), r.value(), r.protocolVersion());
        Verdict identity = ReportValidator.checkIdentity(view);
        return identity.accepted() ? v.check(view, w, Mode.LOCAL, NOW) : identity;
    }

    /**
     * The TypeScript SDK computes the fingerprint of wire-format §12 for every pinned (workload file, mechanism/version)
     * whose protocol it derives; each must equal the pinned one. What it cannot derive is listed, not failed.
     */
    @Test
    @SuppressWarnings("unchecked")
    void typeScriptComputesThePinnedProtocolFingerprints() throws Exception {
        assumeTools();
        Map<String, Object> root = JSON.readValue(Path.of("..", "docs", "test-vectors", "protocol-fingerprints.json")
                .toFile(), Map.class);
        Map<String, Map<String, String>> pinned = (Map<String, Map<String, String>>) root.get("fingerprints");
        ObjectNode request = JSON.createObjectNode().put("now", NOW);
        request.putArray("workloads");
        ArrayNode asked = request.putArray("fingerprints");
        List<String> keys = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> file : pinned.entrySet()) {
            WorkloadSpec base = WorkloadSpecParser.parse(YAML.readValue(Path.of("..").resolve(file.getKey()).toFile(),
                    Map.class));
            for (String mv : file.getValue().keySet()) {
                MechanismId m = MechanismId.fromWireName(mv.substring(0, mv.indexOf('/')));
                int version = Integer.parseInt(mv.substring(mv.indexOf('/') + 1));
                if (m == MechanismId.FACTORIZATION && base.domain() instanceof Domain.Attributes) {
                    continue; // the TS strategy over marginal queries takes ~10 s each; the other files check it
                }
                WorkloadSpec.Builder b = base.toBuilder().mechanism(m).protocolVersion(version);
                if (base.alpha() == null && (m == MechanismId.LOCAL_COARSE_PROJECTION
                        || m == MechanismId.LOCAL_CHAINING)) {
                    b.alpha(new Alpha(0.25)); // as ProtocolFingerprintTest (wire-format §12.1)
                }
                asked.add(served(b.build()));
                keys.add(file.getKey() + " " + ProtocolVersions.wireName(m, version));
            }
        }
        JsonNode prints = runNode(request).path("fingerprints");
        List<String> matched = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        List<String> matchedKeys = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            String got = prints.get(i).asText();
            String file = key.substring(0, key.indexOf(' '));
            String mv = key.substring(key.indexOf(' ') + 1);
            if (got.startsWith("unsupported")) {
                unsupported.add(mv + " (" + file.substring(file.lastIndexOf('/') + 1) + "): " + got);
            } else {
                assertThat(got).as("TypeScript fingerprint of %s", key).isEqualTo(pinned.get(file).get(mv));
                matched.add(mv);
                matchedKeys.add(key);
            }
        }
        System.out.printf("TypeScript fingerprints: %d equal the pinned ones (%s); not derived by the TypeScript SDK:"
                + "%n  %s%n", matched.size(), new java.util.TreeSet<>(matched), String.join("\n  ", unsupported));
        assertThat(new java.util.TreeSet<>(matched)).contains("grr/1", "oue/1", "olh/1", "subset-selection/1",
                "hadamard-response/1", "tree/2", "fourier/1", "duchi/1", "piecewise/1", "hybrid/1");
        assertThat(matchedKeys).as("the box, with the gateway's k").contains(
                "demo/src/main/resources/demo/resource-usage.yaml duchi/1",
                "demo/src/main/resources/demo/resource-usage.yaml piecewise/1",
                "demo/src/main/resources/demo/resource-usage.yaml hybrid/1");
    }

    /**
     * The vector rule: the TypeScript SDK accepts exactly the vectors the Java SDK accepts ({@code VectorValues}),
     * on vectors around a ball's sphere (relative distances of a few 10^-13 to 10^-11 in 200 random directions, both
     * norms of the rule), at and beyond a box's edges, of the wrong length, overflowing, and as strings.
     */
    @Test
    void typeScriptAcceptsExactlyTheVectorsJavaAccepts() throws Exception {
        assumeTools();
        Map<String, LocalWorkload> workloads = new LinkedHashMap<>();
        for (String y : List.of(WORKLOADS.get(11), WORKLOADS.get(12))) {
            LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(spec(y));
            workloads.put(w.spec().id(), w);
        }
        ObjectNode request = JSON.createObjectNode().put("now", NOW);
        ArrayNode served = request.putArray("workloads");
        workloads.values().forEach(w -> served.add(served(w.spec())));
        ArrayNode checks = request.putArray("checks");
        List<Boolean> java = new ArrayList<>();
        java.util.function.BiConsumer<String, Object> add = (id, v) -> {
            ObjectNode c = checks.addObject().put("workload", id);
            LocalWorkload.Vectors vs = (LocalWorkload.Vectors) workloads.get(id).values();
            boolean ok = true;
            try {
                if (v instanceof double[] d) {
                    ArrayNode a = c.putArray("value");
                    for (double x : d) {
                        a.add(x);
                    }
                    vs.checkVector(d);
                } else {
                    c.put("value", (String) v);
                    vs.checkValue((String) v);
                }
            } catch (io.privacygateway.mechanisms.workload.InvalidValueException e) {
                ok = false;
            }
            java.add(ok);
        };
        SplitMix64 rnd = new SplitMix64(42); // public: the test's directions
        double[] deltas = {-1e-12, -1e-13, 0, 2e-13, 5e-13, 9e-13, 1e-12, 1.1e-12, 2e-12, 1e-11};
        for (int i = 0; i < 200; i++) {
            double[] u = {rnd.nextLong() / 0x1p63, rnd.nextLong() / 0x1p63, (i % 7 == 0 ? 0 : rnd.nextLong() / 0x1p63)};
            double n = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            double f = 2 * (1 + deltas[i % deltas.length]) / n; // radius 2
            add.accept("x-ball", new double[] {u[0] * f, u[1] * f, u[2] * f});
        }
        for (double[] v : List.of(new double[] {2, 0, 0}, new double[] {0, 0, -2}, new double[] {1e200, 1e200, 0},
                new double[] {1e-300, 0, 0}, new double[] {0, 0, 0}, new double[] {1, 1})) {
            add.accept("x-ball", v);
        }
        for (String v : List.of("[2, 0, 0]", " 1 ,1, 1 ", "1, 1, 1.5", "Infinity, 0, 0", "1,,1", "1, 1, 1, 1")) {
            add.accept("x-ball", v);
        }
        for (double[] v : List.of(new double[] {0, 100, 50, 0}, new double[] {-1e-300, 0, 0, 0},
                new double[] {100.00000000000001, 0, 0, 0}, new double[] {0, 0, 0}, new double[] {-0.0, 0, 0, 0})) {
            add.accept("x-box-duchi", v);
        }
        for (String v : List.of("0, 100, 50, 0", "[1,2,3,4]", "0, 100, 50, 101", "0, 100, 50")) {
            add.accept("x-box-duchi", v);
        }
        JsonNode got = runNode(request).path("checks");
        List<Boolean> ts = new ArrayList<>();
        got.forEach(b -> ts.add(b.asBoolean()));
        for (int i = 0; i < java.size(); i++) {
            assertThat(ts.get(i)).as("check %d: %s", i, checks.get(i)).isEqualTo(java.get(i));
        }
        assertThat(java).contains(true, false);
        System.out.printf("vector rule: TypeScript agrees with Java on %d vectors (%d accepted)%n", java.size(),
                java.stream().filter(b -> b).count());
    }

    static JsonNode runNode(ObjectNode request) throws Exception {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(node.toString(), SCRIPT.toString(), BUNDLE.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var in = p.getOutputStream()) {
            in.write(JSON.writeValueAsBytes(request));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream s = p.getInputStream()) {
            s.transferTo(out);
        }
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("node finished").isTrue();
        assertThat(p.exitValue()).as("node's exit status (its stderr is above)").isZero();
        System.out.printf("node: %d ms%n", (System.nanoTime() - start) / 1_000_000);
        return JSON.readTree(out.toByteArray());
    }
}

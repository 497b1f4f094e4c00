package io.privacygateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins a fingerprint of every derived local protocol of the example and demo workloads
 * ({@code docs/test-vectors/protocol-fingerprints.json}), so that a change to anything a device derives from a spec
 * (a strategy, a branching factor, a table, a constant, an encoding) either bumps the mechanism's protocol version
 * ({@link ProtocolVersions}) or fails the build.
 *
 * <p>For each local workload file and each local mechanism the spec admits (with {@code mechanism} replaced; α = 1/4
 * where the mechanism needs one and the file declares none), for each version {@link ProtocolVersions#derivable}: the
 * SHA-256 of {@code "<mechanism>/<version>"}, the payload length, the state length, and the payloads of up to
 * {@value #VALUES} values (universe indices {@code 0, 1, …}; fixed strings or vectors for open domains and vector means)
 * at fixed coordinates, each drawn from a SplitMix64 stream seeded with the value's index (scripted randomness: no
 * secret randomness is involved).
 *
 * <p>Re-pinning: {@code -Dpgw.repinProtocols=true} writes the file, adding new versions and dropping versions no longer
 * derived, but never overwrites a pinned fingerprint that changed: that needs a new version.
 */
class ProtocolFingerprintTest {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    static final Path FILE = Path.of("..", "docs", "test-vectors", "protocol-fingerprints.json");
    static final int VALUES = 64;
    static final ReportCoordinates AT = new ReportCoordinates("fingerprint-device", 3, 0);

    /** The local workload files of examples/ and of the demo, by path relative to the repository root. */
    static Map<String, WorkloadSpec> workloads() throws IOException {
        Map<String, WorkloadSpec> out = new TreeMap<>();
        for (String dir : List.of("examples", "demo/src/main/resources/demo")) {
            try (Stream<Path> files = Files.list(Path.of("..").resolve(dir))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".yaml"))
                        .filter(p -> !List.of("gateway.yaml", "ingest.yaml").contains(p.getFileName().toString())).sorted().toList()) {
                    WorkloadSpec s = WorkloadSpecParser.parse(YAML.readValue(f.toFile(), Map.class));
                    if (s.mode() == Mode.LOCAL) {
                        out.put(dir + "/" + f.getFileName(), s);
                    }
                }
            }
        }
        return out;
    }

    /** The fingerprints of every (mechanism, version) the spec admits, keyed by {@code <mechanism>/<version>}. */
    static Map<String, String> fingerprints(WorkloadSpec base) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (MechanismId m : MechanismId.values()) {
            if (!ProtocolVersions.hasProtocol(m)) {
                continue;
            }
            for (int v : ProtocolVersions.derivable(m)) {
                LocalWorkload w;
                try {
                    WorkloadSpec.Builder b = base.toBuilder().mechanism(m).protocolVersion(v);
                    if (base.alpha() == null && (m == MechanismId.LOCAL_COARSE_PROJECTION
                            || m == MechanismId.LOCAL_CHAINING)) {
                        b.alpha(new Alpha(0.25));
                    }
                    w = (LocalWorkload) ResolvedWorkload.of(b.build());
                } catch (IllegalArgumentException notForThisWorkload) {
                    continue; // the spec does not admit m (family, domain or size rules)
                }
                out.put(ProtocolVersions.wireName(m, v), fingerprint(w));
            }
        }
        return out;
    }

    static String fingerprint(LocalWorkload w) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        d.update(ProtocolVersions.wireName(w.spec().mechanism(), w.spec().protocolVersion())
                .getBytes(StandardCharsets.UTF_8));
        d.update(ByteBuffer.allocate(8).putInt(w.accumulator().payloadBytes()).putInt(w.accumulator().stateLength())
                .array());
        if (w.values() instanceof LocalWorkload.Universe u) {
            int k = Math.min(VALUES, u.workload().universeSize());
            for (int x = 0; x < k; x++) {
                update(d, u.pipeline().protocol().randomize(x, AT, new SplitMix(x)));
            }
        } else if (w.values() instanceof LocalWorkload.Vectors vs) {
            Domain dom = w.spec().domain();
            int dim = ((Domain.Vector) dom).coordinates().size();
            for (int i = 0; i < VALUES; i++) {
                double t = i / (double) (VALUES - 1);
                double[] v = new double[dim];
                for (int j = 0; j < dim; j++) {
                    double s = ((i + j) % 3) / 2.0 * t; // in [0, 1]
                    v[j] = dom instanceof Domain.Box b ? b.lo() + (b.hi() - b.lo()) * s
                            : ((Domain.Ball) dom).radius() * (2 * s - 1) / Math.sqrt(dim);
                }
                update(d, vs.randomize(v, AT, new SplitMix(i)));
            }
        } else {
            for (int i = 0; i < VALUES; i++) {
                update(d, w.randomize("v" + Integer.toString(i, 36), AT, new SplitMix(i)));
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    private static void update(MessageDigest d, byte[] payload) {
        d.update(ByteBuffer.allocate(4).putInt(payload.length).array());
        d.update(payload);
    }

    /** Scripted random words: SplitMix64 from a seed (public, reproducible in any language). */
    static final class SplitMix implements RandomBits {
        private long state;

        SplitMix(long seed) {
            state = seed;
        }

        @Override
        public long nextLong() {
            long z = (state += 0x9E3779B97F4A7C15L);
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }

    /** The fingerprints of every local example and demo workload. */
    static Map<String, Map<String, String>> computeAll() throws Exception {
        Map<String, Map<String, String>> all = new TreeMap<>();
        for (Map.Entry<String, WorkloadSpec> e : workloads().entrySet()) {
            all.put(e.getKey(), fingerprints(e.getValue()));
        }
        return all;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, String>> pinned() throws IOException {
        if (!Files.exists(FILE)) {
            return new TreeMap<>();
        }
        Map<String, Object> root = JSON.readValue(FILE.toFile(), Map.class);
        return (Map<String, Map<String, String>>) root.get("fingerprints");
    }

    /**
     * What differs between pinned and computed fingerprints, as messages (empty when they agree). A changed
     * fingerprint of a pinned version is a protocol change without a version bump.
     */
    static List<String> differences(Map<String, Map<String, String>> pinned, Map<String, Map<String, String>> now) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> w : now.entrySet()) {
            Map<String, String> p = pinned.getOrDefault(w.getKey(), Map.of());
            for (Map.Entry<String, String> e : w.getValue().entrySet()) {
                String was = p.get(e.getKey());
                String mech = e.getKey().substring(0, e.getKey().indexOf('/'));
                if (was == null) {
                    out.add(w.getKey() + " " + e.getKey() + ": not pinned; pin it with -Dpgw.repinProtocols=true");
                } else if (!was.equals(e.getValue())) {
                    out.add(w.getKey() + " " + e.getKey() + ": the derived protocol changed (pinned " + was.substring(0,
                            12) + "…, now " + e.getValue().substring(0, 12) + "…) without a new version: bump the"
                            + " protocolVersion of " + mech + " (ProtocolVersions.current, and keep deriving "
                            + e.getKey() + " while gateways may serve it), then re-pin with -Dpgw.repinProtocols=true");
                }
            }
            for (String k : p.keySet()) {
                if (!w.getValue().containsKey(k)) {
                    out.add(w.getKey() + " " + k + ": pinned but no longer derived; re-pin with"
                            + " -Dpgw.repinProtocols=true if that version was retired on purpose");
                }
            }
        }
        for (String k : pinned.keySet()) {
            if (!now.containsKey(k)) {
                out.add(k + ": pinned but no longer a local example or demo workload; re-pin");
            }
        }
        return out;
    }

    @Test
    void everyDerivedProtocolMatchesItsPinnedFingerprint() throws Exception {
        Map<String, Map<String, String>> now = computeAll();
        assertThat(now).as("local example and demo workloads").hasSizeGreaterThanOrEqualTo(5);
        Map<String, Map<String, String>> pinned = pinned();
        List<String> diff = differences(pinned, now);
        if (Boolean.getBoolean("pgw.repinProtocols")) {
            List<String> changed = diff.stream().filter(s -> s.contains("without a new version")).toList();
            assertThat(changed).as("a changed fingerprint is never re-pinned: bump the protocol version").isEmpty();
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("about", "SHA-256 fingerprints of every derived local protocol (mechanism/protocolVersion) of the"
                    + " example and demo workloads; see ProtocolFingerprintTest and docs/wire-format.md"
                    + " 'Protocol versions'. Never edit a value: a change needs a new protocol version.");
            root.put("fingerprints", now);
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, JSON.writeValueAsString(root) + "\n");
            return;
        }
        assertThat(diff).as("protocol fingerprints (docs/test-vectors/protocol-fingerprints.json)").isEmpty();
    }

    @Test
    void aChangedDerivationWithoutABumpIsReportedAsSuch() {
        Map<String, Map<String, String>> pinned = Map.of("w.yaml", Map.of("tree/2", "a".repeat(64)));
        Map<String, Map<String, String>> now = Map.of("w.yaml", Map.of("tree/2", "b".repeat(64)));
        assertThat(differences(pinned, now)).singleElement().asString()
                .contains("tree/2", "bump the protocolVersion of tree");
        // after the bump (tree/3 new, tree/2 still derived as before) only the new version is to be pinned
        Map<String, Map<String, String>> bumped = Map.of("w.yaml", Map.of("tree/2", "a".repeat(64), "tree/3",
                "b".repeat(64)));
        assertThat(differences(pinned, bumped)).singleElement().asString().contains("tree/3", "not pinned");
    }
}

package io.privacygateway.mechanisms.testing;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON golden vectors of {@code docs/test-vectors/<protocol>.json} (layout: {@code docs/test-vectors/README.md}):
 * reading them, writing them (generators run with {@code -Dgolden.write=true}), and the scripted secret word
 * source a vector's {@code secretWords} describe.
 */
public final class GoldenVectors {
    /** The directory of the vectors, from a module's directory. */
    public static final Path DIR = Path.of("..", "docs", "test-vectors");

    /** Whether generators should (re)write the files instead of tests checking them. */
    public static boolean writing() {
        return Boolean.getBoolean("golden.write");
    }

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private GoldenVectors() {}

    /** The parsed file {@code docs/test-vectors/<name>.json}. */
    public static JsonNode read(String name) {
        try {
            return MAPPER.readTree(Files.readString(DIR.resolve(name + ".json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code tree} (maps, lists, strings, numbers) as {@code docs/test-vectors/<name>.json}, 2-space indented. */
    public static void write(String name, Object tree) {
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter().withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE)
                .withObjectIndenter(new DefaultIndenter("  ", "\n"));
        try {
            Files.createDirectories(DIR);
            String text = MAPPER.writer(pp).writeValueAsString(tree).replace(" : ", ": ");
            Files.writeString(DIR.resolve(name + ".json"), text + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The spec of a canonical JSON text (as a device receives it), checked to be canonical. */
    public static WorkloadSpec spec(String canonicalJson) {
        Map<?, ?> tree;
        try {
            tree = MAPPER.readValue(canonicalJson, Map.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        WorkloadSpec s = WorkloadSpecParser.parse(tree);
        if (!CanonicalForm.of(s).equals(canonicalJson)) {
            throw new AssertionError("not canonical: " + canonicalJson + "\n  canonical: " + CanonicalForm.of(s));
        }
        return s;
    }

    /** {@code tree} (maps, lists, strings, numbers) as a JSON tree, as {@link #write} would write it. */
    public static JsonNode toJson(Object tree) {
        try {
            return MAPPER.readTree(MAPPER.writeValueAsString(tree));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A JSON tree as plain values for comparisons: objects as maps, arrays as lists, integers as {@link Long},
     * other numbers as {@link java.math.BigDecimal} without trailing zeros, strings, booleans, null.
     */
    public static Object tree(JsonNode n) {
        return tree(n, true);
    }

    /**
     * A JSON tree as plain values for a parser: as {@link #tree(JsonNode)}, but non-integer numbers keep the decimal
     * as written ({@code 1.50} stays {@code 1.50}).
     */
    public static Object value(JsonNode n) {
        return tree(n, false);
    }

    private static Object tree(JsonNode n, boolean strip) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isObject()) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            n.fields().forEachRemaining(e -> m.put(e.getKey(), tree(e.getValue(), strip)));
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>();
            n.forEach(x -> l.add(tree(x, strip)));
            return l;
        }
        if (n.isIntegralNumber()) {
            return n.longValue();
        }
        if (n.isNumber()) {
            if (!strip) {
                return n.decimalValue();
            }
            java.math.BigDecimal d = n.decimalValue().stripTrailingZeros();
            return d.signum() == 0 ? java.math.BigDecimal.ZERO : d;
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        return n.asText();
    }

    /** A word as 16 lower-case hex digits. */
    public static String hex(long word) {
        return String.format("%016x", word);
    }

    /** The word of 16 hex digits. */
    public static long word(String hex) {
        return Long.parseUnsignedLong(hex, 16);
    }

    /** Bytes as lower-case hex. */
    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** The bytes of a hex string. */
    public static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    /**
     * A secret word source for vectors: first the given words in order, then (if {@code rest} is not null) the words of
     * {@code rest}; it records every word it hands out. Used by generators (to record the words a randomizer consumed)
     * and by checks (with {@code rest = null}: running past the scripted words fails).
     */
    public static final class ScriptedBits implements RandomBits {
        private final long[] script;
        private final RandomBits rest;
        private final List<Long> consumed = new ArrayList<>();

        public ScriptedBits(long[] script, RandomBits rest) {
            this.script = script.clone();
            this.rest = rest;
        }

        @Override
        public long nextLong() {
            long w;
            int i = consumed.size();
            if (i < script.length) {
                w = script[i];
            } else if (rest != null) {
                w = rest.nextLong();
            } else {
                throw new AssertionError("the randomizer drew more than the " + script.length + " scripted words");
            }
            consumed.add(w);
            return w;
        }

        /** The words handed out, in order. */
        public List<Long> consumed() {
            return List.copyOf(consumed);
        }

        /** The words handed out, as hex strings. */
        public List<String> consumedHex() {
            return consumed.stream().map(GoldenVectors::hex).toList();
        }
    }

    /** Report coordinates as the vectors list them: {@code {"deviceId", "period", "sequence"}}. */
    public static ReportCoordinates coordinates(JsonNode c) {
        return new ReportCoordinates(c.get("deviceId").asText(), c.get("period").asLong(), c.get("sequence").asInt());
    }

    /** The vectors' form of report coordinates (the inverse of {@link #coordinates(JsonNode)}). */
    public static Map<String, Object> coordinates(ReportCoordinates c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("deviceId", c.deviceId());
        m.put("period", c.period());
        m.put("sequence", (long) c.sequence());
        return m;
    }

    /** A long array as a list, the form the vectors write states in. */
    public static List<Long> longs(long[] a) {
        List<Long> out = new ArrayList<>();
        for (long x : a) {
            out.add(x);
        }
        return out;
    }
}

package io.privacygateway.app.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.app.dashboard.DashboardOptions;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewaySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code gateway.yaml} (the configuration of {@code privacy-gateway run}). A bad file fails at
 * start-up with a message naming the field and the value; unknown fields are errors.
 *
 * <pre>
 * bootstrapServers: broker-1:9092,broker-2:9092   # required
 * schemaRegistryUrl: http://registry:8081          # required (any Confluent-API registry)
 * applicationId: privacy-gateway                   # default privacy-gateway
 * topicPrefix: pgw.                                # default pgw.
 * partitions: {local: 6, central: 3}               # report-topic partitions (default 3, 3)
 * replicationFactor: 3                             # default 1
 * streamThreads: 2                                 # default 1
 * stateDir: /var/lib/privacy-gateway               # default ./gateway-state
 * processingGuarantee: exactly_once_v2             # or at_least_once
 * timing: {maxFutureSkew: 1m, maxEventAge: 1h, idleAfter: 10s, watermarkSlack: 5s, punctuateEvery: 1s,
 *          ledgerRetentionPeriods: 2}
 * kafka: {security.protocol: SASL_SSL, sasl.mechanism: PLAIN, sasl.jaas.config: "..."}   # passed through
 * registry: {basic.auth.user.info: "user:secret"}                                        # passed through
 * dashboard: {port: 8080, host: 127.0.0.1}         # optional; port 0 = disabled; host default 127.0.0.1
 * </pre>
 */
public final class GatewayConfigFile {
    private static final Set<String> TOP = Set.of("bootstrapServers", "schemaRegistryUrl", "applicationId", "topicPrefix",
            "partitions", "replicationFactor", "streamThreads", "stateDir", "processingGuarantee", "timing", "kafka",
            "registry", "dashboard");
    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    private GatewayConfigFile() {}

    /** The parsed file: gateway settings, the dashboard port (0 = none) and the host it binds to. */
    public record Loaded(GatewaySettings settings, int dashboardPort, String dashboardHost) {}

    /** A configuration error naming the field. */
    public static final class ConfigException extends IllegalArgumentException {
        public ConfigException(String field, String message) {
            super(field + ": " + message);
        }
    }

    public static Loaded load(Path file) {
        Object tree;
        try {
            tree = new ObjectMapper(new YAMLFactory()).readValue(Files.readString(file), Object.class);
        } catch (IOException e) {
            throw new ConfigException("(file)", "cannot read " + file + ": " + e.getMessage());
        }
        if (!(tree instanceof Map<?, ?> m)) {
            throw new ConfigException("(file)", file + " must contain a map of settings");
        }
        return parse(m);
    }

    public static Loaded parse(Map<?, ?> m) {
        for (Object k : m.keySet()) {
            if (!TOP.contains(String.valueOf(k))) {
                throw new ConfigException(String.valueOf(k), "unknown setting (known: " + new TreeSet<>(TOP) + ")");
            }
        }
        String bootstrap = string(m, "bootstrapServers", null);
        String registry = string(m, "schemaRegistryUrl", null);
        Map<?, ?> parts = map(m, "partitions");
        Map<?, ?> timing = map(m, "timing");
        check("partitions.", parts, Set.of("local", "central"));
        check("timing.", timing, Set.of("maxFutureSkew", "maxEventAge", "idleAfter", "watermarkSlack", "punctuateEvery",
                "ledgerRetentionPeriods"));
        for (String side : List.of("local", "central")) {
            int n = integer(parts, "partitions." + side, 3);
            if (n < 1) {
                throw new ConfigException("partitions." + side, "must be >= 1, got " + n);
            }
        }
        int threads = integer(m, "streamThreads", 1);
        if (threads < 1) {
            throw new ConfigException("streamThreads", "must be >= 1, got " + threads);
        }
        String guarantee = string(m, "processingGuarantee", "exactly_once_v2");
        if (!List.of("exactly_once_v2", "at_least_once").contains(guarantee)) {
            throw new ConfigException("processingGuarantee", "must be exactly_once_v2 or at_least_once, got " + guarantee);
        }
        GatewayConfig g = wrap("timing", () -> new GatewayConfig(string(m, "topicPrefix", "pgw."),
                duration(timing, "timing.maxFutureSkew", "1m"), duration(timing, "timing.maxEventAge", "1h"),
                duration(timing, "timing.idleAfter", "10s"), duration(timing, "timing.watermarkSlack", "5s"),
                duration(timing, "timing.punctuateEvery", "1s"), integer(parts, "partitions.local", 3),
                integer(parts, "partitions.central", 3), integer(timing, "timing.ledgerRetentionPeriods", 2)));
        int rf = integer(m, "replicationFactor", 1);
        if (rf < 1 || rf > Short.MAX_VALUE) {
            throw new ConfigException("replicationFactor", "must be in [1, 32767], got " + rf);
        }
        GatewaySettings s = wrap("(settings)", () -> new GatewaySettings(bootstrap, registry,
                string(m, "applicationId", "privacy-gateway"), g, (short) rf, threads,
                Path.of(string(m, "stateDir", "gateway-state")), guarantee,
                strings(map(m, "kafka")), strings(map(m, "registry"))));
        Map<?, ?> dash = map(m, "dashboard");
        check("dashboard.", dash, Set.of("port", "host"));
        int port = integer(dash, "dashboard.port", 0);
        if (port < 0 || port > 65535) {
            throw new ConfigException("dashboard.port", "must be in [0, 65535], got " + port);
        }
        String host = string(dash, "host", DashboardOptions.DEFAULT_BIND_HOST);
        wrap("dashboard.host", () -> DashboardOptions.onPort(port).withBindHost(host));
        return new Loaded(s, port, host);
    }

    private static <T> T wrap(String field, java.util.function.Supplier<T> make) {
        try {
            return make.get();
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(field, e.getMessage());
        }
    }

    private static void check(String prefix, Map<?, ?> m, Set<String> known) {
        for (Object k : m.keySet()) {
            if (!known.contains(String.valueOf(k))) {
                throw new ConfigException(prefix + k, "unknown setting (known: " + new TreeSet<>(known) + ")");
            }
        }
    }

    private static Map<?, ?> map(Map<?, ?> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> mm)) {
            throw new ConfigException(key, "must be a map, got " + v);
        }
        return mm;
    }

    private static Map<String, String> strings(Map<?, ?> m) {
        Map<String, String> out = new HashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }

    private static String string(Map<?, ?> m, String key, String dflt) {
        Object v = m.get(key);
        if (v == null) {
            if (dflt == null) {
                throw new ConfigException(key, "is required");
            }
            return dflt;
        }
        String s = String.valueOf(v).trim();
        if (s.isEmpty()) {
            throw new ConfigException(key, "must not be empty");
        }
        return s;
    }

    private static int integer(Map<?, ?> m, String path, int dflt) {
        String key = path.substring(path.lastIndexOf('.') + 1);
        Object v = m.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Integer i) {
            return i;
        }
        try {
            return Integer.parseInt(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(path, "must be an integer, got " + v);
        }
    }

    private static Duration duration(Map<?, ?> m, String path, String dflt) {
        String key = path.substring(path.lastIndexOf('.') + 1);
        Object v = m.get(key);
        String s = v == null ? dflt : String.valueOf(v).trim();
        Matcher sm = SHORT.matcher(s.toLowerCase(Locale.ROOT));
        if (sm.matches()) {
            long n = Long.parseLong(sm.group(1));
            return switch (sm.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(s.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new ConfigException(path, "must be a duration such as 10s, 1m or PT1M, got \"" + s + "\"");
        }
    }
}

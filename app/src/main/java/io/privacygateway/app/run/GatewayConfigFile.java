package io.privacygateway.app.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.app.answers.AnswersOptions;
import io.privacygateway.app.dashboard.DashboardOptions;
import io.privacygateway.app.http.HttpEndpoint;
import io.privacygateway.mechanisms.param.Durations;
import io.privacygateway.schemas.registry.SchemaRegistryConfig;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.identity.DeviceAuthentication;
import io.privacygateway.topology.state.RocksDbMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code gateway.yaml} (the configuration of {@code privacy-gateway run}). A bad file fails at start-up
 * with a message naming the field and the value; unknown fields are errors.
 *
 * <p><b>Environment substitution.</b> Every string value may refer to environment variables as {@code ${NAME}}
 * or {@code ${NAME:-default}}, so secrets (SASL passwords, registry credentials, enrollment keys) stay out of the
 * file. A reference to an unset variable without a default is an error naming the field and the variable.
 *
 * <pre>
 * bootstrapServers: broker-1:9092,broker-2:9092   # required
 * schemaRegistryUrl: http://registry:8081          # required (any Confluent-API registry)
 * applicationId: privacy-gateway                   # default privacy-gateway (also names the internal topics)
 * instanceId: ${POD_NAME}                          # optional: static membership (group.instance.id)
 * topicPrefix: pgw.                                # default pgw.
 * partitions: {local: 6, central: 6}               # report-topic partitions (default 3, 3; equal)
 * replicationFactor: 3                             # default 1
 * streamThreads: 2                                 # default 1
 * stateDir: /var/lib/privacy-gateway               # default ./gateway-state
 * processingGuarantee: exactly_once_v2             # or at_least_once
 * timing: {maxFutureSkew: 1m, maxEventAge: 1h, watermarkSlack: 2s, punctuateEvery: 100ms, progressHeartbeat: 5s,
 *     centralReleaseDelay: 200ms}
 * limits: {maxReportBytes: 65536}
 * retention: {partials: 1d, centralReports: 1d, answers: forever}   # answers: forever (default) or a duration
 * devices: {enrollment: required, keys: {k1: ${PGW_ENROLLMENT_KEY}}}   # or enrollment: open (default)
 * kafka: {security.protocol: SASL_SSL, sasl.mechanism: PLAIN, sasl.jaas.config: "..."}   # passed through
 * registry: {basic.auth.user.info: "${REGISTRY_USER}:${REGISTRY_PASSWORD}"}               # validated keys
 * metrics: {port: 9464, host: 0.0.0.0}             # /metrics, /health/live, /health/ready; port 0 = none
 *     # exactCentralCounts: true   adds exact counts of central reports to the meters (default false)
 * dashboard: {port: 8080, host: 127.0.0.1}         # optional; port 0 = disabled; host default 127.0.0.1
 * answers: {port: 8082, host: 127.0.0.1, defaultLimit: 1000, maxLimit: 10000, maxResponseBytes: 8388608}
 *                                                  # optional: the answers API (docs/answers-api.md); port 0 = off
 * rocksdb: {blockCache: 256MiB, writeBuffers: 64MiB, strictCapacity: true}   # memory of all state stores together
 *     # (one shared block cache incl. index/filter blocks and memtables); defaults fit a 2 GiB container limit
 * </pre>
 */
public final class GatewayConfigFile {
    private static final Set<String> TOP = Set.of("bootstrapServers", "schemaRegistryUrl", "applicationId",
            "instanceId", "topicPrefix", "partitions", "replicationFactor", "streamThreads", "stateDir",
            "processingGuarantee", "timing", "limits", "retention", "devices", "kafka", "registry", "metrics",
            "dashboard", "answers", "rocksdb");
    private static final Pattern ENV = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");

    private GatewayConfigFile() {}

    /**
     * The parsed file.
     *
     * @param settings the gateway settings
     * @param dashboardPort the dashboard port (0 = none)
     * @param dashboardHost the host the dashboard binds to
     * @param metricsPort the metrics and health port (0 = none)
     * @param metricsHost the host the metrics and health endpoints bind to
     * @param answers how the answers API is served, or {@code null} when it is off ({@code answers.port} 0 or absent)
     */
    public record Loaded(GatewaySettings settings, int dashboardPort, String dashboardHost, int metricsPort,
            String metricsHost, AnswersOptions answers) {}

    /** A configuration error naming the field. */
    public static final class ConfigException extends IllegalArgumentException {
        public ConfigException(String field, String message) {
            super(field + ": " + message);
        }
    }

    public static Loaded load(Path file) {
        return load(file, System.getenv());
    }

    /** Reads {@code file}, substituting {@code ${NAME}} from {@code env}. */
    public static Loaded load(Path file, Map<String, String> env) {
        return parse(readSettings(file), env);
    }

    /**
     * The YAML map of settings in {@code file} (the gateway's and the ingestion service's config files alike).
     *
     * @throws ConfigException naming {@code (file)} if the file cannot be read or parsed, or is not a map
     */
    static Map<?, ?> readSettings(Path file) {
        Object tree;
        try {
            tree = new ObjectMapper(new YAMLFactory()).readValue(Files.readString(file), Object.class);
        } catch (IOException e) {
            throw new ConfigException("(file)", "cannot read " + file + ": " + e.getMessage());
        }
        if (!(tree instanceof Map<?, ?> m)) {
            throw new ConfigException("(file)", file + " must contain a map of settings");
        }
        return m;
    }

    public static Loaded parse(Map<?, ?> m) {
        return parse(m, System.getenv());
    }

    /** Parses a settings tree, substituting {@code ${NAME}} from {@code env}. */
    public static Loaded parse(Map<?, ?> raw, Map<String, String> env) {
        Map<?, ?> m = (Map<?, ?>) substitute("", raw, env);
        for (Object k : m.keySet()) {
            if (!TOP.contains(String.valueOf(k))) {
                throw new ConfigException(String.valueOf(k), "unknown setting (known: " + new TreeSet<>(TOP) + ")");
            }
        }
        String bootstrap = string(m, "bootstrapServers", null);
        String registry = string(m, "schemaRegistryUrl", null);
        Map<?, ?> parts = map(m, "partitions");
        Map<?, ?> timing = map(m, "timing");
        Map<?, ?> limits = map(m, "limits");
        Map<?, ?> retention = map(m, "retention");
        check("partitions.", parts, Set.of("local", "central"));
        check("timing.", timing, Set.of("maxFutureSkew", "maxEventAge", "watermarkSlack", "punctuateEvery",
                "progressHeartbeat", "centralReleaseDelay"));
        check("limits.", limits, Set.of("maxReportBytes"));
        check("retention.", retention, Set.of("partials", "centralReports", "answers"));
        long answersRetention = answersRetention(retention);
        Map<?, ?> answersMap = map(m, "answers");
        check("answers.", answersMap, Set.of("port", "host", "defaultLimit", "maxLimit", "maxResponseBytes"));
        AnswersOptions answers = answers(answersMap);
        for (String side : List.of("local", "central")) {
            int n = integer(parts, "partitions." + side, 3);
            if (n < 1) {
                throw new ConfigException("partitions." + side, "must be >= 1, got " + n);
            }
        }
        if (integer(parts, "partitions.central", 3) != integer(parts, "partitions.local", 3)) {
            throw new ConfigException("partitions.central", "must equal partitions.local (" + integer(parts,
                    "partitions.local", 3) + "): a device's budget is one ledger across both modes, kept by the task"
                    + " that owns the same partition of both report topics");
        }
        int threads = integer(m, "streamThreads", 1);
        if (threads < 1) {
            throw new ConfigException("streamThreads", "must be >= 1, got " + threads);
        }
        String guarantee = string(m, "processingGuarantee", "exactly_once_v2");
        if (!List.of("exactly_once_v2", "at_least_once").contains(guarantee)) {
            throw new ConfigException("processingGuarantee", "must be exactly_once_v2 or at_least_once, got " + guarantee);
        }
        DeviceAuthentication auth = devices(map(m, "devices"));
        Map<?, ?> metrics = map(m, "metrics");
        check("metrics.", metrics, Set.of("port", "host", "exactCentralCounts"));
        boolean exactCentralCounts = bool(metrics, "metrics.exactCentralCounts", false);
        RocksDbMemory rocksDb = rocksDb(map(m, "rocksdb"));
        GatewayConfig g = wrap("timing", () -> GatewayConfig.builder(integer(parts, "partitions.local", 3),
                        integer(parts, "partitions.central", 3))
                .topicPrefix(string(m, "topicPrefix", "pgw."))
                .applicationId(string(m, "applicationId", "privacy-gateway"))
                .maxFutureSkew(duration(timing, "timing.maxFutureSkew", "1m"))
                .maxEventAge(duration(timing, "timing.maxEventAge", "1h"))
                .watermarkSlack(duration(timing, "timing.watermarkSlack", "2s"))
                .punctuateEvery(duration(timing, "timing.punctuateEvery", "100ms"))
                .progressHeartbeat(duration(timing, "timing.progressHeartbeat", "5s"))
                .centralReleaseDelay(duration(timing, "timing.centralReleaseDelay", "200ms"))
                .maxReportBytes(integer(limits, "limits.maxReportBytes", 64 * 1024))
                .partialsRetention(duration(retention, "retention.partials", "1d"))
                .centralReportsRetention(duration(retention, "retention.centralReports", "1d"))
                .authentication(auth)
                .exactCentralCounts(exactCentralCounts)
                .answersRetentionMs(answersRetention)
                .answersStore(answers != null)
                .rocksDbMemory(rocksDb)
                .build());
        int rf = integer(m, "replicationFactor", 1);
        if (rf < 1 || rf > Short.MAX_VALUE) {
            throw new ConfigException("replicationFactor", "must be in [1, 32767], got " + rf);
        }
        Map<String, String> kafka = strings(map(m, "kafka"));
        if (m.containsKey("instanceId")) {
            String id = string(m, "instanceId", null);
            if (!id.matches("[A-Za-z0-9._-]{1,249}")) {
                throw new ConfigException("instanceId", "must match [A-Za-z0-9._-]{1,249}, got \"" + id + "\"");
            }
            kafka.put("group.instance.id", id);
        }
        Map<String, String> registryProps = strings(map(m, "registry"));
        wrap(registryProps.isEmpty() ? "schemaRegistryUrl" : "registry",
                () -> SchemaRegistryConfig.fromMap(withUrl(registryProps, registry)));
        GatewaySettings s = wrap("(settings)", () -> new GatewaySettings(bootstrap, registry, g, (short) rf, threads,
                Path.of(string(m, "stateDir", "gateway-state")), guarantee, kafka, registryProps));
        Map<?, ?> dash = map(m, "dashboard");
        check("dashboard.", dash, Set.of("port", "host"));
        int port = port(dash, "dashboard.port", 0);
        String host = string(dash, "host", DashboardOptions.DEFAULT_BIND_HOST);
        wrap("dashboard.host", () -> DashboardOptions.onPort(port).withBindHost(host));
        int metricsPort = port(metrics, "metrics.port", 9464);
        String metricsHost = string(metrics, "host", "127.0.0.1");
        return new Loaded(s, port, host, metricsPort, metricsHost, answers);
    }

    /** {@code retention.answers}: {@code forever} (the default) or a positive duration. */
    static long answersRetention(Map<?, ?> retention) {
        Object v = retention.get("answers");
        String text = v == null ? "forever" : String.valueOf(v).trim();
        if (text.equals("forever")) {
            return GatewayConfig.FOREVER;
        }
        Duration d = wrap("retention.answers", () -> Durations.parse(text));
        if (d.isZero()) {
            throw new ConfigException("retention.answers", "must be forever or a positive duration, got " + text);
        }
        return d.toMillis();
    }

    /** The {@code answers:} section, or {@code null} when the API is off. */
    static AnswersOptions answers(Map<?, ?> a) {
        int port = port(a, "answers.port", 0);
        if (port == 0) {
            if (a.size() > (a.containsKey("port") ? 1 : 0)) {
                throw new ConfigException("answers.port", "must be set (1-65535) for the other answers settings to"
                        + " apply");
            }
            return null;
        }
        String host;
        try {
            host = string(a, "host", HttpEndpoint.DEFAULT_HOST);
        } catch (ConfigException e) {
            throw new ConfigException("answers.host", "must not be empty");
        }
        int maxLimit = integer(a, "answers.maxLimit", AnswersOptions.DEFAULT_MAX_LIMIT);
        int defaultLimit = integer(a, "answers.defaultLimit", Math.min(AnswersOptions.DEFAULT_LIMIT, maxLimit));
        int maxBytes = integer(a, "answers.maxResponseBytes", AnswersOptions.DEFAULT_MAX_RESPONSE_BYTES);
        try {
            return AnswersOptions.onPort(port).withPaging(defaultLimit, maxLimit, maxBytes).withHost(host);
        } catch (IllegalArgumentException e) {
            String msg = String.valueOf(e.getMessage()); // "answers.<field> must ..."
            int space = msg.indexOf(' ');
            if (msg.startsWith("answers.") && space > 0) {
                throw new ConfigException(msg.substring(0, space), msg.substring(space + 1));
            }
            throw new ConfigException("answers", msg);
        }
    }

    private static Map<String, Object> withUrl(Map<String, String> props, String url) {
        Map<String, Object> all = new HashMap<>(props);
        all.put("schema.registry.url", url);
        return all;
    }

    /**
     * {@code rocksdb: {blockCache, writeBuffers, strictCapacity}}: sizes as {@code 256MiB} or bytes; defaults
     * {@link RocksDbMemory#DEFAULTS}.
     */
    static RocksDbMemory rocksDb(Map<?, ?> r) {
        check("rocksdb.", r, Set.of("blockCache", "writeBuffers", "strictCapacity"));
        long cache = size(r, "rocksdb.blockCache", RocksDbMemory.DEFAULTS.blockCacheBytes());
        long buffers = size(r, "rocksdb.writeBuffers", RocksDbMemory.DEFAULTS.writeBufferBytes());
        boolean strict = bool(r, "rocksdb.strictCapacity", RocksDbMemory.DEFAULTS.strictCapacity());
        try {
            return new RocksDbMemory(cache, buffers, strict);
        } catch (IllegalArgumentException e) { // the message starts with the field it names
            String field = e.getMessage().startsWith("rocksdb.writeBuffers") ? "rocksdb.writeBuffers"
                    : "rocksdb.blockCache";
            throw new ConfigException(field, e.getMessage().substring(field.length()).trim());
        }
    }

    private static long size(Map<?, ?> m, String path, long dflt) {
        Object v = m.get(path.substring(path.lastIndexOf('.') + 1));
        if (v == null) {
            return dflt;
        }
        try {
            return RocksDbMemory.parseSize(path, String.valueOf(v));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(path, e.getMessage().substring(path.length()).trim());
        }
    }

    static int port(Map<?, ?> m, String path, int dflt) {
        int port = integer(m, path, dflt);
        if (port < 0 || port > 65535) {
            throw new ConfigException(path, "must be in [0, 65535], got " + port);
        }
        return port;
    }

    /**
     * {@code devices: {enrollment: open | required, keys: {id: base64 key, ...}, honestReportsPerAnswer: N}}: with open
     * enrollment, {@code honestReportsPerAnswer} declares a lower bound on the honest reports in every local answer,
     * which the amplified guarantees then count as the crowd (without it, open identities publish none).
     */
    static DeviceAuthentication devices(Map<?, ?> d) {
        check("devices.", d, Set.of("enrollment", "keys", "honestReportsPerAnswer"));
        String mode = string(d, "enrollment", "open");
        Map<?, ?> keys = map(d, "keys");
        switch (mode) {
            case "open" -> {
                if (!keys.isEmpty()) {
                    throw new ConfigException("devices.keys", "enrollment keys are only used with enrollment: required");
                }
                long honest = integer(d, "devices.honestReportsPerAnswer", 0);
                if (honest < 0) {
                    throw new ConfigException("devices.honestReportsPerAnswer", "must be >= 0, got " + honest);
                }
                return honest == 0 ? DeviceAuthentication.OPEN : new DeviceAuthentication.Open(honest);
            }
            case "required" -> {
                if (d.containsKey("honestReportsPerAnswer")) {
                    throw new ConfigException("devices.honestReportsPerAnswer", "is for open enrollment: enrolled"
                            + " devices are the crowd of every answer");
                }
                Map<String, byte[]> decoded = new HashMap<>();
                for (Map.Entry<?, ?> e : keys.entrySet()) {
                    String field = "devices.keys." + e.getKey();
                    try {
                        decoded.put(String.valueOf(e.getKey()), Base64.getDecoder().decode(
                                String.valueOf(e.getValue()).trim()));
                    } catch (IllegalArgumentException ex) {
                        throw new ConfigException(field, "must be a base64 key");
                    }
                }
                return wrap("devices.keys", () -> new DeviceAuthentication.Enrolled(decoded));
            }
            default -> throw new ConfigException("devices.enrollment", "must be open or required, got \"" + mode + "\"");
        }
    }

    /** Replaces {@code ${NAME}} and {@code ${NAME:-default}} in every string of the tree. */
    static Object substitute(String path, Object v, Map<String, String> env) {
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k, substitute(path.isEmpty() ? String.valueOf(k) : path + "." + k, x, env)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                out.add(substitute(path + "[" + i + "]", l.get(i), env));
            }
            return out;
        }
        if (v instanceof String s && s.contains("${")) {
            Matcher mm = ENV.matcher(s);
            StringBuilder sb = new StringBuilder();
            while (mm.find()) {
                String value = env.get(mm.group(1));
                if (value == null) {
                    if (mm.group(2) == null) {
                        throw new ConfigException(path, "refers to the environment variable " + mm.group(1)
                                + ", which is not set");
                    }
                    value = mm.group(3);
                }
                mm.appendReplacement(sb, Matcher.quoteReplacement(value));
            }
            mm.appendTail(sb);
            return sb.toString();
        }
        return v;
    }

    static <T> T wrap(String field, Supplier<T> make) {
        try {
            return make.get();
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(field, e.getMessage());
        }
    }

    static void check(String prefix, Map<?, ?> m, Set<String> known) {
        for (Object k : m.keySet()) {
            if (!known.contains(String.valueOf(k))) {
                throw new ConfigException(prefix + k, "unknown setting (known: " + new TreeSet<>(known) + ")");
            }
        }
    }

    static Map<?, ?> map(Map<?, ?> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> mm)) {
            throw new ConfigException(key, "must be a map, got " + v);
        }
        return mm;
    }

    private static Map<String, String> strings(Map<?, ?> m) { // mutable: instanceId is added to the kafka map
        Map<String, String> out = new HashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        return out;
    }

    static String string(Map<?, ?> m, String key, String dflt) {
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

    static int integer(Map<?, ?> m, String path, int dflt) {
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

    /** {@code true} or {@code false} (a YAML boolean, or the string after substitution). */
    static boolean bool(Map<?, ?> m, String path, boolean dflt) {
        String key = path.substring(path.lastIndexOf('.') + 1);
        Object v = m.get(key);
        if (v == null) {
            return dflt;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = String.valueOf(v).trim();
        if (s.equals("true") || s.equals("false")) {
            return Boolean.parseBoolean(s);
        }
        throw new ConfigException(path, "must be true or false, got " + v);
    }

    static Duration duration(Map<?, ?> m, String path, String dflt) {
        String key = path.substring(path.lastIndexOf('.') + 1);
        Object v = m.get(key);
        String s = v == null ? dflt : String.valueOf(v).trim();
        return wrap(path, () -> Durations.parse(s));
    }
}

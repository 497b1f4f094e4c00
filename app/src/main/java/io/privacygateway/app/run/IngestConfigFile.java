package io.privacygateway.app.run;

import io.privacygateway.app.run.GatewayConfigFile.ConfigException;
import io.privacygateway.ingest.IngestSettings;
import io.privacygateway.topology.identity.DeviceAuthentication;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads {@code ingest.yaml} (the configuration of {@code privacy-gateway ingest}), with the rules of
 * {@link GatewayConfigFile}: unknown fields are errors, {@code ${NAME}} and {@code ${NAME:-default}} substitute
 * environment variables, and a bad value fails at start naming its field.
 *
 * <pre>
 * bootstrapServers: broker-1:9092                  # required: the gateway's cluster
 * schemaRegistryUrl: http://registry:8081          # required
 * topicPrefix: pgw.                                # default pgw.
 * kafka: {security.protocol: SASL_SSL, ...}        # passed to the producer, consumer and admin client
 * listen: {host: 0.0.0.0, port: 8443}              # default 127.0.0.1:8443
 * tls: {keystore: /etc/pgw/ingest.p12, password: ${PGW_TLS_PASSWORD}, type: PKCS12}
 *                                                  # required unless host is loopback or trustedProxies is set
 * trustedProxies: [10.0.0.2]                       # proxies whose X-Forwarded-For is believed
 * cors: {allowedOrigins: [https://app.example.com]} # pages (browsers) that may call the device endpoints; default none
 * devices: {enrollment: required, keys: {k1: ${PGW_ENROLLMENT_KEY}}, revocationFile: /etc/pgw/revoked.txt}
 * timing: {maxFutureSkew: 1m, maxEventAge: 1h}     # as the gateway's
 * limits: {maxBodyBytes: 1048576, maxReportsPerBatch: 500, requestTimeout: 10s, idleTimeout: 60s,
 *     maxConnections: 10000, maxInFlightReports: 50000, produceTimeout: 10s, perAddress: {perSecond: 50, burst: 100},
 *     perCredential: {perSecond: 20, burst: 500}, trackedClients: 100000, recentReports: 100000, eventLoops: 2}
 * metrics: {host: 0.0.0.0, port: 9465}             # /metrics, /health/live, /health/ready (plain HTTP); 0 = none
 * </pre>
 */
public final class IngestConfigFile {
    private static final Set<String> TOP = Set.of("bootstrapServers", "schemaRegistryUrl", "topicPrefix", "kafka",
            "listen", "tls", "trustedProxies", "devices", "timing", "limits", "metrics", "cors");

    private IngestConfigFile() {}

    /**
     * The parsed file.
     *
     * @param settings the service settings
     * @param metricsHost the operations listener's host
     * @param metricsPort its port (0 = none)
     */
    public record Loaded(IngestSettings settings, String metricsHost, int metricsPort) {}

    public static Loaded load(Path file) {
        return load(file, System.getenv());
    }

    /** Reads {@code file}, substituting {@code ${NAME}} from {@code env}. */
    public static Loaded load(Path file, Map<String, String> env) {
        return parse(GatewayConfigFile.readSettings(file), env);
    }

    public static Loaded parse(Map<?, ?> raw, Map<String, String> env) {
        Map<?, ?> m = (Map<?, ?>) GatewayConfigFile.substitute("", raw, env);
        for (Object k : m.keySet()) {
            if (!TOP.contains(String.valueOf(k))) {
                throw new ConfigException(String.valueOf(k), "unknown setting (known: " + new TreeSet<>(TOP) + ")");
            }
        }
        String bootstrap = GatewayConfigFile.string(m, "bootstrapServers", null);
        String registry = GatewayConfigFile.string(m, "schemaRegistryUrl", null);
        String prefix = GatewayConfigFile.string(m, "topicPrefix", "pgw.");
        Map<String, Object> kafka = new HashMap<>();
        GatewayConfigFile.map(m, "kafka").forEach((k, v) -> kafka.put(String.valueOf(k), String.valueOf(v)));
        Map<?, ?> listen = GatewayConfigFile.map(m, "listen");
        GatewayConfigFile.check("listen.", listen, Set.of("host", "port"));
        String host = GatewayConfigFile.string(listen, "host", "127.0.0.1");
        int port = GatewayConfigFile.port(listen, "listen.port", 8443);
        Map<?, ?> tlsMap = GatewayConfigFile.map(m, "tls");
        IngestSettings.Tls tls = null;
        if (!tlsMap.isEmpty()) {
            GatewayConfigFile.check("tls.", tlsMap, Set.of("keystore", "password", "type"));
            String ks = GatewayConfigFile.string(tlsMap, "keystore", null);
            String pw = GatewayConfigFile.string(tlsMap, "password", null);
            String type = GatewayConfigFile.string(tlsMap, "type", "PKCS12");
            tls = GatewayConfigFile.wrap("tls", () -> new IngestSettings.Tls(Path.of(ks), pw, type));
        }
        List<String> proxies = new ArrayList<>();
        Object tp = m.get("trustedProxies");
        if (tp instanceof List<?> l) {
            l.forEach(x -> proxies.add(String.valueOf(x).trim()));
        } else if (tp != null) {
            throw new ConfigException("trustedProxies", "must be a list of addresses, got " + tp);
        }
        Map<?, ?> devices = new HashMap<>(GatewayConfigFile.map(m, "devices"));
        Object revocation = devices.remove("revocationFile");
        if (!devices.containsKey("enrollment")) { // devices are not trusted: credentials unless declared open
            @SuppressWarnings("unchecked")
            Map<Object, Object> d = (Map<Object, Object>) devices;
            d.put("enrollment", "required");
        }
        DeviceAuthentication auth = GatewayConfigFile.devices(devices);
        Map<String, byte[]> keys = auth instanceof DeviceAuthentication.Enrolled e ? e.keys() : Map.of();
        Path revocationFile = revocation == null ? null : Path.of(String.valueOf(revocation).trim());
        if (revocationFile != null && !Files.isReadable(revocationFile)) {
            throw new ConfigException("devices.revocationFile", "cannot read " + revocationFile);
        }
        Map<?, ?> timing = GatewayConfigFile.map(m, "timing");
        GatewayConfigFile.check("timing.", timing, Set.of("maxFutureSkew", "maxEventAge"));
        IngestSettings.Limits limits = limits(GatewayConfigFile.map(m, "limits"));
        Map<?, ?> metrics = GatewayConfigFile.map(m, "metrics");
        GatewayConfigFile.check("metrics.", metrics, Set.of("host", "port"));
        String metricsHost = GatewayConfigFile.string(metrics, "host", "127.0.0.1");
        int metricsPort = GatewayConfigFile.port(metrics, "metrics.port", 9465);
        Map<?, ?> cors = GatewayConfigFile.map(m, "cors");
        GatewayConfigFile.check("cors.", cors, Set.of("allowedOrigins"));
        List<String> origins = new ArrayList<>();
        Object ao = cors.get("allowedOrigins");
        if (ao instanceof List<?> l) {
            l.forEach(x -> origins.add(String.valueOf(x).trim()));
        } else if (ao != null) {
            throw new ConfigException("cors.allowedOrigins", "must be a list of origins, got " + ao);
        }
        IngestSettings.Tls tlsFinal = tls;
        if (keys.isEmpty() && auth instanceof DeviceAuthentication.Enrolled) {
            throw new ConfigException("devices.keys", "at least one enrollment key is required");
        }
        IngestSettings s = GatewayConfigFile.wrap("(settings)", () -> new IngestSettings(bootstrap, registry, prefix,
                kafka, host, port, tlsFinal, proxies, keys, keys.isEmpty(), revocationFile, limits,
                GatewayConfigFile.duration(timing, "timing.maxFutureSkew", "1m"),
                GatewayConfigFile.duration(timing, "timing.maxEventAge", "1h"), origins));
        return new Loaded(s, metricsHost, metricsPort);
    }

    private static IngestSettings.Limits limits(Map<?, ?> l) {
        GatewayConfigFile.check("limits.", l, Set.of("maxBodyBytes", "maxReportsPerBatch", "requestTimeout",
                "idleTimeout", "maxConnections", "maxInFlightReports", "produceTimeout", "perAddress", "perCredential",
                "trackedClients", "recentReports", "eventLoops"));
        IngestSettings.Limits d = IngestSettings.Limits.defaults();
        return GatewayConfigFile.wrap("limits", () -> new IngestSettings.Limits(
                GatewayConfigFile.integer(l, "limits.maxBodyBytes", d.maxBodyBytes()),
                GatewayConfigFile.integer(l, "limits.maxReportsPerBatch", d.maxReportsPerBatch()),
                GatewayConfigFile.duration(l, "limits.requestTimeout", "10s"),
                GatewayConfigFile.duration(l, "limits.idleTimeout", "60s"),
                GatewayConfigFile.integer(l, "limits.maxConnections", d.maxConnections()),
                GatewayConfigFile.integer(l, "limits.maxInFlightReports", d.maxInFlightReports()),
                GatewayConfigFile.duration(l, "limits.produceTimeout", "10s"),
                rate(l, "perAddress", d.perAddress()), rate(l, "perCredential", d.perCredential()),
                GatewayConfigFile.integer(l, "limits.trackedClients", d.trackedClients()),
                GatewayConfigFile.integer(l, "limits.recentReports", d.recentReports()),
                GatewayConfigFile.integer(l, "limits.eventLoops", d.eventLoops())));
    }

    private static IngestSettings.Rate rate(Map<?, ?> l, String key, IngestSettings.Rate dflt) {
        Map<?, ?> r = GatewayConfigFile.map(l, key);
        if (r.isEmpty()) {
            return dflt;
        }
        String path = "limits." + key;
        GatewayConfigFile.check(path + ".", r, Set.of("perSecond", "burst"));
        return GatewayConfigFile.wrap(path, () -> new IngestSettings.Rate(number(r, path + ".perSecond",
                dflt.perSecond()), number(r, path + ".burst", dflt.burst())));
    }

    private static double number(Map<?, ?> m, String path, double dflt) {
        Object v = m.get(path.substring(path.lastIndexOf('.') + 1));
        if (v == null) {
            return dflt;
        }
        try {
            return Double.parseDouble(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(path, "must be a number, got " + v);
        }
    }
}

package io.privacygateway.ingest;

import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.schemas.identity.DeviceCredential;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything an {@link IngestService} needs, validated: a bad value fails at construction naming its field (the same
 * names as in the configuration file, {@link IngestConfigFile}).
 *
 * @param bootstrapServers the Kafka cluster of the gateway
 * @param schemaRegistryUrl the registry the gateway uses (Confluent API)
 * @param topicPrefix the gateway's topic prefix ({@code pgw.})
 * @param kafka further Kafka client settings (TLS, SASL) passed through to the producer, consumer and admin client
 * @param host the address to bind
 * @param port the port ({@code 0}: any free port)
 * @param tls the keystore for TLS, or {@code null} for plain HTTP (allowed only on a loopback {@code host} or with
 *     declared {@code trustedProxies}: TLS then ends at the proxy)
 * @param trustedProxies addresses of the reverse proxies whose {@code X-Forwarded-For} is believed (the source
 *     address of a request is then the rightmost address of that header not itself a trusted proxy)
 * @param enrollmentKeys the enrollment keys (key id → key, at least 32 bytes), as in the gateway's
 *     {@code devices.keys}; empty for open identities ({@code openIdentities} must then be set)
 * @param openIdentities accept reports without a credential (tests and demos only: the gateway must then run with
 *     {@code enrollment: open})
 * @param revocationFile a file of revoked device ids and key ids (one a line, {@code key:<id>} for a key id,
 *     {@code #} comments), re-read when it changes; or {@code null}
 * @param limits request and resource bounds
 * @param maxFutureSkew how far a report's event time may lie after the server's clock (the gateway's
 *     {@code timing.maxFutureSkew})
 * @param maxEventAge how far before it (the gateway's {@code timing.maxEventAge})
 * @param corsOrigins the browser origins allowed to call the device endpoints from a page ({@code cors.allowedOrigins}:
 *     exact origins such as {@code https://app.example.com}, or {@code *} for any); empty: no cross-origin call
 */
public record IngestSettings(String bootstrapServers, String schemaRegistryUrl, String topicPrefix,
        Map<String, Object> kafka, String host, int port, Tls tls, List<String> trustedProxies,
        Map<String, byte[]> enrollmentKeys, boolean openIdentities, Path revocationFile, Limits limits,
        Duration maxFutureSkew, Duration maxEventAge, List<String> corsOrigins) {

    /** Settings without cross-origin access. */
    public IngestSettings(String bootstrapServers, String schemaRegistryUrl, String topicPrefix,
            Map<String, Object> kafka, String host, int port, Tls tls, List<String> trustedProxies,
            Map<String, byte[]> enrollmentKeys, boolean openIdentities, Path revocationFile, Limits limits,
            Duration maxFutureSkew, Duration maxEventAge) {
        this(bootstrapServers, schemaRegistryUrl, topicPrefix, kafka, host, port, tls, trustedProxies, enrollmentKeys,
                openIdentities, revocationFile, limits, maxFutureSkew, maxEventAge, List.of());
    }

    /**
     * A keystore (PKCS12 or JKS) holding the server's key and certificate chain.
     *
     * @param path the keystore file
     * @param password its password
     * @param type {@code PKCS12} or {@code JKS}
     */
    public record Tls(Path path, String password, String type) {
        public Tls {
            Objects.requireNonNull(path, "tls.keystore");
            Objects.requireNonNull(password, "tls.password");
            if (!Files.isReadable(path)) {
                throw new IllegalArgumentException("tls.keystore: cannot read " + path);
            }
            if (!"PKCS12".equalsIgnoreCase(type) && !"JKS".equalsIgnoreCase(type)) {
                throw new IllegalArgumentException("tls.type: must be PKCS12 or JKS, got " + type);
            }
        }
    }

    /**
     * The bounds a client is held to and the service's own capacity.
     *
     * @param maxBodyBytes the largest request body, compressed or not (at most the envelope's 1 MiB)
     * @param maxReportsPerBatch the most reports one batch may carry (at most the envelope's 500)
     * @param requestTimeout a whole request (head and body) must arrive within this time, else the connection is
     *     closed (slow clients)
     * @param idleTimeout a connection on which nothing moves for this long is closed
     * @param maxConnections connections open at once (one more is closed at once)
     * @param maxInFlightReports reports handed to Kafka and not yet acknowledged, across all requests; a batch that
     *     would exceed it is answered 503 with {@code Retry-After} (no buffering beyond it)
     * @param produceTimeout how long a request waits for Kafka's acknowledgements; a report not acknowledged by then
     *     is answered {@code RETRY} (its resend is a {@code DUPLICATE} if the first copy landed after all)
     * @param perAddress requests per second and burst per source address
     * @param perCredential reports per second and burst per credential
     * @param trackedClients how many addresses and credentials the rate limiter remembers (least recently seen
     *     forgotten first); bounds its memory
     * @param recentReports how many accepted report coordinates the edge remembers to answer a resend
     *     {@code DUPLICATE} itself (0: none; the gateway's ledger refuses the copy either way)
     * @param eventLoops Vert.x event-loop threads
     */
    public record Limits(int maxBodyBytes, int maxReportsPerBatch, Duration requestTimeout, Duration idleTimeout,
            int maxConnections, int maxInFlightReports, Duration produceTimeout, Rate perAddress, Rate perCredential,
            int trackedClients, int recentReports, int eventLoops) {
        public Limits {
            within("limits.maxBodyBytes", maxBodyBytes, 1024, ReportEnvelope.MAX_BODY_BYTES);
            within("limits.maxReportsPerBatch", maxReportsPerBatch, 1, ReportEnvelope.MAX_REPORTS);
            within("limits.requestTimeout", requestTimeout, Duration.ofMillis(50), Duration.ofMinutes(5));
            within("limits.idleTimeout", idleTimeout, Duration.ofMillis(50), Duration.ofHours(1));
            within("limits.maxConnections", maxConnections, 1, 1 << 20);
            within("limits.maxInFlightReports", maxInFlightReports, 1, 1 << 24);
            within("limits.produceTimeout", produceTimeout, Duration.ofMillis(100), Duration.ofMinutes(5));
            Objects.requireNonNull(perAddress, "limits.perAddress");
            Objects.requireNonNull(perCredential, "limits.perCredential");
            within("limits.trackedClients", trackedClients, 16, 1 << 24);
            within("limits.recentReports", recentReports, 0, 1 << 24);
            within("limits.eventLoops", eventLoops, 1, 64);
        }

        /**
         * 1 MiB bodies, 500 reports a batch, 10 s per request, 60 s idle, 10,000 connections, 50,000 reports in
         * flight, 10 s for Kafka's acknowledgements, 50 requests/s (burst 100) per address, 20 reports/s (burst 500)
         * per credential, 100,000 tracked clients, 100,000 recent reports, 2 event loops.
         */
        public static Limits defaults() {
            return new Limits(ReportEnvelope.MAX_BODY_BYTES,
                    ReportEnvelope.MAX_REPORTS, Duration.ofSeconds(10), Duration.ofSeconds(60),
                    10_000, 50_000, Duration.ofSeconds(10), new Rate(50, 100), new Rate(20, 500), 100_000, 100_000, 2);
        }

        public Limits withProduceTimeout(Duration d) {
            return new Limits(maxBodyBytes, maxReportsPerBatch, requestTimeout, idleTimeout, maxConnections,
                    maxInFlightReports, d, perAddress, perCredential, trackedClients, recentReports, eventLoops);
        }

        public Limits withRequestTimeout(Duration d) {
            return new Limits(maxBodyBytes, maxReportsPerBatch, d, idleTimeout, maxConnections, maxInFlightReports,
                    produceTimeout, perAddress, perCredential, trackedClients, recentReports, eventLoops);
        }

        public Limits withRates(Rate address, Rate credential) {
            return new Limits(maxBodyBytes, maxReportsPerBatch, requestTimeout, idleTimeout, maxConnections,
                    maxInFlightReports, produceTimeout, address, credential, trackedClients, recentReports, eventLoops);
        }

        public Limits withRecentReports(int n) {
            return new Limits(maxBodyBytes, maxReportsPerBatch, requestTimeout, idleTimeout, maxConnections,
                    maxInFlightReports, produceTimeout, perAddress, perCredential, trackedClients, n, eventLoops);
        }

        public Limits withMaxInFlightReports(int n) {
            return new Limits(maxBodyBytes, maxReportsPerBatch, requestTimeout, idleTimeout, maxConnections, n,
                    produceTimeout, perAddress, perCredential, trackedClients, recentReports, eventLoops);
        }
    }

    /**
     * A token bucket's refill rate and capacity.
     *
     * @param perSecond tokens added per second, in (0, 10^9]
     * @param burst the bucket's capacity, in [1, 10^9]
     */
    public record Rate(double perSecond, double burst) {
        public Rate {
            if (!(perSecond > 0 && perSecond <= 1e9)) {
                throw new IllegalArgumentException("perSecond must lie in (0, 1e9], got " + perSecond);
            }
            if (!(burst >= 1 && burst <= 1e9)) {
                throw new IllegalArgumentException("burst must lie in [1, 1e9], got " + burst);
            }
        }
    }

    public IngestSettings {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers: required");
        }
        if (schemaRegistryUrl == null || schemaRegistryUrl.isBlank()) {
            throw new IllegalArgumentException("schemaRegistryUrl: required");
        }
        topicPrefix = topicPrefix == null ? "pgw." : topicPrefix;
        kafka = kafka == null ? Map.of() : Map.copyOf(kafka);
        Objects.requireNonNull(host, "host");
        within("port", port, 0, 65_535);
        trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
        for (String p : trustedProxies) {
            try {
                InetAddress.getByName(p);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("trustedProxies: " + p + " does not resolve");
            }
        }
        enrollmentKeys = enrollmentKeys == null ? Map.of() : Map.copyOf(enrollmentKeys);
        enrollmentKeys.forEach((id, k) -> {
            try {
                DeviceCredential.checkKey(id, k);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("devices.keys." + id + ": " + e.getMessage());
            }
        });
        if (enrollmentKeys.isEmpty() && !openIdentities) {
            throw new IllegalArgumentException("devices.keys: at least one enrollment key is required (or"
                    + " devices.enrollment: open, for tests and demos only)");
        }
        if (!enrollmentKeys.isEmpty() && openIdentities) {
            throw new IllegalArgumentException("devices.keys: enrollment keys are only used with enrollment: required");
        }
        Objects.requireNonNull(limits, "limits");
        within("timing.maxFutureSkew", maxFutureSkew, Duration.ofMillis(1), Duration.ofDays(7));
        within("timing.maxEventAge", maxEventAge, Duration.ofMillis(1), Duration.ofDays(365));
        corsOrigins = corsOrigins == null ? List.of() : List.copyOf(corsOrigins);
        for (String o : corsOrigins) {
            if (!o.equals("*") && !o.matches("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?")) {
                throw new IllegalArgumentException("cors.allowedOrigins: " + o + " is not an origin (scheme://host[:port],"
                        + " no path) nor *");
            }
        }
        if (tls == null && !isLoopback(host) && trustedProxies.isEmpty()) {
            throw new IllegalArgumentException("tls: plain HTTP is served only on a loopback host or behind a declared"
                    + " proxy (trustedProxies); host " + host + " needs tls.keystore");
        }
    }

    /** Settings with the defaults: topic prefix {@code pgw.}, loopback, any port, open identities off. */
    public static IngestSettings loopback(String bootstrapServers, String registryUrl, Map<String, byte[]> keys) {
        return new IngestSettings(bootstrapServers, registryUrl, "pgw.", Map.of(), "127.0.0.1", 0, null, List.of(),
                keys, keys.isEmpty(), null, Limits.defaults(), Duration.ofMinutes(1), Duration.ofHours(1));
    }

    /** The same settings allowing calls from pages of these browser origins. */
    public IngestSettings withCorsOrigins(List<String> origins) {
        return new IngestSettings(bootstrapServers, schemaRegistryUrl, topicPrefix, kafka, host, port, tls,
                trustedProxies, enrollmentKeys, openIdentities, revocationFile, limits, maxFutureSkew, maxEventAge,
                origins);
    }

    public IngestSettings withLimits(Limits l) {
        return new IngestSettings(bootstrapServers, schemaRegistryUrl, topicPrefix, kafka, host, port, tls,
                trustedProxies, enrollmentKeys, openIdentities, revocationFile, l, maxFutureSkew, maxEventAge,
                corsOrigins);
    }

    public IngestSettings withRevocationFile(Path file) {
        return new IngestSettings(bootstrapServers, schemaRegistryUrl, topicPrefix, kafka, host, port, tls,
                trustedProxies, enrollmentKeys, openIdentities, file, limits, maxFutureSkew, maxEventAge,
                corsOrigins);
    }

    public IngestSettings withTopicPrefix(String prefix) {
        return new IngestSettings(bootstrapServers, schemaRegistryUrl, prefix, kafka, host, port, tls,
                trustedProxies, enrollmentKeys, openIdentities, revocationFile, limits, maxFutureSkew, maxEventAge,
                corsOrigins);
    }

    /** Whether {@code host} resolves to a loopback address. */
    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static void within(String field, long v, long lo, long hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(field + ": must lie in [" + lo + ", " + hi + "], got " + v);
        }
    }

    private static void within(String field, Duration d, Duration lo, Duration hi) {
        Objects.requireNonNull(d, field);
        if (d.compareTo(lo) < 0 || d.compareTo(hi) > 0) {
            throw new IllegalArgumentException(field + ": must lie in [" + lo + ", " + hi + "], got " + d);
        }
    }
}

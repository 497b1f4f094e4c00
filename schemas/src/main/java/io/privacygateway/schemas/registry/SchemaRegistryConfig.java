package io.privacygateway.schemas.registry;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;

/**
 * How to reach a Confluent-compatible Schema Registry, and how hard the client may ask it about
 * schema ids it does not know. Built from a map of settings with {@link #fromMap} (every key must
 * be one of the keys below) or {@link #fromClientConfigs} (a Kafka client's config map), or in code.
 *
 * <table>
 * <caption>Config keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@value #URL}</td><td>(required)</td><td>base URL(s), comma-separated, e.g.
 *     {@code https://host:8081} or Apicurio's {@code http://host:8080/apis/ccompat/v7}; tried in order
 *     when one does not answer. {@code https} uses TLS with the JDK's default {@link SSLContext}
 *     ({@code javax.net.ssl.trustStore}, {@code javax.net.ssl.keyStore}... system properties) or
 *     {@link #withSslContext}.</td></tr>
 * <tr><td>{@value #BASIC_AUTH_CREDENTIALS_SOURCE}</td><td>{@code USER_INFO} if
 *     {@value #BASIC_AUTH_USER_INFO} is set, else {@code URL}</td><td>{@code USER_INFO}: use
 *     {@value #BASIC_AUTH_USER_INFO}; {@code URL}: use the {@code user:password@} part of the URL (if
 *     any)</td></tr>
 * <tr><td>{@value #BASIC_AUTH_USER_INFO} (alias {@value #BASIC_AUTH_USER_INFO_ALIAS})</td><td>none</td>
 *     <td>{@code user:password} for HTTP basic authentication</td></tr>
 * <tr><td>{@value #ALLOW_INSECURE_HTTP_CREDENTIALS}</td><td>false</td><td>credentials with an
 *     {@code http://} URL are refused (they would cross the network in clear text) unless this is
 *     {@code true}</td></tr>
 * <tr><td>{@value #CONNECT_TIMEOUT_MS}</td><td>10000</td><td>TCP/TLS connect timeout</td></tr>
 * <tr><td>{@value #REQUEST_TIMEOUT_MS}</td><td>30000</td><td>whole-request timeout, answer body
 *     included</td></tr>
 * <tr><td>{@value #LOOKUP_INTERVAL_MS}</td><td>5000</td><td>the pace of requests made because a
 *     record carries a schema id the client does not know: listings of a subject's versions and
 *     lookups by id are counted per interval; after such a request fails, these requests pause for
 *     one interval</td></tr>
 * <tr><td>{@value #MAX_ID_LOOKUPS_PER_INTERVAL}</td><td>10</td><td>lookups of unknown ids by id
 *     ({@code GET /schemas/ids/{id}}) per interval, and listings of one subject for unknown ids per
 *     interval (bursts of this many, refilled evenly); more are not sent</td></tr>
 * <tr><td>{@value #MISSING_ID_CACHE_TTL_MS}</td><td>30000</td><td>how long an id the registry
 *     answered 40403 for is remembered as unknown by the lookup by id; 0 disables</td></tr>
 * <tr><td>{@value #MISSING_ID_CACHE_SIZE}</td><td>10000</td><td>how many such ids are remembered
 *     (least recently used first out)</td></tr>
 * </table>
 *
 * <p><b>Validation.</b> Values are checked and errors name the key. {@link #fromMap} refuses any
 * key that is not in the table; {@link #fromClientConfigs} refuses unknown keys that start with
 * {@code schema.registry.}, {@code basic.auth.} or {@code bearer.auth.} (a misspelt
 * {@code basic.auth.user.info} must not silently mean "no authentication") and leaves other keys,
 * which belong to Kafka and the serdes, alone. TLS keystores, bearer tokens and proxies are not
 * implemented; their keys are refused with a message that says so.
 *
 * @param urls base URLs without a trailing slash and without user info
 * @param basicAuthUserInfo {@code user:password}, or null for no authentication
 * @param allowInsecureHttpCredentials whether credentials may be sent to {@code http://} URLs
 * @param connectTimeout connect timeout
 * @param requestTimeout request timeout (until the whole answer is read)
 * @param lookupInterval the pace of requests for unknown ids (see the table)
 * @param maxIdLookupsPerInterval lookups by id of uncached ids per interval
 * @param missingIdCacheTtl how long ids answered 40403 are remembered
 * @param missingIdCacheSize how many such ids are remembered
 * @param sslContext the TLS context for https URLs, or null for the JDK default
 */
public record SchemaRegistryConfig(List<URI> urls, String basicAuthUserInfo, boolean allowInsecureHttpCredentials,
        Duration connectTimeout, Duration requestTimeout, Duration lookupInterval, int maxIdLookupsPerInterval,
        Duration missingIdCacheTtl, int missingIdCacheSize, SSLContext sslContext) {

    public static final String URL = "schema.registry.url";
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String BASIC_AUTH_USER_INFO_ALIAS = "schema.registry.basic.auth.user.info";
    public static final String ALLOW_INSECURE_HTTP_CREDENTIALS = "schema.registry.allow.insecure.http.credentials";
    public static final String CONNECT_TIMEOUT_MS = "schema.registry.connect.timeout.ms";
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    public static final String LOOKUP_INTERVAL_MS = "schema.registry.lookup.interval.ms";
    public static final String MAX_ID_LOOKUPS_PER_INTERVAL = "schema.registry.max.id.lookups.per.interval";
    public static final String MISSING_ID_CACHE_TTL_MS = "schema.registry.missing.id.cache.ttl.ms";
    public static final String MISSING_ID_CACHE_SIZE = "schema.registry.missing.id.cache.size";

    /** Every key this class reads. */
    public static final Set<String> SUPPORTED_KEYS = Set.of(URL, BASIC_AUTH_CREDENTIALS_SOURCE, BASIC_AUTH_USER_INFO,
            BASIC_AUTH_USER_INFO_ALIAS, ALLOW_INSECURE_HTTP_CREDENTIALS, CONNECT_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
            LOOKUP_INTERVAL_MS, MAX_ID_LOOKUPS_PER_INTERVAL, MISSING_ID_CACHE_TTL_MS, MISSING_ID_CACHE_SIZE);

    /** Key prefixes of registry settings in a Kafka client's config map ({@link #fromClientConfigs}). */
    public static final List<String> REGISTRY_PREFIXES = List.of("schema.registry.", "basic.auth.", "bearer.auth.");

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_LOOKUP_INTERVAL = Duration.ofSeconds(5);
    public static final int DEFAULT_MAX_ID_LOOKUPS_PER_INTERVAL = 10;
    public static final Duration DEFAULT_MISSING_ID_CACHE_TTL = Duration.ofSeconds(30);
    public static final int DEFAULT_MISSING_ID_CACHE_SIZE = 10_000;

    public SchemaRegistryConfig {
        urls = List.copyOf(urls);
        if (urls.isEmpty()) {
            throw new IllegalArgumentException(URL + " must name at least one URL");
        }
        for (URI u : urls) {
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null) {
                throw new IllegalArgumentException(URL + " must be http(s)://host[:port][/path], got " + u);
            }
            if (u.getRawUserInfo() != null) {
                throw new IllegalArgumentException("URL user info must be moved to basicAuthUserInfo: " + u);
            }
        }
        if (basicAuthUserInfo != null) {
            if (!basicAuthUserInfo.contains(":")) {
                throw new IllegalArgumentException(BASIC_AUTH_USER_INFO + " must be user:password");
            }
            if (!allowInsecureHttpCredentials) {
                for (URI u : urls) {
                    if (u.getScheme().equalsIgnoreCase("http")) {
                        throw new IllegalArgumentException("basic-auth credentials would be sent in clear text to "
                                + u + ": use an https URL, or set " + ALLOW_INSECURE_HTTP_CREDENTIALS
                                + "=true if that is really intended (a test registry on loopback, say)");
                    }
                }
            }
        }
        positive(connectTimeout, CONNECT_TIMEOUT_MS);
        positive(requestTimeout, REQUEST_TIMEOUT_MS);
        positive(lookupInterval, LOOKUP_INTERVAL_MS);
        Objects.requireNonNull(missingIdCacheTtl, MISSING_ID_CACHE_TTL_MS);
        if (missingIdCacheTtl.isNegative()) {
            throw new IllegalArgumentException(MISSING_ID_CACHE_TTL_MS + " must be >= 0, got " + missingIdCacheTtl);
        }
        if (maxIdLookupsPerInterval < 1) {
            throw new IllegalArgumentException(MAX_ID_LOOKUPS_PER_INTERVAL + " must be >= 1, got "
                    + maxIdLookupsPerInterval);
        }
        if (missingIdCacheSize < 1) {
            throw new IllegalArgumentException(MISSING_ID_CACHE_SIZE + " must be >= 1, got " + missingIdCacheSize);
        }
    }

    private static void positive(Duration d, String key) {
        Objects.requireNonNull(d, key);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be > 0, got " + d);
        }
    }

    /** One URL (user info allowed, if https), default settings, no authentication unless in the URL. */
    public static SchemaRegistryConfig of(String url) {
        return fromMap(Map.of(URL, url));
    }

    /** Same settings with another request timeout. */
    public SchemaRegistryConfig withRequestTimeout(Duration timeout) {
        return new SchemaRegistryConfig(urls, basicAuthUserInfo, allowInsecureHttpCredentials, connectTimeout, timeout,
                lookupInterval, maxIdLookupsPerInterval, missingIdCacheTtl, missingIdCacheSize, sslContext);
    }

    /**
     * Same settings with basic authentication.
     *
     * @throws IllegalArgumentException with an {@code http://} URL unless
     *     {@link #withInsecureHttpCredentialsAllowed} was set first
     */
    public SchemaRegistryConfig withBasicAuth(String userInfo) {
        return new SchemaRegistryConfig(urls, userInfo, allowInsecureHttpCredentials, connectTimeout, requestTimeout,
                lookupInterval, maxIdLookupsPerInterval, missingIdCacheTtl, missingIdCacheSize, sslContext);
    }

    /** Same settings, allowing (or not) credentials with {@code http://} URLs. */
    public SchemaRegistryConfig withInsecureHttpCredentialsAllowed(boolean allowed) {
        return new SchemaRegistryConfig(urls, basicAuthUserInfo, allowed, connectTimeout, requestTimeout,
                lookupInterval, maxIdLookupsPerInterval, missingIdCacheTtl, missingIdCacheSize, sslContext);
    }

    /** Same settings with another lookup interval and number of lookups by id per interval. */
    public SchemaRegistryConfig withLookupLimits(Duration interval, int maxIdLookups) {
        return new SchemaRegistryConfig(urls, basicAuthUserInfo, allowInsecureHttpCredentials, connectTimeout,
                requestTimeout, interval, maxIdLookups, missingIdCacheTtl, missingIdCacheSize, sslContext);
    }

    /** Same settings with another cache of ids the registry answered 40403 for. */
    public SchemaRegistryConfig withMissingIdCache(Duration ttl, int size) {
        return new SchemaRegistryConfig(urls, basicAuthUserInfo, allowInsecureHttpCredentials, connectTimeout,
                requestTimeout, lookupInterval, maxIdLookupsPerInterval, ttl, size, sslContext);
    }

    /** Same settings with an explicit TLS context. */
    public SchemaRegistryConfig withSslContext(SSLContext context) {
        return new SchemaRegistryConfig(urls, basicAuthUserInfo, allowInsecureHttpCredentials, connectTimeout,
                requestTimeout, lookupInterval, maxIdLookupsPerInterval, missingIdCacheTtl, missingIdCacheSize,
                context);
    }

    /**
     * Reads a map of registry settings (values may be strings, numbers or booleans), such as the
     * {@code registry:} section of a configuration file plus the URL. Every key must be one of
     * {@link #SUPPORTED_KEYS}.
     *
     * @throws IllegalArgumentException on a missing URL, an unknown key, a bad value, or credentials
     *     with an {@code http://} URL; the message names the key
     */
    public static SchemaRegistryConfig fromMap(Map<String, ?> configs) {
        for (String key : configs.keySet()) {
            if (!SUPPORTED_KEYS.contains(key)) {
                throw unsupported(key);
            }
        }
        return read(configs);
    }

    /**
     * Reads the registry settings out of a Kafka client's config map (what a serializer's or
     * deserializer's {@code configure} receives). Keys starting with {@code schema.registry.},
     * {@code basic.auth.} or {@code bearer.auth.} must be {@link #SUPPORTED_KEYS}; other keys
     * (including Kafka's own {@code ssl.*} and {@code sasl.*}) are left to Kafka.
     *
     * @throws IllegalArgumentException as {@link #fromMap}
     */
    public static SchemaRegistryConfig fromClientConfigs(Map<String, ?> configs) {
        for (String key : configs.keySet()) {
            if (!SUPPORTED_KEYS.contains(key) && REGISTRY_PREFIXES.stream().anyMatch(key::startsWith)) {
                throw unsupported(key);
            }
        }
        return read(configs);
    }

    private static IllegalArgumentException unsupported(String key) {
        String why;
        if (key.startsWith("ssl.") || key.startsWith("schema.registry.ssl.")) {
            why = "TLS settings are not read from the registry configuration: https uses the JVM's default"
                    + " SSLContext (system properties javax.net.ssl.trustStore, javax.net.ssl.trustStorePassword,"
                    + " javax.net.ssl.keyStore, ...) or SchemaRegistryConfig.withSslContext in code";
        } else if (key.startsWith("bearer.auth.") || key.startsWith("schema.registry.bearer.auth.")) {
            why = "bearer-token authentication is not supported by this client (basic authentication is)";
        } else if (key.startsWith("schema.registry.proxy.") || key.startsWith("proxy.")) {
            why = "HTTP proxies are not supported by this client";
        } else {
            why = "unknown registry setting";
        }
        return new IllegalArgumentException(key + ": " + why + "; supported keys: " + new TreeSet<>(SUPPORTED_KEYS));
    }

    private static SchemaRegistryConfig read(Map<String, ?> configs) {
        Object rawUrls = configs.get(URL);
        if (rawUrls == null || String.valueOf(rawUrls).isBlank()) {
            throw new IllegalArgumentException(URL + " is required");
        }
        List<URI> urls = new ArrayList<>();
        String urlUserInfo = null;
        for (String part : String.valueOf(rawUrls).split(",")) {
            String s = part.trim();
            if (s.isEmpty()) {
                continue;
            }
            URI u;
            try {
                u = new URI(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(URL + " is not a URL: " + withoutUserInfo(s), null);
            }
            if (u.getRawUserInfo() != null) {
                String info = URLDecoder.decode(u.getRawUserInfo(), StandardCharsets.UTF_8);
                if (urlUserInfo != null && !urlUserInfo.equals(info)) {
                    throw new IllegalArgumentException(URL + ": the URLs carry different user info");
                }
                urlUserInfo = info;
                try {
                    u = new URI(u.getScheme(), null, u.getHost(), u.getPort(), u.getPath(), u.getQuery(), null);
                } catch (URISyntaxException e) {
                    throw new IllegalArgumentException(URL + " is not a URL: " + withoutUserInfo(s), null);
                }
            }
            urls.add(u);
        }
        String userInfo = text(configs, BASIC_AUTH_USER_INFO);
        String alias = text(configs, BASIC_AUTH_USER_INFO_ALIAS);
        if (userInfo != null && alias != null && !userInfo.equals(alias)) {
            throw new IllegalArgumentException(BASIC_AUTH_USER_INFO + " and " + BASIC_AUTH_USER_INFO_ALIAS
                    + " are both set, to different values");
        }
        if (userInfo == null) {
            userInfo = alias;
        }
        Object rawSource = configs.get(BASIC_AUTH_CREDENTIALS_SOURCE);
        String source = rawSource == null ? (userInfo != null ? "USER_INFO" : "URL")
                : String.valueOf(rawSource).trim().toUpperCase(Locale.ROOT);
        String auth = switch (source) {
            case "USER_INFO" -> {
                if (userInfo == null) {
                    throw new IllegalArgumentException(BASIC_AUTH_CREDENTIALS_SOURCE + "=USER_INFO needs "
                            + BASIC_AUTH_USER_INFO);
                }
                if (urlUserInfo != null) {
                    throw new IllegalArgumentException(URL + " carries user info but " + BASIC_AUTH_CREDENTIALS_SOURCE
                            + " is USER_INFO: say which credentials to use");
                }
                yield userInfo;
            }
            case "URL" -> {
                if (userInfo != null) {
                    throw new IllegalArgumentException(BASIC_AUTH_USER_INFO + " is set but "
                            + BASIC_AUTH_CREDENTIALS_SOURCE + " is URL, which ignores it");
                }
                yield urlUserInfo;
            }
            default -> throw new IllegalArgumentException(BASIC_AUTH_CREDENTIALS_SOURCE
                    + " must be USER_INFO or URL, got " + rawSource);
        };
        return new SchemaRegistryConfig(urls, auth,
                bool(configs, ALLOW_INSECURE_HTTP_CREDENTIALS, false),
                millis(configs, CONNECT_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT),
                millis(configs, REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT),
                millis(configs, LOOKUP_INTERVAL_MS, DEFAULT_LOOKUP_INTERVAL),
                (int) integer(configs, MAX_ID_LOOKUPS_PER_INTERVAL, DEFAULT_MAX_ID_LOOKUPS_PER_INTERVAL, Integer.MAX_VALUE),
                millis(configs, MISSING_ID_CACHE_TTL_MS, DEFAULT_MISSING_ID_CACHE_TTL),
                (int) integer(configs, MISSING_ID_CACHE_SIZE, DEFAULT_MISSING_ID_CACHE_SIZE, Integer.MAX_VALUE),
                null);
    }

    /** The URL text without a {@code user:password@} part, for messages. */
    private static String withoutUserInfo(String url) {
        return url.replaceFirst("//[^/@]*@", "//***@");
    }

    private static String text(Map<String, ?> configs, String key) {
        Object v = configs.get(key);
        return v == null || String.valueOf(v).isEmpty() ? null : String.valueOf(v);
    }

    private static boolean bool(Map<String, ?> configs, String key, boolean fallback) {
        Object v = configs.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        return switch (String.valueOf(v).trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, got " + v);
        };
    }

    private static long integer(Map<String, ?> configs, String key, long fallback, long max) {
        Object v = configs.get(key);
        if (v == null) {
            return fallback;
        }
        long n;
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            n = ((Number) v).longValue();
        } else {
            try {
                n = Long.parseLong(String.valueOf(v).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a whole number, got " + v, e);
            }
        }
        if (n < 0 || n > max) {
            throw new IllegalArgumentException(key + " must be between 0 and " + max + ", got " + v);
        }
        return n;
    }

    private static Duration millis(Map<String, ?> configs, String key, Duration fallback) {
        Object v = configs.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return Duration.ofMillis(integer(configs, key, 0, Long.MAX_VALUE));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be a number of milliseconds >= 0, got " + v, e);
        }
    }

    @Override
    public String toString() {
        // Never print the password.
        return "SchemaRegistryConfig[urls=" + urls + ", basicAuth=" + (basicAuthUserInfo == null ? "none"
                : basicAuthUserInfo.substring(0, basicAuthUserInfo.indexOf(':')) + ":***")
                + (allowInsecureHttpCredentials ? " (allowed over http)" : "")
                + ", connectTimeout=" + connectTimeout + ", requestTimeout=" + requestTimeout
                + ", lookupInterval=" + lookupInterval + ", maxIdLookupsPerInterval=" + maxIdLookupsPerInterval
                + ", missingIdCache=" + missingIdCacheSize + " ids for " + missingIdCacheTtl + "]";
    }
}

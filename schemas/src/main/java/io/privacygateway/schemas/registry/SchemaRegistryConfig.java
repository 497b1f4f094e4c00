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
import javax.net.ssl.SSLContext;

/**
 * How to reach a Confluent-compatible Schema Registry. Built from the usual Kafka client config map
 * with {@link #fromMap}, or in code.
 *
 * <table>
 * <caption>Config keys</caption>
 * <tr><th>key</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@value #URL}</td><td>(required)</td><td>base URL(s), comma-separated, e.g.
 *     {@code http://host:8081} or Apicurio's {@code http://host:8080/apis/ccompat/v7}; tried in order
 *     when one does not answer. {@code https} uses TLS with the JDK's default {@link SSLContext}
 *     ({@code javax.net.ssl.trustStore}, {@code javax.net.ssl.keyStore}... system properties).</td></tr>
 * <tr><td>{@value #BASIC_AUTH_CREDENTIALS_SOURCE}</td><td>{@code USER_INFO} if
 *     {@value #BASIC_AUTH_USER_INFO} is set, else {@code URL}</td><td>{@code USER_INFO}: use
 *     {@value #BASIC_AUTH_USER_INFO}; {@code URL}: use the {@code user:password@} part of the URL (if
 *     any)</td></tr>
 * <tr><td>{@value #BASIC_AUTH_USER_INFO} (alias {@value #BASIC_AUTH_USER_INFO_ALIAS})</td><td>none</td>
 *     <td>{@code user:password} for HTTP basic authentication</td></tr>
 * <tr><td>{@value #CONNECT_TIMEOUT_MS}</td><td>10000</td><td>TCP/TLS connect timeout</td></tr>
 * <tr><td>{@value #REQUEST_TIMEOUT_MS}</td><td>30000</td><td>whole-request timeout (until the
 *     response headers arrive)</td></tr>
 * <tr><td>{@value #MISSING_ID_CACHE_TTL_MS}</td><td>30000</td><td>how long an unknown schema id is
 *     remembered as unknown, so that a stream of garbage values does not become a stream of
 *     registry requests; 0 disables</td></tr>
 * </table>
 *
 * @param urls base URLs without a trailing slash and without user info
 * @param basicAuthUserInfo {@code user:password}, or null for no authentication
 * @param connectTimeout connect timeout
 * @param requestTimeout request timeout
 * @param missingIdCacheTtl how long unknown ids are remembered
 * @param sslContext the TLS context for https URLs, or null for the JDK default
 */
public record SchemaRegistryConfig(List<URI> urls, String basicAuthUserInfo, Duration connectTimeout,
        Duration requestTimeout, Duration missingIdCacheTtl, SSLContext sslContext) {

    public static final String URL = "schema.registry.url";
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String BASIC_AUTH_USER_INFO_ALIAS = "schema.registry.basic.auth.user.info";
    public static final String CONNECT_TIMEOUT_MS = "schema.registry.connect.timeout.ms";
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    public static final String MISSING_ID_CACHE_TTL_MS = "schema.registry.missing.id.cache.ttl.ms";

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_MISSING_ID_CACHE_TTL = Duration.ofSeconds(30);

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
        if (basicAuthUserInfo != null && !basicAuthUserInfo.contains(":")) {
            throw new IllegalArgumentException(BASIC_AUTH_USER_INFO + " must be user:password");
        }
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(missingIdCacheTtl, "missingIdCacheTtl");
        if (connectTimeout.isNegative() || connectTimeout.isZero() || requestTimeout.isNegative()
                || requestTimeout.isZero() || missingIdCacheTtl.isNegative()) {
            throw new IllegalArgumentException("timeouts must be > 0 and the missing-id TTL >= 0");
        }
    }

    /** One URL (user info allowed), default timeouts, no authentication unless in the URL. */
    public static SchemaRegistryConfig of(String url) {
        return fromMap(Map.of(URL, url));
    }

    /** Same settings with another request timeout. */
    public SchemaRegistryConfig withRequestTimeout(Duration timeout) {
        return new SchemaRegistryConfig(urls, basicAuthUserInfo, connectTimeout, timeout, missingIdCacheTtl, sslContext);
    }

    /** Same settings with basic authentication. */
    public SchemaRegistryConfig withBasicAuth(String userInfo) {
        return new SchemaRegistryConfig(urls, userInfo, connectTimeout, requestTimeout, missingIdCacheTtl, sslContext);
    }

    /** Same settings with an explicit TLS context. */
    public SchemaRegistryConfig withSslContext(SSLContext context) {
        return new SchemaRegistryConfig(urls, basicAuthUserInfo, connectTimeout, requestTimeout, missingIdCacheTtl,
                context);
    }

    /**
     * Reads the keys in the class comment from a Kafka-style config map (values may be strings or
     * numbers).
     *
     * @throws IllegalArgumentException on a missing URL or a bad value, naming the key
     */
    public static SchemaRegistryConfig fromMap(Map<String, ?> configs) {
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
                throw new IllegalArgumentException(URL + " is not a URL: " + s, e);
            }
            if (u.getRawUserInfo() != null) {
                urlUserInfo = URLDecoder.decode(u.getRawUserInfo(), StandardCharsets.UTF_8);
                try {
                    u = new URI(u.getScheme(), null, u.getHost(), u.getPort(), u.getPath(), u.getQuery(), null);
                } catch (URISyntaxException e) {
                    throw new IllegalArgumentException(URL + " is not a URL: " + s, e);
                }
            }
            urls.add(u);
        }
        Object info = configs.get(BASIC_AUTH_USER_INFO);
        if (info == null) {
            info = configs.get(BASIC_AUTH_USER_INFO_ALIAS);
        }
        String userInfo = info == null || String.valueOf(info).isEmpty() ? null : String.valueOf(info);
        Object rawSource = configs.get(BASIC_AUTH_CREDENTIALS_SOURCE);
        String source = rawSource == null ? (userInfo != null ? "USER_INFO" : "URL")
                : String.valueOf(rawSource).trim().toUpperCase(Locale.ROOT);
        String auth = switch (source) {
            case "USER_INFO" -> {
                if (userInfo == null) {
                    throw new IllegalArgumentException(BASIC_AUTH_CREDENTIALS_SOURCE + "=USER_INFO needs "
                            + BASIC_AUTH_USER_INFO);
                }
                yield userInfo;
            }
            case "URL" -> urlUserInfo;
            default -> throw new IllegalArgumentException(BASIC_AUTH_CREDENTIALS_SOURCE
                    + " must be USER_INFO or URL, got " + rawSource);
        };
        return new SchemaRegistryConfig(urls, auth,
                millis(configs, CONNECT_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT),
                millis(configs, REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT),
                millis(configs, MISSING_ID_CACHE_TTL_MS, DEFAULT_MISSING_ID_CACHE_TTL), null);
    }

    private static Duration millis(Map<String, ?> configs, String key, Duration fallback) {
        Object v = configs.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return Duration.ofMillis(v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v).trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number of milliseconds, got " + v, e);
        }
    }

    @Override
    public String toString() {
        // Never print the password.
        return "SchemaRegistryConfig[urls=" + urls + ", basicAuth=" + (basicAuthUserInfo == null ? "none"
                : basicAuthUserInfo.substring(0, basicAuthUserInfo.indexOf(':')) + ":***")
                + ", connectTimeout=" + connectTimeout + ", requestTimeout=" + requestTimeout
                + ", missingIdCacheTtl=" + missingIdCacheTtl + "]";
    }
}

package io.privacygateway.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.zip.GZIPOutputStream;

/**
 * Sends batches to the HTTPS ingestion endpoint: {@code POST {baseUrl}/v1/reports} with the binary envelope
 * ({@link ReportEnvelope}), {@code Authorization: Bearer <credential>}, and reads the per-report results.
 * Built on {@link HttpURLConnection} only, which Android has (no {@code java.net.http}, no library).
 *
 * <p>Status codes (docs/wire-format.md, "Report envelope over HTTPS"): 200 per-report results; 400 and any other
 * 4xx not listed: {@link TransportException.Kind#PERMANENT}; 401/403 (unknown or revoked credential):
 * {@code PERMANENT} with reason {@code CREDENTIAL}; 413: {@link TransportException.Kind#TOO_LARGE}; 408, 429 and 5xx:
 * {@link TransportException.Kind#RETRY} with the {@code Retry-After} (seconds or an HTTP date); a connection or
 * timeout error: {@code RETRY} (reason {@code IO}).
 *
 * <p>Plain {@code http:} is refused unless the host is a loopback address (tests, a local relay). Thread-safe.
 */
public final class HttpTransport implements Transport {
    private final URL endpoint;
    private final String credential;
    private final int connectTimeoutMillis;
    private final int readTimeoutMillis;
    private final boolean gzip;
    private final int maxBatch;
    private final Clock clock;

    private HttpTransport(Builder b) {
        this.endpoint = b.endpoint;
        this.credential = b.credential;
        this.connectTimeoutMillis = (int) b.connectTimeout.toMillis();
        this.readTimeoutMillis = (int) b.readTimeout.toMillis();
        this.gzip = b.gzip;
        this.maxBatch = b.maxBatch;
        this.clock = b.clock;
    }

    /**
     * A builder for the endpoint at {@code baseUrl} (e.g. {@code https://ingest.example.com}).
     *
     * @throws IllegalArgumentException naming {@code baseUrl} if it is not an https URL, or http on a non-loopback
     *     host
     */
    public static Builder builder(String baseUrl) {
        return new Builder(baseUrl);
    }

    /** The URL batches are posted to. */
    public URL endpoint() {
        return endpoint;
    }

    @Override
    public int maxBatch() {
        return maxBatch;
    }

    @Override
    public List<ReportEnvelope.Result> send(List<DeviceReport> batch) throws TransportException {
        byte[] body = ReportEnvelope.encode(batch);
        if (body.length > ReportEnvelope.MAX_BODY_BYTES) {
            throw new TransportException(TransportException.Kind.TOO_LARGE, "BODY_TOO_LARGE", 0,
                    "a batch of " + batch.size() + " reports encodes to " + body.length + " bytes", null);
        }
        HttpURLConnection c = null;
        try {
            c = (HttpURLConnection) endpoint.openConnection();
            c.setRequestMethod("POST");
            c.setConnectTimeout(connectTimeoutMillis);
            c.setReadTimeout(readTimeoutMillis);
            c.setUseCaches(false);
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", ReportEnvelope.REPORTS_CONTENT_TYPE);
            c.setRequestProperty("Accept", ReportEnvelope.RESULTS_CONTENT_TYPE);
            if (credential != null) {
                c.setRequestProperty("Authorization", "Bearer " + credential);
            }
            if (gzip) {
                c.setRequestProperty("Content-Encoding", "gzip");
                ByteArrayOutputStream z = new ByteArrayOutputStream(body.length / 2 + 64);
                try (GZIPOutputStream g = new GZIPOutputStream(z)) {
                    g.write(body);
                }
                body = z.toByteArray();
            }
            c.setFixedLengthStreamingMode(body.length);
            try (OutputStream out = c.getOutputStream()) {
                out.write(body);
            }
            int code = c.getResponseCode();
            if (code == 200) {
                byte[] answer;
                try (InputStream in = c.getInputStream()) {
                    answer = readBounded(in, ReportEnvelope.MAX_BODY_BYTES);
                }
                List<ReportEnvelope.Result> results;
                try {
                    results = ReportEnvelope.decodeResults(answer);
                } catch (ReportEnvelope.Malformed e) {
                    throw new TransportException(TransportException.Kind.RETRY, "BAD_RESPONSE", 0,
                            "unreadable results: " + e.getMessage(), e);
                }
                if (results.size() != batch.size()) {
                    throw new TransportException(TransportException.Kind.RETRY, "BAD_RESPONSE", 0,
                            results.size() + " results for " + batch.size() + " reports", null);
                }
                return results;
            }
            drain(c);
            long retryAfter = retryAfterMillis(c.getHeaderField("Retry-After"), clock.millis());
            if (code == 401 || code == 403) {
                throw new TransportException(TransportException.Kind.PERMANENT, "CREDENTIAL", 0,
                        "HTTP " + code + ": the device credential is unknown or revoked", null);
            }
            if (code == 413) {
                throw new TransportException(TransportException.Kind.TOO_LARGE, "HTTP_413", retryAfter,
                        "HTTP 413: the batch is larger than the endpoint accepts", null);
            }
            if (code == 408 || code == 429 || code >= 500) {
                throw new TransportException(TransportException.Kind.RETRY, "HTTP_" + code, retryAfter,
                        "HTTP " + code, null);
            }
            throw new TransportException(TransportException.Kind.PERMANENT, "HTTP_" + code, 0,
                    "HTTP " + code + ": the endpoint refused the batch", null);
        } catch (TransportException e) {
            throw e;
        } catch (IOException e) {
            throw new TransportException(TransportException.Kind.RETRY, "IO", 0,
                    "cannot reach " + endpoint.getHost() + ": " + e.getClass().getSimpleName(), e);
        } finally {
            if (c != null) {
                c.disconnect();
            }
        }
    }

    /**
     * The wait a {@code Retry-After} header asks for: delta-seconds, or an HTTP date (RFC 1123) minus {@code now};
     * 0 if absent or unreadable; at most a day.
     */
    static long retryAfterMillis(String header, long now) {
        if (header == null || header.trim().isEmpty()) {
            return 0;
        }
        String h = header.trim();
        long ms;
        try {
            ms = Math.multiplyExact(Long.parseLong(h), 1000L);
        } catch (NumberFormatException | ArithmeticException e) {
            try {
                ms = ZonedDateTime.parse(h, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli() - now;
            } catch (RuntimeException e2) {
                return 0;
            }
        }
        return Math.max(0, Math.min(ms, 86_400_000L));
    }

    private static void drain(HttpURLConnection c) {
        try (InputStream err = c.getErrorStream()) {
            if (err != null) {
                readBounded(err, 64 * 1024);
            }
        } catch (IOException ignored) {
            // the status code is what matters
        }
    }

    private static byte[] readBounded(InputStream in, int max) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            if (out.size() + n > max) {
                throw new IOException("response longer than " + max + " bytes");
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    /** Builds an {@link HttpTransport}. Defaults: connect 10 s, read 30 s, no gzip, {@link ReportEnvelope#MAX_REPORTS}. */
    public static final class Builder {
        private final URL endpoint;
        private String credential;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration readTimeout = Duration.ofSeconds(30);
        private boolean gzip;
        private int maxBatch = ReportEnvelope.MAX_REPORTS;
        private Clock clock = Clock.systemUTC();

        private Builder(String baseUrl) {
            if (baseUrl == null) {
                throw new IllegalArgumentException("baseUrl is required");
            }
            URL u;
            try {
                u = new URL(baseUrl.endsWith("/") ? baseUrl + "v1/reports" : baseUrl + "/v1/reports");
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("baseUrl is not a URL: " + baseUrl);
            }
            if (!u.getProtocol().equals("https") && !(u.getProtocol().equals("http") && loopback(u.getHost()))) {
                throw new IllegalArgumentException("baseUrl must be https (plain http only on a loopback host), got "
                        + baseUrl);
            }
            if (u.getQuery() != null || u.getRef() != null) {
                throw new IllegalArgumentException("baseUrl must have no query or fragment, got " + baseUrl);
            }
            this.endpoint = u;
        }

        private static boolean loopback(String host) {
            if (host.equals("localhost")) {
                return true;
            }
            if (!host.matches("[0-9.]+|\\[?[0-9a-fA-F:]+\\]?")) {
                return false; // a name would need a DNS lookup: not loopback
            }
            try {
                return InetAddress.getByName(host).isLoopbackAddress();
            } catch (UnknownHostException e) {
                return false;
            }
        }

        /** The device's credential, sent as {@code Authorization: Bearer <credential>}. */
        public Builder credential(String credential) {
            if (credential == null || credential.isEmpty() || credential.chars().anyMatch(ch -> ch < 0x21 || ch > 0x7E)) {
                throw new IllegalArgumentException("credential must be non-empty visible ASCII");
            }
            this.credential = credential;
            return this;
        }

        public Builder connectTimeout(Duration d) {
            this.connectTimeout = positive(d, "connectTimeout");
            return this;
        }

        public Builder readTimeout(Duration d) {
            this.readTimeout = positive(d, "readTimeout");
            return this;
        }

        /** Whether to gzip request bodies ({@code Content-Encoding: gzip}). */
        public Builder gzip(boolean gzip) {
            this.gzip = gzip;
            return this;
        }

        /** The most reports per request, in {@code [1, }{@link ReportEnvelope#MAX_REPORTS}{@code ]}. */
        public Builder maxBatch(int n) {
            if (n < 1 || n > ReportEnvelope.MAX_REPORTS) {
                throw new IllegalArgumentException("maxBatch must be in [1, " + ReportEnvelope.MAX_REPORTS + "], got " + n);
            }
            this.maxBatch = n;
            return this;
        }

        /** The clock {@code Retry-After} dates are read against. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public HttpTransport build() {
            return new HttpTransport(this);
        }

        private static Duration positive(Duration d, String field) {
            if (d == null || d.isNegative() || d.isZero() || d.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(field + " must be > 0 and < 24 days, got " + d);
            }
            return d;
        }
    }
}

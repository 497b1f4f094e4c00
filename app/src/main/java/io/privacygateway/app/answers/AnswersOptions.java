package io.privacygateway.app.answers;

import io.privacygateway.app.http.HttpEndpoint;
import io.privacygateway.app.http.HttpLimits;
import java.util.Objects;

/**
 * How the answers API is served ({@code answers:} in {@code gateway.yaml}; every bad value names its field).
 *
 * @param host the host or address to bind (default {@value HttpEndpoint#DEFAULT_HOST}; {@code 0.0.0.0} for every
 *     interface)
 * @param port the port, in [0, 65535] (0 in code: any free port; in {@code gateway.yaml}, 0 turns the API off)
 * @param defaultLimit rows per page when a request names no {@code limit}, in [1, maxLimit]
 * @param maxLimit the largest {@code limit} a request may ask for, in [1, 100000] (larger: 400)
 * @param maxResponseBytes a page ends early (with a next link) once its body reaches this size, in [64 KiB, 256 MiB]:
 *     with at most {@code HttpLimits.maxQueuedWork} pages built at once, this bounds the memory of the API
 * @param limits the HTTP limits (timeouts, connections, worker threads)
 */
public record AnswersOptions(String host, int port, int defaultLimit, int maxLimit, int maxResponseBytes,
        HttpLimits limits) {
    /** Rows per page by default. */
    public static final int DEFAULT_LIMIT = 1000;
    /** The largest page by default. */
    public static final int DEFAULT_MAX_LIMIT = 10_000;
    /** The largest body by default: 8 MiB. */
    public static final int DEFAULT_MAX_RESPONSE_BYTES = 8 << 20;

    public AnswersOptions {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(limits, "limits");
        if (host.isBlank()) {
            throw new IllegalArgumentException("answers.host must not be empty");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("answers.port must be in [0, 65535], got " + port);
        }
        if (maxLimit < 1 || maxLimit > 100_000) {
            throw new IllegalArgumentException("answers.maxLimit must be in [1, 100000], got " + maxLimit);
        }
        if (defaultLimit < 1 || defaultLimit > maxLimit) {
            throw new IllegalArgumentException("answers.defaultLimit must be in [1, answers.maxLimit = " + maxLimit
                    + "], got " + defaultLimit);
        }
        if (maxResponseBytes < 64 * 1024 || maxResponseBytes > 256 << 20) {
            throw new IllegalArgumentException("answers.maxResponseBytes must be in [65536, 268435456], got "
                    + maxResponseBytes);
        }
    }

    /** The defaults on {@code port}: loopback, 1000 rows per page, at most 10000, 8 MiB, {@link HttpLimits#defaults()}. */
    public static AnswersOptions onPort(int port) {
        return new AnswersOptions(HttpEndpoint.DEFAULT_HOST, port, DEFAULT_LIMIT, DEFAULT_MAX_LIMIT,
                DEFAULT_MAX_RESPONSE_BYTES, HttpLimits.defaults());
    }

    public AnswersOptions withHost(String h) {
        return new AnswersOptions(h, port, defaultLimit, maxLimit, maxResponseBytes, limits);
    }

    public AnswersOptions withPaging(int defaultRows, int maxRows, int maxBytes) {
        return new AnswersOptions(host, port, defaultRows, maxRows, maxBytes, limits);
    }
}

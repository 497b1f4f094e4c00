package io.privacygateway.app.http;

import java.time.Duration;
import java.util.Objects;

/**
 * What one client may hold of an {@link HttpEndpoint}: time, bytes, connections and worker threads. Every bound is
 * enforced by the server, whatever the client does, so a slow or silent client (slowloris) costs at most one
 * connection slot for at most {@link #requestTimeout} and can never hold a thread.
 *
 * @param requestTimeout a whole request (request line, headers and body) must arrive within this time of the
 *     connection's opening or of the end of the previous response on it, else the connection is closed; in
 *     [10 ms, 10 min]
 * @param idleTimeout a connection on which nothing is read or written for this long is closed (a client that
 *     stops reading its response); in [10 ms, 1 h]
 * @param maxInitialLineBytes the longest request line, in [256, 65536] (longer: 414 and the connection closed)
 * @param maxHeaderBytes the largest header block, in [1024, 1048576] (larger: 431 and the connection closed)
 * @param maxBodyBytes the largest request body, in [0, 1073741824] (larger: 413 and the connection closed)
 * @param maxConnections connections open at once, in [1, 65536]; a connection beyond it is closed at once
 * @param workerThreads threads that run the replies that may take time (a scrape, a JSON document), in [1, 64];
 *     replies that cannot take time (the probes) are answered on the event loop and never wait for a worker
 * @param maxQueuedWork such replies under way or waiting at once, in [1, 4096]; beyond it the answer is 503 with
 *     {@code Retry-After: 1}
 */
public record HttpLimits(Duration requestTimeout, Duration idleTimeout, int maxInitialLineBytes, int maxHeaderBytes,
        long maxBodyBytes, int maxConnections, int workerThreads, int maxQueuedWork) {

    public HttpLimits {
        within("requestTimeout", requestTimeout, Duration.ofMillis(10), Duration.ofMinutes(10));
        within("idleTimeout", idleTimeout, Duration.ofMillis(10), Duration.ofHours(1));
        within("maxInitialLineBytes", maxInitialLineBytes, 256, 65_536);
        within("maxHeaderBytes", maxHeaderBytes, 1024, 1 << 20);
        within("maxBodyBytes", maxBodyBytes, 0, 1L << 30);
        within("maxConnections", maxConnections, 1, 65_536);
        within("workerThreads", workerThreads, 1, 64);
        within("maxQueuedWork", maxQueuedWork, 1, 4096);
    }

    /**
     * The limits of the operations endpoints (metrics, probes, dashboard): a request within 10 s, nothing moving
     * for 30 s closes the connection, a 4 KiB request line, 16 KiB of headers, 16 KiB of body (they read none),
     * 256 connections, two worker threads and 32 replies under way or waiting.
     */
    public static HttpLimits defaults() {
        return new HttpLimits(Duration.ofSeconds(10), Duration.ofSeconds(30), 4096, 16 * 1024, 16 * 1024, 256, 2, 32);
    }

    /** These limits with both timeouts set to {@code t} (tests, and operators who want them short). */
    public HttpLimits withTimeouts(Duration t) {
        return new HttpLimits(t, t, maxInitialLineBytes, maxHeaderBytes, maxBodyBytes, maxConnections, workerThreads,
                maxQueuedWork);
    }

    /** These limits with at most {@code n} connections open at once. */
    public HttpLimits withMaxConnections(int n) {
        return new HttpLimits(requestTimeout, idleTimeout, maxInitialLineBytes, maxHeaderBytes, maxBodyBytes, n,
                workerThreads, maxQueuedWork);
    }

    /** These limits with request bodies up to {@code bytes}. */
    public HttpLimits withMaxBodyBytes(long bytes) {
        return new HttpLimits(requestTimeout, idleTimeout, maxInitialLineBytes, maxHeaderBytes, bytes, maxConnections,
                workerThreads, maxQueuedWork);
    }

    private static void within(String field, Duration d, Duration lo, Duration hi) {
        Objects.requireNonNull(d, field);
        if (d.compareTo(lo) < 0 || d.compareTo(hi) > 0) {
            throw new IllegalArgumentException(field + " must lie in [" + lo + ", " + hi + "], got " + d);
        }
    }

    private static void within(String field, long v, long lo, long hi) {
        if (v < lo || v > hi) {
            throw new IllegalArgumentException(field + " must lie in [" + lo + ", " + hi + "], got " + v);
        }
    }
}

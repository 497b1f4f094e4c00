package io.privacygateway.app.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.app.http.HttpEndpoint;
import io.privacygateway.app.http.HttpEndpoint.Reply;
import io.privacygateway.app.http.HttpEndpoint.Request;
import io.privacygateway.app.http.HttpEndpoint.Response;
import io.privacygateway.app.http.HttpEndpoint.Work;
import io.privacygateway.app.http.HttpLimits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * The operations endpoint of a gateway process, for Prometheus and for an orchestrator's probes (an
 * {@link HttpEndpoint}: timeouts, size limits and bounded threads are set there, see {@link HttpLimits}).
 *
 * <ul>
 *   <li>{@code GET /metrics}: every meter of the registry in the Prometheus text format 0.0.4, or in OpenMetrics
 *       1.0.0 when the {@code Accept} header names {@code application/openmetrics-text} (as Prometheus's does).
 *       Scrapes run on the endpoint's worker threads.
 *   <li>{@code GET /health/live}: 200 while {@link HealthCheck#live()} passes, else 503.
 *   <li>{@code GET /health/ready}: 200 while {@link HealthCheck#ready()} passes, else 503.
 * </ul>
 *
 * <p>The probes are answered on the event loop: no scrape, however slow, and no client, however slow or silent,
 * holds them up (a silent connection is closed after {@link HttpLimits#requestTimeout()}). Every other path is
 * 404; methods other than GET and HEAD are 405 (HEAD answers the same status and headers without a body). Query
 * strings are ignored. There is no authentication and no {@code Host} check (Prometheus names the target's address
 * in {@code Host}): bind it to a loopback or private interface (the default host is 127.0.0.1) and let the network
 * decide who may scrape. The endpoint never shows a report or a value: meters hold counts, sums of ε, latencies and
 * states, tagged with registered workload ids, reason codes and partitions (what a central workload shows:
 * docs/operations.md, "Metrics of central workloads").
 */
public final class MetricsServer implements AutoCloseable {
    /** The Prometheus text format. */
    public static final String TEXT_004 = "text/plain; version=0.0.4; charset=utf-8";
    /** OpenMetrics. */
    public static final String OPENMETRICS_100 = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final Response NOT_FOUND = Response.text(404, "not found\n");
    private static final Response NOT_ALLOWED = Response.text(405, "method not allowed\n").with("Allow", "GET, HEAD");

    private final HttpEndpoint endpoint;

    private MetricsServer(HttpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Binds and starts the endpoint with {@link HttpLimits#defaults()}.
     *
     * @param host the host or address to bind ({@code 0.0.0.0} for every interface)
     * @param port the port, or 0 for any free port (see {@link #port()})
     * @param registry the meters to expose
     * @param health what the probes answer (called on the event loop: it must not block)
     * @throws IOException if the host does not resolve or the port cannot be bound
     */
    public static MetricsServer start(String host, int port, PrometheusMeterRegistry registry, HealthCheck health)
            throws IOException {
        return start(host, port, registry, health, HttpLimits.defaults());
    }

    /** {@link #start(String, int, PrometheusMeterRegistry, HealthCheck)} with the given limits. */
    public static MetricsServer start(String host, int port, PrometheusMeterRegistry registry, HealthCheck health,
            HttpLimits limits) throws IOException {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(health, "health");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("metrics port must lie in [0, 65535], got " + port);
        }
        return new MetricsServer(HttpEndpoint.start("metrics", host, port, limits, r -> handle(r, registry, health)));
    }

    /** The bound port. */
    public int port() {
        return endpoint.port();
    }

    /** The address of {@code /metrics} (127.0.0.1 when bound to every interface). */
    public URI metricsUrl() {
        return base().resolve("metrics");
    }

    /** The base address, ending in {@code /}. */
    public URI base() {
        return endpoint.base();
    }

    /** The content type {@code /metrics} answers for a request's {@code Accept} header. */
    public static String negotiate(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text")
                ? OPENMETRICS_100 : TEXT_004;
    }

    private static Reply handle(Request r, PrometheusMeterRegistry registry, HealthCheck health) {
        if (!r.method().equals("GET") && !r.method().equals("HEAD")) {
            return NOT_ALLOWED;
        }
        return switch (r.path()) {
            case "/metrics" -> {
                String type = negotiate(r.header("Accept"));
                yield new Work(() -> {
                    ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
                    registry.scrape(body, type);
                    return Response.of(200, type, body.toByteArray());
                });
            }
            case "/health/live" -> probe(health.live());
            case "/health/ready" -> probe(health.ready());
            default -> NOT_FOUND;
        };
    }

    private static Response probe(HealthCheck.Status s) {
        return Response.text(s.ok() ? 200 : 503, (s.ok() ? "ok: " : "unavailable: ") + s.detail() + "\n");
    }

    /** Stops answering and closes every connection (idempotent). */
    @Override
    public void close() {
        endpoint.close();
    }
}

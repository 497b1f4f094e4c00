package io.privacygateway.app.metrics;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations endpoint of a gateway process (JDK HTTP server), for Prometheus and for an orchestrator's probes.
 *
 * <ul>
 *   <li>{@code GET /metrics}: every meter of the registry in the Prometheus text format 0.0.4, or in OpenMetrics
 *       1.0.0 when the {@code Accept} header names {@code application/openmetrics-text} (as Prometheus's does).
 *   <li>{@code GET /health/live}: 200 while {@link HealthCheck#live()} passes, else 503.
 *   <li>{@code GET /health/ready}: 200 while {@link HealthCheck#ready()} passes, else 503.
 * </ul>
 *
 * <p>Every other path is 404; methods other than GET and HEAD are 405 (HEAD answers the same status and headers
 * without a body). Query strings are ignored. There is no authentication and no {@code Host} check (Prometheus
 * names the target's address in {@code Host}): bind it to a loopback or private interface (the default host is
 * 127.0.0.1) and let the network decide who may scrape. The endpoint never shows a report or a value: meters hold
 * counts, sums of ε, latencies and states, tagged with registered workload ids, reason codes and partitions.
 */
public final class MetricsServer implements AutoCloseable {
    /** The Prometheus text format. */
    public static final String TEXT_004 = "text/plain; version=0.0.4; charset=utf-8";
    /** OpenMetrics. */
    public static final String OPENMETRICS_100 = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
    private static final String TEXT = "text/plain; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;
    private final String bindHost;
    private final PrometheusMeterRegistry registry;
    private final HealthCheck health;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MetricsServer(HttpServer server, ExecutorService executor, String bindHost,
            PrometheusMeterRegistry registry, HealthCheck health) {
        this.server = server;
        this.executor = executor;
        this.bindHost = bindHost;
        this.registry = registry;
        this.health = health;
    }

    /**
     * Binds and starts the endpoint.
     *
     * @param host the host or address to bind ({@code 0.0.0.0} for every interface)
     * @param port the port, or 0 for any free port (see {@link #port()})
     * @param registry the meters to expose
     * @param health what the probes answer
     * @throws IOException if the host does not resolve or the port cannot be bound
     */
    public static MetricsServer start(String host, int port, PrometheusMeterRegistry registry, HealthCheck health)
            throws IOException {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(health, "health");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("metrics port must lie in [0, 65535], got " + port);
        }
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), port), 0);
        // two threads: a slow scrape must not hold up a liveness probe
        AtomicInteger n = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "metrics-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        s.setExecutor(executor);
        MetricsServer m = new MetricsServer(s, executor, host, registry, health);
        s.createContext("/", m::handle);
        s.start();
        return m;
    }

    /** The bound port. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The address of {@code /metrics} (127.0.0.1 when bound to every interface). */
    public URI metricsUrl() {
        return base().resolve("metrics");
    }

    /** The base address, ending in {@code /}. */
    public URI base() {
        InetAddress a = server.getAddress().getAddress();
        String host = a.isAnyLocalAddress() ? "127.0.0.1" : bindHost;
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + port() + "/");
    }

    /** The content type {@code /metrics} answers for a request's {@code Accept} header. */
    public static String negotiate(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text")
                ? OPENMETRICS_100 : TEXT_004;
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            String method = ex.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                ex.getResponseHeaders().set("Allow", "GET, HEAD");
                send(ex, 405, TEXT, "method not allowed\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            switch (ex.getRequestURI().getPath()) {
                case "/metrics" -> {
                    String type = negotiate(ex.getRequestHeaders().getFirst("Accept"));
                    ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
                    registry.scrape(body, type);
                    send(ex, 200, type, body.toByteArray());
                }
                case "/health/live" -> probe(ex, health.live());
                case "/health/ready" -> probe(ex, health.ready());
                default -> send(ex, 404, TEXT, "not found\n".getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("metrics request {} failed: {}", ex.getRequestURI().getPath(), e.toString());
            try {
                send(ex, 500, TEXT, "internal error\n".getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException ignored) {
                // the response was already under way
            }
        } finally {
            ex.close();
        }
    }

    private static void probe(HttpExchange ex, HealthCheck.Status s) throws IOException {
        String body = (s.ok() ? "ok: " : "unavailable: ") + s.detail() + "\n";
        send(ex, s.ok() ? 200 : 503, TEXT, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        send(ex, status, type, body, h -> { });
    }

    /**
     * Sends one response of the gateway's HTTP endpoints (metrics, probes, dashboard), the one place their headers
     * and HEAD handling are decided.
     *
     * <p>Guarantees: sets {@code Content-Type: type}, {@code Cache-Control: no-store} and
     * {@code X-Content-Type-Options: nosniff}, then whatever {@code moreHeaders} sets; answers a HEAD request and
     * an empty body with headers only (no length, no body); otherwise writes {@code body} and closes the body
     * stream. Precondition: the exchange's response has not been started.
     */
    public static void send(HttpExchange ex, int status, String type, byte[] body, Consumer<Headers> moreHeaders)
            throws IOException {
        var h = ex.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        moreHeaders.accept(h);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Stops answering (requests under way get up to a second to finish). */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            server.stop(1);
            executor.shutdownNow();
        }
    }
}

package io.privacygateway.app.http;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/1.1 server of the gateway (Vert.x: one event-loop thread and a few worker threads of its own), the one
 * place where the gateway's HTTP endpoints get their timeouts, size limits, bind address and common headers.
 *
 * <p>Guarantees, whatever clients do:
 *
 * <ul>
 *   <li>No client holds a thread: reading and writing are non-blocking on the event loop; a {@link Response} is
 *       built on the event loop (it must not block: the probes), a {@link Work} on one of
 *       {@link HttpLimits#workerThreads()} worker threads, at most {@link HttpLimits#maxQueuedWork()} of them under
 *       way or waiting (else 503 with {@code Retry-After: 1}).
 *   <li>Slow and silent clients are closed: a connection whose next request (line, headers, body) has not fully
 *       arrived {@link HttpLimits#requestTimeout()} after the connection opened or the previous response ended is
 *       closed, however slowly it trickles bytes; one on which nothing moves for {@link HttpLimits#idleTimeout()}
 *       (a client that does not read its response) is closed too.
 *   <li>Bounded memory: request line, headers and body are limited ({@link HttpLimits}; too long: 414, 431 or
 *       413, then the connection is closed), and at most {@link HttpLimits#maxConnections()} connections are open
 *       (one more is closed as soon as it is accepted).
 *   <li>Every response carries {@code Content-Type}, {@code Cache-Control: no-store} and
 *       {@code X-Content-Type-Options: nosniff}, then the response's own headers; a HEAD request gets the headers
 *       (with the body's {@code Content-Length}) and no body. A handler that throws answers 500 (logged with the
 *       path only, never a header, body or value).
 * </ul>
 *
 * <p>Plain HTTP/1.x only (no TLS, no HTTP/2, no compression); the default host is {@value #DEFAULT_HOST}.
 */
public final class HttpEndpoint implements AutoCloseable {
    /** The host an endpoint binds to unless told otherwise: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final Response INTERNAL_ERROR = Response.text(500, "internal error\n");
    private static final Response BUSY = Response.text(503, "busy\n").with("Retry-After", "1");

    /** Answers one request. Called on the event loop: return a {@link Work} for anything that may take time. */
    @FunctionalInterface
    public interface Handler {
        Reply handle(Request request) throws Exception;
    }

    /** What a handler returns: a {@link Response} now, or {@link Work} that computes one on a worker thread. */
    public sealed interface Reply permits Response, Work {}

    /**
     * A complete response.
     *
     * @param status the HTTP status
     * @param contentType the {@code Content-Type}
     * @param body the body (sent as is; empty for none)
     * @param headers further headers, in order
     */
    public record Response(int status, String contentType, byte[] body, Map<String, String> headers) implements Reply {
        public Response {
            Objects.requireNonNull(contentType, "contentType");
            Objects.requireNonNull(body, "body");
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }

        /** A response without further headers. */
        public static Response of(int status, String contentType, byte[] body) {
            return new Response(status, contentType, body, Map.of());
        }

        /** A {@code text/plain; charset=utf-8} response. */
        public static Response text(int status, String text) {
            return of(status, TEXT, text.getBytes(StandardCharsets.UTF_8));
        }

        /** This response with one more header (replacing one of the same name). */
        public Response with(String name, String value) {
            Map<String, String> h = new LinkedHashMap<>(headers);
            h.put(name, value);
            return new Response(status, contentType, body, h);
        }

        /** This response with more headers. */
        public Response with(Map<String, String> more) {
            Map<String, String> h = new LinkedHashMap<>(headers);
            h.putAll(more);
            return new Response(status, contentType, body, h);
        }
    }

    /** A reply computed on a worker thread (it may block, e.g. a scrape); a task that throws answers 500. */
    public record Work(Callable<Response> task) implements Reply {
        public Work {
            Objects.requireNonNull(task, "task");
        }
    }

    /**
     * One request, read completely.
     *
     * @param method the method, upper case ({@code GET}, {@code HEAD}, ...)
     * @param path the path as sent, without the query (not percent-decoded)
     * @param headers the request's headers (case-insensitive names)
     * @param body the body, at most {@link HttpLimits#maxBodyBytes()} bytes
     * @param query the query string as sent, without the {@code ?} (not percent-decoded; empty for none)
     */
    public record Request(String method, String path, MultiMap headers, byte[] body, String query) {
        public Request {
            query = query == null ? "" : query;
        }

        /** A request without a query string. */
        public Request(String method, String path, MultiMap headers, byte[] body) {
            this(method, path, headers, body, "");
        }

        /** The first value of a header, or {@code null}. */
        public String header(String name) {
            return headers.get(name);
        }
    }

    private final String name;
    private final String bindHost;
    private final HttpLimits limits;
    private final Handler handler;
    private final Vertx vertx;
    private HttpServer server;
    private final Map<HttpConnection, Connection> connections = new ConcurrentHashMap<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();

    private HttpEndpoint(String name, String bindHost, HttpLimits limits, Handler handler, Vertx vertx) {
        this.name = name;
        this.bindHost = bindHost;
        this.limits = limits;
        this.handler = handler;
        this.vertx = vertx;
    }

    /**
     * Binds and starts a server.
     *
     * @param name what the server is, for log lines ("metrics", "dashboard")
     * @param host the host name or address to bind ({@code 0.0.0.0} for every interface; usually
     *     {@link #DEFAULT_HOST})
     * @param port the port, in [0, 65535] (0: any free port, see {@link #port()})
     * @param limits the bounds every client is held to
     * @param handler what answers the requests
     * @throws java.net.UnknownHostException if the host does not resolve
     * @throws java.net.BindException if the port cannot be bound
     * @throws IOException if the server cannot start otherwise
     */
    public static HttpEndpoint start(String name, String host, int port, HttpLimits limits, Handler handler)
            throws IOException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(handler, "handler");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(name + " port must lie in [0, 65535], got " + port);
        }
        InetAddress address = InetAddress.getByName(host);
        Vertx vertx = Vertx.builder().with(new VertxOptions()
                .setEventLoopPoolSize(1)
                .setWorkerPoolSize(limits.workerThreads())
                .setInternalBlockingPoolSize(1)
                .setUseDaemonThread(true)
                .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
                        .setClassPathResolvingEnabled(false)))
                .build();
        HttpEndpoint e = new HttpEndpoint(name, host, limits, handler, vertx);
        HttpServerOptions options = new HttpServerOptions()
                .setHost(address.getHostAddress())
                .setPort(port)
                .setIdleTimeout(Math.toIntExact(limits.idleTimeout().toMillis()))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setMaxInitialLineLength(limits.maxInitialLineBytes())
                .setMaxHeaderSize(limits.maxHeaderBytes())
                .setHttp2ClearTextEnabled(false)
                .setHandle100ContinueAutomatically(false)
                .setCompressionSupported(false)
                .setDecompressionSupported(false);
        HttpServer s = vertx.createHttpServer(options)
                .connectionHandler(e::connected)
                .requestHandler(e::request)
                .exceptionHandler(x -> LOG.debug("{} connection failed: {}", name, x.toString()));
        try {
            e.server = s.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            return e;
        } catch (ExecutionException x) {
            e.close();
            Throwable cause = x.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException("cannot start the " + name + " server on " + host + ":" + port + ": " + cause, cause);
        } catch (InterruptedException x) {
            e.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the " + name + " server", x);
        } catch (TimeoutException x) {
            e.close();
            throw new IOException("the " + name + " server did not start within 30 s", x);
        }
    }

    /** The bound port. */
    public int port() {
        return server.actualPort();
    }

    /** The host given to {@link #start}. */
    public String bindHost() {
        return bindHost;
    }

    /** The base address, ending in {@code /} (127.0.0.1 when bound to every interface). */
    public URI base() {
        String host = bindHost;
        try {
            if (InetAddress.getByName(bindHost).isAnyLocalAddress()) {
                host = "127.0.0.1";
            }
        } catch (IOException e) {
            // it resolved when the server started; keep the name
        }
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + port() + "/");
    }

    /** The connections open now. */
    public int openConnections() {
        return connections.size();
    }

    /** Stops answering and closes every connection (waits up to 5 s; idempotent). */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("stopping the {} server: {}", name, e.toString());
            }
        }
    }

    // ---- connections ---------------------------------------------------------------------------

    /** A connection and its request deadline; touched only on the event loop. */
    private final class Connection {
        private final HttpConnection conn;
        private long timer = -1;

        Connection(HttpConnection conn) {
            this.conn = conn;
        }

        /** The next request must be complete within the request timeout from now. */
        void awaitRequest() {
            stopWaiting();
            timer = vertx.setTimer(limits.requestTimeout().toMillis(), id -> {
                timer = -1;
                LOG.debug("{}: closing a connection whose request did not arrive in time", name);
                conn.close();
            });
        }

        void stopWaiting() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
                timer = -1;
            }
        }
    }

    private void connected(HttpConnection c) {
        if (connections.size() >= limits.maxConnections()) {
            LOG.debug("{}: {} connections open, closing a new one", name, connections.size());
            c.close();
            return;
        }
        Connection k = new Connection(c);
        connections.put(c, k);
        c.closeHandler(v -> {
            k.stopWaiting();
            connections.remove(c);
        });
        k.awaitRequest();
    }

    private void request(HttpServerRequest req) {
        Connection k = connections.get(req.connection());
        req.exceptionHandler(x -> LOG.debug("{} request failed: {}", name, x.toString()));
        long declared = contentLength(req);
        if (declared > limits.maxBodyBytes()) {
            refuseAndClose(req, Response.text(413, "request body too large\n"));
            return;
        }
        Buffer body = Buffer.buffer();
        boolean[] refused = {false};
        req.handler(chunk -> {
            if (refused[0]) {
                return;
            }
            if ((long) body.length() + chunk.length() > limits.maxBodyBytes()) {
                refused[0] = true;
                refuseAndClose(req, Response.text(413, "request body too large\n"));
            } else {
                body.appendBuffer(chunk);
            }
        });
        req.endHandler(v -> {
            if (refused[0]) {
                return;
            }
            if (k != null) {
                k.stopWaiting();
                req.response().endHandler(x -> k.awaitRequest());
            }
            MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(req.headers());
            dispatch(req, new Request(req.method().name(), req.path(), headers, body.getBytes(),
                    req.query()));
        });
    }

    private static long contentLength(HttpServerRequest req) {
        String v = req.getHeader("Content-Length");
        if (v == null) {
            return -1;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private void refuseAndClose(HttpServerRequest req, Response r) {
        HttpServerResponse out = req.response();
        if (out.ended() || out.closed()) {
            req.connection().close();
            return;
        }
        out.putHeader("Connection", "close");
        write(req, r).onComplete(ar -> req.connection().close());
    }

    private void dispatch(HttpServerRequest req, Request r) {
        Reply reply;
        try {
            reply = handler.handle(r);
        } catch (Exception e) {
            LOG.warn("{} request {} failed: {}", name, r.path(), e.toString());
            reply = INTERNAL_ERROR;
        }
        if (reply instanceof Response resp) {
            send(req, resp);
            return;
        }
        Work work = (Work) Objects.requireNonNull(reply, "reply");
        if (queued.incrementAndGet() > limits.maxQueuedWork()) {
            queued.decrementAndGet();
            send(req, BUSY);
            return;
        }
        vertx.executeBlocking(work.task(), false).onComplete(ar -> {
            queued.decrementAndGet();
            if (ar.succeeded() && ar.result() != null) {
                send(req, ar.result());
            } else {
                LOG.warn("{} request {} failed: {}", name, r.path(),
                        ar.succeeded() ? "no response" : ar.cause().toString());
                send(req, INTERNAL_ERROR);
            }
        });
    }

    private static void send(HttpServerRequest req, Response r) {
        HttpServerResponse out = req.response();
        if (out.ended() || out.closed()) {
            return; // the client went away
        }
        write(req, r);
    }

    private static Future<Void> write(HttpServerRequest req, Response r) {
        HttpServerResponse out = req.response();
        out.setStatusCode(r.status());
        out.putHeader("Content-Type", r.contentType());
        out.putHeader("Cache-Control", "no-store");
        out.putHeader("X-Content-Type-Options", "nosniff");
        r.headers().forEach(out::putHeader);
        if (req.method() == HttpMethod.HEAD) {
            out.putHeader("Content-Length", Integer.toString(r.body().length));
            return out.end();
        }
        return r.body().length == 0 ? out.end() : out.end(Buffer.buffer(r.body()));
    }
}

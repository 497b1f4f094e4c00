package io.privacygateway.ingest;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportEnvelope.Result;
import io.privacygateway.client.ReportEnvelope.Status;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.kafka.KafkaReports;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.identity.DeviceCredential;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import io.privacygateway.topology.ingest.ReportMode;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportValidator;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import io.privacygateway.topology.workload.Registration;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.KeyStoreOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS front door of the gateway (docs/ingest.md): devices post report batches, the service checks every
 * report with the gateway's own stateless admission code and hands the admitted ones to Kafka exactly as the Kafka
 * transport of the SDK does, and answers per report once Kafka has acknowledged them.
 *
 * <p>Guarantees:
 * <ul>
 *   <li><b>Acknowledged means stored.</b> A report is answered {@code ACCEPTED} only after the broker acknowledged
 *       it with {@code acks=all} (idempotent producer). A report Kafka did not acknowledge within
 *       {@link IngestSettings.Limits#produceTimeout()} is answered {@code RETRY}.
 *   <li><b>Retries count once.</b> Reports are produced keyed by device id with the device's credential header,
 *       as {@code KafkaTransport} does, so the gateway admits them on the right partition and its budget ledger
 *       refuses any second report with the same coordinates ({@code DUPLICATE}). The edge also remembers recently
 *       acknowledged coordinates ({@link RecentReports}) and answers a resend {@code DUPLICATE} without writing it.
 *   <li><b>Bounded.</b> At most {@link IngestSettings.Limits#maxInFlightReports()} reports await Kafka; beyond it,
 *       or while Kafka is unreachable, a batch is answered 503 with {@code Retry-After}, never buffered.
 *   <li><b>Untrusted clients.</b> Bodies, batch sizes, request time and connections are bounded; every request is
 *       rate-limited per source address and per credential; every refusal is counted
 *       ({@code pgw.ingest.refused}) and answered with a status code and a body naming the problem.
 * </ul>
 *
 * <p>Stateless: any number of instances may serve the same topics (nothing is kept but caches).
 */
public final class IngestService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IngestService.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String JSON = "application/json";
    /** {@code Cache-Control} of the workload documents: devices revalidate with the ETag after a minute. */
    public static final String WORKLOADS_CACHE_CONTROL = "public, max-age=60, must-revalidate";
    private static final Result ACCEPTED = new Result(Status.ACCEPTED, "", 0);
    private static final Result DUPLICATE = new Result(Status.DUPLICATE, "", 0);
    private static final Result RETRY = new Result(Status.RETRY, "", 1000);
    private final IngestSettings settings;
    private final IngestSettings.Limits limits;
    private final Vertx vertx;
    private final SchemaRegistryClient registry;
    /** Values written directly in the wire format ({@link KafkaReports#valueBytes}), the bytes the Avro serializer writes. */
    private final Producer<String, byte[]> producer;
    /** The registry's ids of the report schemas under the report topics' value subjects (0: not looked up yet). */
    private volatile int localSchemaId;
    private volatile int centralSchemaId;
    private final Admin admin;
    private final WorkloadFeed workloads;
    private final GatewayTopics topics;
    private final String localTopic;
    private final String centralTopic;
    private final ReportValidator validator;
    private final TokenBuckets perAddress;
    private final TokenBuckets perCredential;
    private final RecentReports recent;
    private final Revocations revocations;
    private final Semaphore inFlight;
    private final IngestMetrics metrics;
    private final PrometheusMeterRegistry meters;
    private final ExecutorService sender;
    private final Thread healthThread;
    private final Set<String> trustedProxies = new HashSet<>();
    private final Clock clock;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean kafkaUp;
    private volatile String kafkaProblem = "not checked yet";
    private HttpServer server;
    private HttpServer opsServer;

    private IngestService(IngestSettings s, PrometheusMeterRegistry meters, Clock clock) throws IOException {
        this.settings = s;
        this.limits = s.limits();
        this.meters = meters;
        this.clock = clock;
        this.topics = new GatewayTopics(s.topicPrefix());
        this.localTopic = topics.localReports();
        this.centralTopic = topics.centralReports();
        this.validator = new ReportValidator(s.maxFutureSkew(), s.maxEventAge());
        this.perAddress = new TokenBuckets(limits.perAddress(), limits.trackedClients(), System::nanoTime);
        this.perCredential = new TokenBuckets(limits.perCredential(), limits.trackedClients(), System::nanoTime);
        this.recent = new RecentReports(limits.recentReports());
        this.revocations = new Revocations(s.revocationFile(), TimeUnit.SECONDS.toNanos(1), System::nanoTime);
        this.inFlight = new Semaphore(limits.maxInFlightReports());
        for (String p : s.trustedProxies()) {
            trustedProxies.add(InetAddress.getByName(p).getHostAddress());
        }
        Map<String, Object> kafka = new HashMap<>(s.kafka());
        kafka.put("bootstrap.servers", s.bootstrapServers());
        this.registry = SchemaRegistryClient.forUrl(s.schemaRegistryUrl());
        Map<String, Object> p = new HashMap<>(kafka);
        int produceMs = (int) limits.produceTimeout().toMillis();
        int requestMs = Math.max(100, produceMs / 2);
        p.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestMs);
        p.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 2);
        p.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Math.max(produceMs, requestMs + 10));
        p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, Math.max(100, produceMs / 2));
        this.producer = ReportProducers.raw(p); // acks=all, idempotent; values from KafkaReports.valueBytes
        this.admin = Admin.create(kafka);
        this.workloads = new WorkloadFeed(kafka, registry, topics.workloads());
        this.metrics = new IngestMetrics(meters, inFlightGauge(), () -> ready() ? 1 : 0);
        this.sender = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "pgw-ingest-send");
            t.setDaemon(true);
            return t;
        });
        // every accepted connection is held to the request timeout from its first byte on (FirstRequestDeadline),
        // until the connection handler below takes it over
        this.vertx = Vertx.builder().with(new VertxOptions().setEventLoopPoolSize(limits.eventLoops())
                .setWorkerPoolSize(2).setInternalBlockingPoolSize(1).setUseDaemonThread(true))
                .withTransport(FirstRequestDeadline.transport(limits.requestTimeout().toNanos(),
                        () -> metrics.refused("REQUEST_TIMEOUT"))).build();
        this.healthThread = new Thread(this::watchKafka, "pgw-ingest-health");
        this.healthThread.setDaemon(true);
    }

    private Supplier<Number> inFlightGauge() {
        return () -> limits.maxInFlightReports() - inFlight.availablePermits();
    }

    /**
     * Starts a service: reads the workload catalog in the background, checks Kafka every second, and listens.
     *
     * @param settings validated settings
     * @param meters where the meters go ({@code /metrics} scrapes it)
     * @param opsHost the host of the plain-HTTP operations listener ({@code /metrics}, {@code /health/*}), or null
     * @param opsPort its port (0: any free port)
     * @throws IOException if a port cannot be bound or the revocation file cannot be read
     */
    public static IngestService start(IngestSettings settings, PrometheusMeterRegistry meters, String opsHost,
            int opsPort) throws IOException {
        IngestService s = new IngestService(settings, meters, Clock.systemUTC());
        try {
            s.workloads.start();
            s.healthThread.start();
            s.listen(opsHost, opsPort);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private void listen(String opsHost, int opsPort) throws IOException {
        HttpServerOptions o = new HttpServerOptions()
                .setHost(InetAddress.getByName(settings.host()).getHostAddress())
                .setPort(settings.port())
                .setIdleTimeout(Math.toIntExact(limits.idleTimeout().toMillis()))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setMaxInitialLineLength(4096)
                .setMaxHeaderSize(16 * 1024)
                .setHandle100ContinueAutomatically(false)
                .setCompressionSupported(false)
                .setDecompressionSupported(false)
                // HTTP/2: over TLS by ALPN; on a plain listener (loopback or behind a declared proxy) as h2c, with prior
                // knowledge or by an HTTP/1.1 Upgrade. The slow-client deadline covers the protocol detection before
                // the connection handler (FirstRequestDeadline).
                .setHttp2ClearTextEnabled(settings.tls() == null);
        if (settings.tls() != null) {
            o.setSsl(true).setUseAlpn(true).setKeyCertOptions(new KeyStoreOptions()
                    .setType(settings.tls().type().toUpperCase(Locale.ROOT))
                    .setPath(settings.tls().path().toString()).setPassword(settings.tls().password()));
        }
        server = await(vertx.createHttpServer(o).connectionHandler(this::connected).requestHandler(this::request)
                .exceptionHandler(x -> LOG.debug("connection failed: {}", x.toString())).listen(), "the ingest server");
        if (opsHost != null) {
            HttpServerOptions ops = new HttpServerOptions().setHost(InetAddress.getByName(opsHost).getHostAddress())
                    .setPort(opsPort).setIdleTimeout(30).setMaxHeaderSize(16 * 1024);
            opsServer = await(vertx.createHttpServer(ops).connectionHandler(FirstRequestDeadline::release)
                    .requestHandler(this::opsRequest).listen(), "the ops server");
        }
        LOG.info("ingest listening on {}:{} ({}), operations on {}", settings.host(), port(),
                settings.tls() == null ? "plain HTTP" : "TLS", opsServer == null ? "none" : opsHost + ":" + opsPort());
    }

    private static HttpServer await(Future<HttpServer> f, String what) throws IOException {
        try {
            return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("cannot start " + what + ": "
                    + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + what, e);
        } catch (TimeoutException e) {
            throw new IOException(what + " did not start within 30 s", e);
        }
    }

    /** The bound port of the device-facing listener. */
    public int port() {
        return server.actualPort();
    }

    /** The bound port of the operations listener, or -1 if none. */
    public int opsPort() {
        return opsServer == null ? -1 : opsServer.actualPort();
    }

    /** The base URL devices use ({@code http(s)://host:port}). */
    public URI base() {
        String host = settings.host();
        if ("0.0.0.0".equals(host)) {
            host = "127.0.0.1";
        }
        return URI.create((settings.tls() == null ? "http://" : "https://") + host + ":" + port());
    }

    /** Ready to take reports: the catalog is loaded and Kafka answered within the last check. */
    public boolean ready() {
        return !closed.get() && workloads.ready() && kafkaUp;
    }

    /** Why the service is not ready, or "ready". */
    public String readiness() {
        if (closed.get()) {
            return "closing";
        }
        if (!workloads.ready()) {
            return "the workload catalog is not loaded yet";
        }
        return kafkaUp ? "ready" : "Kafka is unreachable: " + kafkaProblem;
    }

    IngestMetrics metrics() {
        return metrics;
    }

    /** Reports handed to Kafka and not yet acknowledged. */
    public int inFlight() {
        return limits.maxInFlightReports() - inFlight.availablePermits();
    }

    // ---- Kafka health ------------------------------------------------------------------------------------------

    private void watchKafka() {
        while (!closed.get()) {
            try {
                admin.describeCluster(new DescribeClusterOptions().timeoutMs(2000)).nodes().get(3, TimeUnit.SECONDS);
                producer.partitionsFor(topics.localReports()); // metadata for the report topics is at hand
                producer.partitionsFor(topics.centralReports());
                if (!kafkaUp) {
                    LOG.info("Kafka is reachable");
                }
                kafkaUp = true;
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (kafkaUp) {
                    LOG.warn("Kafka is unreachable: {}", e.toString());
                }
                kafkaProblem = e.getClass().getSimpleName();
                kafkaUp = false;
            }
            try {
                Thread.sleep(kafkaUp ? 1000 : 250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    // ---- connections and requests -----------------------------------------------------------------------------

    /**
     * Per connection: the timer that closes it if the next request's head does not arrive in time. It runs while
     * no request is open on the connection (HTTP/1.1: between requests; HTTP/2: while no stream is open).
     */
    private final class Conn {
        final HttpConnection c;
        long timer = -1;
        int open; // requests under way (event loop only)
        boolean gone; // the connection closed: nothing to arm

        Conn(HttpConnection c) {
            this.c = c;
        }

        void arm() {
            disarm();
            if (gone) {
                return;
            }
            timer = vertx.setTimer(limits.requestTimeout().toMillis(), id -> {
                timer = -1;
                metrics.refused("REQUEST_TIMEOUT");
                c.close();
            });
        }

        void disarm() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
                timer = -1;
            }
        }
    }

    private final Map<HttpConnection, Conn> conns = new ConcurrentHashMap<>();

    private void connected(HttpConnection c) {
        if (connections.incrementAndGet() > limits.maxConnections()) {
            connections.decrementAndGet();
            metrics.refused("TOO_MANY_CONNECTIONS");
            c.close();
            return;
        }
        Conn k = new Conn(c);
        conns.put(c, k);
        FirstRequestDeadline.release(c); // the connection's own timer takes over from here
        c.closeHandler(v -> {
            k.gone = true;
            k.disarm();
            conns.remove(c);
            connections.decrementAndGet();
        });
        k.arm();
    }

    private void request(HttpServerRequest req) {
        Conn k = conns.get(req.connection());
        boolean http1 = req.version() != HttpVersion.HTTP_2;
        if (k != null) {
            k.disarm(); // the head arrived; the body has its own deadline below
            k.open++;
            boolean[] counted = {false};
            Handler<Void> finished = v -> {
                if (!counted[0]) {
                    counted[0] = true;
                    if (--k.open == 0) {
                        k.arm(); // the next request's head must come in time, on HTTP/2 as on HTTP/1.1
                    }
                }
            };
            req.response().endHandler(finished);
            req.response().closeHandler(finished);
        }
        req.exceptionHandler(x -> LOG.debug("request failed: {}", x.toString()));
        String path = req.path();
        try {
            if (!cors(req, path)) {
                return;
            }
            if (path.equals("/v1/reports")) {
                if (req.method() != HttpMethod.POST) {
                    refuse(req, 405, "METHOD_NOT_ALLOWED", "use POST", Map.of("Allow", "POST"));
                    return;
                }
                reports(req, http1);
            } else if (path.equals("/v1/workloads") || path.startsWith("/v1/workloads/")) {
                workloads(req);
            } else if (path.equals("/health/live") || path.equals("/health/ready")) {
                health(req, path);
            } else {
                refuse(req, 404, "NOT_FOUND", "no such endpoint: POST /v1/reports, GET /v1/workloads[/{id}]",
                        Map.of());
            }
        } catch (RuntimeException e) {
            LOG.warn("request {} failed: {}", path, e.toString());
            refuse(req, 500, "INTERNAL", "internal error", Map.of());
        }
    }

    /** The device endpoints a page may call across origins. */
    private static boolean deviceEndpoint(String path) {
        return path.equals("/v1/reports") || path.equals("/v1/workloads") || path.startsWith("/v1/workloads/");
    }

    /**
     * Cross-origin calls from browsers (CORS): a request from a page of an allowed origin ({@code cors.allowedOrigins})
     * gets {@code Access-Control-Allow-Origin} and the response headers a device reads ({@code ETag},
     * {@code Retry-After}); a preflight ({@code OPTIONS} with {@code Access-Control-Request-Method}) of a device
     * endpoint is answered here: 204 with the methods and headers the endpoints take for an allowed origin, 403
     * {@code CORS_ORIGIN} otherwise. No cookies are involved (credentials travel in {@code Authorization}), so
     * {@code Access-Control-Allow-Credentials} is never sent.
     *
     * @return whether the request goes on to its endpoint (false: a preflight was answered)
     */
    private boolean cors(HttpServerRequest req, String path) {
        String origin = req.getHeader("Origin");
        boolean preflight = req.method() == HttpMethod.OPTIONS && req.getHeader("Access-Control-Request-Method") != null;
        List<String> allowed = settings.corsOrigins();
        boolean ok = origin != null && deviceEndpoint(path) && (allowed.contains("*") || allowed.contains(origin));
        if (ok) {
            req.response().putHeader("Access-Control-Allow-Origin", allowed.contains("*") ? "*" : origin)
                    .putHeader("Vary", "Origin")
                    .putHeader("Access-Control-Expose-Headers", "ETag, Retry-After, Cache-Control");
        }
        if (!preflight) {
            return true;
        }
        if (!ok) {
            refuse(req, 403, "CORS_ORIGIN", "this origin may not call " + path + " from a page (cors.allowedOrigins)",
                    Map.of());
            return false;
        }
        req.response().putHeader("Access-Control-Allow-Methods", path.equals("/v1/reports") ? "POST" : "GET, HEAD")
                .putHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Content-Encoding, If-None-Match")
                .putHeader("Access-Control-Max-Age", "600");
        send(req, 204, TEXT, new byte[0], Map.of());
        return false;
    }

    private void opsRequest(HttpServerRequest req) {
        String path = req.path();
        if (path.equals("/metrics")) {
            vertx.executeBlocking(() -> meters.scrape(), false).onComplete(ar -> {
                if (ar.succeeded()) {
                    send(req, 200, "text/plain; version=0.0.4; charset=utf-8", ar.result().getBytes(StandardCharsets.UTF_8),
                            Map.of());
                } else {
                    send(req, 500, TEXT, "scrape failed\n".getBytes(StandardCharsets.UTF_8), Map.of());
                }
            });
        } else if (path.equals("/health/live") || path.equals("/health/ready")) {
            health(req, path);
        } else {
            send(req, 404, TEXT, "not found\n".getBytes(StandardCharsets.UTF_8), Map.of());
        }
    }

    private void health(HttpServerRequest req, String path) {
        if (path.endsWith("/live")) {
            send(req, 200, TEXT, "live\n".getBytes(StandardCharsets.UTF_8), Map.of());
        } else {
            boolean ok = ready();
            send(req, ok ? 200 : 503, TEXT, (readiness() + "\n").getBytes(StandardCharsets.UTF_8), Map.of());
        }
    }

    // ---- GET /v1/workloads ------------------------------------------------------------------------------------

    private void workloads(HttpServerRequest req) {
        if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
            refuse(req, 405, "METHOD_NOT_ALLOWED", "use GET", Map.of("Allow", "GET, HEAD"));
            return;
        }
        long wait = perAddress.take(sourceAddress(req), 1);
        if (wait > 0) {
            refuse(req, 429, "RATE_LIMITED_ADDRESS", "too many requests from this address", retryAfter(wait));
            return;
        }
        if (!workloads.ready()) {
            refuse(req, 503, "NOT_READY", "the workload catalog is not loaded yet", Map.of("Retry-After", "1"));
            return;
        }
        String path = req.path();
        WorkloadFeed.Doc doc;
        if (path.equals("/v1/workloads")) {
            doc = workloads.all();
        } else {
            String id = URLDecoder.decode(path.substring("/v1/workloads/".length()), StandardCharsets.UTF_8);
            doc = workloads.doc(id);
            if (doc == null) {
                refuse(req, 404, "UNKNOWN_WORKLOAD", "no active workload with this id", Map.of());
                return;
            }
        }
        Map<String, String> h = Map.of("ETag", doc.etag(), "Cache-Control", WORKLOADS_CACHE_CONTROL);
        String inm = req.getHeader("If-None-Match");
        if (inm != null && matches(inm, doc.etag())) {
            send(req, 304, JSON, new byte[0], h);
            return;
        }
        send(req, 200, JSON, doc.body(), h);
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        for (String t : ifNoneMatch.split(",")) {
            String s = t.trim();
            if (s.equals("*") || s.equals(etag)) {
                return true;
            }
        }
        return false;
    }

    // ---- POST /v1/reports -------------------------------------------------------------------------------------

    private void reports(HttpServerRequest req, boolean http1) {
        String source = sourceAddress(req);
        long wait = perAddress.take(source, 1);
        if (wait > 0) {
            refuseAndClose(req, http1, 429, "RATE_LIMITED_ADDRESS", "too many requests from this address",
                    retryAfter(wait), false);
            return;
        }
        if (!workloads.ready()) {
            refuseAndClose(req, http1, 503, "NOT_READY", "the workload catalog is not loaded yet; nothing was taken",
                    Map.of("Retry-After", "1"), false);
            return;
        }
        String type = req.getHeader("Content-Type");
        String media = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        boolean json = media.equals(ReportEnvelope.REPORTS_JSON_CONTENT_TYPE);
        if (!json && !media.equals(ReportEnvelope.REPORTS_CONTENT_TYPE)) {
            refuseAndClose(req, http1, 415, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be "
                    + ReportEnvelope.REPORTS_CONTENT_TYPE + " or " + ReportEnvelope.REPORTS_JSON_CONTENT_TYPE, Map.of(),
                    true);
            return;
        }
        String encoding = req.getHeader("Content-Encoding");
        boolean gzip = encoding != null && encoding.trim().equalsIgnoreCase("gzip");
        if (encoding != null && !gzip && !encoding.trim().equalsIgnoreCase("identity")) {
            refuseAndClose(req, http1, 415, "UNSUPPORTED_ENCODING", "Content-Encoding must be gzip or identity",
                    Map.of(), true);
            return;
        }
        String token = bearer(req.getHeader("Authorization"));
        if (token == null && !settings.openIdentities()) {
            refuseAndClose(req, http1, 401, "UNAUTHENTICATED", "Authorization: Bearer <device credential> is required",
                    Map.of("WWW-Authenticate", "Bearer"), true);
            return;
        }
        String keyId = keyIdOf(token);
        if (keyId != null && revocations.revoked("\u0000", keyId)) {
            refuseAndClose(req, http1, 403, "REVOKED", "this credential's enrollment key is revoked", Map.of(), true);
            return;
        }
        long declared = contentLength(req);
        if (declared > limits.maxBodyBytes()) {
            refuseAndClose(req, http1, 413, "BODY_TOO_LARGE", "body of " + declared + " bytes, more than "
                    + limits.maxBodyBytes(), Map.of(), true);
            return;
        }
        // sized for the declared body up to 64 KiB (no growth copies for a typical batch; a client declaring a large
        // body it never sends does not make the service allocate it)
        Buffer body = Buffer.buffer((int) Math.max(256, Math.min(declared, 64 * 1024)));
        boolean[] done = {false};
        // a binary body names its report count in its first bytes: a batch declaring too many is refused there,
        // not after its whole body was buffered (JSON and gzip bodies are counted once complete)
        boolean[] peek = {!json && !gzip};
        long timer = vertx.setTimer(limits.requestTimeout().toMillis(), id -> {
            if (!done[0]) {
                done[0] = true;
                refuseAndClose(req, http1, 408, "REQUEST_TIMEOUT", "the body did not arrive within "
                        + limits.requestTimeout().toMillis() + " ms", Map.of(), true);
            }
        });
        req.handler(chunk -> onChunk(req, http1, body, chunk, done, peek, timer));
        req.endHandler(v -> {
            if (done[0]) {
                return;
            }
            done[0] = true;
            vertx.cancelTimer(timer);
            long start = System.nanoTime();
            try {
                batch(req, body.getBytes(), json, gzip, token, keyId, start);
            } catch (RuntimeException e) {
                LOG.warn("a batch failed: {}", e.toString());
                refuse(req, 500, "INTERNAL", "internal error", Map.of());
            }
        });
    }

    /**
     * One chunk of a report body: appended, or the request refused once the body is over its limit or (binary
     * bodies, {@code peek[0]}) its first bytes declare more reports than a batch may hold.
     */
    private void onChunk(HttpServerRequest req, boolean http1, Buffer body, Buffer chunk, boolean[] done,
            boolean[] peek, long timer) {
        if (done[0]) {
            return;
        }
        if ((long) body.length() + chunk.length() > limits.maxBodyBytes()) {
            done[0] = true;
            vertx.cancelTimer(timer);
            refuseAndClose(req, http1, 413, "BODY_TOO_LARGE", "body of more than " + limits.maxBodyBytes()
                    + " bytes", Map.of(), true);
            return;
        }
        body.appendBuffer(chunk);
        if (peek[0]) {
            long count = declaredCount(body);
            if (count != COUNT_UNKNOWN_YET) {
                peek[0] = false;
                if (count > limits.maxReportsPerBatch()) {
                    done[0] = true;
                    vertx.cancelTimer(timer);
                    refuseAndClose(req, http1, 413, "TOO_MANY_REPORTS", "the batch declares " + count
                            + " reports, more than " + limits.maxReportsPerBatch() + " in one batch",
                            Map.of(), true);
                }
            }
        }
    }

    /** {@link #declaredCount}: the first bytes do not tell the count yet. */
    static final long COUNT_UNKNOWN_YET = -1;

    /**
     * The report count a binary batch declares in its first bytes (the envelope version, then the first block's
     * count, a zig-zag varint; a negative count is an Avro block with a byte size, its magnitude is the count).
     *
     * @return the count, {@link #COUNT_UNKNOWN_YET} if the bytes so far end inside the two varints, or 0 when the
     *     head is not a valid varint (the full decoder then names the problem)
     */
    static long declaredCount(Buffer b) {
        int pos = 0;
        long value = 0;
        for (int field = 0; field < 2; field++) {
            long z = 0;
            int shift = 0;
            while (true) {
                if (pos >= b.length()) {
                    return COUNT_UNKNOWN_YET;
                }
                if (shift >= 70) {
                    return 0;
                }
                int x = b.getByte(pos++) & 0xFF;
                z |= (long) (x & 0x7F) << shift;
                shift += 7;
                if ((x & 0x80) == 0) {
                    break;
                }
            }
            value = (z >>> 1) ^ -(z & 1);
        }
        return value == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(value);
    }

    /**
     * One batch, in order: decoded within the body limits, each device id proven by the bearer (a revoked one
     * refuses the whole request), rate-limited per credential, each report checked and deduplicated, then produced
     * unless Kafka is down or too many reports already await it. Every refusal answers the request and counts.
     */
    private void batch(HttpServerRequest req, byte[] raw, boolean json, boolean gzip, String token, String keyId,
            long start) {
        List<DeviceReport> batch = decodeBatch(req, raw, json, gzip);
        if (batch == null) {
            return;
        }
        int n = batch.size();
        Result[] results = new Result[n];
        byte[] credential = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        if (!authenticate(req, batch, credential, keyId, results)) {
            return;
        }
        long wait = perCredential.take(token == null ? "open:" + batch.get(0).deviceId() : token, n);
        if (wait > 0) {
            refuse(req, 429, "RATE_LIMITED_CREDENTIAL", "too many reports for this credential", retryAfter(wait));
            return;
        }
        ReportKey[] keys = new ReportKey[n];
        List<Integer> toSend = checkAndDeduplicate(batch, results, keys);
        if (toSend.isEmpty()) {
            answer(req, json, results, start);
            return;
        }
        if (!kafkaUp) {
            refuse(req, 503, "KAFKA_UNAVAILABLE", "Kafka is unreachable; nothing was taken", Map.of("Retry-After",
                    "1"));
            return;
        }
        if (!inFlight.tryAcquire(toSend.size())) {
            refuse(req, 503, "OVERLOADED", "too many reports await Kafka; nothing was taken",
                    Map.of("Retry-After", "1"));
            return;
        }
        produce(req, json, batch, toSend, keys, results, credential, start);
    }

    /** The batch's reports, or {@code null} after refusing a body that is too large or malformed. */
    private List<DeviceReport> decodeBatch(HttpServerRequest req, byte[] raw, boolean json, boolean gzip) {
        byte[] bytes = raw;
        if (gzip) {
            try {
                bytes = gunzip(raw, limits.maxBodyBytes());
            } catch (TooLarge e) {
                refuse(req, 413, "BODY_TOO_LARGE", "body of more than " + limits.maxBodyBytes()
                        + " bytes after decompression", Map.of());
                return null;
            } catch (IOException e) {
                refuse(req, 400, "MALFORMED", "the gzip body cannot be read", Map.of());
                return null;
            }
        }
        List<DeviceReport> batch;
        try {
            batch = json ? ReportEnvelope.fromJson(bytes) : ReportEnvelope.decode(bytes);
        } catch (ReportEnvelope.Malformed e) {
            boolean tooMany = e.getMessage().startsWith("more than ");
            refuse(req, tooMany ? 413 : 400, tooMany ? "TOO_MANY_REPORTS" : "MALFORMED", e.getMessage(), Map.of());
            return null;
        }
        if (batch.size() > limits.maxReportsPerBatch()) {
            refuse(req, 413, "TOO_MANY_REPORTS", batch.size() + " reports, more than " + limits.maxReportsPerBatch()
                    + " in one batch", Map.of());
            return null;
        }
        return batch;
    }

    /**
     * Whether the bearer proves at least one of the batch's device ids (each unproven report's result is set to
     * {@code UNAUTHENTICATED}); {@code false} after refusing the request: a revoked device, or none proven.
     */
    private boolean authenticate(HttpServerRequest req, List<DeviceReport> batch, byte[] credential, String keyId,
            Result[] results) {
        int proven = 0;
        for (int i = 0; i < batch.size(); i++) {
            DeviceReport r = batch.get(i);
            if (!settings.openIdentities() && !DeviceCredential.verify(credential, r.deviceId(),
                    settings.enrollmentKeys())) {
                results[i] = rejected(RejectReason.UNAUTHENTICATED);
            } else if (revocations.revoked(r.deviceId(), keyId)) {
                refuse(req, 403, "REVOKED", "this device's credential is revoked", Map.of());
                return false;
            } else {
                proven++;
            }
        }
        if (proven == 0 && !settings.openIdentities()) {
            refuse(req, 401, "UNAUTHENTICATED", "the bearer credential proves none of the batch's device ids",
                    Map.of("WWW-Authenticate", "Bearer"));
            return false;
        }
        return true;
    }

    /**
     * The indexes of the reports to produce: each report not yet answered passes the stateless checks and is
     * neither a second copy within the batch nor one this instance recently had acknowledged (those are answered
     * {@code DUPLICATE}); {@code keys} receives the dedupe key of each report to produce.
     */
    private List<Integer> checkAndDeduplicate(List<DeviceReport> batch, Result[] results, ReportKey[] keys) {
        int n = batch.size();
        long now = clock.millis();
        List<Integer> toSend = new ArrayList<>(n);
        Set<ReportKey> inBatch = n == 1 ? null : new HashSet<>(2 * n);
        for (int i = 0; i < n; i++) {
            if (results[i] != null) {
                continue;
            }
            DeviceReport r = batch.get(i);
            Verdict v = check(r, now);
            if (!v.accepted()) {
                results[i] = rejected(v.reason());
                continue;
            }
            ReportKey key = inBatch != null || recent.enabled() ? ReportKey.of(r) : null; // once per report
            if ((inBatch != null && !inBatch.add(key)) || (key != null && recent.contains(key))) {
                results[i] = DUPLICATE;
                continue;
            }
            keys[i] = key;
            toSend.add(i);
        }
        return toSend;
    }

    /** The gateway's stateless checks of one report (identity, registration, version, mechanism, ε, payload, ...). */
    private Verdict check(DeviceReport r, long now) {
        ReportView view = new ReportView(r.workloadId(), r.workloadVersion(), r.contentHash(), r.deviceId(),
                r.period(), r.sequence(), r.eventTime(), r.mechanism(),
                r.kind() == DeviceReport.Kind.LOCAL ? r.epsilon() : Double.NaN, r.payload(), r.value(),
                r.protocolVersion());
        Verdict v = ReportValidator.checkIdentity(view);
        if (!v.accepted()) {
            return v;
        }
        Registration reg = workloads.current(r.workloadId());
        if (reg == null) {
            return Verdict.reject(RejectReason.UNKNOWN_WORKLOAD, "no workload with this id is registered");
        }
        ResolvedWorkload w = reg.workload();
        Mode mode = r.kind() == DeviceReport.Kind.LOCAL ? Mode.LOCAL : Mode.CENTRAL;
        // the protocol version first (PROTOCOL_MISMATCH), then version and hash, ...: the gateway's own order
        v = validator.check(view, w, mode, now);
        if (!v.accepted()) {
            return v;
        }
        long windowStart = w.window().startOf(r.eventTime());
        if (windowStart < w.window().startOf(reg.since())) {
            return Verdict.reject(RejectReason.NOT_ACTIVE, "the window starts before this version became active");
        }
        if (mode == Mode.CENTRAL) {
            return new ReportMode.CentralReports(null).prepare(view, w, new int[1]);
        }
        return Verdict.ACCEPT;
    }

    private void produce(HttpServerRequest req, boolean json, List<DeviceReport> batch, List<Integer> toSend,
            ReportKey[] keys, Result[] results, byte[] credential, long start) {
        Context ctx = vertx.getOrCreateContext();
        AtomicInteger pending = new AtomicInteger(toSend.size());
        AtomicBoolean answered = new AtomicBoolean();
        Runnable finish = () -> {
            if (answered.compareAndSet(false, true)) {
                Result[] out = results.clone();
                boolean anyAccepted = false;
                boolean anyRetry = false;
                for (int i = 0; i < out.length; i++) {
                    if (out[i] == null) {
                        out[i] = RETRY;
                    }
                    anyAccepted |= out[i].status() == Status.ACCEPTED;
                    anyRetry |= out[i].status() == Status.RETRY;
                }
                if (anyRetry && !anyAccepted) {
                    refuse(req, 503, "KAFKA_UNAVAILABLE", "Kafka did not acknowledge the reports in time; send them"
                            + " again", Map.of("Retry-After", "1"));
                    for (Result r : out) {
                        if (r.status() != Status.RETRY) {
                            count(r); // rejected and duplicate ones were decided; they are answered again next time
                        }
                    }
                    return;
                }
                answer(req, json, out, start);
            }
        };
        long timer = vertx.setTimer(limits.produceTimeout().toMillis(), id -> finish.run());
        sender.execute(() -> {
            for (int i : toSend) {
                DeviceReport r = batch.get(i);
                ReportKey key = keys[i];
                RecordHeaders headers = null; // the producer adds empty headers itself
                if (credential != null) {
                    headers = new RecordHeaders();
                    headers.add(DeviceCredential.HEADER, credential);
                }
                String topic = r.kind() == DeviceReport.Kind.LOCAL ? localTopic : centralTopic;
                try {
                    // keyed by device id, default partitioner: the partition the gateway expects (no WRONG_PARTITION)
                    // the record's bytes as the Avro serializer writes them, under the id it would look up
                    byte[] value = KafkaReports.valueBytes(schemaId(r.kind() == DeviceReport.Kind.LOCAL), r);
                    producer.send(new ProducerRecord<>(topic, null, r.deviceId(), value, headers),
                            (md, e) -> {
                                inFlight.release();
                                done(i, key, e, results, pending, ctx, timer, finish);
                            });
                } catch (RuntimeException e) {
                    inFlight.release();
                    done(i, key, e, results, pending, ctx, timer, finish);
                }
            }
        });
    }

    /**
     * The schema id the Avro serializer would write for a report of this kind: the registry's id of the record's
     * schema under the report topic's value subject, looked up (never registered: the gateway registers its schemas)
     * on first use and kept (ids never change in a registry).
     *
     * @throws SerializationException if the registry cannot be asked or does not know the schema (as the serializer)
     */
    private int schemaId(boolean local) {
        int id = local ? localSchemaId : centralSchemaId;
        if (id != 0) {
            return id;
        }
        String topic = local ? localTopic : centralTopic;
        Schema schema = local ? LocalReport.getClassSchema() : CentralReport.getClassSchema();
        String subject = SchemaRegistryClient.valueSubject(topic);
        try {
            id = registry.lookupId(subject, schema);
        } catch (SchemaRegistryException e) {
            throw new SerializationException("cannot look up schema " + schema.getFullName() + " under subject "
                    + subject + " (topic " + topic + "): " + e.getMessage(), e);
        }
        if (local) {
            localSchemaId = id;
        } else {
            centralSchemaId = id;
        }
        return id;
    }

    private void done(int i, ReportKey key, Exception e, Result[] results, AtomicInteger pending, Context ctx,
            long timer, Runnable finish) {
        if (e == null) {
            if (key != null) {
                recent.add(key);
            }
            results[i] = ACCEPTED;
        } else if (e instanceof RetriableException || e instanceof org.apache.kafka.common.errors.TimeoutException) {
            kafkaUp = false; // the health thread sets it again once the cluster answers
            kafkaProblem = e.getClass().getSimpleName();
            results[i] = RETRY;
        } else {
            LOG.warn("producing a report failed: {}", e.toString());
            results[i] = new Result(Status.REJECTED, "KAFKA_" + e.getClass().getSimpleName(), 0);
        }
        if (pending.decrementAndGet() == 0) {
            try {
                ctx.runOnContext(v -> {
                    vertx.cancelTimer(timer);
                    finish.run();
                });
            } catch (RuntimeException x) {
                // the server is gone (closing): nobody is left to answer
            }
        }
    }

    private static Result rejected(RejectReason reason) {
        return new Result(Status.REJECTED, reason.name(), 0);
    }

    private void count(Result r) {
        metrics.report(r.status().name(), r.reason());
    }

    private void answer(HttpServerRequest req, boolean json, Result[] results, long start) {
        List<Result> list = Arrays.asList(results);
        metrics.reports(results);
        if (json) {
            send(req, 200, JSON, ReportEnvelope.resultsToJson(list).getBytes(StandardCharsets.UTF_8), Map.of());
        } else {
            send(req, 200, ReportEnvelope.RESULTS_CONTENT_TYPE, ReportEnvelope.encodeResults(list), Map.of());
        }
        metrics.request.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    /** The request's source address: the peer, or behind a trusted proxy the rightmost untrusted forwarded one. */
    private String sourceAddress(HttpServerRequest req) {
        String peer = req.remoteAddress() == null ? "unknown" : req.remoteAddress().hostAddress();
        if (trustedProxies.isEmpty() || !trustedProxies.contains(peer)) {
            return peer;
        }
        String xff = req.getHeader("X-Forwarded-For");
        if (xff == null) {
            return peer;
        }
        String[] hops = xff.split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            String h = hops[i].trim();
            if (!h.isEmpty() && !trustedProxies.contains(h)) {
                return h.length() > 64 ? h.substring(0, 64) : h;
            }
        }
        return peer;
    }

    private static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String a = authorization.trim();
        if (a.length() < 7 || !a.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = a.substring(7).trim();
        return t.isEmpty() || t.length() > 128 ? null : t;
    }

    private static String keyIdOf(String token) {
        if (token == null || !token.startsWith("v1.")) {
            return null;
        }
        int dot = token.indexOf('.', 3);
        return dot < 0 ? null : token.substring(3, dot);
    }

    private static Map<String, String> retryAfter(long waitMillis) {
        return Map.of("Retry-After", Long.toString(Math.max(1, (waitMillis + 999) / 1000)));
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

    private static final class TooLarge extends IOException {
        TooLarge() {
            super("too large");
        }
    }

    private static byte[] gunzip(byte[] raw, int max) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(raw))) {
            byte[] out = new byte[Math.min(max, Math.max(1024, raw.length * 4))];
            int n = 0;
            while (true) {
                if (n == out.length) {
                    if (out.length >= max) {
                        if (in.read() >= 0) {
                            throw new TooLarge();
                        }
                        return out;
                    }
                    out = Arrays.copyOf(out, Math.min(max, out.length * 2));
                }
                int r = in.read(out, n, out.length - n);
                if (r < 0) {
                    return Arrays.copyOf(out, n);
                }
                n += r;
            }
        }
    }

    /** Answers a refusal (counted under {@code code}): status, a body naming the problem. */
    private void refuse(HttpServerRequest req, int status, String code, String message, Map<String, String> headers) {
        metrics.refused(code);
        send(req, status, TEXT, (code + ": " + message + "\n").getBytes(StandardCharsets.UTF_8), headers);
    }

    /**
     * Refuses before the body was read: an HTTP/1.1 connection is closed after the answer when the unread body
     * would otherwise be drained (or never come).
     */
    private void refuseAndClose(HttpServerRequest req, boolean http1, int status, String code, String message,
            Map<String, String> headers, boolean close) {
        if (http1 && (close || contentLength(req) != 0)) {
            req.response().putHeader("Connection", "close");
            metrics.refused(code);
            write(req, status, TEXT, (code + ": " + message + "\n").getBytes(StandardCharsets.UTF_8), headers)
                    .onComplete(ar -> req.connection().close());
            return;
        }
        refuse(req, status, code, message, headers);
    }

    private static void send(HttpServerRequest req, int status, String type, byte[] body, Map<String, String> h) {
        HttpServerResponse out = req.response();
        if (out.ended() || out.closed()) {
            return;
        }
        write(req, status, type, body, h);
    }

    private static Future<Void> write(HttpServerRequest req, int status, String type, byte[] body,
            Map<String, String> h) {
        HttpServerResponse out = req.response();
        if (out.ended() || out.closed()) {
            return Future.succeededFuture();
        }
        out.setStatusCode(status);
        out.putHeader("Content-Type", type);
        out.putHeader("X-Content-Type-Options", "nosniff");
        if (!h.containsKey("Cache-Control")) {
            out.putHeader("Cache-Control", "no-store");
        }
        h.forEach(out::putHeader);
        if (req.method() == HttpMethod.HEAD || status == 304) {
            if (status != 304) {
                out.putHeader("Content-Length", Integer.toString(body.length));
            }
            return out.end();
        }
        return body.length == 0 ? out.end() : out.end(Buffer.buffer(body));
    }

    /**
     * Stops listening, lets the reports handed to Kafka be acknowledged (up to 5 s; their answers go out on
     * connections still open), then closes the producer, the HTTP machinery and the catalog reader. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (HttpServer s : new HttpServer[] {server, opsServer}) {
            if (s != null) {
                try {
                    s.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    LOG.warn("stopping a listener: {}", e.toString());
                }
            }
        }
        sender.shutdown();
        try {
            sender.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5)); // callbacks of reports under way run now
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("stopping the HTTP server: {}", e.toString());
        }
        healthThread.interrupt();
        admin.close(Duration.ofSeconds(2));
        workloads.close();
        registry.close();
    }
}

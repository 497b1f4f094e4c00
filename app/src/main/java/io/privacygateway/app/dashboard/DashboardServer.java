package io.privacygateway.app.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.privacygateway.app.http.HttpEndpoint.Reply;
import io.privacygateway.app.http.HttpEndpoint.Request;
import io.privacygateway.app.http.HttpEndpoint.Response;
import io.privacygateway.app.http.HttpEndpoint.Work;
import io.privacygateway.app.http.HttpEndpoint;
import io.privacygateway.app.http.HttpLimits;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard's web server (an {@link HttpEndpoint}: timeouts, size limits and bounded threads are set there, see
 * {@link HttpLimits}; no external resources: the page, its script and the charting library, uPlot from its webjar,
 * are all served from the class path). The page polls the JSON documents below; nothing is streamed.
 *
 * <ul>
 *   <li>{@code GET /}: the page. {@code /assets/...}: its script, style sheet and the charting library.
 *   <li>{@code GET /api/history}: per workload the last windows (see {@link AnswerHistory}) with their
 *       estimates and error bars, n, ε and cumulative ε, the time of the last answer and whether the
 *       workload is stale; the rejected reports by reason over time ({@link RejectionHistory}); the
 *       answers-topic records that could not be used.
 *   <li>{@code GET /api/answers}: the latest answer of every workload (with the true values when a truth
 *       source is known, as in the demo). {@code GET /api/metrics}: the gateway's {@code pgw.*} counters.
 * </ul>
 *
 * <p>Anything else is 404; methods other than GET and HEAD are 405. Every request whose {@code Host} header
 * does not name 127.0.0.1, localhost or the bind host with the bound port is refused with 403 (DNS-rebinding
 * defence, {@link HostCheck}). The rejection counters are sampled on a background thread every
 * {@link DashboardOptions#rejectionSampleEvery()}; every time shown comes from the injected clock. The JSON
 * documents are built on the endpoint's worker threads; the page and its assets are answered on the event loop, and
 * a slow or silent client never holds up another (it is closed after {@link HttpLimits#requestTimeout()}).
 */
public final class DashboardServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DashboardServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The charting library's webjar (its version is read from the jar's own Maven metadata). */
    private static final String UPLOT_POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";
    private static final String UPLOT_DIST = "META-INF/resources/webjars/uplot/%s/dist/";
    private static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final Map<String, String> PAGE_HEADERS = Map.of("Referrer-Policy", "no-referrer",
            "X-Frame-Options", "DENY", "Content-Security-Policy", CSP);
    private static final String TEXT = "text/plain; charset=utf-8";

    private volatile HttpEndpoint endpoint;
    private volatile HostCheck hostCheck;
    private final DashboardOptions options;
    private final AnswerHistory history;
    private final RejectionHistory rejections;
    private final MeterRegistry meters;
    private final TruthSource truth;
    private final Clock clock;
    private final Map<String, Asset> assets;
    private final ScheduledExecutorService sampler;
    private final AtomicBoolean closed = new AtomicBoolean();

    private record Asset(String contentType, byte[] body) {}

    private DashboardServer(DashboardOptions options, AnswerHistory history, MeterRegistry meters,
            TruthSource truth, Clock clock) {
        this.options = options;
        this.history = history;
        this.meters = meters;
        this.truth = truth;
        this.clock = clock;
        this.rejections = new RejectionHistory(meters, options.rejectionSamplesKept(), clock);
        this.assets = loadAssets();
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dashboard-rejection-sampler");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Binds and starts the dashboard with {@link HttpLimits#defaults()}.
     *
     * @param options bind host, port, sampling and staleness
     * @param history the answers to show (filled by an {@link AnswerBoard}, or directly)
     * @param meters the gateway's meters ({@code pgw.*} counters), or {@code null}
     * @param truth the true mean answers of a workload window by label, if known (demo), else {@code null}
     * @param clock the time source of "now", the staleness rule and the rejection samples
     * @throws IOException if the host does not resolve or the port cannot be bound
     */
    public static DashboardServer start(DashboardOptions options, AnswerHistory history, MeterRegistry meters,
            TruthSource truth, Clock clock) throws IOException {
        return start(options, history, meters, truth, clock, HttpLimits.defaults());
    }

    /** {@link #start(DashboardOptions, AnswerHistory, MeterRegistry, TruthSource, Clock)} with the given limits. */
    public static DashboardServer start(DashboardOptions options, AnswerHistory history, MeterRegistry meters,
            TruthSource truth, Clock clock, HttpLimits limits) throws IOException {
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(clock, "clock");
        DashboardServer d = new DashboardServer(options, history, meters, truth, clock);
        d.endpoint = HttpEndpoint.start("dashboard", options.bindHost(), options.port(), limits, d::handle);
        try {
            d.hostCheck = new HostCheck(options.bindHost(), d.endpoint.port());
            d.rejections.sample();
            long every = options.rejectionSampleEvery().toMillis();
            d.sampler.scheduleAtFixedRate(d::sampleQuietly, every, every, TimeUnit.MILLISECONDS);
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /** The page's address (127.0.0.1 when bound to a wildcard address). */
    public URI url() {
        return endpoint.base();
    }

    /** The bound port. */
    public int port() {
        return endpoint.port();
    }

    public AnswerHistory history() {
        return history;
    }

    /** Samples the rejection counters now (the background thread does this periodically). */
    public void sampleRejections() {
        rejections.sample();
    }

    private void sampleQuietly() {
        try {
            rejections.sample();
        } catch (RuntimeException e) {
            LOG.warn("sampling the rejection counters failed: {}", e.toString());
        }
    }

    // ---- routing ----------------------------------------------------------------------------------

    private Reply handle(Request r) {
        HostCheck check = hostCheck;
        if (check == null || !check.allows(r.header("Host"))) {
            return page(403, TEXT, "forbidden: unexpected Host header\n");
        }
        if (!r.method().equals("GET") && !r.method().equals("HEAD")) {
            return page(405, TEXT, "method not allowed\n").with("Allow", "GET, HEAD");
        }
        return switch (r.path()) {
            case "/api/history" -> new Work(() -> page(200, "application/json", historyJson()));
            case "/api/answers" -> new Work(() -> page(200, "application/json", answersJson()));
            case "/api/metrics" -> new Work(() -> page(200, "application/json", metricsJson(meters)));
            default -> {
                Asset a = assets.get(r.path());
                yield a == null ? page(404, TEXT, "not found\n") : page(200, a.contentType(), a.body());
            }
        };
    }

    private static Map<String, Asset> loadAssets() {
        Map<String, Asset> a = new HashMap<>();
        a.put("/", asset("dashboard/index.html", "text/html; charset=utf-8"));
        a.put("/assets/dashboard.js", asset("dashboard/dashboard.js", "text/javascript; charset=utf-8"));
        a.put("/assets/dashboard.css", asset("dashboard/dashboard.css", "text/css; charset=utf-8"));
        String version = webjarVersion();
        if (version == null) {
            LOG.warn("the uPlot webjar is not on the class path: the dashboard shows no charts");
        } else {
            String dist = String.format(UPLOT_DIST, version);
            a.put("/assets/uplot/uPlot.iife.min.js", asset(dist + "uPlot.iife.min.js", "text/javascript; charset=utf-8"));
            a.put("/assets/uplot/uPlot.min.css", asset(dist + "uPlot.min.css", "text/css; charset=utf-8"));
        }
        a.values().removeIf(Objects::isNull);
        return Map.copyOf(a);
    }

    private static String webjarVersion() {
        try (InputStream in = DashboardServer.class.getClassLoader().getResourceAsStream(UPLOT_POM)) {
            if (in == null) {
                return null;
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            return null;
        }
    }

    private static Asset asset(String resource, String type) {
        try (InputStream in = DashboardServer.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                LOG.warn("dashboard resource {} is missing from the class path", resource);
                return null;
            }
            return new Asset(type, in.readAllBytes());
        } catch (IOException e) {
            LOG.warn("dashboard resource {} could not be read: {}", resource, e.toString());
            return null;
        }
    }

    // ---- JSON -------------------------------------------------------------------------------------

    /** The body of {@code /api/history}. */
    String historyJson() throws IOException {
        AnswerHistory.Snapshot snap = history.snapshot();
        long now = clock.millis();
        ObjectNode root = JSON.createObjectNode();
        root.put("now", now);
        root.put("windowsKept", history.windowsKept());
        root.put("staleAfterWindows", options.staleAfterWindows());
        root.put("answers", snap.answers());
        ObjectNode skipped = root.putObject("skippedRecords");
        snap.skipped().forEach(skipped::put);
        boolean anyStale = false;
        ArrayNode workloads = root.putArray("workloads");
        for (AnswerHistory.WorkloadHistory w : snap.workloads()) {
            WindowView latest = w.latest();
            boolean stale = options.isStale(w.lastAnswerAt(), latest.windowMillis(), now);
            anyStale |= stale;
            ObjectNode o = workloads.addObject();
            o.put("workload", w.workloadId());
            o.put("horizon", latest.horizon());
            o.put("version", latest.version());
            o.put("mode", latest.mode());
            o.put("mechanism", latest.mechanism());
            o.put("chart", latest.chart().wireName());
            num(o, "confidence", latest.confidence());
            o.put("windowMillis", latest.windowMillis());
            o.put("lastAnswerAt", w.lastAnswerAt());
            o.put("staleAfterMillis", options.staleAfterMillis(latest.windowMillis()));
            o.put("stale", stale);
            ArrayNode windows = o.putArray("windows");
            for (WindowView v : w.windows()) {
                ObjectNode x = windows.addObject();
                x.put("start", v.windowStart());
                x.put("end", v.windowEnd());
                x.put("version", v.version());
                x.put("n", v.n());
                num(x, "epsilon", v.epsilon());
                num(x, "cumulativeEpsilon", v.cumulativeEpsilon());
                amplified(x, v);
                strings(x.putArray("labels"), v.labels());
                numbers(x.putArray("estimates"), v.estimates());
                numbers(x.putArray("lower"), v.lower());
                numbers(x.putArray("upper"), v.upper());
                if (!v.items().isEmpty()) {
                    strings(x.putArray("items"), v.items());
                }
                if (!v.scalars().isEmpty()) {
                    ObjectNode sc = x.putObject("scalars");
                    v.scalars().forEach((k, val) -> num(sc, k, val));
                }
                double[] t = truth == null || !v.horizon().isEmpty() ? null
                        : truth.trueAnswers(v.workloadId(), v.windowStart(), v.labels());
                if (t != null) {
                    ArrayNode tr = x.putArray("truth");
                    for (int q = 0; q < v.labels().size(); q++) {
                        num(tr, q < t.length ? t[q] : Double.NaN);
                    }
                }
            }
        }
        root.put("stale", anyStale);
        ObjectNode rej = root.putObject("rejections");
        rej.put("sampleEveryMillis", options.rejectionSampleEvery().toMillis());
        List<RejectionHistory.Sample> samples = rejections.samples();
        Set<String> reasons = new TreeSet<>();
        samples.forEach(s -> reasons.addAll(s.totals().keySet()));
        strings(rej.putArray("reasons"), List.copyOf(reasons));
        ArrayNode arr = rej.putArray("samples");
        for (RejectionHistory.Sample s : samples) {
            ObjectNode x = arr.addObject();
            x.put("at", s.at());
            ObjectNode totals = x.putObject("totals");
            s.totals().forEach(totals::put);
        }
        return JSON.writeValueAsString(root);
    }

    /** Adds {@code amplified: {epsilon, delta}} when the answer carries an amplified central guarantee. */
    private static void amplified(ObjectNode o, WindowView v) {
        if (Double.isFinite(v.amplifiedEpsilon()) && Double.isFinite(v.amplifiedDelta())) {
            ObjectNode a = o.putObject("amplified");
            a.put("epsilon", v.amplifiedEpsilon());
            a.put("delta", v.amplifiedDelta());
        }
    }

    /** The body of {@code /api/answers}: the latest window of every workload. */
    String answersJson() throws IOException {
        ArrayNode arr = JSON.createArrayNode();
        for (AnswerHistory.WorkloadHistory w : history.snapshot().workloads()) {
            WindowView a = w.latest();
            ObjectNode o = arr.addObject();
            o.put("workload", a.workloadId());
            o.put("horizon", a.horizon());
            o.put("version", a.version());
            o.put("mode", a.mode());
            o.put("mechanism", a.mechanism());
            num(o, "epsilon", a.epsilon());
            num(o, "delta", a.delta());
            num(o, "cumulativeEpsilon", a.cumulativeEpsilon());
            amplified(o, a);
            o.put("windowStart", Instant.ofEpochMilli(a.windowStart()).toString());
            o.put("windowEnd", Instant.ofEpochMilli(a.windowEnd()).toString());
            o.put("n", a.n());
            num(o, "confidence", a.confidence());
            double[] t = truth == null || !a.horizon().isEmpty() ? null
                    : truth.trueAnswers(a.workloadId(), a.windowStart(), a.labels());
            ArrayNode rows = o.putArray("answers");
            double[] est = a.estimates();
            double[] lo = a.lower();
            double[] hi = a.upper();
            for (int q = 0; q < a.labels().size(); q++) {
                ObjectNode r = rows.addObject();
                r.put("label", a.labels().get(q));
                num(r, "estimate", est[q]);
                num(r, "lower", lo[q]);
                num(r, "upper", hi[q]);
                if (t != null && q < t.length) {
                    num(r, "true", t[q]);
                }
            }
        }
        return JSON.writeValueAsString(arr);
    }

    static String metricsJson(MeterRegistry meters) throws IOException {
        ArrayNode arr = JSON.createArrayNode();
        if (meters != null) {
            for (var m : meters.getMeters()) {
                if (m instanceof Counter c && m.getId().getName().startsWith("pgw.")) {
                    ObjectNode o = arr.addObject();
                    o.put("name", m.getId().getName());
                    ObjectNode tags = o.putObject("tags");
                    m.getId().getTags().forEach(t -> tags.put(t.getKey(), t.getValue()));
                    o.put("count", c.count());
                }
            }
        }
        return JSON.writeValueAsString(arr);
    }

    /** JSON has no NaN or infinity: a non-finite number is written as {@code null}. */
    private static void num(ObjectNode o, String key, double v) {
        if (Double.isFinite(v)) {
            o.put(key, v);
        } else {
            o.putNull(key);
        }
    }

    private static void num(ArrayNode a, double v) {
        if (Double.isFinite(v)) {
            a.add(v);
        } else {
            a.addNull();
        }
    }

    private static void numbers(ArrayNode a, double[] values) {
        for (double v : values) {
            num(a, v);
        }
    }

    private static void strings(ArrayNode a, List<String> values) {
        values.forEach(a::add);
    }

    // ---- responses --------------------------------------------------------------------------------

    private static Response page(int status, String type, String body) {
        return page(status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    /** A response with the page's own headers: no referrer, no framing, the CSP. */
    private static Response page(int status, String type, byte[] body) {
        return new Response(status, type, body, PAGE_HEADERS);
    }

    /** Stops the sampler and the server (idempotent). */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            sampler.shutdownNow();
            if (endpoint != null) {
                endpoint.close();
            }
        }
    }
}

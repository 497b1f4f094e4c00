package io.privacygateway.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.harness.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's HTTP surface: routing (unknown paths are 404, not the page as before; only GET and HEAD),
 * the Host-header check against DNS rebinding, the configurable bind host, the assets served from the class
 * path (the page and the uPlot webjar), and {@code /api/history} built from real released answers: windows
 * kept, the staleness rule at its boundary, rejections over time, and JSON without NaN.
 */
class DashboardServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-02T09:30:00Z"));
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private DashboardServer start(DashboardOptions options, AnswerHistory history, SimpleMeterRegistry meters,
            RealAnswers truth) throws IOException {
        DashboardServer s = DashboardServer.start(options, history, meters, truth == null ? null : truth::truth, clock);
        open.add(s);
        return s;
    }

    private static DashboardOptions options() {
        return new DashboardOptions("127.0.0.1", 0, Duration.ofHours(1), 100, 3);
    }

    /** Sends a request as written (so the Host header can be anything, or missing) and returns the response. */
    private static String raw(String host, int port, String request) throws IOException {
        try (Socket s = new Socket(host, port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    private static String get(String path, String host) {
        return "GET " + path + " HTTP/1.1\r\n" + (host == null ? "" : "Host: " + host + "\r\n") + "Connection: close\r\n\r\n";
    }

    @Test
    void requestsWhoseHostHeaderNamesAnotherSiteAreRefused() throws Exception {
        DashboardServer s = start(options(), new AnswerHistory(60, clock), null, null);
        int port = s.port();
        assertThat(status(raw("127.0.0.1", port, get("/", "127.0.0.1:" + port)))).isEqualTo(200);
        assertThat(status(raw("127.0.0.1", port, get("/api/history", "localhost:" + port)))).isEqualTo(200);
        assertThat(status(raw("127.0.0.1", port, get("/", "LocalHost:" + port)))).isEqualTo(200);
        // DNS rebinding: the attacker's name resolves to 127.0.0.1, but the browser sends that name
        String refused = raw("127.0.0.1", port, get("/api/history", "attacker.example:" + port));
        assertThat(status(refused)).isEqualTo(403);
        assertThat(refused).doesNotContain("workloads");
        assertThat(status(raw("127.0.0.1", port, get("/", "attacker.example")))).isEqualTo(403);
        assertThat(status(raw("127.0.0.1", port, get("/", "127.0.0.1:" + (port + 1))))).isEqualTo(403);
        assertThat(status(raw("127.0.0.1", port, get("/", "127.0.0.1")))).as("port 80 is not ours").isEqualTo(403);
        assertThat(status(raw("127.0.0.1", port, "GET / HTTP/1.0\r\n\r\n"))).as("no Host header").isEqualTo(403);
        assertThat(s.url()).isEqualTo(URI.create("http://127.0.0.1:" + port + "/"));
    }

    @Test
    void theConfiguredBindHostIsUsedAndAccepted() throws Exception {
        DashboardServer s;
        try {
            s = start(options().withBindHost("127.0.0.2"), new AnswerHistory(60, clock), null, null);
        } catch (SocketException e) {
            Assumptions.abort("127.0.0.2 cannot be bound on this system: " + e);
            return;
        }
        int port = s.port();
        assertThat(s.url()).isEqualTo(URI.create("http://127.0.0.2:" + port + "/"));
        assertThat(status(raw("127.0.0.2", port, get("/", "127.0.0.2:" + port)))).isEqualTo(200);
        assertThat(status(raw("127.0.0.2", port, get("/", "localhost:" + port)))).isEqualTo(200);
        assertThat(status(raw("127.0.0.2", port, get("/", "127.0.0.3:" + port)))).isEqualTo(403);
        // bound to 127.0.0.2 only: 127.0.0.1 does not answer
        assertThat(catchConnect("127.0.0.1", port)).isTrue();
    }

    private static boolean catchConnect(String host, int port) {
        try (Socket ignored = new Socket()) {
            ignored.connect(new InetSocketAddress(InetAddress.getByName(host), port), 2000);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void unknownPathsAre404AndOnlyGetAndHeadAreAnswered() throws Exception {
        DashboardServer s = start(options(), new AnswerHistory(60, clock), null, null);
        int port = s.port();
        String host = "127.0.0.1:" + port;
        for (String path : List.of("/nope", "/index.html", "/api", "/api/history/x", "/assets/", "/assets/../dashboard/index.html",
                "/assets/uplot/uPlot.esm.js", "/META-INF/maven/org.webjars.npm/uplot/pom.properties", "/favicon.ico")) {
            assertThat(status(raw("127.0.0.1", port, get(path, host)))).as(path).isEqualTo(404);
        }
        String post = "POST /api/history HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        String r = raw("127.0.0.1", port, post);
        assertThat(status(r)).isEqualTo(405);
        assertThat(r).contains("Allow: GET, HEAD");
        String head = raw("127.0.0.1", port, "HEAD /api/history HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
        assertThat(status(head)).isEqualTo(200);
    }

    @Test
    void thePageAndTheChartingLibraryAreServedFromTheClassPath() throws Exception {
        DashboardServer s = start(options(), new AnswerHistory(60, clock), null, null);
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(s.url()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElse("")).contains("default-src 'none'")
                .contains("script-src 'self'").contains("connect-src 'self'");
        assertThat(page.body()).contains("/assets/uplot/uPlot.iife.min.js").contains("/assets/dashboard.js")
                .doesNotContain("http://").doesNotContain("https://");
        for (String asset : List.of("/assets/uplot/uPlot.iife.min.js", "/assets/uplot/uPlot.min.css", "/assets/dashboard.js",
                "/assets/dashboard.css")) {
            HttpResponse<String> a = http.send(HttpRequest.newBuilder(s.url().resolve(asset)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(a.statusCode()).as(asset).isEqualTo(200);
            assertThat(a.headers().firstValue("Content-Type").orElse("")).startsWith(asset.endsWith(".js") ? "text/javascript" : "text/css");
            assertThat(a.body().length()).as(asset).isGreaterThan(1000);
        }
        HttpResponse<String> lib = http.send(HttpRequest.newBuilder(s.url().resolve("/assets/uplot/uPlot.iife.min.js")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(lib.body()).contains("uPlot");
    }

    @Test
    void historyServesTheKeptWindowsAndSaysWhenAWorkloadIsStale() throws Exception {
        RealAnswers real = new RealAnswers(21);
        AnswerHistory history = new AnswerHistory(4, clock);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayMetrics metrics = new GatewayMetrics(meters);
        DashboardServer s = start(options(), history, meters, real);
        long size = real.windowMillis();
        long t0 = clock.millis();
        for (int k = 0; k < 6; k++) {
            List<WindowAnswer> answers = real.window(t0 + k * size, 300);
            clock.set(Instant.ofEpochMilli(t0 + (k + 1) * size + 2000));
            answers.forEach(history::accept);
            metrics.rejected(RejectReason.DUPLICATE, "screen-usage");
            metrics.rejected(RejectReason.DUPLICATE, "latency-cdf");
            metrics.rejected(RejectReason.LATE, "screen-usage");
            s.sampleRejections();
        }
        history.skipped("BAD_MAGIC");
        JsonNode h = JSON.readTree(s.historyJson());
        assertThat(h.path("now").asLong()).isEqualTo(clock.millis());
        assertThat(h.path("windowsKept").asInt()).isEqualTo(4);
        assertThat(h.path("answers").asLong()).isEqualTo(6L * RealAnswers.demoWorkloads().size());
        assertThat(h.path("skippedRecords").path("BAD_MAGIC").asLong()).isEqualTo(1);
        assertThat(h.path("stale").asBoolean()).isFalse();
        assertThat(h.path("workloads")).hasSize(RealAnswers.demoWorkloads().size());
        for (JsonNode w : h.path("workloads")) {
            assertThat(w.path("windows")).as("only the last 4 windows").hasSize(4);
            assertThat(w.path("windows").get(0).path("start").asLong()).isEqualTo(t0 + 2 * size);
            assertThat(w.path("windows").get(3).path("end").asLong()).isEqualTo(t0 + 6 * size);
            assertThat(w.path("windowMillis").asLong()).isEqualTo(size);
            assertThat(w.path("lastAnswerAt").asLong()).isEqualTo(clock.millis());
            assertThat(w.path("staleAfterMillis").asLong()).isEqualTo(3 * size);
            JsonNode last = w.path("windows").get(3);
            int m = last.path("labels").size();
            if (!w.path("chart").asText().equals("heavy-hitters")) { // its labels are the strings found: maybe none
                assertThat(m).isPositive();             // at 300 reports (threshold share ≈ 0.4)
            }
            for (String key : List.of("estimates", "lower", "upper", "truth")) {
                assertThat(last.path(key)).as(key).hasSize(m);
            }
            assertThat(last.path("n").asLong()).isPositive();
            assertThat(last.path("epsilon").asDouble()).isPositive();
        }
        JsonNode central = workload(h, "session-length");
        assertThat(central.path("mode").asText()).isEqualTo("central");
        assertThat(central.path("chart").asText()).isEqualTo("ranges");
        assertThat(central.path("windows").get(3).path("cumulativeEpsilon").asDouble())
                .as("six releases of ε = 1 + 0.5 (the running totals) so far").isEqualTo(9.0);
        assertThat(workload(h, "latency-cdf").path("chart").asText()).isEqualTo("cdf");
        assertThat(workload(h, "feature-flags").path("chart").asText()).isEqualTo("marginals");
        assertThat(workload(h, "screen-usage").path("chart").asText()).isEqualTo("bars");
        JsonNode usage = workload(h, "screen-usage").path("windows").get(3);
        assertThat(usage.path("amplified").path("epsilon").asDouble())
                .as("a local answer shows its amplified central ε, below the ε per report")
                .isPositive().isLessThan(usage.path("epsilon").asDouble());
        assertThat(usage.path("amplified").path("delta").asDouble()).isPositive().isLessThanOrEqualTo(1e-3);
        assertThat(central.path("windows").get(3).has("amplified")).as("central answers have none").isFalse();

        JsonNode rej = h.path("rejections");
        assertThat(rej.path("reasons").toString()).isEqualTo("[\"DUPLICATE\",\"LATE\"]");
        JsonNode samples = rej.path("samples");
        assertThat(samples).hasSize(7); // one at start, one per window
        assertThat(samples.get(6).path("totals").path("DUPLICATE").asLong()).as("summed over workloads").isEqualTo(12);
        assertThat(samples.get(6).path("totals").path("LATE").asLong()).isEqualTo(6);
        assertThat(samples.get(6).path("at").asLong()).isEqualTo(clock.millis());

        // stale only when MORE than 3 window lengths have passed without an answer
        clock.advance(Duration.ofMillis(3 * size));
        assertThat(JSON.readTree(s.historyJson()).path("stale").asBoolean()).isFalse();
        clock.advance(Duration.ofMillis(1));
        JsonNode stale = JSON.readTree(s.historyJson());
        assertThat(stale.path("stale").asBoolean()).isTrue();
        stale.path("workloads").forEach(w -> assertThat(w.path("stale").asBoolean()).isTrue());
        // one workload answers again: only the others stay stale
        WindowAnswer again = real.window(t0 + 9 * size, 300).get(0);
        history.accept(again);
        JsonNode mixed = JSON.readTree(s.historyJson());
        assertThat(workload(mixed, again.getWorkloadId()).path("stale").asBoolean()).isFalse();
        assertThat(mixed.path("stale").asBoolean()).isTrue();
    }

    @Test
    void numbersThatJsonCannotHoldAreWrittenAsNull() throws Exception {
        AnswerHistory history = new AnswerHistory(60, clock);
        WindowAnswer a = new RealAnswers(2).window(clock.millis(), 200).get(0);
        List<Double> est = new ArrayList<>(a.getEstimates());
        est.set(0, Double.NaN);
        a.setEstimates(est);
        a.setUpper(new ArrayList<>(a.getUpper().subList(0, 1))); // too short: padded
        a.setEpsilon(Double.POSITIVE_INFINITY);
        history.accept(a);
        DashboardServer s = start(options(), history, null, null);
        JsonNode h = JSON.readTree(s.historyJson()); // would throw on a bare NaN token
        JsonNode w = h.path("workloads").get(0).path("windows").get(0);
        assertThat(w.path("estimates").get(0).isNull()).isTrue();
        assertThat(w.path("upper").get(1).isNull()).isTrue();
        assertThat(w.path("upper")).hasSize(w.path("labels").size());
        assertThat(w.path("epsilon").isNull()).isTrue();
        JsonNode answers = JSON.readTree(s.answersJson());
        assertThat(answers.get(0).path("answers").get(0).path("estimate").isNull()).isTrue();
    }

    private static JsonNode workload(JsonNode history, String id) {
        for (JsonNode w : history.path("workloads")) {
            if (w.path("workload").asText().equals(id)) {
                return w;
            }
        }
        throw new AssertionError("no workload " + id + " in " + history);
    }
}

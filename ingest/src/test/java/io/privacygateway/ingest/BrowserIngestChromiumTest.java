package io.privacygateway.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.privacygateway.harness.testing.HeadlessChromium;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * In a real browser, end to end: headless Chromium loads a page (served from another origin on 127.0.0.1) that
 * imports the bundled TypeScript SDK ({@code sdk/typescript/dist/full.min.js}, built by {@code npm run build}),
 * creates one {@code Client} per device against the ingestion service (which allows the page's origin by CORS),
 * lets each fetch and hash-check {@code GET /v1/workloads} itself and report five values from a known histogram
 * (300 reports from 60 enrolled devices, all with an event time inside one window). The gateway's published answer
 * for that window must count every accepted report, and every true count must lie within 4.5 of the published
 * standard errors of its estimate (per-bar failure probability about 7·10⁻⁶ under the normal approximation, about
 * 3·10⁻⁵ per run for the four bars). Skipped with a message when Chromium or the bundle is missing.
 */
@ExtendWith(IngestFixture.Extension.class)
class BrowserIngestChromiumTest {
    static final String WORKLOAD = """
            id: browser-hist
            version: 1
            family: histogram
            domain: {labels: [a, b, c, d]}
            mechanism: grr
            epsilonPerReport: 2.0
            budget: {epsilonPerPeriod: 40.0, period: 1d}
            window: {size: 10s, grace: 5s}
            expectedReportsPerWindow: 300
            """;
    static final int DEVICES = 60;
    static final int PER_DEVICE = 5;
    /** Value i of a device is LABELS[i mod 10]-distributed: a 40 %, b 30 %, c 20 %, d 10 %. */
    static final String PATTERN = "aaaabbbccd";
    static final Path BUNDLE = Path.of("..", "sdk", "typescript", "dist", "full.min.js");
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aPageUsingTheBundledSdkReachesThePublishedAnswerWithinItsErrorBars(IngestFixture g) throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "SKIPPED: no Chromium found (install it with"
                + " `apt-get install chromium`, or name one with -Dprivacygateway.chromium=PATH)");
        Assumptions.assumeTrue(Files.isRegularFile(BUNDLE), "SKIPPED: no SDK bundle at " + BUNDLE.toAbsolutePath()
                + " (run `npm ci && npm run build` in sdk/typescript)");
        WorkloadSpec spec = g.register(WORKLOAD);
        byte[] bundle = Files.readAllBytes(BUNDLE);
        HttpServer pages = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String origin = "http://127.0.0.1:" + pages.getAddress().getPort();
        try (IngestService ingest = g.start(g.settings().withCorsOrigins(List.of(origin)))) {
            awaitDocument(ingest, spec.id());
            ObjectNode credentials = JSON.createObjectNode();
            for (int d = 0; d < DEVICES; d++) {
                credentials.put("browser-dev-" + d, g.credential("browser-dev-" + d));
            }
            long windowStart = nextWindow();
            String page = page(ingest.base().toString().replaceAll("/$", ""), credentials.toString(), spec.id(),
                    windowStart + 1000);
            pages.createContext("/", ex -> {
                switch (ex.getRequestURI().getPath()) {
                    case "/" -> send(ex, "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8));
                    case "/sdk.js" -> send(ex, "text/javascript", bundle);
                    default -> {
                        ex.sendResponseHeaders(404, -1);
                        ex.close();
                    }
                }
            });
            pages.start();
            JsonNode summary;
            try (HeadlessChromium browser = HeadlessChromium.start(chromium.get(), 800, 600,
                    Path.of("target", "browser-ingest", "chromium.log"))) {
                browser.navigate(origin + "/");
                summary = browser.waitFor("window.__summary ?? null", s -> true, Duration.ofSeconds(40),
                        "the page's report outcomes");
            }
            assertThat(summary.path("error").asText("")).as("the page's error").isEmpty();
            assertThat(summary.path("hashChecked").asBoolean()).isTrue();
            int accepted = summary.path("outcomes").path("ACCEPTED").asInt();
            assertThat(accepted).as("outcomes %s", summary.path("outcomes")).isEqualTo(DEVICES * PER_DEVICE);

            List<WindowAnswer> answers = g.readUntil(g.config.answersTopic(), WindowAnswer.class,
                    w -> w.getWorkloadId().equals(spec.id()) && w.getWindowStart().toEpochMilli() == windowStart,
                    l -> !l.isEmpty(), Duration.ofSeconds(40));
            assertThat(answers).hasSize(1);
            WindowAnswer answer = answers.get(0);
            assertThat(answer.getN()).isEqualTo(accepted);
            List<String> labels = answer.getLabels().stream().map(Object::toString).toList();
            int inBars = 0;
            StringBuilder figures = new StringBuilder();
            for (int i = 0; i < labels.size(); i++) {
                String label = labels.get(i);
                double truth = PATTERN.chars().filter(c -> c == label.charAt(0)).count() * (double) DEVICES
                        * PER_DEVICE / PATTERN.length();
                double t = truth / answer.getN(); // a histogram answer publishes frequencies
                double est = answer.getEstimates().get(i);
                double se = answer.getStandardErrors().get(i);
                boolean inBar = answer.getLower().get(i) <= t && t <= answer.getUpper().get(i);
                inBars += inBar ? 1 : 0;
                figures.append(String.format("%s: truth %.3f estimate %.3f se %.3f bar [%.3f, %.3f]%s%n", label, t,
                        est, se, answer.getLower().get(i), answer.getUpper().get(i), inBar ? "" : " (outside)"));
                assertThat(Math.abs(est - t)).as("%s", figures).isLessThanOrEqualTo(4.5 * se);
            }
            System.out.printf("browser -> ingest -> gateway: n=%d, %d of %d bars (confidence %s) contain the truth%n%s",
                    answer.getN(), inBars, labels.size(), answer.getConfidence(), figures);
        } finally {
            pages.stop(0);
        }
    }

    /** Waits (at most 30 s) until the service is ready and serves the workload's document. */
    static void awaitDocument(IngestService s, String id) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < end) {
            try {
                if (s.ready() && http.send(HttpRequest.newBuilder(s.base().resolve("/v1/workloads/" + id))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the ingest service did not serve " + id + " within 30 s: " + s.readiness());
    }

    static long nextWindow() throws InterruptedException {
        long windowStart = (Math.floorDiv(System.currentTimeMillis(), 10_000) + 1) * 10_000;
        while (System.currentTimeMillis() < windowStart + 50) {
            Thread.sleep(10);
        }
        return windowStart;
    }

    static void send(HttpExchange ex, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(200, body.length);
        ex.getResponseBody().write(body);
        ex.close();
    }

    static String page(String endpoint, String credentials, String workloadId, long eventTime) {
        return """
                <!doctype html><title>pgw browser ingest</title><script type="module">
                import { Client, protocolFor, MemoryStorage } from '/sdk.js';
                const ENDPOINT = %s, CREDENTIALS = %s, WORKLOAD = %s, EVENT_TIME = %d, PER_DEVICE = %d, PATTERN = %s;
                const summary = { outcomes: {}, hashChecked: false, error: '' };
                try {
                  const clients = await Promise.all(Object.entries(CREDENTIALS).map(([deviceId, credential]) =>
                    Client.create({ deviceId, endpoint: ENDPOINT, credential, storage: new MemoryStorage(), protocol: protocolFor })));
                  summary.hashChecked = true; // Client.create fetched GET /v1/workloads and checked each content hash
                  const pending = [];
                  clients.forEach((c, d) => { for (let i = 0; i < PER_DEVICE; i++) {
                    pending.push(c.report(WORKLOAD, PATTERN[(d * PER_DEVICE + i) %% PATTERN.length], EVENT_TIME)); } });
                  await Promise.all(clients.map((c) => c.sendNow()));
                  for (const o of await Promise.all(pending)) summary.outcomes[o] = (summary.outcomes[o] || 0) + 1;
                  await Promise.all(clients.map((c) => c.close()));
                } catch (e) { summary.error = String(e && e.stack || e); }
                window.__summary = JSON.stringify(summary);
                </script>
                """.formatted(q(endpoint), credentials, q(workloadId), eventTime, PER_DEVICE, q(PATTERN));
    }

    static String q(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.privacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The embedded demo end to end (real broker, real registry, the gateway, the fleet, the dashboard): every
 * example workload publishes answers, each printed next to the simulator's true values; misbehaving
 * devices' records are rejected with reason codes; the dashboard serves the answers and the metrics endpoint the
 * gateway's meters; close() stops it all.
 */
class DemoTest {

    @Test
    void everyExampleWorkloadPublishesAnswersWithTruthAndTheDashboardServesThem() throws Exception {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        Set<String> ids = new HashSet<>();
        for (WorkloadSpec s : Demo.exampleWorkloads()) {
            ids.add(s.id());
        }
        assertThat(ids).containsExactlyInAnyOrder("screen-usage", "latency-cdf", "feature-flags", "session-length",
                "top-app", "usage-regression", "churn", "latency-mean", "resource-usage", "top-crash-signatures",
                "feature-flags-wide", "survey-certified");
        assertThat(Demo.exampleWorkloads()).anyMatch(s -> s.mode() == Mode.CENTRAL);
        try (Demo demo = Demo.start(new Demo.Options(400, 0.1, 0, 7, 4), out, Clock.systemUTC())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
            while (System.nanoTime() < deadline && !(demo.answersByWorkload().keySet().containsAll(ids)
                    && demo.answersByWorkload().values().stream().allMatch(v -> v >= 2))) {
                Thread.sleep(250);
            }
            assertThat(demo.answersByWorkload()).as(text.toString()).containsOnlyKeys(ids)
                    .allSatisfy((id, count) -> assertThat(count).isGreaterThanOrEqualTo(2));
            long[] coverage = demo.coverage();
            assertThat(coverage[0]).as("values compared with the truth").isGreaterThan(0);
            String status = demo.status();
            assertThat(status).contains("gateway accepted").contains("rejected").contains("DUPLICATE")
                    .contains("MALFORMED");

            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    demo.dashboard().url().resolve("api/answers")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            JsonNode answers = new ObjectMapper().readTree(r.body());
            Set<String> onBoard = new HashSet<>();
            answers.forEach(a -> onBoard.add(a.get("workload").asText()));
            assertThat(onBoard).containsAll(ids);
            for (JsonNode a : answers) {
                assertThat(a.get("answers")).as(a.get("workload").asText()).isNotEmpty();
            }
            // every workload has a window answered next to the simulator's true values, row by row (heavy hitters'
            // by the strings found). Not necessarily the latest: the gateway answers every window since activation
            // on a public schedule, also one the fleet sent nothing to, and such a window has no truth to show.
            // Answers over a longer horizon carry none.
            Set<String> withTruth = new HashSet<>();
            long truthDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            do {
                withTruth.clear();
                HttpResponse<String> h = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        demo.dashboard().url().resolve("api/history")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(h.statusCode()).isEqualTo(200);
                for (JsonNode w : new ObjectMapper().readTree(h.body()).get("workloads")) {
                    if (w.get("horizon").asText().isEmpty()) {
                        for (JsonNode v : w.get("windows")) {
                            if (v.has("truth")) {
                                assertThat(v.get("truth").size()).as(w.get("workload").asText())
                                        .isEqualTo(v.get("labels").size());
                                withTruth.add(w.get("workload").asText());
                            }
                        }
                    }
                }
                if (!withTruth.containsAll(ids)) {
                    Thread.sleep(500);
                }
            } while (!withTruth.containsAll(ids) && System.nanoTime() < truthDeadline);
            assertThat(withTruth).as("workloads with a window answered next to its truth").containsAll(ids);
            assertThat(demo.dashboard().url().getHost()).isEqualTo("127.0.0.1");
            dashboardRendersInChromium(demo, ids);

            // the answers API serves every workload's answers from the gateway's answers store
            for (String id : ids) {
                HttpResponse<String> rows = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        demo.answersApi().answersUrl(id + "?format=ndjson")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(rows.statusCode()).as(id).isEqualTo(200);
                assertThat(rows.body().lines().findFirst()).as(id).isPresent();
                assertThat(new ObjectMapper().readTree(rows.body().lines().findFirst().orElseThrow())
                        .get("workload").asText()).isEqualTo(id);
            }

            // the demo's Prometheus and health endpoint (127.0.0.1, a free port)
            assertThat(demo.metrics().metricsUrl().getHost()).isEqualTo("127.0.0.1");
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    demo.metrics().metricsUrl()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("pgw_reports_accepted_total{mode=\"local\",workload=\"screen-usage\"}")
                    .contains("kafka_stream_")
                    .contains("jvm_memory_used_bytes")
                    // the fleet sent through the HTTPS ingestion service (the default)
                    .contains("pgw_ingest_reports_total{reason=\"\",status=\"ACCEPTED\"}");
            // a resend is a DUPLICATE: at the gateway's ledger, or at the edge when it came in the same batch
            assertThat(scrape.body()).containsAnyOf("pgw_reports_rejected_total{reason=\"DUPLICATE\"",
                    "pgw_ingest_reports_total{reason=\"\",status=\"DUPLICATE\"}");
            assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(demo.metrics().base()
                    .resolve("health/ready")).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
        String printed = text.toString();
        assertThat(printed).contains("ingest:    http://127.0.0.1:").contains("metrics:   http://127.0.0.1:").contains("answers:   http://127.0.0.1:").contains("registered workload screen-usage")
                .contains("── session-length v1")
                .contains("δ = 0").contains("true values inside the 95% intervals").contains("(the simulator sent")
                .contains("amplified central guarantee (ε, δ) = (").contains("(running total)")
                .contains("horizon since-activation")
                .contains("synthetic data: feature-flags-wide").contains("512 records over 20 attributes")
                .contains("synthetic data: survey-certified").contains("1024 records over 6 attributes")
                .contains("for s-sparse 1-Lipschitz, s = 2");
    }

    /**
     * The dashboard of the running demo, loaded in headless Chromium: every workload's section draws its estimates
     * with data (DOM assertions on the chart elements); a screenshot goes to {@code target/demo-dashboard.png}.
     * Skipped (with a message) where no Chromium is installed; CI installs it.
     */
    private static void dashboardRendersInChromium(Demo demo, Set<String> ids) throws Exception {
        java.util.Optional<java.nio.file.Path> chromium = io.privacygateway.harness.testing.HeadlessChromium.find();
        if (chromium.isEmpty()) {
            System.out.println("SKIPPED: no Chromium found; the demo dashboard's browser check did not run");
            return;
        }
        java.nio.file.Path out = java.nio.file.Path.of("target");
        try (var browser = io.privacygateway.harness.testing.HeadlessChromium.start(chromium.get(), 1440, 1000,
                out.resolve("demo-chromium.log"))) {
            browser.navigate(demo.dashboard().url().toString());
            String state = """
                    (() => JSON.stringify([...document.querySelectorAll('section.workload')].map(s => ({
                      id: s.dataset.workload,
                      points: Number((s.querySelector('[data-chart=estimates]') || {dataset: {}}).dataset.points || 0),
                      canvases: s.querySelectorAll('canvas').length,
                      multiples: Number((s.querySelector('[data-chart=latest]') || {dataset: {}}).dataset.multiples || 0),
                      shown: Number((s.querySelector('[data-chart=latest]') || {dataset: {}}).dataset.shownMultiples || 0)
                    }))))()""";
            JsonNode page = browser.waitFor(state, p -> {
                Set<String> drawn = new HashSet<>();
                p.forEach(w -> {
                    if (w.path("points").asInt() >= 1 && w.path("canvases").asInt() >= 1) {
                        drawn.add(w.path("id").asText());
                    }
                });
                return drawn.containsAll(ids);
            }, Duration.ofSeconds(30), "every demo workload's charts");
            browser.screenshot(out.resolve("demo-dashboard.png"), 1440);
            assertThat(page).hasSizeGreaterThanOrEqualTo(ids.size());
            for (JsonNode w : page) {
                if (w.path("id").asText().equals("feature-flags-wide")) {
                    assertThat(w.path("multiples").asInt()).as("C(20,3) attribute sets").isEqualTo(1140);
                    assertThat(w.path("shown").asInt()).as("drawn as small multiples").isEqualTo(24);
                }
            }
            // the wide workload's filter: the attribute sets holding both named attributes (18 of 1,140), drawn now
            browser.evaluate("""
                    (() => { const f = document.querySelector('#w-feature-flags-wide [data-filter=attribute-sets]');
                      f.value = 'dark_mode beta_ui'; f.dispatchEvent(new Event('input')); return !f.hidden; })()""");
            String filtered = """
                    (() => { const c = document.querySelector('#w-feature-flags-wide [data-chart=latest]');
                      return JSON.stringify({matching: Number(c.dataset.matchingMultiples || -1),
                        shown: Number(c.dataset.shownMultiples || -1), charts: c.querySelectorAll('svg').length,
                        titles: [...c.querySelectorAll('svg')].map(g => g.textContent).join('|')}); })()""";
            JsonNode f = browser.waitFor(filtered, p -> p.path("matching").asInt() == 18, Duration.ofSeconds(10),
                    "the filtered attribute sets");
            assertThat(f.path("shown").asInt()).isEqualTo(18);
            assertThat(f.path("charts").asInt()).isEqualTo(18);
            assertThat(f.path("titles").asText()).contains("dark_mode").contains("beta_ui");
        }
    }
}

package io.privacygateway.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.harness.testing.HeadlessChromium;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.harness.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The dashboard as a person sees it: a real headless Chromium loads the page from a real
 * {@link DashboardServer} fed with real answers ({@link RealAnswers}: the demo's workloads released by
 * the local and central pipelines window after window) and real rejection counters, and the test checks the
 * DOM and the canvas pixels: every workload's charts are drawn with data (estimates with bands, the latest
 * window as a CDF curve, bars, one-bucket ranges or marginal small multiples, n and ε per window), the legends
 * name the expected labels, the n values are the published ones, the rejections chart has every reason, the
 * page updates as new windows arrive, no script error or CSP violation occurs; then the stale banner appears
 * when the (injected) clock passes three window lengths without an answer, goes when answers come back, and
 * the "not answering" banner appears when the server stops. Screenshots go to {@code target/dashboard/}.
 *
 * <p>Skipped, with a message, when no Chromium is installed ({@code apt-get install chromium}).
 */
class DashboardChromiumTest {
    private static final int WIDTH = 1440;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Path OUT = Path.of("target", "dashboard");

    /** The page's state as JSON: per workload the legends, n, data points and inked pixels of each chart. */
    private static final String STATE_JS = """
            (() => {
              const hex = c => [1, 3, 5].map(i => parseInt(c.slice(i, i + 2), 16));
              const inked = (canvas, color) => {
                if (!canvas) return 0;
                const [r, g, b] = hex(color);
                const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
                let n = 0;
                for (let i = 0; i < d.length; i += 4) {
                  if (d[i + 3] > 200 && Math.abs(d[i] - r) < 28 && Math.abs(d[i + 1] - g) < 28 && Math.abs(d[i + 2] - b) < 28) n++;
                }
                return n;
              };
              const palette = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#76b7b2', '#edc948'];
              const inkedAny = (canvas, k) => palette.slice(0, k).reduce((a, c) => a + inked(canvas, c), 0);
              const accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim();
              const num = (e, k) => e ? Number(e.dataset[k] || 0) : -1;
              const banner = document.getElementById('banner');
              return JSON.stringify({
                renders: Number(document.body.dataset.renders || 0),
                banner: banner.hidden ? '' : (banner.dataset.kind || 'shown'),
                bannerText: banner.hidden ? '' : banner.textContent,
                pill: document.getElementById('status-pill').textContent,
                tiles: document.querySelectorAll('#overview .tile').length,
                workloads: [...document.querySelectorAll('section.workload')].map(s => {
                  const q = sel => s.querySelector(sel);
                  return {
                    id: s.dataset.workload,
                    n: q('[data-field=n]') ? Number(q('[data-field=n]').dataset.value) : null,
                    legend: [...s.querySelectorAll('[data-legend=estimates] .item .name')].map(e => e.textContent),
                    estPoints: num(q('[data-chart=estimates]'), 'points'),
                    estSeries: num(q('[data-chart=estimates]'), 'series'),
                    estInk: inkedAny(q('[data-chart=estimates] canvas'), num(q('[data-chart=estimates]'), 'series')),
                    latestCanvases: s.querySelectorAll('[data-chart=latest] canvas').length,
                    latestSvgs: s.querySelectorAll('[data-chart=latest] svg').length,
                    latestPoints: num(q('[data-chart=latest]'), 'points'),
                    latestThreshold: q('[data-chart=latest]') ? (q('[data-chart=latest]').dataset.threshold || '') : '',
                    thresholdLines: s.querySelectorAll('[data-chart=latest] svg line.threshold').length,
                    latestRows: [...s.querySelectorAll('[data-chart=latest] svg g > text:first-of-type')].map(t => t.textContent),
                    latestValues: [...s.querySelectorAll('[data-chart=latest] svg g > text.val')].map(t => t.textContent),
                    latestTicks: [...s.querySelectorAll('[data-chart=latest] svg > text')].map(t => t.textContent),
                    latestTitle: q('[data-chart=latest]') && q('[data-chart=latest]').parentNode.querySelector('h3')
                      ? q('[data-chart=latest]').parentNode.querySelector('h3').textContent : '',
                    latestInk: inked(q('[data-chart=latest] canvas'), accent),
                    nPoints: num(q('[data-chart=n]'), 'points'),
                    nInk: inked(q('[data-chart=n] canvas'), accent),
                    epsilonPoints: num(q('[data-chart=epsilon]'), 'points'),
                    epsilonTitle: q('[data-chart=epsilon]').parentNode.querySelector('h3').textContent,
                    amplified: q('.chip.amplified') ? q('.chip.amplified').textContent : '',
                  };
                }),
                rejections: {
                  legend: [...document.querySelectorAll('[data-legend=rejections] .item .name')].map(e => e.textContent),
                  points: num(document.querySelector('[data-chart=rejections]'), 'points'),
                  ink: inked(document.querySelector('[data-chart=rejections] canvas'), '#4e79a7'),
                },
              });
            })()""";

    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-02T09:30:00Z"));
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(meters);
    private final SplittableRandom rejectionsRandom = new SplittableRandom(5);
    private final RealAnswers real = new RealAnswers(11);
    private final AnswerHistory history = new AnswerHistory(AnswerHistory.DEFAULT_WINDOWS, clock);
    private final Map<String, WindowAnswer> latest = new HashMap<>();
    private long nextStart = clock.millis();
    private DashboardServer server;

    @Test
    void theChartsShowEveryWorkloadAndTheBannersTellWhenDataStops() throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "SKIPPED: no Chromium found (install it with"
                + " 'apt-get install chromium', or name it with -Dprivacygateway.chromium=PATH); the dashboard's"
                + " browser test did not run");
        // The sampler's own thread is slowed to once an hour: the test samples by hand, once per fed window.
        DashboardOptions options = new DashboardOptions("127.0.0.1", 0, Duration.ofHours(1), 720, 3);
        server = DashboardServer.start(options, history, meters, real::truth, clock);
        try (HeadlessChromium browser = HeadlessChromium.start(chromium.get(), WIDTH, 1000, OUT.resolve("chromium.log"))) {
            feed(30);
            browser.navigate(server.url().toString());

            int count = RealAnswers.demoWorkloads().size();
            JsonNode page = browser.waitFor(STATE_JS, s -> s.path("workloads").size() == count
                    && all(s, w -> w.path("estPoints").asInt() == 30 && w.path("estInk").asInt() > 0
                            && w.path("nInk").asInt() > 0)
                    && s.path("rejections").path("points").asInt() == 30, WAIT, "every workload's charts");
            browser.screenshot(OUT.resolve("dashboard.png"), WIDTH);
            checkCharts(page, 30);
            assertThat(page.path("tiles").asInt()).as("overview tiles: one per workload + rejections").isEqualTo(count + 1);
            assertThat(page.path("banner").asText()).as("no banner while answers arrive").isEmpty();
            assertThat(page.path("pill").asText()).isEqualTo("live");

            browser.evaluate("document.getElementById('theme').click(), true");
            int renders = page.path("renders").asInt();
            browser.waitFor(STATE_JS, s -> s.path("renders").asInt() > renders
                    && all(s, w -> w.path("estInk").asInt() > 0), WAIT, "the dark theme");
            browser.screenshot(OUT.resolve("dashboard-dark.png"), WIDTH);
            browser.evaluate("document.getElementById('theme').click(), true");

            // live: a new window appears on the page
            feed(1);
            long newN = latest.get("screen-usage").getN();
            page = browser.waitFor(STATE_JS, s -> all(s, w -> w.path("estPoints").asInt() == 31)
                    && workload(s, "screen-usage").path("n").asLong() == newN, WAIT, "the 31st window");
            checkCharts(page, 31);
            assertThat(browser.problems()).as("script errors, CSP violations or failed requests").isEmpty();

            // stale: no answer for more than 3 window lengths
            clock.advance(Duration.ofMillis(3 * real.windowMillis() + 1));
            page = browser.waitFor(STATE_JS, s -> s.path("banner").asText().equals("stale"), WAIT, "the stale banner");
            assertThat(page.path("pill").asText()).isEqualTo("stale");
            assertThat(page.path("bannerText").asText()).contains("No new answers")
                    .contains("screen-usage").contains("latency-cdf").contains("feature-flags").contains("session-length");
            browser.screenshot(OUT.resolve("dashboard-stale.png"), WIDTH);

            // answers come back: the banner goes
            feed(1);
            browser.waitFor(STATE_JS, s -> s.path("banner").asText().isEmpty() && s.path("pill").asText().equals("live"),
                    WAIT, "the banner to go once answers arrive again");
            assertThat(browser.problems()).as("script errors, CSP violations or failed requests").isEmpty();

            // the API stops answering
            server.close();
            page = browser.waitFor(STATE_JS, s -> s.path("banner").asText().equals("offline"), WAIT, "the offline banner");
            assertThat(page.path("bannerText").asText()).contains("not answering").contains("may be out of date");
            assertThat(page.path("pill").asText()).isEqualTo("API not answering");
            assertThat(page.path("workloads").size()).as("the last data stays on the page").isEqualTo(count);
            browser.screenshot(OUT.resolve("dashboard-offline.png"), WIDTH);
        } finally {
            server.close();
        }
    }

    /** What every chart must show after {@code windows} windows, against the answers fed. */
    private void checkCharts(JsonNode page, int windows) {
        Map<String, JsonNode> byId = new HashMap<>();
        page.path("workloads").forEach(w -> byId.put(w.path("id").asText(), w));
        assertThat(byId).containsOnlyKeys("screen-usage", "latency-cdf", "feature-flags", "session-length", "top-app",
                "usage-regression", "churn", "latency-mean", "resource-usage", "top-crash-signatures");
        for (Map.Entry<String, JsonNode> e : byId.entrySet()) {
            WindowAnswer a = latest.get(e.getKey());
            JsonNode w = e.getValue();
            assertThat(w.path("n").asLong()).as(e.getKey() + " n").isEqualTo(a.getN());
            assertThat(w.path("estPoints").asInt()).as(e.getKey() + " windows on the estimates chart").isEqualTo(windows);
            assertThat(w.path("estInk").asInt()).as(e.getKey() + " pixels of the estimate lines").isGreaterThan(300);
            assertThat(w.path("nPoints").asInt()).as(e.getKey() + " n chart").isEqualTo(windows);
            assertThat(w.path("nInk").asInt()).as(e.getKey() + " pixels of the n bars").isGreaterThan(100);
            assertThat(w.path("epsilonPoints").asInt()).as(e.getKey() + " ε chart").isEqualTo(windows);
            List<String> legend = new ArrayList<>();
            w.path("legend").forEach(l -> legend.add(l.asText()));
            assertThat(w.path("estSeries").asInt()).isEqualTo(legend.size());
            List<String> labels = a.getLabels();
            if (labels.size() <= 8) {
                assertThat(legend).as(e.getKey() + " legend").containsExactlyElementsOf(labels);
            } else {
                assertThat(legend).as(e.getKey() + " legend: a selection of the labels")
                        .hasSizeBetween(3, 6).doesNotHaveDuplicates();
                assertThat(labels).containsAll(legend);
            }
        }
        // screen-usage: a histogram over 8 labels, drawn as bars
        assertThat(byId.get("screen-usage").path("latestSvgs").asInt()).isEqualTo(1);
        assertThat(byId.get("screen-usage").path("latestPoints").asInt()).isEqualTo(8);
        // latency-cdf: a curve with its band over the 13 inner bucket edges
        JsonNode cdf = byId.get("latency-cdf");
        assertThat(cdf.path("latestCanvases").asInt()).isEqualTo(1);
        assertThat(cdf.path("latestPoints").asInt()).isEqualTo(13);
        assertThat(cdf.path("latestInk").asInt()).as("pixels of the CDF curve").isGreaterThan(100);
        assertThat(cdf.path("legend").toString()).contains("< ");
        // feature-flags: 10 marginal tables (5 choose 3) of 8 cells
        assertThat(byId.get("feature-flags").path("latestSvgs").asInt()).isEqualTo(10);
        assertThat(byId.get("feature-flags").path("latestPoints").asInt()).isEqualTo(80);
        // session-length: the 12 one-bucket ranges of 78
        assertThat(byId.get("session-length").path("latestSvgs").asInt()).isEqualTo(1);
        assertThat(byId.get("session-length").path("latestPoints").asInt()).isEqualTo(12);
        assertThat(byId.get("session-length").path("epsilonTitle").asText()).contains("cumulative");
        assertThat(byId.get("screen-usage").path("epsilonTitle").asText()).contains("per report");
        assertThat(byId.get("screen-usage").path("amplified").asText()).startsWith("amplified central ε = ");
        assertThat(byId.get("session-length").path("amplified").asText()).isEmpty();
        // window analytics: the mode view names the released label (or says none was), coefficients are bars
        JsonNode mode = byId.get("top-app");
        assertThat(mode.path("latestPoints").asInt()).isBetween(0, 1);
        assertThat(mode.path("latestSvgs").asInt()).isZero();
        assertThat(byId.get("usage-regression").path("latestSvgs").asInt()).isEqualTo(1);
        assertThat(byId.get("usage-regression").path("latestPoints").asInt()).isEqualTo(3);
        assertThat(byId.get("churn").path("latestPoints").asInt()).isEqualTo(3);
        // a mean: one mark with its bar on a line (no svg, no canvas), the numbers below it
        JsonNode mean = byId.get("latency-mean");
        assertThat(mean.path("latestPoints").asInt()).isEqualTo(1);
        assertThat(mean.path("latestSvgs").asInt()).isZero();
        // a vector mean: one bar per coordinate with its error bar, in declaration order, on the box [0, 100]
        JsonNode vec = byId.get("resource-usage");
        WindowAnswer vecAnswer = latest.get("resource-usage");
        assertThat(vecAnswer.getLabels()).containsExactly("cpu", "memory", "battery");
        assertThat(vec.path("latestSvgs").asInt()).isEqualTo(1);
        assertThat(vec.path("latestPoints").asInt()).isEqualTo(3);
        List<String> vecRows = new ArrayList<>();
        vec.path("latestRows").forEach(r -> vecRows.add(r.asText()));
        assertThat(vecRows).as("one row per coordinate").containsExactly("cpu", "memory", "battery");
        assertThat(vec.path("latestValues")).hasSize(3);
        List<String> ticks = new ArrayList<>();
        vec.path("latestTicks").forEach(t -> ticks.add(t.asText()));
        assertThat(ticks).as("the scale spans the declared box").contains("0", "100");
        assertThat(vec.path("thresholdLines").asInt()).isZero();
        assertThat(vec.path("latestTitle").asText()).contains("mean of each coordinate").contains("box");
        // heavy hitters: the strings found as a ranked bar list (the answer's order), with the threshold line
        JsonNode hh = byId.get("top-crash-signatures");
        WindowAnswer hhAnswer = latest.get("top-crash-signatures");
        assertThat(hhAnswer.getLabels()).as("the strings found").isNotEmpty().startsWith("oom");
        assertThat(hh.path("latestSvgs").asInt()).isEqualTo(1);
        assertThat(hh.path("latestPoints").asInt()).isEqualTo(hhAnswer.getLabels().size());
        List<String> rows = new ArrayList<>();
        hh.path("latestRows").forEach(r -> rows.add(r.asText()));
        assertThat(rows).as("ranked as published").containsExactlyElementsOf(hhAnswer.getLabels());
        assertThat(hh.path("thresholdLines").asInt()).isEqualTo(1);
        assertThat(Double.parseDouble(hh.path("latestThreshold").asText()))
                .isEqualTo(hhAnswer.getScalars().get("thresholdShare"));
        // rejections: every reason counted, one point per interval between samples (one at start, one per window)
        List<String> reasons = new ArrayList<>();
        page.path("rejections").path("legend").forEach(r -> reasons.add(r.asText()));
        assertThat(reasons).containsExactly("CLOCK_SKEW", "DUPLICATE", "EPSILON_MISMATCH", "LATE", "MALFORMED");
        assertThat(page.path("rejections").path("points").asInt()).isEqualTo(windows);
        assertThat(page.path("rejections").path("ink").asInt()).isGreaterThan(50);
    }

    /** Releases {@code windows} more windows of every workload, each received 2 s after it closes. */
    private void feed(int windows) {
        long size = real.windowMillis();
        for (int k = 0; k < windows; k++) {
            nextStart = Math.max(nextStart, Math.floorDiv(clock.millis(), size) * size);
            long start = nextStart;
            nextStart += size;
            List<WindowAnswer> answers = real.window(start, 2600);
            clock.set(Instant.ofEpochMilli(start + size + 2_000));
            for (WindowAnswer a : answers) {
                assertThat(history.accept(a)).isTrue();
                latest.put(a.getWorkloadId(), a);
            }
            reject(RejectReason.DUPLICATE, "screen-usage", 14);
            reject(RejectReason.LATE, "latency-cdf", 9);
            reject(RejectReason.CLOCK_SKEW, "feature-flags", 7);
            reject(RejectReason.MALFORMED, "unknown", 6);
            reject(RejectReason.EPSILON_MISMATCH, "session-length", 4);
            server.sampleRejections();
        }
    }

    private void reject(RejectReason reason, String workload, int mean) {
        int count = rejectionsRandom.nextInt(2 * mean + 1);
        for (int i = 0; i < count; i++) {
            metrics.rejected(reason, workload);
        }
    }

    private static boolean all(JsonNode state, Predicate<JsonNode> p) {
        for (JsonNode w : state.path("workloads")) {
            if (!p.test(w)) {
                return false;
            }
        }
        return true;
    }

    private static JsonNode workload(JsonNode state, String id) {
        for (JsonNode w : state.path("workloads")) {
            if (w.path("id").asText().equals(id)) {
                return w;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}

package io.privacygateway.app.dashboard;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.app.dashboard.WindowView.Chart;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.harness.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;

/**
 * What the dashboard remembers and how it reads answers: bounded history (windows per workload, workloads,
 * rejection samples), records read defensively (fields missing, added or null), the chart chosen for each
 * query family, the staleness rule, and the validation of the options.
 */
class DashboardHistoryTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2025-06-02T09:30:00Z"));

    @Test
    void keepsTheLastWindowsOfEachWorkloadInOrderAndAWindowAnsweredAgainReplacesTheFirstAnswer() {
        RealAnswers real = new RealAnswers(4);
        AnswerHistory h = new AnswerHistory(5, clock);
        long size = real.windowMillis();
        long t0 = clock.millis();
        // windows arrive out of order: 0..7 then 3 again
        int[] order = {1, 0, 2, 4, 3, 5, 7, 6};
        Map<Integer, List<WindowAnswer>> byIndex = new HashMap<>();
        for (int k = 0; k < 8; k++) {
            byIndex.put(k, real.window(t0 + k * size, 200));
        }
        for (int k : order) {
            clock.advance(Duration.ofSeconds(1));
            byIndex.get(k).forEach(h::accept);
        }
        WindowAnswer repeated = byIndex.get(5).get(0);
        long originalN = repeated.getN();
        repeated.setN(12_345);
        assertThat(h.snapshot().workloads().stream().filter(w -> w.workloadId().equals(repeated.getWorkloadId()))
                .findFirst().orElseThrow().windows().get(2).n())
                .as("the history copied what it keeps: changing the record afterwards changes nothing").isEqualTo(originalN);
        clock.advance(Duration.ofSeconds(1));
        h.accept(repeated);

        AnswerHistory.Snapshot snap = h.snapshot();
        assertThat(snap.answers()).isEqualTo(8L * RealAnswers.demoWorkloads().size() + 1);
        assertThat(snap.workloads()).hasSize(RealAnswers.demoWorkloads().size());
        for (AnswerHistory.WorkloadHistory w : snap.workloads()) {
            assertThat(w.windows()).extracting(WindowView::windowStart)
                    .containsExactly(t0 + 3 * size, t0 + 4 * size, t0 + 5 * size, t0 + 6 * size, t0 + 7 * size);
            assertThat(w.latest().windowStart()).isEqualTo(t0 + 7 * size);
        }
        AnswerHistory.WorkloadHistory first = snap.workloads().stream()
                .filter(w -> w.workloadId().equals(repeated.getWorkloadId())).findFirst().orElseThrow();
        assertThat(first.windows().get(2).n()).isEqualTo(12_345);
        assertThat(first.windows().get(4).labels()).as("consecutive windows keep one label list")
                .isSameAs(first.windows().get(3).labels());
        assertThat(first.lastAnswerAt()).isEqualTo(clock.millis());
    }

    @Test
    void forgetsTheWorkloadSilentLongestWhenTooManyAreKnown() {
        AnswerHistory h = new AnswerHistory(1, clock);
        for (int i = 0; i <= AnswerHistory.MAX_WORKLOADS; i++) {
            clock.advance(Duration.ofMillis(1));
            assertThat(h.accept(minimal("w" + i, clock.millis(), clock.millis() + 10))).isTrue();
        }
        AnswerHistory.Snapshot snap = h.snapshot();
        assertThat(snap.workloads()).hasSize(AnswerHistory.MAX_WORKLOADS);
        assertThat(snap.workloads()).extracting(AnswerHistory.WorkloadHistory::workloadId)
                .doesNotContain("w0").contains("w1", "w" + AnswerHistory.MAX_WORKLOADS);
    }

    @Test
    void readsRecordsOfOtherSchemaVersionsDefensively() {
        Schema older = SchemaBuilder.record("WindowAnswer").namespace("elsewhere").fields()
                .requiredString("workloadId")
                .requiredLong("windowStart").requiredLong("windowEnd")
                .name("labels").type().array().items().stringType().noDefault()
                .name("estimates").type().array().items().doubleType().noDefault()
                .name("family").type().nullable().stringType().noDefault()
                .name("lower").type().nullable().array().items().doubleType().noDefault()
                .endRecord();
        GenericData.Record r = new GenericData.Record(older);
        r.put("workloadId", "latency");
        r.put("windowStart", 1000L);
        r.put("windowEnd", 2000L);
        r.put("labels", List.of("a", "b", "c"));
        r.put("estimates", List.of(0.1, 0.2)); // one short
        r.put("family", "cdf");
        r.put("lower", null);
        WindowView v = WindowView.of(r, 5).orElseThrow();
        assertThat(v.chart()).as("the family field decides when present").isEqualTo(Chart.CDF);
        assertThat(v.estimates()).containsExactly(0.1, 0.2, Double.NaN);
        assertThat(v.lower()).containsExactly(Double.NaN, Double.NaN, Double.NaN);
        assertThat(v.upper()).hasSize(3);
        assertThat(v.n()).isEqualTo(-1);
        assertThat(v.mode()).isEmpty();
        assertThat(v.version()).isZero();
        assertThat(Double.isNaN(v.cumulativeEpsilon())).isTrue();
        assertThat(v.receivedAt()).isEqualTo(5);
        assertThat(v.windowMillis()).isEqualTo(1000);

        AnswerHistory h = new AnswerHistory(3, clock);
        GenericData.Record noWindow = new GenericData.Record(older);
        noWindow.put("workloadId", "x");
        noWindow.put("windowStart", 2000L);
        noWindow.put("windowEnd", 2000L);
        assertThat(h.accept(noWindow)).as("an empty window").isFalse();
        GenericData.Record noId = new GenericData.Record(older);
        noId.put("windowStart", 1000L);
        noId.put("windowEnd", 2000L);
        assertThat(h.accept(noId)).as("no workload id").isFalse();
        assertThat(h.accept(null)).isFalse();
        assertThat(h.snapshot().workloads()).isEmpty();
    }

    @Test
    void choosesTheChartFromTheLabelsTheReleaseCodeWrites() {
        Map<String, Chart> expected = Map.of("screen-usage", Chart.BARS, "latency-cdf", Chart.CDF,
                "feature-flags", Chart.MARGINALS, "session-length", Chart.RANGES, "top-app", Chart.MODE,
                "usage-regression", Chart.COEFFICIENTS, "churn", Chart.COEFFICIENTS, "latency-mean", Chart.MEAN,
                "resource-usage", Chart.VECTOR_MEAN, "top-crash-signatures", Chart.HEAVY_HITTERS);
        for (WindowAnswer a : new RealAnswers(8).window(0, 200)) {
            assertThat(WindowView.of(a, 0).orElseThrow().chart()).as(a.getWorkloadId())
                    .isEqualTo(expected.get(a.getWorkloadId()));
        }
        assertThat(WindowView.chart(null, List.of("[0, 10)", "[10, 20)", "[20, 50]"))).as("histogram over buckets")
                .isEqualTo(Chart.BARS);
        assertThat(WindowView.chart(null, List.of("[0, 10)", "[0, 20)", "[10, 20)"))).isEqualTo(Chart.RANGES);
        assertThat(WindowView.chart(null, List.of("q1", "q2"))).as("point queries").isEqualTo(Chart.BARS);
        assertThat(WindowView.chart("histogram", List.of("< 1", "< 2"))).isEqualTo(Chart.BARS);
        assertThat(WindowView.chart("something-new", List.of("< 1", "< 2"))).isEqualTo(Chart.CDF);
        assertThat(WindowView.chart(null, List.of())).isEqualTo(Chart.BARS);
    }

    @Test
    void countsSkippedRecordsByReason() {
        AnswerHistory h = new AnswerHistory(3, clock);
        h.skipped("BAD_MAGIC");
        h.skipped("BAD_MAGIC");
        h.skipped("INCOMPLETE");
        assertThat(h.snapshot().skipped()).containsExactly(Map.entry("BAD_MAGIC", 2L), Map.entry("INCOMPLETE", 1L));
        assertThat(h.snapshot().skippedTotal()).isEqualTo(3);
    }

    @Test
    void rejectionSamplesSumOverWorkloadsAndAreBounded() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayMetrics metrics = new GatewayMetrics(meters);
        RejectionHistory r = new RejectionHistory(meters, 3, clock);
        assertThat(r.sample().totals()).isEmpty();
        for (int i = 0; i < 5; i++) {
            metrics.rejected(RejectReason.DUPLICATE, "a");
            metrics.rejected(RejectReason.DUPLICATE, "b");
            metrics.rejected(RejectReason.CLOCK_SKEW, null);
            clock.advance(Duration.ofSeconds(5));
            r.sample();
        }
        meters.counter("pgw.reports.accepted", "workload", "a").increment(); // another meter: ignored
        List<RejectionHistory.Sample> samples = r.samples();
        assertThat(samples).hasSize(3);
        assertThat(samples.get(2).totals()).containsExactly(Map.entry("CLOCK_SKEW", 5L), Map.entry("DUPLICATE", 10L));
        assertThat(samples.get(2).at()).isEqualTo(clock.millis());
        assertThat(samples.get(0).at()).isEqualTo(clock.millis() - 10_000);
        assertThat(new RejectionHistory(null, 2, clock).sample().totals()).isEmpty();
    }

    @Test
    void staleMeansMoreThanTheConfiguredNumberOfWindowLengthsWithoutAnAnswer() {
        DashboardOptions o = DashboardOptions.onPort(0);
        assertThat(o.staleAfterWindows()).isEqualTo(3);
        assertThat(o.isStale(1_000, 10_000, 31_000)).isFalse();
        assertThat(o.isStale(1_000, 10_000, 31_001)).isTrue();
        assertThat(o.staleAfterMillis(0)).as("a degenerate window length still gives a positive threshold").isEqualTo(3);
    }

    @Test
    void optionsAndHistorySizesAreValidated() {
        assertThat(DashboardOptions.onPort(8080).bindHost()).isEqualTo("127.0.0.1");
        assertThat(DashboardOptions.onPort(8080).withBindHost("::1").bindHost()).isEqualTo("::1");
        assertThatThrownBy(() -> DashboardOptions.onPort(8080).withBindHost("evil host/"))
                .hasMessageContaining("bind host");
        assertThatThrownBy(() -> DashboardOptions.onPort(8080).withBindHost(""))
                .hasMessageContaining("bind host");
        assertThatThrownBy(() -> DashboardOptions.onPort(65_536)).hasMessageContaining("65535");
        assertThatThrownBy(() -> new DashboardOptions("127.0.0.1", 0, Duration.ofMillis(10), 10, 3))
                .hasMessageContaining("sample interval");
        assertThatThrownBy(() -> new DashboardOptions("127.0.0.1", 0, Duration.ofSeconds(5), 1, 3))
                .hasMessageContaining("samples kept");
        assertThatThrownBy(() -> new DashboardOptions("127.0.0.1", 0, Duration.ofSeconds(5), 10, 0))
                .hasMessageContaining("stale");
        assertThatThrownBy(() -> new AnswerHistory(0, clock)).hasMessageContaining("windows kept");
        assertThatThrownBy(() -> new AnswerHistory(AnswerHistory.MAX_WINDOWS + 1, clock)).hasMessageContaining("windows kept");
    }

    @Test
    void theHostCheckAcceptsOnlyTheLoopbackNamesAndTheBindHost() {
        HostCheck c = new HostCheck("dash.internal", 8080);
        assertThat(c.allows("127.0.0.1:8080")).isTrue();
        assertThat(c.allows("localhost:8080")).isTrue();
        assertThat(c.allows("DASH.internal:8080")).isTrue();
        assertThat(c.allows("dash.internal")).isFalse();
        assertThat(c.allows("dash.internal:8081")).isFalse();
        assertThat(c.allows("evil.example:8080")).isFalse();
        assertThat(c.allows("127.0.0.1.evil.example:8080")).isFalse();
        assertThat(c.allows(null)).isFalse();
        assertThat(c.allows("")).isFalse();
        HostCheck v6 = new HostCheck("::1", 80);
        assertThat(v6.allows("[::1]:80")).isTrue();
        assertThat(v6.allows("[::1]")).as("port 80 may be omitted").isTrue();
        assertThat(v6.allows("localhost")).isTrue();
    }

    /** 14.2: a rollup starts where its first window starts; it is its own series and never replaces the window. */
    @Test
    void answersOverALongerHorizonAreTheirOwnSeries() {
        AnswerHistory h = new AnswerHistory(5, clock);
        long t0 = 1_800_000_000_000L;
        h.accept(minimal("w", t0, t0 + 10_000));
        WindowAnswer span = minimal("w", t0, t0 + 60_000);
        span.setHorizon("PT1M");
        span.setN(60);
        h.accept(span);
        AnswerHistory.Snapshot snap = h.snapshot();
        assertThat(snap.workloads()).extracting(AnswerHistory.WorkloadHistory::workloadId)
                .containsExactly("w", "w · PT1M");
        assertThat(snap.workloads().get(0).latest().n()).isEqualTo(10);
        assertThat(snap.workloads().get(1).latest().n()).isEqualTo(60);
        assertThat(snap.workloads().get(1).latest().horizon()).isEqualTo("PT1M");
        assertThat(snap.workloads().get(0).latest().horizon()).isEmpty();
    }

    private static WindowAnswer minimal(String id, long start, long end) {
        return WindowAnswer.newBuilder().setWorkloadId(id).setWorkloadVersion(1).setContentHash("h").setMode("local")
                .setWindowStart(Instant.ofEpochMilli(start)).setWindowEnd(Instant.ofEpochMilli(end)).setMechanism("grr")
                .setEpsilon(1).setDelta(0).setN(10).setConfidence(0.95).setLabels(List.of("a"))
                .setEstimates(List.of(0.5)).setLower(List.of(0.4)).setUpper(List.of(0.6)).setStandardErrors(List.of(0.05))
                .setUnprojected(List.of(0.5)).setExpectedRmsError(0.05).setRmsErrorBoundAtConfidence(0.1)
                .setLevels(List.of()).setCumulativeEpsilon(0).setReleasedAtStreamTime(end).build();
    }
}

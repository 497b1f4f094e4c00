package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14.2, local mode: answers over longer horizons are computed from the sum of the horizon's exact window
 * aggregates, so they are <b>bit for bit</b> the answer of aggregating all the horizon's reports as one window
 * (same estimator, projection and error bars), at no extra ε; every span is answered (also when empty), and a
 * span cut short by a new version covers exactly the windows that version had.
 */
class HorizonRollupTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // an hour boundary
    static final long MINUTE = 60_000;

    static WorkloadSpec spec(String mechanism, int version) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "rollup-" + mechanism);
        t.put("version", version);
        if (mechanism.equals("tree")) {
            t.put("family", "cdf");
            t.put("domain", Map.of("buckets", List.of(0, 1, 2, 3, 4, 5, 6, 7, 8)));
        } else {
            t.put("family", "histogram");
            t.put("domain", Map.of("labels", List.of("a", "b", "c", "d", "e", "f")));
        }
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s", "horizons", List.of("5m", "10m")));
        return WorkloadSpecParser.parse(t);
    }

    static LocalReport report(Workload w, LocalProtocol p, String device, long eventTime, int value,
            SeededRandomBits secret) {
        return GatewayTopologyTest.report(w, p, device, 0, eventTime, value, secret);
    }

    @ParameterizedTest
    @ValueSource(strings = {"grr", "oue", "tree"})
    void aSpanAnswerIsTheAnswerOfItsReportsAggregatedAsOneWindow(String mechanism) {
        WorkloadSpec s = spec(mechanism, 1);
        Workload w = Workload.of(s);
        LocalPipeline pipeline = LocalPipeline.of(w);
        LocalProtocol protocol = pipeline.protocol();
        SeededRandomBits secret = new SeededRandomBits(5);
        long[] direct = new long[protocol.stateLength()];
        long[] firstThree = new long[protocol.stateLength()];
        List<LocalReport> reports = new ArrayList<>();
        for (int window = 0; window < 8; window++) {
            int count = window == 1 ? 0 : 20 + 7 * window; // window 1 is empty
            for (int i = 0; i < count; i++) {
                LocalReport r = report(w, protocol, "d-" + window + "-" + i, T0 + window * MINUTE + 100 * i,
                        (i * 7 + window) % 6, secret);
                reports.add(r);
                byte[] payload = new byte[r.getPayload().remaining()];
                r.getPayload().duplicate().get(payload);
                ReportCoordinates c = new ReportCoordinates(r.getDeviceId(), r.getPeriod(), r.getSequence());
                if (window < 5) {
                    protocol.accumulate(payload, c, direct);
                } else {
                    protocol.accumulate(payload, c, firstThree);
                }
            }
        }
        long nDirect = reports.stream().filter(r -> r.getEventTime().toEpochMilli() < T0 + 5 * MINUTE).count();
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("rollups").build(),
                T0)) {
            g.register(s, T0);
            for (LocalReport r : reports) {
                g.send(r, r.getEventTime().toEpochMilli());
            }
            // version 2 from 7m30s: version 1's span [5m, 10m) ends with window [7m, 8m)
            WorkloadSpec v2 = spec(mechanism, 2);
            g.register(v2, T0 + 7 * MINUTE + 30_000);
            Workload w2 = Workload.of(v2);
            g.send(report(w2, LocalPipeline.of(w2).protocol(), "mover", T0 + 10 * MINUTE + 15_000, 1, secret),
                    T0 + 10 * MINUTE + 15_000);
            g.advance(Duration.ofSeconds(2));
            List<WindowAnswer> out = g.answers.readValuesToList();
            List<WindowAnswer> spans = out.stream().filter(a -> a.getHorizon() != null).toList();
            assertThat(out.stream().filter(a -> a.getHorizon() == null)).hasSize(8 + 3); // v1: 0..7, v2: 7..9

            // v1, [0, 5m): bit for bit the answer of its 4 non-empty windows' reports as one aggregate
            WindowAnswer first = only(spans, 1, "PT5M", T0);
            Answer expected = pipeline.release().release(direct, nDirect);
            assertThat(first.getN()).isEqualTo(nDirect);
            assertThat(first.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(T0 + 5 * MINUTE));
            assertThat(first.getEstimates()).isEqualTo(boxed(expected.estimates()));
            assertThat(first.getLower()).isEqualTo(boxed(expected.lower()));
            assertThat(first.getUpper()).isEqualTo(boxed(expected.upper()));
            assertThat(first.getRmsErrorBoundAtConfidence()).isEqualTo(expected.rmsErrorBoundAtConfidence());
            assertThat(first.getEpsilon()).isEqualTo(1.0); // the reports' ε: a rollup costs nothing more

            // v1, [5m, 10m) cut short at 8m by version 2: windows 5, 6, 7
            WindowAnswer cut = only(spans, 1, "PT5M", T0 + 5 * MINUTE);
            long nCut = reports.size() - nDirect;
            assertThat(cut.getN()).isEqualTo(nCut);
            assertThat(cut.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(T0 + 8 * MINUTE));
            assertThat(cut.getEstimates()).isEqualTo(boxed(pipeline.release().release(firstThree, nCut).estimates()));
            // the 10m span of v1 covers [0, 8m): n of every report
            WindowAnswer ten = only(spans, 1, "PT10M", T0);
            assertThat(ten.getN()).isEqualTo(reports.size());
            long[] all = direct.clone();
            for (int i = 0; i < all.length; i++) {
                all[i] += firstThree[i];
            }
            assertThat(ten.getEstimates()).isEqualTo(boxed(pipeline.release().release(all, reports.size())
                    .estimates()));
            // v2's spans [7m30s → 7m, 10m) had no reports: answered, empty
            WindowAnswer empty = only(spans, 2, "PT5M", T0 + 7 * MINUTE);
            assertThat(empty.getN()).isZero();
            assertThat(empty.getEstimates()).isEmpty();
            assertThat(empty.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(T0 + 10 * MINUTE));
            assertThat(only(spans, 2, "PT10M", T0 + 7 * MINUTE).getN()).isZero();
            assertThat(spans).hasSize(5);
        }
    }

    static WindowAnswer only(List<WindowAnswer> spans, int version, String horizon, long start) {
        List<WindowAnswer> m = spans.stream().filter(a -> a.getWorkloadVersion() == version
                && a.getHorizon().equals(horizon) && a.getWindowStart().toEpochMilli() == start).toList();
        assertThat(m).as("%s span of v%d from %d", horizon, version, start).hasSize(1);
        return m.get(0);
    }

    static List<Double> boxed(double[] v) {
        return Arrays.stream(v).boxed().toList();
    }
}

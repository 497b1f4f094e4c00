package io.privacygateway.mechanisms.local.mean;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mean protocol through the local pipeline: payloads, aggregate, estimate, release, plan. */
class MeanProtocolTest {
    static WorkloadSpec spec(String mechanism, double eps) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "latency");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of("range", Map.of("lo", 0, "hi", 200)));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", eps);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return WorkloadSpecParser.parse(t);
    }

    /**
     * 20,000 seeded reports of a skewed dataset (true mean ≈ 38.3): every mechanism's answer is within 4 standard
     * errors (false-failure probability about 6e-5 per mechanism under the normal approximation), inside
     * [lo, hi], and its bar covers the truth.
     */
    @Test
    void estimatesTheMeanWithinItsErrorBar() throws Exception {
        for (String m : new String[] {"duchi", "piecewise", "hybrid"}) {
            Workload w = Workload.of(spec(m, 1.0));
            LocalPipeline p = LocalPipeline.of(w);
            assertThat(p.protocol()).isInstanceOf(MeanProtocol.class);
            assertThat(p.protocol().payloadBytes()).isEqualTo(2);
            long[] state = new long[p.protocol().stateLength()];
            SeededRandomBits secret = new SeededRandomBits(42);
            java.util.Random data = new java.util.Random(7);
            int n = 20_000;
            double sum = 0;
            for (int i = 0; i < n; i++) {
                double v = Math.min(200, -40 * Math.log(1 - data.nextDouble()));
                int x = w.encode(Double.toString(v));
                sum += w.points().row(x)[0];
                ReportCoordinates c = new ReportCoordinates("d" + i, 0, 0);
                byte[] payload = p.protocol().randomize(x, c, secret);
                assertThat(payload).hasSize(2);
                assertThat(p.protocol().accumulate(payload, c, state)).isTrue();
            }
            double truth = sum / n;
            Answer a = p.release().release(state, n);
            double se = a.standardErrors().orElseThrow()[0];
            assertThat(a.mechanism().wireName()).isEqualTo(m);
            assertThat(Math.abs(a.unprojected().orElseThrow()[0] - truth)).as(m).isLessThan(4 * se);
            assertThat(a.estimates()[0]).isBetween(0.0, 200.0);
            assertThat(a.lower()[0]).isLessThanOrEqualTo(truth);
            assertThat(a.upper()[0]).isGreaterThanOrEqualTo(truth);
            assertThat(se).isGreaterThan(0).isLessThan(5);
        }
    }

    @Test
    void rejectsMalformedPayloadsLeavingTheStateUntouched() {
        LocalPipeline p = LocalPipeline.of(Workload.of(spec("hybrid", 2.0)));
        long[] state = new long[p.protocol().stateLength()];
        ReportCoordinates c = new ReportCoordinates("d", 0, 0);
        assertThat(p.protocol().accumulate(new byte[] {0}, c, state)).isFalse();
        assertThat(p.protocol().accumulate(new byte[] {(byte) 0xFF, (byte) 0xFF}, c, state)).isFalse();
        assertThat(p.protocol().accumulate(new byte[] {4, 2}, c, state)).isFalse(); // 1026 = M + 2
        assertThat(state).containsOnly(0L);
        assertThat(p.protocol().accumulate(new byte[] {4, 1}, c, state)).isTrue(); // Duchi's +
        assertThat(state[1025]).isEqualTo(1);
    }

    /** The estimate clipped to [lo, hi]: a window where every report says the top cell. */
    @Test
    void clipsToTheRange() {
        LocalPipeline p = LocalPipeline.of(Workload.of(spec("piecewise", 1.0)));
        long[] state = new long[p.protocol().stateLength()];
        state[1023] = 10;
        Answer a = p.release().release(state, 10);
        assertThat(a.unprojected().orElseThrow()[0]).isGreaterThan(200);
        assertThat(a.estimates()[0]).isEqualTo(200.0);
    }

    /** auto: Duchi at small ε (the hybrid equals it there), the hybrid (or piecewise) at large ε; all three printed. */
    @Test
    void plannerChoosesByClosedForm() {
        Plan small = LocalPlanner.plan(spec("auto", 0.5), Epsilon.of(0.5), 10_000);
        assertThat(small.predictions()).extracting(pr -> pr.candidate().id())
                .containsExactly(MechanismId.DUCHI, MechanismId.PIECEWISE, MechanismId.HYBRID);
        assertThat(small.choice().candidate().id()).isEqualTo(MechanismId.DUCHI);
        Plan large = LocalPlanner.plan(spec("auto", 4.0), Epsilon.of(4.0), 10_000);
        assertThat(large.choice().candidate().id()).isIn(MechanismId.HYBRID, MechanismId.PIECEWISE);
        Prediction duchi = large.predictions().get(0);
        assertThat(duchi.regret()).isGreaterThan(1.2);
        assertThat(large.resolved().mechanism()).isEqualTo(large.choice().candidate().id());
    }
}

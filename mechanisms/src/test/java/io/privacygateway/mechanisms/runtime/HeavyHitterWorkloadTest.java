package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.local.heavy.HeavyHitterEstimator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.planner.HeavyHitterPrediction;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.HeavyHitterRelease;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A heavy-hitters workload resolved, run and released through {@link LocalWorkload}. */
class HeavyHitterWorkloadTest {
    static WorkloadSpec spec(String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "apps");
        t.put("version", 1);
        t.put("family", "heavy-hitters");
        t.put("domain", Map.of("strings", Map.of("maxBytes", 8)));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 4.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1h"));
        t.put("expectedReportsPerWindow", 60000);
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void autoResolvesToThePrefixTreeSketchWithAClosedFormPrediction() {
        Plan p = Planner.plan(spec("auto"), spec("auto").epsilonPerReport(), 60000);
        assertThat(p.choice().candidate().id()).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
        assertThat(p.resolved().mechanism()).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
        assertThat(p.method()).contains("closed form");
        HeavyHitterPrediction h = HeavyHitterPrediction.of(p.resolved(), 60000);
        assertThat(p.choice().boundRms()).isEqualTo(h.thresholdShare());
        assertThat(h.thresholdShare()).isBetween(0.001, 0.5);
        assertThat(h.standardError(0)).isEqualTo(h.standardErrorAtZero());
        assertThat(Planner.resolve(spec("auto")).mechanism()).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
    }

    @Test
    void randomizesAccumulatesAndReleasesTheTopItems() throws InvalidValueException {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(Planner.resolve(spec("auto")));
        assertThat(w.values()).isInstanceOf(LocalWorkload.OpenDomain.class);
        assertThat(w.queryLabels()).isEmpty();
        assertThatThrownBy(w::workload).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.checkValue("much-too-long")).isInstanceOf(InvalidValueException.class)
                .hasMessageNotContaining("much-too-long");
        List<String> apps = List.of("mail", "maps", "camera", "chat", "music");
        double[] shares = {0.4, 0.25, 0.15, 0.1, 0.1};
        long[] state = new long[w.aggregateLength()];
        SeededRandomBits secret = new SeededRandomBits(7);
        int n = 60000;
        for (int i = 0; i < n; i++) {
            String item = apps.get(pick(shares, (i + 0.5) / n));
            ReportCoordinates c = new ReportCoordinates("d" + i, 0, 0);
            assertThat(w.accumulator().accumulate(w.randomize(item, c, secret), c, state)).isTrue();
        }
        Answer a = w.release(state, n);
        assertThat(a.mechanism()).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
        assertThat(a.labels()).startsWith("mail", "maps", "camera");
        for (int q = 0; q < a.labels().size(); q++) {
            assertThat(a.lower()[q]).isBetween(0.0, a.estimates()[q]);
            assertThat(a.upper()[q]).isBetween(a.estimates()[q], 1.0);
            if (q > 0) {
                assertThat(a.estimates()[q]).isLessThanOrEqualTo(a.estimates()[q - 1]);
            }
        }
        assertThat(a.lower()[0]).isLessThan(0.4);
        assertThat(a.upper()[0]).isGreaterThan(0.4);
        assertThat(a.extras().scalars()).containsKeys(HeavyHitterRelease.SCALARS.toArray(String[]::new));
        assertThat(a.extras().scalars().get("thresholdShare")).isBetween(0.0, 0.2);
        assertThat(a.labels().size()).isLessThanOrEqualTo(HeavyHitterRelease.MAX_PUBLISHED_ITEMS);
    }

    /**
     * The planner's σ(0) is the estimator's: on a window spread over 6,000 strings (collisions negligible), the
     * standard error the protocol itself gives an absent string of the maximum length (one level, n/G reports)
     * is within 10% of the prediction (the level's actual report count varies by about 1%).
     */
    @Test
    void thePredictedStandardErrorIsTheEstimatorsOwn() throws InvalidValueException {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(Planner.resolve(spec("auto")));
        var protocol = ((LocalWorkload.OpenDomain) w.values()).pipeline().protocol();
        long[] state = new long[w.aggregateLength()];
        SeededRandomBits secret = new SeededRandomBits(11);
        int n = 60000;
        for (int i = 0; i < n; i++) {
            String item = "s" + (i % 6000);
            ReportCoordinates c = new ReportCoordinates("d" + i, 0, 0);
            assertThat(w.accumulator().accumulate(w.randomize(item, c, secret), c, state)).isTrue();
        }
        double observed = new HeavyHitterEstimator(protocol).estimateItem(state, n, "zzzzzzzz").standardError();
        double predicted = HeavyHitterPrediction.of(w.spec(), n).standardErrorAtZero();
        assertThat(observed / predicted).isBetween(0.9, 1.1);
    }

    private static int pick(double[] shares, double u) {
        double c = 0;
        for (int i = 0; i < shares.length; i++) {
            c += shares[i];
            if (u < c) {
                return i;
            }
        }
        return shares.length - 1;
    }
}

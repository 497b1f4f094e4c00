package io.privacygateway.mechanisms.central.purification;

import static io.privacygateway.mechanisms.central.purification.ExactPurification.maxLogRatio;
import static io.privacygateway.mechanisms.central.purification.ExactPurification.passes;
import static io.privacygateway.mechanisms.central.purification.ExactPurification.purified;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.AnalyticsFixtures;
import io.privacygateway.mechanisms.analytics.mode.PurifiedMode;
import io.privacygateway.mechanisms.analytics.ptr.DistanceTest;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * End-to-end purity of the purified mode release (Algorithm 12) on a grid small enough for the exact output
 * distribution: two labels, so three outputs (label 0, label 1, ⊥) on {@code bits = 2}, the cube purified on the
 * grid {@code h = 2^-4} (box half-width 8). For every pair of neighbouring situations the test can produce —
 * the same mode at distances d and d + 1, and two different modes at distance 0 (ModePrivacyTest proves these are
 * all) — the purified pmf's largest log-ratio is at most {@code ε_test + ε'}; the control without mixing fails.
 */
class PurifiedModeExactPrivacyTest {

    /** The input pmf on the box: the choice's probability at its corner (bit i = 1 ↔ offset +N). */
    private static double[] input(int n, double[] choice) {
        int w = 2 * n + 1;
        double[] p = new double[w * w];
        for (int index = 0; index < choice.length; index++) {
            int z0 = (index & 1) == 1 ? n : -n;
            int z1 = (index >> 1 & 1) == 1 ? n : -n;
            p[(z0 + n) + (z1 + n) * w] += choice[index];
        }
        return p;
    }

    /** The largest log-ratio of the purified pmfs over every neighbouring situation of a test. */
    private static double worstLoss(DistanceTest test, Purifier cube) {
        int n = (int) cube.gridRadius();
        double t = cube.noiseScaleGridUnits().doubleValue();
        boolean[] inL = new boolean[(2 * n + 1) * (2 * n + 1)];
        java.util.Arrays.fill(inL, true);
        double worst = 0;
        // the choice: label a with P(pass at distance d), else ⊥ (index 2)
        for (long d = 0; d < test.threshold() + 30; d++) {
            double[] p = input(n, new double[] {test.passProbability(d), 0, 1 - test.passProbability(d)});
            double[] q = input(n, new double[] {test.passProbability(d + 1), 0, 1 - test.passProbability(d + 1)});
            worst = Math.max(worst, maxLogRatio(purified(p, inL, 2, n, cube.omega(), t),
                    purified(q, inL, 2, n, cube.omega(), t)));
        }
        double pass = test.passProbability(0);
        double[] a = input(n, new double[] {pass, 0, 1 - pass});
        double[] b = input(n, new double[] {0, pass, 1 - pass});
        return Math.max(worst, maxLogRatio(purified(a, inL, 2, n, cube.omega(), t),
                purified(b, inL, 2, n, cube.omega(), t)));
    }

    @Test
    void thePurifiedModeIsPureOnEveryNeighbouringSituation() {
        Workload w = Workload.of(AnalyticsFixtures.mode("mode-ptr", 1, "add-remove", 1, List.of("a", "b")));
        DistanceTest test = new DistanceTest(0.5, 40);
        DiscretePurifier purifier = new DiscretePurifier(2, Epsilon.of(1), test.logDelta(), 6);
        PurifiedMode mode = PurifiedMode.withParameters(w,
                new AnalyticsBudget(0, 1.5, 100, NeighbourRelation.ADD_REMOVE, 1, 0.9), test, purifier);
        Purifier cube = purifier.cubePurifier();
        assertThat(cube.gridRadius()).isEqualTo(32);
        double epsTotal = test.epsilon() + cube.epsilonPrime().value();
        assertThat(mode.cost().epsilon()).isEqualTo(epsTotal);
        double worst = worstLoss(test, cube);
        assertThat(passes(worst, epsTotal)).as("loss %s <= %s", worst, epsTotal).isTrue();
        // the check is sharp: the test's own step e^{ε_test} is nearly realised through the purification
        assertThat(worst).isGreaterThan(0.5 * test.epsilon());
        // control: a test whose noise is calibrated for ε = 4 while ε_test = 0.5 is accounted fails the same check
        DistanceTest loud = new DistanceTest(4, 320);
        DiscretePurifier same = new DiscretePurifier(2, Epsilon.of(1), loud.logDelta(), 6);
        double control = worstLoss(loud, same.cubePurifier());
        assertThat(passes(control, epsTotal)).as("mis-calibrated test: %s", control).isFalse();
    }
}

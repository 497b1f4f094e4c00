package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import org.junit.jupiter.api.Test;
import io.privacygateway.mechanisms.linalg.WalshHadamard;

/**
 * GRR and Hadamard response with scripted draws (outputs worked out by hand), their exact output
 * probabilities, and the Hadamard server's transform and estimate on hand-made histograms.
 */
class GrrAndHadamardScriptedResponsesTest {
    private static final Epsilon EPS = Epsilon.of(1.0);

    /**
     * GRR over 4 values, value 2: a hit reports 2 whatever the replacement; a miss maps the replacement
     * past the value (0 → 0, 1 → 1, 2 → 3), so the value itself is never a miss.
     */
    @Test
    void grrMapsTheReplacementPastTheValue() {
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(4, EPS);
        int[] expected = {0, 1, 3};
        for (int other = 0; other < 3; other++) {
            var miss = new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(false, other);
            assertThat(g.randomize(2, 0, miss)).containsExactly(expected[other]);
            assertThat(miss.calls).containsExactly("bernoulli", "uniformInt(3)");
            assertThat(g.randomize(2, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(true, other))).containsExactly(2);
        }
        // the last value: every replacement is below it
        assertThat(g.randomize(3, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(false, 2))).containsExactly(2);
        assertThat(g.randomize(0, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(false, 0))).containsExactly(1);
    }

    /** GRR's output probabilities: N/2^53 for the value, (2^53 − N)/(3·2^53) for each other report. */
    @Test
    void grrOutputProbabilitiesAreTheKeepAndSplitFlipNumerators() {
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(4, EPS);
        long num = g.keepProbability().numerator();
        assertThat(g.outputProbability(1, new byte[] {1}, 0)).isEqualTo(Rational.dyadic(num));
        assertThat(g.outputProbability(1, new byte[] {3}, 0)).isEqualTo(Rational.dyadic((1L << 53) - num).divide(3));
        assertThat(g.outputProbability(1, new byte[] {4}, 0)).isEqualTo(Rational.ZERO);
        assertThat(g.indexRange()).isEqualTo(4);
        long[] state = new long[4];
        g.accumulateIndex(3, 0, state, 0);
        assertThat(state).containsExactly(0, 0, 0, 1);
    }

    /**
     * Hadamard response over 5 values (K = 8). Value 2 owns row 3 = 0b011, flip bit 1: j = 0 (in the set)
     * with the coin out → 1; j = 5 (out) with the coin in → 4; j = 3 (in) with the coin in stays 3. Value 3
     * owns row 4 = 0b100, flip bit 4: j = 1 (in) with the coin out → 5. Value 4 owns
     * row 5 = 0b101, flip bit 1: j = 3 (out) with the coin in → 2.
     */
    @Test
    void hadamardFlipsTheLowestBitOfTheRow() {
        HadamardResponse hr = new HadamardResponse(5, EPS);
        assertThat(hr.randomize(2, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(0, false))).containsExactly(1);
        assertThat(hr.randomize(2, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(5, true))).containsExactly(4);
        assertThat(hr.randomize(2, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(3, true))).containsExactly(3);
        assertThat(hr.randomize(2, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(6, false))).containsExactly(6);
        assertThat(hr.randomize(3, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(1, false))).containsExactly(5);
        assertThat(hr.randomize(4, 0, new SubsetSelectionScriptedDrawsAndLayoutTest.Scripted(3, true))).containsExactly(2);
        assertThat(HadamardResponse.inSet(2, 3)).isTrue();
        assertThat(HadamardResponse.inSet(2, 1)).isFalse();
    }

    /**
     * The transform of a hand-made histogram over K = 4: counts (3, 1, 0, 2) give T = (6, 0, 2, 4)
     * (T(a) = Σ_j count_j (−1)^popcount(a&j)); the estimate is T(x + 1)/(n(2π − 1)).
     */
    @Test
    void hadamardEstimateFromTheTransform() {
        long[] a = {3, 1, 0, 2};
        WalshHadamard.transform(a);
        assertThat(a).containsExactly(6, 0, 2, 4);
        double[] d = {3, 1, 0, 2};
        WalshHadamard.transform(d);
        assertThat(d).containsExactly(6, 0, 2, 4);
        HadamardResponse hr = new HadamardResponse(3, EPS);
        assertThat(hr.order()).isEqualTo(4);
        double b = 2 * hr.inSetProbability().value() - 1;
        double[] est = FrequencyOracleEstimator.of(hr).estimate(new long[] {3, 1, 0, 2}, 6);
        assertThat(est).containsExactly(new double[] {0, 2 / (6 * b), 4 / (6 * b)}, within(1e-15));
        assertThat(hr.outputProbability(0, new byte[] {1}, 0))
                .isEqualTo(Rational.dyadic((1L << 53) - hr.inSetProbability().numerator()).divide(2));
        assertThat(hr.outputProbability(0, new byte[] {2}, 0))
                .isEqualTo(Rational.dyadic(hr.inSetProbability().numerator()).divide(2));
        assertThat(hr.outputProbability(0, new byte[] {4}, 0)).isEqualTo(Rational.ZERO);
    }

    /**
     * Hadamard variances at a point mass: Var(p̂_x) = (1 − f_x b²)/(n b²) (b = 2π − 1), from
     * Var(±1 coordinate) = 1 − (E)² with E = b for the true value's row and 0 otherwise.
     */
    @Test
    void hadamardVariancesFromTheSignLaw() {
        HadamardResponse hr = new HadamardResponse(3, EPS);
        double b = 2 * hr.inSetProbability().value() - 1;
        long n = 50;
        double[] f = {1, 0, 0};
        double[] v = FrequencyOracleEstimator.of(hr).variances(n, f);
        assertThat(v[0]).isCloseTo((1 - b * b) / (n * b * b), within(1e-15));
        assertThat(v[1]).isCloseTo(1 / (n * b * b), within(1e-15));
        // query e_0 + e_1 at the point mass on 0: rows 1 and 2; E = b·1, second moment 2 + 2·E[H(3, j)] = 2 + 2·0
        double q = FrequencyOracleEstimator.of(hr).queryVariance(n, f, new double[] {1, 1, 0});
        assertThat(q).isCloseTo((2 - b * b) / (n * b * b), within(1e-14));
        // rows 1, 2 and 3 are XOR-dependent: at the point mass on value 2 (row 3), E[H(1)H(2)] = E[H(3)] = b
        double r = FrequencyOracleEstimator.of(hr).queryVariance(n, new double[] {0, 0, 1}, new double[] {1, 1, 0});
        assertThat(r).isCloseTo((2 + 2 * b) / (n * b * b), within(1e-14));
    }
}

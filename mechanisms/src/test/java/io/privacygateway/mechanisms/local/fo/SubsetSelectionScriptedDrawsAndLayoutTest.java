package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RecordingDraws;
import io.privacygateway.mechanisms.random.SecretDraws;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Subset selection and OUE with scripted draws (outputs worked out by hand from Floyd's algorithm and the
 * bit layout), their exact draw sequences, the two-value domain (no pairs of other values) against a
 * covariance computed here from the output law, and the bitmap padding when {@code k} is a multiple of 8.
 */
class SubsetSelectionScriptedDrawsAndLayoutTest {
    private static final Epsilon EPS = Epsilon.of(1.0);

    /** Draws that return scripted outcomes in order and record the calls. */
    static final class Scripted implements SecretDraws {
        private final Deque<Object> outcomes;
        final List<String> calls = new ArrayList<>();

        Scripted(Object... outcomes) {
            this.outcomes = new ArrayDeque<>(List.of(outcomes));
        }

        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            calls.add("bernoulli");
            return (Boolean) outcomes.removeFirst();
        }

        @Override
        public int uniformInt(int n) {
            calls.add("uniformInt(" + n + ")");
            int v = (Integer) outcomes.removeFirst();
            assertThat(v).isBetween(0, n - 1);
            return v;
        }

        boolean exhausted() {
            return outcomes.isEmpty();
        }
    }

    private static int bits(byte[] y) {
        int v = 0;
        for (int i = y.length - 1; i >= 0; i--) {
            v = (v << 8) | (y[i] & 0xFF);
        }
        return v;
    }

    /**
     * k = 5, d = 2, value 2. Floyd over the 4 other indices: uniformInt(3) = 1 picks 1; uniformInt(4) = 1 hits
     * an already chosen index and picks j = 3. Indices map past the value: 1 → 1, 3 → 4. On a miss the output
     * is {1, 4}; on a hit with drop position 0 it is {4} plus the value: {2, 4}; with drop 1: {1, 2}.
     */
    @Test
    void floydWithACollisionAndTheDroppedPosition() {
        SubsetSelection ss = new SubsetSelection(5, EPS, 2);
        Scripted miss = new Scripted(false, 1, 1, 0);
        assertThat(bits(ss.randomize(2, 0, miss))).isEqualTo(0b10010);
        assertThat(miss.calls).containsExactly("bernoulli", "uniformInt(3)", "uniformInt(4)", "uniformInt(2)");
        assertThat(miss.exhausted()).isTrue();
        assertThat(bits(ss.randomize(2, 0, new Scripted(true, 1, 1, 0)))).isEqualTo(0b10100);
        assertThat(bits(ss.randomize(2, 0, new Scripted(true, 1, 1, 1)))).isEqualTo(0b00110);
    }

    /**
     * An index equal to the value is mapped past it: k = 5, d = 2, value 1, picks 1 then 0 (uniformInt(3) = 1,
     * uniformInt(4) = 0): a miss reports {0, 2}, never the value itself.
     */
    @Test
    void anIndexEqualToTheValueIsMappedPastIt() {
        SubsetSelection ss = new SubsetSelection(5, EPS, 2);
        assertThat(bits(ss.randomize(1, 0, new Scripted(false, 1, 0, 1)))).isEqualTo(0b00101);
        // the last value: every index is below it and stays
        assertThat(bits(ss.randomize(4, 0, new Scripted(false, 2, 3, 0)))).isEqualTo(0b01100);
    }

    /** d = 1 draws no position (there is only one to drop): a coin and one uniformInt(k − 1), nothing more. */
    @Test
    void subsetsOfOneDrawNoPosition() {
        SubsetSelection ss = new SubsetSelection(6, EPS, 1);
        RecordingDraws rec = RecordingDraws.seeded(3);
        ss.randomize(4, 0, rec);
        assertThat(rec.trace()).containsExactly(
                new RecordingDraws.Draw("bernoulli", ss.inclusionProbability().numerator(), 53),
                new RecordingDraws.Draw("uniformInt", 5, 0));
        assertThat(bits(ss.randomize(4, 0, new Scripted(true, 2)))).isEqualTo(0b010000);
        assertThat(bits(ss.randomize(4, 0, new Scripted(false, 4)))).isEqualTo(0b100000);
    }

    /**
     * k = 2 (d = 1) is GRR-like with p = π, q = 1 − π and no pair of other values: the query variance and the
     * covariance product equal those built here from the law P(report x | v), finite.
     */
    @Test
    void twoValuesHaveNoPairsOfOtherValues() {
        SubsetSelection ss = new SubsetSelection(2, EPS);
        assertThat(ss.subsetSize()).isEqualTo(1);
        double pi = ss.inclusionProbability().value();
        double[] f = {0.25, 0.75};
        double[] c = {1, 3};
        long n = 100;
        double scale = n * (2 * pi - 1) * (2 * pi - 1);
        double[][] cov = new double[2][2];
        for (int v = 0; v < 2; v++) {
            double[] law = v == 0 ? new double[] {pi, 1 - pi} : new double[] {1 - pi, pi};
            for (int x = 0; x < 2; x++) {
                for (int y = 0; y < 2; y++) {
                    cov[x][y] += f[v] * ((x == y ? law[x] : 0) - law[x] * law[y]);
                }
            }
        }
        double var = 0;
        for (int x = 0; x < 2; x++) {
            for (int y = 0; y < 2; y++) {
                var += c[x] * c[y] * cov[x][y];
            }
        }
        var /= scale;
        assertThat(FrequencyOracleEstimator.of(ss).queryVariance(n, f, c)).isCloseTo(var, within(1e-12 * var));
        double[] u = {2, -1};
        double[] cu = FrequencyOracleEstimator.of(ss).covarianceTimes(n, f, u);
        for (int x = 0; x < 2; x++) {
            double expected = (cov[x][0] * u[0] + cov[x][1] * u[1]) / scale;
            assertThat(cu[x]).isCloseTo(expected, within(1e-12 * Math.abs(expected)));
        }
        assertThat(ss.pairBothOther()).isZero();
    }

    /**
     * OUE with scripted coins: bit x is drawn with q for every x, then the half coin replaces the value's bit.
     * k = 10, value 9: coins 1,0,0,1,0,0,0,0,0,1 then own bit 0 give bits {0, 3}; own bit 1 adds bit 9.
     */
    @Test
    void oueReplacesTheValuesBitAfterAllOthers() {
        OptimizedUnaryEncoding oue = new OptimizedUnaryEncoding(10, EPS);
        Object[] coins = {true, false, false, true, false, false, false, false, false, true};
        Object[] off = new Object[11];
        Object[] on = new Object[11];
        System.arraycopy(coins, 0, off, 0, 10);
        System.arraycopy(coins, 0, on, 0, 10);
        off[10] = false;
        on[10] = true;
        assertThat(bits(oue.randomize(9, 0, new Scripted(off)))).isEqualTo(0b0000001001);
        assertThat(bits(oue.randomize(9, 0, new Scripted(on)))).isEqualTo(0b1000001001);
        assertThat(bits(oue.randomize(0, 0, new Scripted(off)))).isEqualTo(0b1000001000);
        assertThat(bits(oue.randomize(3, 0, new Scripted(on)))).isEqualTo(0b1000001001);
    }

    /** k a multiple of 8 has no padding: the top bit of the last byte is a value and is accepted and counted. */
    @Test
    void fullLastBytesHaveNoPadding() {
        OptimizedUnaryEncoding oue = new OptimizedUnaryEncoding(16, EPS);
        long[] s = new long[16];
        assertThat(oue.accumulate(new byte[] {0, (byte) 0x80}, 0, s)).isTrue();
        assertThat(s[15]).isEqualTo(1);
        assertThat(oue.outputProbability(15, new byte[] {0, (byte) 0x80}, 0).isZero()).isFalse();
        SubsetSelection ss = new SubsetSelection(8, EPS, 1);
        long[] t = new long[8];
        assertThat(ss.accumulate(new byte[] {(byte) 0x80}, 0, t)).isTrue();
        assertThat(t[7]).isEqualTo(1);
        assertThat(ss.outputProbability(7, new byte[] {(byte) 0x80}, 0).isZero()).isFalse();
        // k = 9: bit 8 is a value, bits 9..15 padding
        OptimizedUnaryEncoding nine = new OptimizedUnaryEncoding(9, EPS);
        assertThat(nine.accumulate(new byte[] {0, 1}, 0, new long[9])).isTrue();
        assertThat(nine.accumulate(new byte[] {0, 2}, 0, new long[9])).isFalse();
    }
}

package io.privacygateway.mechanisms.central.purification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 2: exact privacy check of the purified choice (the output pmf over the {@code 2^d} options is
 * computed exactly, coordinate by coordinate, up to floating-point error with relative slack 1e-9), a failing
 * control, the utility bound, and the sampler against the exact pmf.
 */
class DiscretePurifierTest {

    /**
     * {@code P(out | in)} exactly: without mixing the coordinates are independent with
     * {@code P(bit 1 | x_i = 1) = P(η >= −N)} and {@code P(bit 1 | x_i = 0) = P(η >= N)}; with mixing the
     * uniform point of the cube lattice has independent uniform coordinates in {@code [−N, N]}.
     */
    static double[][] kernel(DiscretePurifier dp, double omega) {
        Purifier cube = dp.cubePurifier();
        int bits = dp.bits();
        long n = (long) cube.gridRadius();
        DiscreteLaplace lap = cube.noiseDistribution();
        double oneGivenOne = 1 - lap.cdf(-n - 1);
        double oneGivenZero = 1 - lap.cdf(n - 1);
        // (1/(2N+1)) Σ_{z=−N}^{N} P(η >= −z) = (N + 1 − β^{N+1}/(1+β)) / (2N + 1) (geometric sums)
        double beta = lap.beta();
        double oneUniform = (n + 1 - Math.exp(-(n + 1.0) / lap.scaleDouble()) / (1 + beta)) / (2.0 * n + 1);
        if (n <= 100_000) { // cross-check the closed form by direct summation
            double direct = 0;
            for (long z = -n; z <= n; z++) {
                direct += 1 - lap.cdf(-z - 1);
            }
            assertThat(oneUniform).isCloseTo(direct / (2 * n + 1), org.assertj.core.data.Offset.offset(1e-12));
        }
        int k = 1 << bits;
        double[][] m = new double[k][k];
        for (int in = 0; in < k; in++) {
            for (int out = 0; out < k; out++) {
                double kept = 1;
                double mixed = 1;
                for (int i = 0; i < bits; i++) {
                    boolean x = ((in >> i) & 1) == 1;
                    boolean o = ((out >> i) & 1) == 1;
                    double p1 = x ? oneGivenOne : oneGivenZero;
                    kept *= o ? p1 : 1 - p1;
                    mixed *= o ? oneUniform : 1 - oneUniform;
                }
                m[in][out] = (1 - omega) * kept + omega * mixed;
            }
        }
        return m;
    }

    static double[] apply(double[][] m, double[] p) {
        double[] out = new double[p.length];
        for (int in = 0; in < p.length; in++) {
            for (int o = 0; o < p.length; o++) {
                out[o] += p[in] * m[in][o];
            }
        }
        return out;
    }

    @Test
    void purifiedChoiceIsPureAndTheUnmixedControlIsNot() {
        // P, P' on 4 options: a (0.5, 0)-DP core on {0, 1, 2} and a δ0-leak to option 3 that P' never outputs
        double eps = 0.5;
        double delta0 = 1e-6;
        double e = Math.exp(eps);
        double[] p = {(1 - delta0) * e / (e + 2), (1 - delta0) / (e + 2), (1 - delta0) / (e + 2), delta0};
        double[] q = {(1 - delta0) / (e + 2) + delta0, (1 - delta0) * e / (e + 2), (1 - delta0) / (e + 2), 0};
        double delta = ExactPurification.hockeyStick(p, q, eps) * (1 + 1e-6);
        DiscretePurifier dp = new DiscretePurifier(2, Epsilon.of(0.5), new LogDelta(Math.log(delta)));
        assertThat(dp.cubePurifier().omega()).isEqualTo(0.25);
        double total = dp.epsilonTotal(Epsilon.of(eps)).value();
        double[][] m = kernel(dp, dp.cubePurifier().omega());
        double loss = ExactPurification.maxLogRatio(apply(m, p), apply(m, q));
        assertThat(ExactPurification.passes(loss, total)).as("loss %s <= %s", loss, total).isTrue();
        // control: without the mixing, option 3 is ~δ0 under P and ~e^{-N/t}-small under P'
        double[][] noMix = kernel(dp, 0);
        double[] a = apply(noMix, p);
        double[] b = apply(noMix, q);
        double controlLoss = Math.abs(Math.log(a[3] / b[3]));
        assertThat(ExactPurification.passes(controlLoss, total)).as("no mixing: %s", controlLoss).isFalse();
    }

    @Test
    void oneBitChoice() {
        double eps = 0.3;
        double delta0 = 1e-9;
        double e = Math.exp(eps);
        double[] p = {(1 - delta0) * e / (e + 1), (1 - delta0) / (e + 1) + delta0};
        double[] q = {(1 - delta0) / (e + 1), (1 - delta0) * e / (e + 1) + delta0};
        double delta = Math.max(ExactPurification.hockeyStick(p, q, eps), 1e-300) * (1 + 1e-6);
        DiscretePurifier dp = new DiscretePurifier(1, Epsilon.of(0.3), new LogDelta(Math.log(Math.max(delta, 1e-12))));
        double[][] m = kernel(dp, dp.cubePurifier().omega());
        double loss = ExactPurification.maxLogRatio(apply(m, p), apply(m, q));
        assertThat(ExactPurification.passes(loss, eps + 0.3)).isTrue();
    }

    @Test
    void utilityAndSamplerMatchTheExactKernel() {
        // d = 3 bits, δ small enough that the noise rarely flips a bit (Theorem 2's regime)
        DiscretePurifier dp = new DiscretePurifier(3, Epsilon.of(1.0), new LogDelta(-80));
        Purifier cube = dp.cubePurifier();
        assertThat(cube.norm()).isEqualTo(LqNorm.LINF);
        assertThat(cube.omega()).isEqualTo(0.125);
        double[][] m = kernel(dp, cube.omega());
        double bound = dp.probabilityUnchangedLowerBound();
        for (int in = 0; in < 8; in++) {
            assertThat(m[in][in]).isGreaterThanOrEqualTo(bound);
        }
        assertThat(bound).isGreaterThan(0.87); // (1 − 1/8)·(1 − tiny)
        // the sampler's output distribution for input 5 matches the exact kernel row (chi-square, false failure 1e-6)
        RandomBits bits = new SeededRandomBits(91);
        long[] counts = new long[8];
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            counts[(int) dp.purify(5, bits)]++;
        }
        double[] expected = new double[8];
        for (int o = 0; o < 8; o++) {
            expected[o] = m[5][o] * n;
        }
        assertThat(ChiSquareTest.withDefaults().test(expected, counts).getPValue()).isGreaterThan(1e-6);
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> new DiscretePurifier(0, Epsilon.of(1), new LogDelta(-10))).hasMessageContaining("bits")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> new DiscretePurifier(63, Epsilon.of(1), new LogDelta(-10)))
                .hasMessageContaining("bits").hasMessageContaining("63");
        assertThatThrownBy(() -> new DiscretePurifier(3, Epsilon.of(1), new LogDelta(-10), 0))
                .hasMessageContaining("gridExponent").hasMessageContaining("got 0");
        assertThatThrownBy(() -> new DiscretePurifier(3, null, new LogDelta(-10))).hasMessageContaining("epsilonPrime");
        DiscretePurifier dp = new DiscretePurifier(3, Epsilon.of(1), new LogDelta(-10), 8);
        assertThat(dp.cubePurifier().gridRadius()).isEqualTo(128);
        kernel(dp, dp.cubePurifier().omega()); // runs the closed-form cross-check
        assertThat(dp.options()).isEqualTo(8);
        RandomBits bits = new SeededRandomBits(92);
        assertThatThrownBy(() -> dp.purify(-1, bits)).hasMessageContaining("index").hasMessageContaining("-1");
        assertThatThrownBy(() -> dp.purify(8, bits)).hasMessageContaining("index").hasMessageContaining("8");
        assertThat(dp.purify(7, bits)).isBetween(0L, 7L);
        // 62 bits is accepted (ω = 2^-62 realised exactly)
        DiscretePurifier wide = new DiscretePurifier(62, Epsilon.of(1), new LogDelta(-62 * 40));
        assertThat(wide.purify(Long.MAX_VALUE >>> 1, bits)).isBetween(0L, (1L << 62) - 1);
    }
}

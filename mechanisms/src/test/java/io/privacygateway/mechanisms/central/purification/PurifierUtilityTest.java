package io.privacygateway.mechanisms.central.purification;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Theorem 1's utility bound (generalised, {@link Purifier#expectedL1ErrorBound()}) holds empirically: the
 * mean of {@code Y = ||x_pure − x_apx||₁} over n draws is below the bound.
 *
 * <p>False-failure probability, computed and asserted in the test (at most 1e-6): pointwise
 * {@code Y <= ρ + M + h·S} with ρ the (deterministic) rounding distance, {@code M = h||z_mix − z||₁} (0 unless
 * mixing, always in {@code [0, Diam₁(Θ)]}, mean at most {@code ω(Diam₁/2 + ||hz||₁)} because
 * {@code ||hU||₁ <= d^{1−1/q}||hU||_q <= Diam₁/2}) and {@code S = Σ_i |η_i|}. The bound exceeds
 * {@code ρ + E M + h·E S} by {@code slack = ω(Diam₁/2 − ||hz||₁) + (d·h − ρ)}, so the mean can exceed the
 * bound only if the mean of M exceeds its mean bound by {@code slack/2} (Hoeffding:
 * {@code exp(−2n(slack/2)²/Diam₁²)}) or the mean of {@code h·S} exceeds its mean by {@code slack/2} (Chernoff with
 * the exact moment generating function of {@code |η|}).
 */
class PurifierUtilityTest {
    private static final int N = 5000;

    static Stream<Arguments> configs() {
        return Stream.of(Arguments.of(LqNorm.LINF, 4), Arguments.of(LqNorm.L1, 3), Arguments.of(LqNorm.L2, 3));
    }

    @ParameterizedTest
    @MethodSource("configs")
    void meanL1DistanceIsBelowTheBound(LqNorm norm, int d) {
        double[] c = new double[d];
        double[] x = new double[d];
        for (int i = 0; i < d; i++) {
            c[i] = 0.3;
            x[i] = 0.3 + (i % 2 == 0 ? 0.0123456 : -0.0098765); // inside Θ, off the grid
        }
        double omega = 0.2;
        Purifier pur = new Purifier(norm, c, 2.0, Epsilon.of(1.0), LogDelta.ofDelta(1e-8), omega);
        long[] z = pur.roundToLattice(x);
        double rounding = l1(pur.toPoint(z), x);
        assertThat(rounding).isLessThanOrEqualTo(pur.roundingErrorBound());
        RandomBits bits = new SeededRandomBits(81);
        double sum = 0;
        for (int j = 0; j < N; j++) {
            sum += l1(pur.purify(x, bits), x);
        }
        double mean = sum / N;
        double bound = pur.expectedL1ErrorBound();
        assertThat(mean).as("%s d=%d mean %s, bound %s", norm, d, mean, bound).isLessThanOrEqualTo(bound);

        // the false-failure probability of the assertion above
        double h = pur.gridStep();
        double diam = pur.l1Diameter();
        double zNorm = l1(pur.toPoint(z), c);
        double slack = omega * (diam / 2 - zNorm) + (d * h - rounding);
        assertThat(slack).isPositive();
        double pMixing = Math.exp(-2.0 * N * Math.pow(slack / 2, 2) / (diam * diam));
        DiscreteLaplace noise = pur.noiseDistribution();
        double threshold = d * noise.meanAbsolute() + slack / 2 / h; // per draw, grid units
        double t = noise.scaleDouble();
        double bestLog = 0;
        for (int k = 1; k < 400; k++) {
            double lambda = k / (400 * t);
            double log = N * (d * Math.log(noise.absMomentGenerating(lambda)) - lambda * threshold);
            bestLog = Math.min(bestLog, log);
        }
        double pNoise = Math.exp(bestLog);
        assertThat(pMixing + pNoise).as("false-failure probability").isLessThanOrEqualTo(1e-6);

        // the bound is the paper's ω·Diam₁ + d·2Δ/ε' up to the grid overhead (<= 1/64 of Δ) and the rounding term
        double paper = omega * diam + d * 2 * pur.continuousWassersteinBound() / 1.0;
        assertThat(bound).isLessThanOrEqualTo(paper * (1 + 1.0 / 60) + d * h);
    }

    private static double l1(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.abs(a[i] - b[i]);
        }
        return s;
    }
}

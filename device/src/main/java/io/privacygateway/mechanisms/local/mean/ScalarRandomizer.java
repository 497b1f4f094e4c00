package io.privacygateway.mechanisms.local.mean;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * An unbiased ε-LDP randomizer of a bounded scalar, discretised on both sides so that its law is finite and
 * enumerable (the {@code mean} family; docs/local-accuracy.md).
 *
 * <p><b>Input grid.</b> The device's value is a level {@code x ∈ [0, L]} ({@code L = levels − 1}) standing for
 * {@code t(x) = 2x/L − 1 ∈ [−1, 1]}; the workload maps {@code [lo, hi]} affinely onto it.
 *
 * <p><b>Guarantee.</b> For every pair of levels {@code x, x'} and every output symbol {@code y}:
 * {@code P(y | x) <= e^ε · P(y | x')}, the law being exactly {@link #probability}; the only secret randomness
 * is {@link SecretDraws}, with a sequence of calls (kinds, grids, {@code n}) that does not depend on the value
 * or on earlier outcomes (Bernoulli numerators may depend on the value). {@link #estimateOf} is unbiased:
 * {@code Σ_y P(y | x) · estimateOf(y) = t(x)} up to the rounding stated by each implementation.
 */
public sealed interface ScalarRandomizer permits DuchiScalar, PiecewiseScalar, HybridScalar {
    /** The mechanism. */
    MechanismId id();

    /** The per-report ε. */
    Epsilon epsilon();

    /** The number of input levels {@code L + 1}. */
    int levels();

    /** The number of output symbols; outputs are {@code [0, outputCount())}. */
    int outputCount();

    /** Device side: the output symbol of level {@code x}. */
    int randomize(int x, SecretDraws draws);

    /** The unbiased estimate of {@code t} carried by output symbol {@code y}. */
    double estimateOf(int y);

    /** The exact probability of output {@code y} for level {@code x} (the stated law). */
    Rational probability(int x, int y);

    /** The closed-form variance of {@code estimateOf(Y)} for level {@code x}. */
    double variance(int x);

    /** {@code t(x) = 2x/L − 1}. */
    default double t(int x) {
        return 2.0 * x / (levels() - 1) - 1;
    }

    /** The largest {@link #variance} over the input levels (the public worst case used for error bars). */
    default double worstVariance() {
        double v = 0;
        for (int x = 0; x < levels(); x++) {
            v = Math.max(v, variance(x));
        }
        return v;
    }

    /** The variance averaged over a histogram of the levels (frequencies summing to 1). */
    default double varianceUnder(double[] histogram) {
        double v = 0;
        for (int x = 0; x < histogram.length; x++) {
            if (histogram[x] > 0) {
                v += histogram[x] * variance(x);
            }
        }
        return v;
    }

    /** Checks a level index. */
    static void checkLevel(int x, int levels) {
        if (x < 0 || x >= levels) {
            throw new IllegalArgumentException("level must be in [0, " + levels + "), got " + x);
        }
    }

    /** Checks the input grid size. */
    static int checkLevels(int levels) {
        if (levels < 2 || levels > (1 << 16)) {
            throw new IllegalArgumentException("levels must be in [2, 65536], got " + levels);
        }
        return levels;
    }
}

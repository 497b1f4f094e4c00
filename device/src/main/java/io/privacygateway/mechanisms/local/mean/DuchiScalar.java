package io.privacygateway.mechanisms.local.mean;

import io.privacygateway.mechanisms.local.fo.Grid;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Duchi, Jordan and Wainwright's one-dimensional randomizer ("Minimax optimal procedures for locally private
 * estimation", JASA 2018): report one bit, {@code +} with probability {@code 1/2 + t·(e^ε − 1)/(2(e^ε + 1))};
 * the estimate of {@code t} is {@code ±(e^ε + 1)/(e^ε − 1)}. Variance {@code C² − t²} with
 * {@code C = (e^ε+1)/(e^ε−1)}: largest at {@code t = 0}, so it wins at small ε.
 *
 * <p><b>Discretisation.</b> The output is already finite (2 symbols: 0 = −, 1 = +). The probability of
 * {@code +} for level {@code x} is {@code (2^52 + (2x − L)·d/L)/2^53}, where {@code N₁ = 2^52 + d} is the
 * largest grid numerator with {@code N₁ <= e^ε (2^53 − N₁)} (certified lower bound of {@code e^ε}) and
 * {@code d} is rounded down to a multiple of {@code L}, so every level's numerator is an exact integer. The
 * estimate uses the realised {@code g = 2d/2^53} ({@code ±1/g}): exactly unbiased; the rounding raises the
 * variance by a relative {@code O(L·2^-52)}.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: {@code P(+|x) ∈ [(2^52 − d)/2^53, (2^52 + d)/2^53]} and
 * {@code (2^52 + d)/(2^52 − d) <= N₁/(2^53 − N₁) <= e^ε}. One Bernoulli draw on the {@code 2^-53} grid.
 */
public final class DuchiScalar implements ScalarRandomizer {
    private static final long ONE = Grid.ONE;
    private static final long HALF = ONE / 2;

    private final Epsilon epsilon;
    private final int levels;
    private final long step;
    private final double g;

    /**
     * @param levels input levels {@code L + 1} in {@code [2, 65536]}
     * @param epsilon per-report ε
     */
    public DuchiScalar(int levels, Epsilon epsilon) {
        this.levels = ScalarRandomizer.checkLevels(levels);
        this.epsilon = epsilon;
        long l = levels - 1;
        BigDecimal e = Grid.expLower(epsilon);
        long n1 = Grid.largestWithRatio(e, BigDecimal.ONE);
        long d = n1 - HALF;
        d -= d % l;
        if (d <= 0) {
            throw new IllegalArgumentException("ε " + epsilon.exact().toPlainString() + " is too small for " + levels
                    + " levels on the 2^-53 grid");
        }
        this.step = d / l;
        this.g = 2.0 * d / ONE;
    }

    /** The numerator (over {@code 2^53}) of {@code P(+ | x)}. */
    long plusNumerator(int x) {
        return HALF + (2L * x - (levels - 1)) * step;
    }

    @Override
    public MechanismId id() {
        return MechanismId.DUCHI;
    }

    @Override
    public Epsilon epsilon() {
        return epsilon;
    }

    @Override
    public int levels() {
        return levels;
    }

    @Override
    public int outputCount() {
        return 2;
    }

    @Override
    public int randomize(int x, SecretDraws draws) {
        ScalarRandomizer.checkLevel(x, levels);
        return draws.bernoulli(plusNumerator(x), 53) ? 1 : 0;
    }

    @Override
    public double estimateOf(int y) {
        return y == 1 ? 1 / g : -1 / g;
    }

    @Override
    public Rational probability(int x, int y) {
        ScalarRandomizer.checkLevel(x, levels);
        long n = plusNumerator(x);
        BigInteger den = BigInteger.ONE.shiftLeft(53);
        return switch (y) {
            case 1 -> Rational.of(BigInteger.valueOf(n), den);
            case 0 -> Rational.of(BigInteger.valueOf(ONE - n), den);
            default -> Rational.ZERO;
        };
    }

    @Override
    public double variance(int x) {
        double t = t(x);
        return 1 / (g * g) - t * t;
    }
}

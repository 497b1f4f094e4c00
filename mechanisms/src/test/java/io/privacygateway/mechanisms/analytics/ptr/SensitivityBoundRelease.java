package io.privacygateway.mechanisms.analytics.ptr;

import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigDecimal;

/**
 * Propose-test-release with a privately released local-sensitivity bound (purification paper §5.1, Algorithm 11),
 * on an integer grid with exact discrete noise: {@code β̂ = LS(D) + Z₀ + c}, {@code Z₀} discrete Laplace of scale
 * {@code >= 1/ε}, {@code c = ⌈ln(1/δ)/ε⌉ + 1}; then the query plus discrete Laplace noise of scale
 * {@code >= β̂/ε} per coordinate (β̂ at least 1); then {@link Purifier}.
 *
 * <p><b>Guarantee.</b> LS (the local l1 sensitivity, grid units) must have global sensitivity at most 1. β̂ is
 * pure ε-DP. {@code P(β̂ < LS(D)) = P(Z₀ < −c) <= e^{−(c−1)/t} <= δ}, and on the complement the noisy query is
 * ε-DP given β̂ (the Laplace mechanism with a scale at least the sensitivity over ε); so the pair is
 * {@code (2ε, δ)}-DP (the paper's proof of Theorem 11, with the tail of the discrete Laplace) and the purified
 * output is pure {@code 2ε + ε'} (the paper states 3ε with ε' = ε).
 */
public final class SensitivityBoundRelease {
    private final double epsilon;
    private final long offset;
    private final DiscreteLaplace boundNoise;
    private final Purifier purifier;
    private final double unit;

    /**
     * @param epsilon ε of each of the two noisy steps
     * @param logDelta ln δ of the failure event (the purifier's)
     * @param unit the real length of one grid unit
     * @param purifier the purifier (built for {@code logDelta})
     */
    public SensitivityBoundRelease(double epsilon, LogDelta logDelta, double unit, Purifier purifier) {
        this.epsilon = Require.finitePositive("epsilon", epsilon);
        this.unit = Require.finitePositive("unit", unit);
        this.purifier = Require.nonNull("purifier", purifier);
        Require.nonNull("logDelta", logDelta);
        if (purifier.logDelta().value() < logDelta.value()) {
            throw new IllegalArgumentException("the purifier must be built for this δ or a larger one");
        }
        var t = PrivacySplit.dyadicUp(1, epsilon);
        this.boundNoise = new DiscreteLaplace(t);
        // c − 1 >= t·ln(1/δ): then P(Z₀ < −c) = P(Z₀ <= −c − 1) <= e^{−c/t} <= δ
        BigDecimal need = new BigDecimal(t.numerator()).multiply(new BigDecimal(logDelta.logInverse()))
                .divide(new BigDecimal(t.denominator()), java.math.MathContext.DECIMAL128);
        this.offset = need.setScale(0, java.math.RoundingMode.CEILING).longValueExact() + 1;
    }

    /** The released bound β̂ (grid units, at least 1). */
    public long releaseBound(long localSensitivity, RandomBits secret) {
        Require.inRange("localSensitivity", localSensitivity, 0, 1L << 40);
        return Math.max(1, localSensitivity + boundNoise.sample(secret) + offset);
    }

    /** The pure release of a query in grid units given its local l1 sensitivity (grid units). */
    public double[] release(long[] query, long localSensitivity, RandomBits secret) {
        long bound = releaseBound(localSensitivity, secret);
        DiscreteLaplace noise = new DiscreteLaplace(PrivacySplit.dyadicUp(bound, epsilon));
        double[] apx = new double[query.length];
        for (int i = 0; i < query.length; i++) {
            apx[i] = (query[i] + noise.sample(secret)) * unit;
        }
        return purifier.purify(apx, secret);
    }

    /** The offset c added to the bound. */
    public long offset() {
        return offset;
    }

    /** The pure guarantee {@code 2ε + ε'}. */
    public Epsilon epsilonTotal() {
        return purifier.epsilonTotal(Epsilon.exactly(new BigDecimal(epsilon).multiply(BigDecimal.valueOf(2))));
    }
}

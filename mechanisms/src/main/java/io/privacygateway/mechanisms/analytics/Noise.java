package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.central.sampling.Rationals;
import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Exact noise for integer window sums, calibrated from exact sensitivities with every rounding on the side of
 * more noise: discrete Laplace of scale {@code >= Δ₁/ε} (pure ε) and discrete Gaussian of variance
 * {@code >= Δ₂²/(2ρ)} (ρ-zCDP, Canonne, Kamath and Steinke 2020, Theorem 4).
 */
public final class Noise {
    private Noise() {}

    /** Discrete Laplace noise of scale at least {@code l1Sensitivity/epsilon} (pure ε for that sensitivity). */
    public static DiscreteLaplace laplace(BigInteger l1Sensitivity, double epsilon) {
        Require.finitePositive("epsilon", epsilon);
        BigInteger s = l1Sensitivity.max(BigInteger.ONE);
        return new DiscreteLaplace(PrivacySplit.dyadicUp(new BigDecimal(s), new BigDecimal(epsilon)));
    }

    /** Discrete Gaussian noise of variance at least {@code l2Squared/(2ρ)} (ρ-zCDP for that sensitivity). */
    public static DiscreteGaussian gaussian(BigInteger l2Squared, double rho) {
        Require.finitePositive("rho", rho);
        BigInteger s = l2Squared.max(BigInteger.ONE);
        BigDecimal exact = new BigDecimal(s).divide(new BigDecimal(rho).multiply(BigDecimal.valueOf(2)),
                new MathContext(40, RoundingMode.CEILING));
        return new DiscreteGaussian(Rationals.ceilDyadic("sigma2", DirectedDoubles.ceil(exact), 31));
    }

    /** The standard deviation of a discrete Gaussian, bounded by its parameter σ (its variance is at most σ²). */
    public static double sigma(DiscreteGaussian g) {
        return Math.sqrt(g.sigma2().doubleValue());
    }

    /** The standard deviation of a discrete Laplace. */
    public static double sigma(DiscreteLaplace l) {
        return Math.sqrt(l.variance());
    }

    /**
     * A bound b with {@code P(|X| > b) <= beta} for one draw of a σ-subgaussian variable (the discrete Gaussian
     * with parameter σ is σ-subgaussian, CKS 2020 Proposition 2): {@code σ√(2 ln(2/β))}.
     */
    public static double gaussianTail(double sigma, double beta) {
        return sigma * Math.sqrt(2 * Math.log(2 / beta));
    }

    /**
     * An approximate {@code 1 − ζ} bound on the operator norm of a symmetric d×d noise matrix whose
     * {@code m = d(d+1)/2} upper entries are independent with parameter σ: {@code ‖E‖_op <= ‖E‖_F <=
     * σ√(2(m + 2√(m·x) + 2x))}, {@code x = ln(1/ζ)} (the Laurent–Massart chi-square tail, exact for Gaussian
     * entries; the discrete Gaussian is σ-subgaussian). Used only for the ridge and the trust region, which are
     * post-processing: a looser or tighter bound changes accuracy, never privacy.
     */
    public static double symmetricOperatorTail(double sigma, int d, double zeta) {
        double m = d * (d + 1) / 2.0;
        double x = Math.log(1 / zeta);
        return sigma * Math.sqrt(2 * (m + 2 * Math.sqrt(m * x) + 2 * x));
    }
}

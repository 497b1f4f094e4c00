package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * The exponential mechanism over finitely many candidates with integer scores, sampled exactly: candidate i is
 * returned with probability exactly {@code exp(ε·s_i/(2Δ)) / Σ_j exp(ε·s_j/(2Δ))} (McSherry and Talwar 2007).
 *
 * <p><b>Sampler.</b> Rejection from the uniform proposal: draw i uniformly ({@link ReleaseDraws#uniform}) and
 * accept with probability {@code exp(−γ_i)}, {@code γ_i = ε(s_max − s_i)/(2Δ) >= 0} an exact rational
 * ({@link ReleaseDraws#bernoulliExp}, Canonne–Kamath–Steinke's exact Bernoulli(e^{−γ})). One attempt returns i
 * with probability {@code e^{−γ_i}/C}; attempts are independent, so the output has probability
 * {@code e^{−γ_i}/Σ_j e^{−γ_j}}, the exponential mechanism's law exactly (the common factor
 * {@code e^{ε s_max/(2Δ)}} cancels). Candidate {@code argmax s} is accepted with probability 1, so the number of
 * attempts is geometric with mean {@code C/Σ_j e^{−γ_j} <= C}.
 *
 * <p><b>Privacy.</b> If every score changes by at most Δ between neighbouring datasets, the mechanism is ε-DP and
 * moreover ε-bounded-range (the log-ratio of its output probabilities on neighbours varies by at most ε over the
 * outputs), hence {@code ε²/8}-zCDP (Cesar and Rogers 2021, "Bounding, concentrating, and truncating: unifying
 * privacy loss composition for data analytics", bounded range implies zCDP; Durfee and Rogers 2019 for the
 * exponential mechanism being bounded range). ε is an exact rational here, so the guarantee is of the exact law.
 *
 * <p><b>Timing.</b> The number of attempts depends on the scores and hence on the data; the release documents
 * what that reveals ({@code docs/wide-domains.md}).
 *
 * <p><b>Utility</b> (Dwork and Roth 2014, Theorem 3.11): {@code P(s_out <= s_max − (2Δ/ε)(ln C + t)) <= e^{−t}}.
 */
public final class ExponentialSelection {
    private ExponentialSelection() {}

    /**
     * One exact draw.
     *
     * @param scores the candidates' integer scores (at least one)
     * @param sensitivity Δ {@code >= 1}: the largest change of any score between neighbouring datasets
     * @param epsilon ε {@code > 0}, exact
     */
    public static int select(long[] scores, long sensitivity, Rational epsilon, ReleaseDraws draws) {
        Rational[] gamma = gammas(scores, sensitivity, epsilon);
        while (true) {
            int i = (int) draws.uniform(scores.length);
            if (draws.bernoulliExp(gamma[i].numerator(), gamma[i].denominator())) {
                return i;
            }
        }
    }

    /** {@code γ_i = ε(s_max − s_i)/(2Δ)}, exact. */
    static Rational[] gammas(long[] scores, long sensitivity, Rational epsilon) {
        Require.nonNull("scores", scores);
        Require.nonNull("epsilon", epsilon);
        if (scores.length == 0) {
            throw new IllegalArgumentException("scores must hold at least one candidate");
        }
        Require.inRange("sensitivity", sensitivity, 1, Long.MAX_VALUE);
        if (epsilon.isZero()) {
            throw new IllegalArgumentException("epsilon must be > 0");
        }
        long max = Long.MIN_VALUE;
        for (long s : scores) {
            max = Math.max(max, s);
        }
        BigInteger den = epsilon.denominator().multiply(BigInteger.valueOf(sensitivity)).shiftLeft(1);
        Rational[] g = new Rational[scores.length];
        for (int i = 0; i < scores.length; i++) {
            BigInteger gap = BigInteger.valueOf(max).subtract(BigInteger.valueOf(scores[i]));
            g[i] = Rational.of(epsilon.numerator().multiply(gap), den);
        }
        return g;
    }

    /** The exact law's probabilities, evaluated in 40-digit arithmetic (tests and diagnostics). */
    static double[] probabilities(long[] scores, long sensitivity, Rational epsilon) {
        Rational[] g = gammas(scores, sensitivity, epsilon);
        MathContext mc = new MathContext(40);
        double[] w = new double[g.length];
        double total = 0;
        for (int i = 0; i < g.length; i++) {
            double gamma = new BigDecimal(g[i].numerator()).divide(new BigDecimal(g[i].denominator()), mc).doubleValue();
            w[i] = Math.exp(-gamma);
            total += w[i];
        }
        for (int i = 0; i < w.length; i++) {
            w[i] /= total;
        }
        return w;
    }

    /** The largest dyadic {@code ε = a/2^40 >= 0} with {@code ε²/8 <= rho} exactly: the ε a ρ-zCDP share affords. */
    public static Rational epsilonForRho(double rho) {
        Require.finitePositive("rho", rho);
        BigDecimal eightRho = new BigDecimal(rho).multiply(BigDecimal.valueOf(8));
        BigInteger denom = BigInteger.ONE.shiftLeft(40);
        double approx = Math.sqrt(8 * rho);
        BigInteger a = new BigDecimal(approx).multiply(new BigDecimal(denom)).toBigInteger().add(BigInteger.TWO);
        while (a.signum() > 0) {
            BigDecimal e = new BigDecimal(a).divide(new BigDecimal(denom));
            if (e.multiply(e).compareTo(eightRho) <= 0) {
                break;
            }
            a = a.subtract(BigInteger.ONE);
        }
        if (a.signum() <= 0) {
            throw new IllegalArgumentException("rho " + rho + " too small for a selection on the 2^-40 grid");
        }
        return Rational.of(a, denom);
    }

    /** {@code ε²/8} exactly, rounded up to a double: the zCDP ρ of a selection with ε. */
    public static double rhoOf(Rational epsilon) {
        BigDecimal e = new BigDecimal(epsilon.numerator()).divide(new BigDecimal(epsilon.denominator()));
        return DirectedDoubles.ceil(e.multiply(e).divide(BigDecimal.valueOf(8)));
    }
}

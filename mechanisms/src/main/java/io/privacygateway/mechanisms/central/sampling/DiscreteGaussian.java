package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import java.math.BigInteger;

/**
 * The discrete Gaussian on ℤ with rational variance parameter {@code σ² = p/q > 0}:
 * {@code P(k) = e^{−k²/(2σ²)} / Σ_j e^{−j²/(2σ²)}}, sampled exactly by rejection from a discrete Laplace
 * (Canonne, Kamath and Steinke 2020, Algorithm 3).
 *
 * <p>Method: {@code t = ⌊σ⌋ + 1}; draw {@code Y} from the discrete Laplace of scale {@code t} and accept with
 * probability {@code exp(−(|Y| − σ²/t)²/(2σ²))} ({@link BernoulliExp} with the exact rational
 * {@code (|Y|qt − p)² / (2pqt²)}). Accepted values have probability {@code ∝ e^{−|y|/t − (|y| − σ²/t)²/(2σ²)}
 * = e^{−y²/(2σ²)} · const}. The acceptance probability (computed numerically from the two pmfs) is about
 * 0.76 for {@code σ >= 3} (1.32 proposals per sample), 0.54 at {@code σ = 1} and tends to {@code tanh(1/2) ≈ 0.46}
 * as {@code σ → 0}; each proposal costs about 8 words, each acceptance test about 2–3 more (about 12 words per
 * sample at σ = 100, measured by {@code SamplerThroughput}).
 *
 * <p>Limits: {@code p, q < 2^62} (so {@code σ < 2^31} and the Laplace proposal is within
 * {@link DiscreteLaplace}'s limits). The zCDP guarantee of adding this noise to an integer query of
 * sensitivity {@code Δ} is {@code ρ = Δ²/(2σ²)} (CKS Theorem 4).
 */
public final class DiscreteGaussian {
    private final Rational sigma2;
    private final long p;
    private final long q;
    private final long t;
    private final DiscreteLaplace proposal;
    /** {@code q·t} or −1 when it does not fit in a long. */
    private final long qt;
    /** {@code 2·p·q·t²} or −1 when it does not fit in a long. */
    private final long acceptDen;
    private final BigInteger bigQt;
    private final BigInteger bigAcceptDen;
    private final double normaliser;

    /**
     * @param sigma2 {@code σ² > 0}, numerator and denominator {@code < 2^62}
     */
    public DiscreteGaussian(Rational sigma2) {
        Require.nonNull("sigma2", sigma2);
        if (sigma2.isZero()) {
            throw new IllegalArgumentException("sigma2 must be > 0, got " + sigma2);
        }
        if (sigma2.numerator().bitLength() > 62 || sigma2.denominator().bitLength() > 62) {
            throw new IllegalArgumentException(
                    "sigma2 must have numerator and denominator < 2^62, got " + sigma2);
        }
        this.sigma2 = sigma2;
        this.p = sigma2.numerator().longValueExact();
        this.q = sigma2.denominator().longValueExact();
        this.t = isqrt(p / q) + 1; // ⌊√(p/q)⌋ = ⌊√⌊p/q⌋⌋
        this.proposal = DiscreteLaplace.withScale(t, 1);
        this.bigQt = BigInteger.valueOf(q).multiply(BigInteger.valueOf(t));
        this.bigAcceptDen = BigInteger.valueOf(2).multiply(BigInteger.valueOf(p)).multiply(bigQt)
                .multiply(BigInteger.valueOf(t));
        this.qt = bigQt.bitLength() < 63 ? bigQt.longValue() : -1;
        this.acceptDen = bigAcceptDen.bitLength() < 63 ? bigAcceptDen.longValue() : -1;
        this.normaliser = computeNormaliser(sigma2.doubleValue());
    }

    /** The discrete Gaussian with {@code σ² = numerator/denominator}. */
    public static DiscreteGaussian withSigma2(long numerator, long denominator) {
        if (numerator <= 0 || denominator <= 0) {
            throw new IllegalArgumentException(
                    "sigma2 must be a positive fraction, got " + numerator + "/" + denominator);
        }
        return new DiscreteGaussian(Rational.of(numerator, denominator));
    }

    public Rational sigma2() {
        return sigma2;
    }

    /** The integer scale {@code t = ⌊σ⌋ + 1} of the Laplace proposal. */
    public long proposalScale() {
        return t;
    }

    /** One exact sample. */
    public long sample(RandomBits bits) {
        while (true) {
            long y = proposal.sample(bits);
            if (accept(bits, Math.abs(y))) {
                return y;
            }
        }
    }

    private boolean accept(RandomBits bits, long ay) {
        if (qt > 0 && acceptDen > 0) {
            long m = multiplyOrMinusOne(ay, qt);
            if (m >= 0) {
                long diff = Math.abs(m - p);
                long sq = multiplyOrMinusOne(diff, diff);
                if (sq >= 0) {
                    return BernoulliExp.sample(bits, sq, acceptDen);
                }
            }
        }
        BigInteger diff = BigInteger.valueOf(ay).multiply(bigQt).subtract(BigInteger.valueOf(p));
        return BernoulliExp.sample(bits, diff.multiply(diff), bigAcceptDen);
    }

    /** {@code a·b} for {@code a, b >= 0}, or −1 when it does not fit in a long. */
    static long multiplyOrMinusOne(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi == 0 && lo >= 0 ? lo : -1;
    }

    /** {@code ⌊√n⌋} for {@code n >= 0}, exact. */
    static long isqrt(long n) {
        long r = (long) Math.sqrt((double) n);
        while (r > 0 && (multiplyOrMinusOne(r, r) < 0 || r * r > n)) {
            r--;
        }
        while (true) {
            long s = multiplyOrMinusOne(r + 1, r + 1);
            if (s < 0 || s > n) {
                return r;
            }
            r++;
        }
    }

    /** The unnormalised weight {@code e^{−k²/(2σ²)}}. */
    public double unnormalisedWeight(long k) {
        double x = (double) k;
        return Math.exp(-x * x / (2 * sigma2.doubleValue()));
    }

    /**
     * The normaliser {@code Z = Σ_k e^{−k²/(2σ²)}}: for {@code σ² >= 1} by Poisson summation,
     * {@code Z = σ√(2π)·(1 + 2Σ_{j>=1} e^{−2π²σ²j²})} (three correction terms; the rest is below
     * {@code e^{−300}}), otherwise by direct summation over {@code |k| <= 40}.
     */
    public double normaliser() {
        return normaliser;
    }

    /** {@code P(X = k)} as a double. */
    public double pmf(long k) {
        return unnormalisedWeight(k) / normaliser;
    }

    static double computeNormaliser(double s2) {
        if (s2 >= 1) {
            double corr = 0;
            for (int j = 1; j <= 3; j++) {
                corr += StrictMath.exp(-2 * Math.PI * Math.PI * s2 * j * j);
            }
            return Math.sqrt(2 * Math.PI * s2) * (1 + 2 * corr);
        }
        double z = 1;
        for (int k = 40; k >= 1; k--) {
            z += 2 * StrictMath.exp(-(double) k * k / (2 * s2));
        }
        return z;
    }

    @Override
    public String toString() {
        return "DiscreteGaussian(sigma2=" + sigma2 + ")";
    }
}

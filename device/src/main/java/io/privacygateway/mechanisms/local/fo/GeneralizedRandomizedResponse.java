package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * Generalized randomized response (k-RR; Kairouz, Bonawitz and Ramage 2016, "Discrete distribution
 * estimation under local privacy"; "direct encoding" in Wang et al. 2017, "Locally Differentially
 * Private Protocols for Frequency Estimation", §4.1).
 *
 * <p><b>Mechanism.</b> Report the true value with probability {@code p}, otherwise a uniformly random one
 * of the other {@code k − 1} values. Ideal {@code p = e^ε/(e^ε + k − 1)}, {@code q = (1 − p)/(k − 1)}.
 * Here {@code p = N/2^53} with {@code N} the largest grid numerator satisfying
 * {@code N (k − 1) <= L (2^53 − N)}, {@code L <= e^ε} certified ({@link Grid}); hence {@code p/q <= e^ε}
 * exactly. The constructor also checks the reverse ratio {@code q/p <= L}, which can only fail for
 * {@code ε} below about {@code k·2^-53} (rejected).
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: {@code P(y | x) ∈ {p, q}} for every {@code y}, and
 * {@code max/min <= e^ε}. Secret randomness: one {@link ExactSampler#bernoulli} and one
 * {@link ExactSampler#uniformInt}{@code (k − 1)}, always both (the replacement is drawn even when the
 * value is kept, so the device's work does not depend on the coin).
 *
 * <p><b>Wire format.</b> The reported index, unsigned big-endian, 1–4 bytes ({@link IndexCodec}).
 * Server: support count = histogram of reports; {@code p* = p}, {@code q* = q}, cross-supports are
 * exclusive. Variance: {@code Var(p̂_x) = [f_x p(1−p) + (1−f_x) q(1−q)]/(n(p−q)²)} ≈
 * {@code (e^ε + k − 2)/(n (e^ε − 1)²)} for small {@code f_x}.
 */
public final class GeneralizedRandomizedResponse extends IndexResponseOracle {
    private final double q;

    /**
     * @param domainSize {@code k} in {@code [2, 2^24]}
     * @param epsilon the per-report ε
     */
    public GeneralizedRandomizedResponse(int domainSize, Epsilon epsilon) {
        this(domainSize, epsilon, -1, true);
    }

    /**
     * Package-private: an explicit keep numerator (tests use it to build deliberately mis-rounded
     * controls with {@code certify = false}); {@code keepNumerator < 0} means the certified choice.
     */
    GeneralizedRandomizedResponse(int domainSize, Epsilon epsilon, long keepNumerator, boolean certify) {
        super(domainSize, epsilon, domainSize, keepNumerator, certify, "GRR with domainSize=" + domainSize);
        this.q = (1 - pStar()) / (k - 1);
        requireInformative(pStar(), q);
    }

    @Override
    public MechanismId id() {
        return MechanismId.GRR;
    }

    @Override
    int target(int value, long publicBase) {
        return value;
    }

    @Override
    public void accumulateIndex(int y, long publicBase, long[] state, int offset) {
        state[offset + y]++;
    }

    @Override
    double qStar() {
        return q;
    }

    @Override
    double pairBothOther() {
        return 0;
    }

    @Override
    double pairWithTrue() {
        return 0;
    }
}

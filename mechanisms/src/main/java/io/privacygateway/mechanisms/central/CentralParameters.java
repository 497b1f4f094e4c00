package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * The privacy parameters of one central release, chosen to minimise the predicted error for the
 * declared total pure ε ({@link CentralParameterChoice}).
 *
 * @param mechanism central projection, central chaining or the Laplace baseline
 * @param epsilonTotal the pure ε of the release: {@code epsilonCount + epsilonApprox + epsilonPrime}
 *     (Gaussian mechanisms) or {@code epsilonCount + epsilonSum} (Laplace)
 * @param epsilonCount pure ε spent on the noisy report count (0 when the count is public: replace-one)
 * @param epsilonApprox the (ε, δ) of the Gaussian part, before purification (0 for Laplace)
 * @param epsilonPrime purification's additional pure ε (0 for Laplace)
 * @param logDelta ln δ of the Gaussian part (0 for Laplace)
 * @param omega the purification mixing weight (0 for Laplace)
 * @param rho the zCDP ρ of the Gaussian part (0 for Laplace)
 * @param levelRho ρ per level (one level for projection)
 * @param norm the l_q ball Θ of purification
 * @param laplaceScale the discrete Laplace scale of the Laplace baseline's sum noise (grid units), or 0
 * @param predictedRms the predicted per-answer RMS error {@code ‖estimate − x̄‖₂/√m}
 * @param space where the Gaussian noise, projection and purification happen: on the m answers, or on the
 *     N universe counts (the histogram) with answers computed from the purified histogram
 */
public record CentralParameters(MechanismId mechanism, double epsilonTotal, double epsilonCount, double epsilonApprox,
        double epsilonPrime, double logDelta, double omega, double rho, double[] levelRho, LqNorm norm,
        double laplaceScale, double predictedRms, Space space) {

    /** The space a central mechanism works in. */
    public enum Space {
        /** The m answers: noise on the answer sums, projection onto K, purification in a ball around K. */
        ANSWERS,
        /**
         * The N universe counts: noise on the histogram, projection onto the simplex, purification in an l1
         * ball around the simplex (whose cost does not grow with N), answers {@code Σ_x p_x Q(x)}. Cheaper
         * when many answers depend on each value (range queries, marginals).
         */
        HISTOGRAM
    }

    public CentralParameters {
        levelRho = levelRho.clone();
    }

    @Override
    public double[] levelRho() {
        return levelRho.clone();
    }
}

package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * The privacy parameters of one central release, chosen to minimise the predicted error for the declared
 * total pure ε ({@link CentralParameterChoice}). The ε shares are doubles whose exact sum never exceeds the
 * declared ε ({@link PrivacySplit}); {@link #cost()} is that exact sum rounded up, which is therefore at
 * most the largest double not above the declared ε.
 */
public sealed interface CentralParameters permits CentralParameters.Laplace, CentralParameters.Gaussian,
        CentralParameters.Analytics {

    /** The mechanism the parameters are for. */
    MechanismId mechanism();

    /** Pure ε spent on the noisy report count (0 when the count is public: replace-one). */
    double epsilonCount();

    /** The predicted per-answer RMS error {@code ‖estimate − x̄‖₂/√m} at the planned report count. */
    double predictedRms();

    /** The pure-DP guarantee of a release with these parameters: the exact sum of its shares, rounded up. */
    PrivacyCost.Pure cost();

    /** The space a Gaussian mechanism works in. */
    enum Space {
        /** The m answers: noise on the answer sums, projection onto K, purification in a ball around K. */
        ANSWERS,
        /**
         * The N universe counts: noise on the histogram, projection onto the simplex, purification in an l1
         * ball around the simplex (whose cost does not grow with N), answers {@code Σ_x p_x Q(x)}. Cheaper
         * when many answers depend on each value (range queries, marginals).
         */
        HISTOGRAM
    }

    /**
     * The pure-DP baseline: discrete Laplace noise on the count and on the sums.
     *
     * @param epsilonCount ε of the count (0 when public)
     * @param epsilonSum ε of the sums (their noise scale is the l1 sensitivity over it, rounded up)
     * @param predictedRms the predicted per-answer RMS error at the planned report count
     */
    record Laplace(double epsilonCount, double epsilonSum, double predictedRms) implements CentralParameters {
        public Laplace {
            Require.finiteNonNegative("epsilonCount", epsilonCount);
            Require.finitePositive("epsilonSum", epsilonSum);
            Require.finiteNonNegative("predictedRms", predictedRms);
        }

        @Override
        public MechanismId mechanism() {
            return MechanismId.LAPLACE;
        }

        /** Sequential composition of two pure mechanisms (count first, then sums). */
        @Override
        public PrivacyCost.Pure cost() {
            return new PrivacyCost.Pure(Composition.sumEpsilon(epsilonCount, epsilonSum));
        }
    }

    /**
     * The purified Gaussian mechanism: the count (pure), the discrete Gaussian levels (ρ-zCDP, hence
     * {@code (ε_apx, δ)}-DP), purification ({@code ε_apx + ε'} pure).
     *
     * @param mechanism central projection or central chaining
     * @param epsilonCount pure ε of the noisy count (0 when the count is public)
     * @param epsilonApprox the ε of the Gaussian part's (ε, δ) guarantee, before purification
     * @param epsilonPrime purification's additional pure ε
     * @param logDelta ln δ of the Gaussian part
     * @param omega the purification mixing weight
     * @param rho the zCDP ρ of the Gaussian part: the largest with {@code (ε_apx, δ)}
     * @param levelRho ρ per level, exact sum at most {@code rho}
     * @param norm the l_q ball Θ of purification
     * @param predictedRms the predicted per-answer RMS at the planned report count
     * @param space where the Gaussian noise, projection and purification happen
     */
    record Gaussian(MechanismId mechanism, double epsilonCount, double epsilonApprox, double epsilonPrime,
            double logDelta, double omega, double rho, double[] levelRho, LqNorm norm, double predictedRms,
            Space space) implements CentralParameters {
        public Gaussian {
            Require.nonNull("mechanism", mechanism);
            PrivacySplit.requirePurifiedShares(epsilonCount, epsilonApprox, epsilonPrime);
            PrivacySplit.requireApproximatePart(logDelta, omega, rho);
            levelRho = levelRho.clone();
            Require.nonNull("norm", norm);
            Require.finiteNonNegative("predictedRms", predictedRms);
            Require.nonNull("space", space);
        }

        @Override
        public double[] levelRho() {
            return levelRho.clone();
        }

        /**
         * Purification turns the {@code (ε_apx, δ)} part into pure {@code ε_apx + ε'} (purification paper,
         * Theorem 1; {@code docs/purification-discretised.md} for the grid), composed with the pure count.
         */
        @Override
        public PrivacyCost.Pure cost() {
            return new PrivacyCost.Pure(Composition.sumEpsilon(epsilonCount, epsilonApprox, epsilonPrime));
        }
    }

    /**
     * A window-analytics release (mode, regression, erm): the count's share and the mechanism's guarantee
     * ({@code analytics.release.AnalyticsRelease}; the mechanism's own parameters are in its {@code parameters()}).
     *
     * @param mechanism the analytics mechanism
     * @param epsilonCount pure ε of the noisy count (0 when public)
     * @param total the answer's guarantee (count included)
     * @param predictedError the family's error measure predicted at the planned n (NaN where not modelled); not
     *     an RMS: see {@code AnalyticsMechanisms.errorMeasure}
     */
    record Analytics(MechanismId mechanism, double epsilonCount, PrivacyCost.Pure total, double predictedError)
            implements CentralParameters {
        public Analytics {
            Require.nonNull("mechanism", mechanism);
            Require.finiteNonNegative("epsilonCount", epsilonCount);
            Require.nonNull("total", total);
        }

        /** The family's predicted error (the interface's name is historical: it is not an RMS here). */
        @Override
        public double predictedRms() {
            return predictedError;
        }

        @Override
        public PrivacyCost.Pure cost() {
            return total;
        }
    }
}

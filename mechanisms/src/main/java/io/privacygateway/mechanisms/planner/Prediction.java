package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.reference.ReferenceData;

/**
 * The planner's prediction for one candidate.
 *
 * @param candidate the configuration
 * @param applicable whether it can run on this workload (else {@code note} says why)
 * @param note why it is not applicable, or an empty string
 * @param unprojectedRms closed form: the per-coordinate RMS standard error before projection, at n
 *     (uniform reference data)
 * @param boundRms closed form: the expected-error bound of MECHANISMS.md §3 after projection, at n
 *     (uniform reference data)
 * @param simulatedRms per reference distribution ({@link ReferenceData} order): the predicted RMS error
 *     of the published answer at n, by simulation
 * @param regret the largest ratio, over reference distributions, of this candidate's simulated error
 *     to the best candidate's ({@code ∞} if not applicable)
 */
public record Prediction(Candidate candidate, boolean applicable, String note, double unprojectedRms,
        double boundRms, double[] simulatedRms, double regret) {

    /** The mean simulated error over the reference distributions. */
    public double meanSimulatedRms() {
        double s = 0;
        for (double v : simulatedRms) {
            s += v;
        }
        return s / simulatedRms.length;
    }

    /**
     * A candidate that cannot serve the workload (its construction or the planner's checks rejected it): not
     * applicable, {@code note} saying why, no error figures (NaN, zero simulated errors, one per reference
     * distribution) and infinite regret, so that it is never chosen. Precondition: {@code references >= 0}.
     */
    static Prediction notApplicable(Candidate candidate, String note, int references) {
        return new Prediction(candidate, false, note, Double.NaN, Double.NaN, new double[references],
                Double.POSITIVE_INFINITY);
    }

    Prediction withRegret(double r) {
        return new Prediction(candidate, applicable, note, unprojectedRms, boundRms, simulatedRms, r);
    }
}

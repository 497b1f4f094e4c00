package io.privacygateway.mechanisms.local.vector;

/**
 * The estimated mean vector of one window ({@link VectorMeanEstimator#estimate}).
 *
 * @param mean the unbiased estimate, coordinate by coordinate, in the value scale (not projected)
 * @param standardError the public 1-σ standard error of each coordinate (the worst case over feasible values)
 * @param n the number of reports
 */
public record VectorMeanEstimate(double[] mean, double[] standardError, long n) {
    public VectorMeanEstimate {
        mean = mean.clone();
        standardError = standardError.clone();
        if (mean.length != standardError.length) {
            throw new IllegalArgumentException("mean and standard error lengths differ");
        }
    }

    @Override
    public double[] mean() {
        return mean.clone();
    }

    @Override
    public double[] standardError() {
        return standardError.clone();
    }
}

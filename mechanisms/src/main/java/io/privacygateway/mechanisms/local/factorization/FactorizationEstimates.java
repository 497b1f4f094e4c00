package io.privacygateway.mechanisms.local.factorization;

/** The gateway half of a {@link FactorizationMechanism}: the unbiased reconstruction of the value frequencies. */
public final class FactorizationEstimates {
    private FactorizationEstimates() {}

    /**
     * The unbiased estimate of the value frequencies from the output counts of {@code n} reports:
     * {@code x̂ = V y / n} with {@code V} the mechanism's reconstruction
     * ({@link FactorizationMechanism#reconstruction}).
     *
     * @param mechanism the mechanism the reports were randomized with
     * @param outputCounts the count of each output, length {@link FactorizationMechanism#outputs()}
     * @param n the number of reports, {@code >= 1}
     */
    public static double[] frequencies(FactorizationMechanism mechanism, long[] outputCounts, long n) {
        int values = mechanism.values();
        int outputs = mechanism.outputs();
        double[] xHat = new double[values];
        for (int x = 0; x < values; x++) {
            double s = 0;
            for (int o = 0; o < outputs; o++) {
                if (outputCounts[o] != 0) {
                    s += mechanism.reconstruction(x, o) * outputCounts[o];
                }
            }
            xHat[x] = s / n;
        }
        return xHat;
    }
}

package io.privacygateway.mechanisms.amplification;

import io.privacygateway.mechanisms.param.Require;

/**
 * An (ε, δ)-DP guarantee of a local-mode answer against observers of the answers only (not of the reports), obtained
 * by amplification by shuffling. It is a statement about one device's reports in one window, under replace-one
 * neighbours (what a device reported, not whether it reported: the number of reports is published).
 *
 * @param epsilon the certified ε, an upper bound ({@code <= reportsPerDevice·ε₀}, the guarantee without amplification)
 * @param delta the declared δ
 * @param method the numerical bound that gave the smallest ε ({@link AmplificationBound.Method#wireName()})
 * @param reportsPerDevice how many reports of one device the guarantee covers together
 * @param reports the number of reports of the window it was computed for
 */
public record AmplifiedGuarantee(double epsilon, double delta, String method, long reportsPerDevice, long reports) {
    public AmplifiedGuarantee {
        Require.finiteNonNegative("epsilon", epsilon);
        Require.inOpenRange("delta", delta, 0, 1);
        Require.nonBlank("method", method);
        Require.inRange("reportsPerDevice", reportsPerDevice, 1, Long.MAX_VALUE);
        Require.inRange("reports", reports, 1, Long.MAX_VALUE);
    }
}

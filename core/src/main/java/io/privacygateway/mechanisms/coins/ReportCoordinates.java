package io.privacygateway.mechanisms.coins;

import io.privacygateway.mechanisms.param.Require;

/**
 * The public coordinates of one report: who sent it, in which budget period, with which sequence
 * number. Public coins are derived from them. The sequence number must lie in {@code [0, reportsPerPeriod)}, so
 * a device cannot grind coins through its report ids; it can through its device id where the gateway does not
 * authenticate devices (a modified app may try many ids): the poisoning bound
 * ({@code mechanisms.robustness.PoisoningBound}) covers every choice of coins, and enrolled devices cannot pick
 * their id.
 *
 * @param deviceId the device's identifier (non-empty; UTF-8 on the wire)
 * @param period the budget period index {@code ⌊eventTime / period⌋} (>= 0)
 * @param sequence the report's sequence number within the period (>= 0)
 */
public record ReportCoordinates(String deviceId, long period, int sequence) {
    public ReportCoordinates {
        check(deviceId, period, sequence);
    }

    /**
     * The checks of the canonical constructor, for callers that pass the three coordinates without forming the
     * record (the gateway's per-report path).
     *
     * @throws IllegalArgumentException as the constructor does
     */
    public static void check(String deviceId, long period, int sequence) {
        Require.nonBlank("deviceId", deviceId);
        Require.inRange("period", period, 0, Long.MAX_VALUE);
        Require.inRange("sequence", sequence, 0, Integer.MAX_VALUE);
    }
}

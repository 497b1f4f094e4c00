package io.privacygateway.topology.release;

/**
 * The release step's state store names.
 *
 * @param merged merged partial aggregates of windows not yet released
 * @param progress every shard's latest watermark per workload
 * @param schedules each workload's release schedule
 * @param accounts each central workload's privacy account
 * @param horizons local mode: the summed exact aggregates of each open horizon span (rollups)
 * @param runningTotals central mode: the continual-release tree of each version with running totals (its noisy
 *     nodes)
 */
public record ReleaseStores(String merged, String progress, String schedules, String accounts, String horizons,
        String runningTotals) {
    public static final ReleaseStores DEFAULT = new ReleaseStores("release-windows", "release-progress",
            "release-schedules", "release-accounts", "release-horizons", "release-running-totals");
}

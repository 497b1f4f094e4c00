package io.privacygateway.topology.release;

/**
 * The release step's state store names.
 *
 * @param merged merged partial aggregates of windows not yet released
 * @param progress every shard's latest watermark per workload
 * @param schedules each workload's release schedule
 * @param accounts each central workload's privacy account
 */
public record ReleaseStores(String merged, String progress, String schedules, String accounts) {
    public static final ReleaseStores DEFAULT = new ReleaseStores("release-windows", "release-progress",
            "release-schedules", "release-accounts");
}

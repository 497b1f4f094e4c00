package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.workload.Mode;

/**
 * The state store names of one mode's ingest shards.
 *
 * @param aggregates open window aggregates (live, changelogged)
 * @param budgets device budgets (RocksDB, changelogged)
 * @param periods period lengths used per workload
 * @param watermarks the shard's watermark
 */
public record IngestStores(String aggregates, String budgets, String periods, String watermarks) {

    /** The names of a mode's stores ({@code local-…} or {@code central-…}). */
    public static IngestStores of(Mode mode) {
        String p = mode.wireName() + "-";
        return new IngestStores(p + "window-aggregates", p + "device-budgets", p + "budget-periods", p + "watermark");
    }
}

package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.workload.Mode;

/**
 * The state store names of the ingest shards. The open window aggregates are one mode's own; the device ledgers,
 * the forgotten times and the watermarks are shared by the local and the central ingest of a shard (the two
 * report topics have the same number of partitions and a device's reports of both modes land on the same
 * partition number, so one task owns the device's whole budget).
 *
 * @param aggregates open window aggregates of the mode (live, changelogged)
 * @param ledgers device ledgers (RocksDB, changelogged; shared)
 * @param forgotten per budget scope, the time before which charges were forgotten (shared)
 * @param watermarks the shard's watermark per mode, keyed by the mode's wire name (shared)
 */
public record IngestStores(String aggregates, String ledgers, String forgotten, String watermarks) {
    /** The device ledgers store. */
    public static final String LEDGERS = "device-ledgers";
    /** The forgotten-times store. */
    public static final String FORGOTTEN = "ledger-forgotten";
    /** The watermarks store. */
    public static final String WATERMARKS = "ingest-watermarks";

    /** The names of a mode's stores. */
    public static IngestStores of(Mode mode) {
        return new IngestStores(mode.wireName() + "-window-aggregates", LEDGERS, FORGOTTEN, WATERMARKS);
    }
}

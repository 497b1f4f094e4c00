package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.budget.BudgetUsage;
import io.privacygateway.mechanisms.budget.PeriodKey;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.state.BudgetKey;
import io.privacygateway.topology.state.TypedStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The device budgets of one shard: every device's {@link BudgetUsage} per workload and budget period (a
 * changelogged RocksDB store), plus the period lengths each workload has used (so a version that changes the
 * period length still sees what was charged under the old one). A device's reports all land on its own
 * partition, so its whole budget lives in this one shard.
 *
 * <p><b>Expiry</b> follows the windows: an entry is deleted once no report that could still be admitted (one
 * whose window is open) falls in a period that overlaps it, so a replay can never meet a forgotten entry
 * (it is late instead), whatever the window, grace and period lengths. Expiry deletes a bounded number of
 * entries per call, so no transaction grows with the number of devices.
 */
public final class DeviceBudgets {
    /** The most periods of another length looked up for one report (beyond that the oldest are summed by scan). */
    static final int MAX_OVERLAP_LOOKUPS = 4096;
    private final TypedStore<BudgetKey, BudgetUsage> usages;
    private final TypedStore<String, long[]> lengths;
    private BudgetUsage empty;

    public DeviceBudgets(TypedStore<BudgetKey, BudgetUsage> usages, TypedStore<String, long[]> lengths) {
        this.usages = usages;
        this.lengths = lengths;
    }

    /** The device's usage of period {@code p} (empty if nothing recorded). */
    BudgetUsage current(String workloadId, PeriodKey p, String deviceId) {
        return current(new BudgetKey(workloadId, p, deviceId));
    }

    /**
     * The usage stored under {@code key} (empty if nothing recorded). The same key may then be handed to
     * {@link #record(BudgetKey, BudgetUsage)}, so a report forms one key (budget keys are immutable).
     */
    BudgetUsage current(BudgetKey key) {
        BudgetUsage u = usages.get(key);
        return u == null ? empty(key.period()) : u;
    }

    /** The empty usage of {@code p}: one shared immutable value per period in a row, not one per new device. */
    private BudgetUsage empty(PeriodKey p) {
        BudgetUsage e = empty;
        if (e == null || !e.period().equals(p)) {
            e = BudgetUsage.empty(p);
            empty = e;
        }
        return e;
    }

    /** The device's usages of periods of other lengths (earlier versions) that overlap {@code p}. */
    List<BudgetUsage> others(String workloadId, PeriodKey p, String deviceId) {
        long[] known = lengths.get(workloadId);
        if (known == null || known.length <= 1) {
            return List.of();
        }
        List<BudgetUsage> out = new ArrayList<>(2);
        for (long len : known) {
            if (len == p.lengthMillis()) {
                continue;
            }
            long first = Math.floorDiv(p.start(), len);
            long last = Math.floorDiv(p.end() - 1, len);
            if (last - first + 1 <= MAX_OVERLAP_LOOKUPS) {
                for (long i = first; i <= last; i++) {
                    BudgetUsage u = usages.get(new BudgetKey(workloadId, new PeriodKey(len, i), deviceId));
                    if (u != null) {
                        out.add(u);
                    }
                }
            } else {
                String device = deviceId;
                usages.range(new BudgetKey(workloadId, new PeriodKey(len, first), ""),
                        new BudgetKey(workloadId, new PeriodKey(len, last + 1), ""), Integer.MAX_VALUE, (k, u) -> {
                            if (k.deviceId().equals(device)) {
                                out.add(u);
                            }
                        });
            }
        }
        return out;
    }

    /** Stores the device's updated usage. */
    void record(String workloadId, String deviceId, BudgetUsage updated) {
        record(new BudgetKey(workloadId, updated.period(), deviceId), updated);
    }

    /**
     * Stores the device's updated usage under {@code key} (the key it was read with, reused when the usage's
     * period is the key's; otherwise under the usage's own period, as {@link #record(String, String, BudgetUsage)}).
     */
    void record(BudgetKey key, BudgetUsage updated) {
        BudgetKey k = updated.period().equals(key.period()) ? key
                : new BudgetKey(key.workloadId(), updated.period(), key.deviceId());
        String workloadId = k.workloadId();
        usages.put(k, updated);
        long len = updated.period().lengthMillis();
        long[] known = lengths.get(workloadId);
        if (known == null || Arrays.binarySearch(known, len) < 0) {
            long[] next = known == null ? new long[] {len} : Arrays.copyOf(known, known.length + 1);
            next[next.length - 1] = len;
            Arrays.sort(next);
            lengths.put(workloadId, next);
        }
    }

    /**
     * Deletes at most {@code maxDeletes} entries of {@code workloadId} that no admissible report can meet any
     * more, given the current version's window and the shard's watermark.
     *
     * @return how many were deleted
     */
    int expire(String workloadId, WorkloadSpec.Window window, long watermark, int maxDeletes) {
        return expire(workloadId, window, watermark, maxDeletes, (k, u) -> { });
    }

    /**
     * As {@link #expire(String, WorkloadSpec.Window, long, int)}, handing each expired usage (a device's final
     * spending in a period) to {@code expired} before it is deleted.
     */
    int expire(String workloadId, WorkloadSpec.Window window, long watermark, int maxDeletes,
            java.util.function.BiConsumer<BudgetKey, BudgetUsage> expired) {
        long[] known = lengths.get(workloadId);
        if (known == null || watermark == Long.MIN_VALUE) {
            return 0;
        }
        // the earliest event time a report can still be admitted with: the start of the first open window
        long horizon = window.startOf(watermark - window.sizeMillis() - window.graceMillis()) + window.sizeMillis();
        if (horizon <= 0) {
            return 0;
        }
        long safeBefore = Long.MAX_VALUE; // every period of any length containing horizon starts at or after this
        for (long len : known) {
            safeBefore = Math.min(safeBefore, Math.floorDiv(horizon, len) * len);
        }
        int deleted = 0;
        for (long len : known) {
            long cutoff = Math.floorDiv(safeBefore, len); // entries (len, idx) with (idx + 1)·len <= safeBefore
            if (cutoff <= 0 || deleted >= maxDeletes) {
                continue;
            }
            List<BudgetKey> old = new ArrayList<>();
            usages.range(new BudgetKey(workloadId, new PeriodKey(len, 0), ""),
                    new BudgetKey(workloadId, new PeriodKey(len, cutoff), ""), maxDeletes - deleted,
                    (k, u) -> {
                        expired.accept(k, u);
                        old.add(k);
                    });
            old.forEach(usages::delete);
            deleted += old.size();
        }
        return deleted;
    }
}

package io.privacygateway.client;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link DeviceBudget} in memory (simulations, tests, and devices that accept forgetting their budget on
 * restart; see {@link DeviceBudget} for why that only hurts the device). Thread-safe.
 *
 * <p>Memory is bounded per workload: periods more than {@value #PERIODS_KEPT} before the latest recorded
 * one, and all but the latest {@value #WINDOWS_KEPT} windows, are forgotten (the gateway's own ledger
 * expires after two periods by default and windows close; a forgotten entry can only make the device
 * refuse less, and the gateway still enforces the budget).
 */
public final class InMemoryDeviceBudget implements DeviceBudget {
    /** Periods kept before the latest recorded one. */
    public static final int PERIODS_KEPT = 4;
    /** Central-mode windows kept per workload. */
    public static final int WINDOWS_KEPT = 1024;

    private final Map<String, TreeMap<Long, PeriodUsage>> periods = new HashMap<>();
    private final Map<String, TreeMap<Long, Integer>> windows = new HashMap<>();

    @Override
    public synchronized PeriodUsage usage(String workloadId, long period) {
        TreeMap<Long, PeriodUsage> m = periods.get(workloadId);
        PeriodUsage u = m == null ? null : m.get(period);
        return u == null ? PeriodUsage.NONE : u;
    }

    @Override
    public synchronized int contributions(String workloadId, long windowStart) {
        TreeMap<Long, Integer> m = windows.get(workloadId);
        Integer c = m == null ? null : m.get(windowStart);
        return c == null ? 0 : c;
    }

    @Override
    public synchronized void record(String workloadId, Charge charge) {
        TreeMap<Long, PeriodUsage> p = periods.computeIfAbsent(workloadId, k -> new TreeMap<>());
        p.merge(charge.period(), PeriodUsage.NONE.plus(charge), (old, ignored) -> old.plus(charge));
        long oldest = p.lastKey() - PERIODS_KEPT;
        p.headMap(oldest, false).clear();
        if (charge.contributesToWindow()) {
            TreeMap<Long, Integer> w = windows.computeIfAbsent(workloadId, k -> new TreeMap<>());
            w.merge(charge.windowStart(), 1, Integer::sum);
            while (w.size() > WINDOWS_KEPT) {
                w.pollFirstEntry();
            }
        }
    }
}

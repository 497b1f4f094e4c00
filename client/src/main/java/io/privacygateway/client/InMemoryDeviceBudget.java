package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.BudgetUsage;
import io.privacygateway.mechanisms.budget.PeriodKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link DeviceBudget} in memory (simulations, tests, and devices that accept forgetting their budget on
 * restart; see {@link DeviceBudget} for why that only hurts the device). Thread-safe.
 *
 * <p>Memory is bounded per workload: only the latest {@value #PERIODS_KEPT} periods recorded are kept (the
 * gateway expires its own entries once no open window can meet them; a forgotten entry can only make the device
 * refuse less, and the gateway still enforces the budget).
 */
public final class InMemoryDeviceBudget implements DeviceBudget {
    /** Periods kept per workload. */
    public static final int PERIODS_KEPT = 8;

    private final Map<String, TreeMap<PeriodKey, BudgetUsage>> usages = new HashMap<>();

    @Override
    public synchronized BudgetUsage usage(String workloadId, PeriodKey period) {
        TreeMap<PeriodKey, BudgetUsage> m = usages.get(workloadId);
        BudgetUsage u = m == null ? null : m.get(period);
        return u == null ? BudgetUsage.empty(period) : u;
    }

    @Override
    public synchronized List<BudgetUsage> overlapping(String workloadId, PeriodKey period) {
        TreeMap<PeriodKey, BudgetUsage> m = usages.get(workloadId);
        List<BudgetUsage> out = new ArrayList<>();
        if (m != null) {
            for (BudgetUsage u : m.values()) {
                if (u.period().lengthMillis() != period.lengthMillis() && u.period().overlaps(period)) {
                    out.add(u);
                }
            }
        }
        return out;
    }

    @Override
    public synchronized void record(String workloadId, BudgetUsage updated) {
        TreeMap<PeriodKey, BudgetUsage> m = usages.computeIfAbsent(workloadId, k -> new TreeMap<>());
        m.put(updated.period(), updated);
        while (m.size() > PERIODS_KEPT) {
            m.pollFirstEntry();
        }
    }
}

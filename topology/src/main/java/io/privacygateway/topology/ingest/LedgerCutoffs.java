package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.workload.Registration;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * When a shard may forget charges: per budget scope, a time before which no period that an admissible report
 * can be checked against begins (docs/budget-ledger.md, "Forgetting").
 *
 * <p>For a current workload {@code W} at its mode's watermark, the earliest admissible event time is the start
 * {@code H} of the first open window; a report's claim starts at or after {@code s = ⌊H / P⌋·P} (local: its
 * budget period of length {@code P}) or {@code s = H} (central: its window); the periods it is checked against,
 * of every length {@code L} that can check it (its own budget's and each declaration of its group's), begin at or
 * after {@code ⌊s / L⌋·L}. The cutoff of {@code W} is the least of these, and no larger than its group's; the
 * cutoff of a group is the least over its current members. Any other scope (deleted workloads, groups without
 * members) is cut off at the least of the shard's watermarks. A scope whose mode has no watermark yet keeps
 * everything. The admission rule refuses to decide on a period that begins before a forgotten charge's end, so a
 * later version with another window or a longer period can never miss what was forgotten.
 */
final class LedgerCutoffs {
    private LedgerCutoffs() {}

    /** The cutoffs of the current catalog at the shard's watermarks. */
    static ToLongFunction<String> of(WorkloadCatalog catalog, ToLongFunction<Mode> watermark) {
        long floor = Math.min(watermark.applyAsLong(Mode.LOCAL), watermark.applyAsLong(Mode.CENTRAL));
        Map<String, Long> own = new HashMap<>();
        Map<String, String> groupOf = new HashMap<>();
        Map<String, Long> groups = new HashMap<>();
        for (Registration r : catalog.registrations()) {
            if (r.deleted()) {
                continue;
            }
            ResolvedWorkload w = r.workload();
            BudgetLedger.GroupView g = w.group().map(x -> catalog.groupView(x.name())).orElse(null);
            long c = cutoff(w, g, watermark.applyAsLong(w.mode()));
            own.put(w.id(), c);
            if (g != null) {
                String scope = BudgetLedger.groupScope(g.name());
                groupOf.put(w.id(), scope);
                groups.merge(scope, c, Math::min);
            }
        }
        return scope -> {
            Long o = own.get(scope);
            if (o != null) {
                String g = groupOf.get(scope);
                return g == null ? o : Math.min(o, groups.get(g));
            }
            Long g = groups.get(scope);
            return g != null ? g : floor;
        };
    }

    /** The cutoff of one current workload (see the class comment). */
    static long cutoff(ResolvedWorkload w, BudgetLedger.GroupView group, long watermark) {
        if (watermark == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        WorkloadSpec.Window win = w.window();
        long h = win.startOf(watermark - win.sizeMillis() - win.graceMillis()) + win.sizeMillis();
        long period = w.budget().periodMillis();
        long s = w.mode() == Mode.LOCAL ? Math.floorDiv(h, period) * period : h;
        long c = Math.floorDiv(s, period) * period;
        if (group != null) {
            for (BudgetLedger.PeriodBudget b : group.budgets()) {
                c = Math.min(c, Math.floorDiv(s, b.periodMillis()) * b.periodMillis());
            }
        }
        return c;
    }
}

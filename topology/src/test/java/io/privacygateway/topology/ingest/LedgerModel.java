package io.privacygateway.topology.ingest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The reference model of the ledger invariant (docs/budget-ledger.md), written to be obviously correct: it keeps
 * every admitted report forever (no forgetting, no caches, no aggregation) and checks a report against every budget
 * period it overlaps by enumerating the periods one by one.
 */
public final class LedgerModel {
    /** One admitted report as the model remembers it. */
    public record Admitted(String device, String workload, String version, String group, long from, long to, int slot,
            BigDecimal charged) {}

    /** A budget: ε per period of a length. */
    public record Budget(BigDecimal epsilon, long period) {}

    /**
     * What a report claims.
     *
     * @param perWindow central mode (charged once per version's window, at most {@code slots} contributions)
     * @param groupBudgets every current member's declaration of the group (empty: no group)
     * @param members the group's current members
     */
    public record Report(String device, String workload, String version, String group, long from, long to, int slot,
            int slots, boolean perWindow, BigDecimal epsilon, Budget budget, List<Budget> groupBudgets,
            Set<String> members) {}

    final List<Admitted> history = new ArrayList<>();

    /** Whether the invariant allows admitting {@code r} after everything admitted so far. */
    boolean allows(Report r) {
        int made = 0;
        for (Admitted a : history) {
            if (same(a, r)) {
                made++;
                if (a.slot() == r.slot()) {
                    return false; // a replay
                }
            }
        }
        if (r.slot() < 0 || r.slot() >= r.slots() || (r.perWindow() && made >= r.slots())) {
            return false;
        }
        BigDecimal cost = r.perWindow() && made > 0 ? BigDecimal.ZERO : r.epsilon();
        if (cost.signum() == 0) {
            return true;
        }
        if (!fits(r, cost, r.budget(), a -> a.workload().equals(r.workload()))) {
            return false;
        }
        for (Budget g : r.groupBudgets()) {
            if (!fits(r, cost, g, a -> r.group().equals(a.group()) || a.workload().equals(r.workload())
                    || r.members().contains(a.workload()))) {
                return false;
            }
        }
        return true;
    }

    /** Records an admitted report with what the model charges it. */
    void admit(Report r) {
        boolean paid = false;
        for (Admitted a : history) {
            paid |= same(a, r);
        }
        history.add(new Admitted(r.device(), r.workload(), r.version(), r.group(), r.from(), r.to(), r.slot(),
                r.perWindow() && paid ? BigDecimal.ZERO : r.epsilon()));
    }

    private static boolean same(Admitted a, Report r) {
        return a.device().equals(r.device()) && a.workload().equals(r.workload()) && a.version().equals(r.version())
                && a.from() == r.from();
    }

    private boolean fits(Report r, BigDecimal cost, Budget b, java.util.function.Predicate<Admitted> counted) {
        for (long i = Math.floorDiv(r.from(), b.period()); i <= Math.floorDiv(r.to() - 1, b.period()); i++) {
            long start = i * b.period();
            long end = start + b.period();
            BigDecimal sum = cost;
            for (Admitted a : history) {
                if (a.device().equals(r.device()) && a.from() < end && start < a.to() && counted.test(a)) {
                    sum = sum.add(a.charged());
                }
            }
            if (sum.compareTo(b.epsilon()) > 0) {
                return false;
            }
        }
        return true;
    }
}

package io.privacygateway.mechanisms.budget;

import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The one admission rule of every device budget, run by the gateway and by the device SDK on the same
 * {@link DeviceLedger} value, in exact decimal arithmetic (docs/budget-ledger.md states it and its proof).
 *
 * <p><b>The invariant.</b> Every charge is a {@link Charge}: (workload, version, group, interval of event time, ε).
 * A report is admitted only if, for every budget that covers it, and for every period of that budget that the
 * report's interval overlaps, the ε of all recorded charges overlapping that period plus the report's charge stays
 * within the budget. The budgets that cover a report of workload {@code W}:
 * <ul>
 *   <li>{@code W}'s own, as its current version declares it (ε per period and period length): the charges counted
 *       are all of {@code W}'s, under every version, period length and mode;</li>
 *   <li>if the version names a group {@code G}: each current member's declaration of {@code G} (ε per period and
 *       period length; the strictest binds). The charges counted are those of every current member of {@code G}
 *       and every charge made while its workload declared {@code G}, under every version and mode.</li>
 * </ul>
 * A charge whose interval overlaps a period counts in full against it (an interval is a budget period in local
 * mode, a window in central mode), so no change of period length, window, mode, version or membership can make a
 * recorded charge count less. A report is also refused if the ledger may have forgotten charges that overlap a
 * period it is checked against ({@link Forgotten}): the rule never decides on incomplete information.
 *
 * <p><b>Identity.</b> Local reports are identified by (workload, version, budget period, sequence number in
 * {@code [0, slots)}); central contributions by (workload, version, window, slot in {@code [0, L)}). The first
 * contribution of a device to a version's window costs ε, further ones to the same version's window are free
 * (that release's sensitivity covers L contributions); the same window of another version is another release and
 * is charged again.
 */
public final class BudgetLedger {
    private BudgetLedger() {}

    /** Why a report does not fit. */
    public enum Refusal {
        /** The sequence number or slot lies outside the range the workload allows. */
        SEQUENCE_OUT_OF_RANGE,
        /** The same sequence number (or window slot) was already charged: a replay. */
        DUPLICATE,
        /** The report's ε would take the device over its budget (or the ledger cannot vouch for the period). */
        BUDGET_EXHAUSTED,
        /** Central mode: the device already made L contributions to the window. */
        CONTRIBUTION_LIMIT,
        /** The report's ε would take the device over its budget group's budget. */
        GROUP_BUDGET_EXHAUSTED
    }

    /** The outcome of an admission. */
    public sealed interface Admission permits Admitted, Refused {
        boolean admitted();
    }

    /**
     * Admitted: store {@code updated} (the ledger after the charge).
     *
     * @param charged the ε charged (0 for a further central contribution to a paid window)
     * @param charge the ledger entry the report was recorded in
     */
    public record Admitted(DeviceLedger updated, BigDecimal charged, Charge charge) implements Admission {
        @Override
        public boolean admitted() {
            return true;
        }
    }

    /** Refused, with a message that names the numbers (never a value or payload). */
    public record Refused(Refusal reason, String message) implements Admission {
        @Override
        public boolean admitted() {
            return false;
        }
    }

    /**
     * A budget: ε per period of a length, periods aligned to the epoch.
     *
     * @param epsilon the ε a device may spend per period
     * @param periodMillis the period length (> 0)
     */
    public record PeriodBudget(Epsilon epsilon, long periodMillis) {
        public PeriodBudget {
            Objects.requireNonNull(epsilon, "epsilon");
            if (periodMillis <= 0) {
                throw new IllegalArgumentException("a budget period must be > 0 ms, got " + periodMillis);
            }
        }
    }

    /**
     * A budget group as the current catalog declares it.
     *
     * @param name the group's name
     * @param budgets every current member version's declaration of the group's budget (each binds)
     * @param members the ids of the workloads whose current version names the group
     */
    public record GroupView(String name, List<PeriodBudget> budgets, Set<String> members) {
        public GroupView {
            Objects.requireNonNull(name, "name");
            budgets = List.copyOf(budgets);
            members = Set.copyOf(members);
            if (budgets.isEmpty()) {
                throw new IllegalArgumentException("group " + name + " needs at least one declared budget");
            }
        }
    }

    /**
     * What one report claims of the device's budgets.
     *
     * @param workloadId the reporting workload
     * @param version the content hash of its current version
     * @param perWindow central mode: the first contribution to a window is charged, further ones are free
     * @param from the start of the interval the report can affect (its budget period, or its window)
     * @param to the end of that interval
     * @param slot the report's sequence number (local) or contribution slot (central)
     * @param slots the slots allowed: {@code [0, slots)}
     * @param epsilon the ε charged
     * @param budget the workload's budget as its current version declares it
     * @param group the version's group as the catalog declares it, or {@code null}
     */
    public record Claim(String workloadId, String version, boolean perWindow, long from, long to, int slot, int slots,
            BigDecimal epsilon, PeriodBudget budget, GroupView group) {
        public Claim {
            Objects.requireNonNull(workloadId, "workloadId");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(epsilon, "epsilon");
            Objects.requireNonNull(budget, "budget");
            if (from < 0 || to <= from) {
                throw new IllegalArgumentException("a claim's interval must satisfy 0 <= from < to, got [" + from
                        + ", " + to + ")");
            }
        }
    }

    /** Per budget scope, the time before which charges may have been forgotten (kept outside the ledger). */
    @FunctionalInterface
    public interface Forgotten {
        /** Nothing forgotten anywhere. */
        Forgotten NONE = scope -> Long.MIN_VALUE;

        /** The time before which charges of {@code scope} may have been forgotten, or {@code Long.MIN_VALUE}. */
        long before(String scope);
    }

    /** The budget scope of a group: never a workload id (those contain no ':'). */
    public static String groupScope(String groupName) {
        return "group:" + groupName;
    }

    /**
     * Decides one report.
     *
     * @param ledger the device's ledger
     * @param claim what the report claims
     * @param forgotten what was forgotten outside the ledger (the gateway's shard; {@link Forgotten#NONE} else)
     */
    public static Admission admit(DeviceLedger ledger, Claim claim, Forgotten forgotten) {
        Charge own = ledger.find(claim.workloadId(), claim.version(), claim.from());
        int made = own == null ? 0 : own.slotsUsed();
        if (claim.perWindow() && made >= claim.slots()) {
            return new Refused(Refusal.CONTRIBUTION_LIMIT, "the device already contributed " + made
                    + " report(s) to this window (L = " + claim.slots() + ")");
        }
        if (claim.slot() < 0 || claim.slot() >= claim.slots()) {
            return new Refused(Refusal.SEQUENCE_OUT_OF_RANGE, (claim.perWindow() ? "contribution slot " : "sequence ")
                    + claim.slot() + " is outside [0, " + claim.slots() + ")");
        }
        if (own != null && own.usedSlot(claim.slot())) {
            return new Refused(Refusal.DUPLICATE, (claim.perWindow() ? "contribution slot " + claim.slot()
                    + " of this window" : "sequence " + claim.slot() + " of this period") + " was already charged to"
                    + " this device");
        }
        if (own == null && ledger.charges().size() >= DeviceLedger.MAX_CHARGES) {
            return new Refused(Refusal.BUDGET_EXHAUSTED, "the device's ledger already holds the most charges one device"
                    + " may have (" + DeviceLedger.MAX_CHARGES + "); reports fit again once older charges expire");
        }
        BigDecimal cost = claim.perWindow() && made > 0 ? BigDecimal.ZERO : claim.epsilon();
        if (cost.signum() > 0) {
            String w = claim.workloadId();
            Refused r = check(ledger, c -> c.workloadId().equals(w), List.of(w), forgotten, claim, claim.budget(), cost,
                    Refusal.BUDGET_EXHAUSTED, "budget");
            if (r != null) {
                return r;
            }
            GroupView g = claim.group();
            if (g != null) {
                String name = g.name();
                Set<String> members = g.members();
                List<String> scopes = new ArrayList<>(members.size() + 2);
                scopes.add(groupScope(name));
                scopes.add(w);
                scopes.addAll(members);
                Predicate<Charge> counted = c -> name.equals(c.group()) || c.workloadId().equals(w)
                        || members.contains(c.workloadId());
                for (PeriodBudget b : g.budgets()) {
                    r = check(ledger, counted, scopes, forgotten, claim, b, cost, Refusal.GROUP_BUDGET_EXHAUSTED,
                            "group budget");
                    if (r != null) {
                        return r;
                    }
                }
            }
        }
        Charge updated = own != null ? own.plus(claim.slot(), cost)
                : new Charge(claim.workloadId(), claim.version(), claim.group() == null ? null : claim.group().name(),
                        claim.from(), claim.to(), BigDecimal.ZERO, new BitSet()).plus(claim.slot(), cost);
        return new Admitted(ledger.with(updated), cost, updated);
    }

    /**
     * The most ε that charges selected by {@code counted} put on one period of length {@code b.periodMillis()}
     * overlapping {@code [from, to)}, or the refusal if adding {@code cost} there exceeds {@code b}, or if a checked
     * period begins before a time at which charges of one of {@code scopes} may have been forgotten.
     */
    private static Refused check(DeviceLedger ledger, Predicate<Charge> counted, List<String> scopes,
            Forgotten forgotten, Claim claim, PeriodBudget b, BigDecimal cost, Refusal refusal, String what) {
        long len = b.periodMillis();
        long first = Math.floorDiv(claim.from(), len);
        long last = Math.floorDiv(claim.to() - 1, len);
        long lo = Math.multiplyExact(first, len);
        long hi = Math.addExact(Math.multiplyExact(last, len), len);
        for (String s : scopes) {
            long f = Math.max(ledger.forgotten(s), forgotten.before(s));
            if (lo < f) {
                return new Refused(refusal, "the " + what + " period starting at " + lo + " began before " + f
                        + ", when charges of " + s + " that may overlap it were no longer held; reports of this "
                        + "period cannot be admitted");
            }
        }
        if (first == last) { // one period (a local report's own period, the usual case): sum it directly
            BigDecimal sum = BigDecimal.ZERO;
            for (Charge c : ledger.charges()) {
                if (c.from() >= hi) {
                    break; // ordered by start
                }
                if (c.overlaps(lo, hi) && counted.test(c)) {
                    sum = sum.add(c.epsilon());
                }
            }
            return sum.add(cost).compareTo(b.epsilon().exact()) > 0 ? new Refused(refusal, "the device has spent ε "
                    + sum.toPlainString() + " of its " + what + " " + b.epsilon().exact().toPlainString() + " in the"
                    + " period of " + len + " ms starting at " + lo + "; this report costs " + cost.toPlainString())
                    : null;
        }
        List<Charge> relevant = new ArrayList<>();
        for (Charge c : ledger.charges()) {
            if (c.from() >= hi) {
                break; // ordered by start
            }
            if (c.overlaps(lo, hi) && counted.test(c)) {
                relevant.add(c);
            }
        }
        // the sum over overlapping charges, as a function of the period index, is a sum of indicators of index
        // ranges: its maximum is reached at the first checked period or at the first period of some charge
        BigDecimal most = null;
        long mostStart = lo;
        for (int k = -1; k < relevant.size(); k++) {
            long i = k < 0 ? first : Math.max(first, Math.min(last, Math.floorDiv(relevant.get(k).from(), len)));
            long start = Math.multiplyExact(i, len);
            long end = start + len;
            BigDecimal s = BigDecimal.ZERO;
            for (Charge c : relevant) {
                if (c.overlaps(start, end)) {
                    s = s.add(c.epsilon());
                }
            }
            if (most == null || s.compareTo(most) > 0) {
                most = s;
                mostStart = start;
            }
        }
        if (most.add(cost).compareTo(b.epsilon().exact()) > 0) {
            return new Refused(refusal, "the device has spent ε " + most.toPlainString() + " of its " + what + " "
                    + b.epsilon().exact().toPlainString() + " in the period of " + len + " ms starting at " + mostStart
                    + "; this report costs " + cost.toPlainString());
        }
        return null;
    }

    /**
     * The device's record that the claim's workload version is a member of its group: a charge of ε 0 with no slot
     * used, tagged with the group, over the claim's interval (nothing is added if the ledger already has an entry
     * there). A device learns a group's members only from its own ledger, so each client of a group member records
     * this when it starts; the gateway learns members from its catalog and needs none.
     */
    public static DeviceLedger join(DeviceLedger ledger, Claim claim) {
        if (claim.group() == null || ledger.find(claim.workloadId(), claim.version(), claim.from()) != null) {
            return ledger;
        }
        return ledger.with(new Charge(claim.workloadId(), claim.version(), claim.group().name(), claim.from(),
                claim.to(), BigDecimal.ZERO, new BitSet()));
    }

    /**
     * The group as a device knows it from its ledger: {@code declared}'s budget, and as members the claimant and
     * every workload with a charge (or a {@linkplain #join membership record}) tagged with the group.
     */
    public static GroupView deviceView(DeviceLedger ledger, String name, PeriodBudget declared, String workloadId) {
        Set<String> members = new HashSet<>();
        members.add(workloadId);
        for (Charge c : ledger.charges()) {
            if (name.equals(c.group())) {
                members.add(c.workloadId());
            }
        }
        return new GroupView(name, List.of(declared), members);
    }

    /** The ε that charges of {@code workloadId} put on the period of length {@code len} containing {@code t}. */
    public static BigDecimal spent(DeviceLedger ledger, Predicate<Charge> counted, long len, long t) {
        long start = Math.multiplyExact(Math.floorDiv(t, len), len);
        BigDecimal s = BigDecimal.ZERO;
        for (Charge c : ledger.charges()) {
            if (c.overlaps(start, start + len) && counted.test(c)) {
                s = s.add(c.epsilon());
            }
        }
        return s;
    }
}

package io.privacygateway.mechanisms.budget;

import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * The admission rule of a device's budget, in exact arithmetic: a report is admitted only if the ε it costs,
 * added to everything the device was charged in <em>any</em> period overlapping the report's period, stays
 * within the budget. Exact sums of the declared decimals ({@link Epsilon#exact()}) are compared, so no
 * rounding can ever admit an overspend (three reports of ε = 1/3 + 10⁻¹³ do not fit a budget of 1), and no
 * count of charges is trusted across workload versions: lowering ε in a new version cannot reset what was
 * spent, and changing the period length cannot orphan it (a charge made under the old length counts against
 * every new period it overlaps, which can only refuse more).
 *
 * <p>Local mode: each report costs ε per report and is identified by its sequence number in its period.
 * Central mode: a device may contribute up to L reports to a window, identified by a slot in {@code [0, L)};
 * the first contribution to a window costs the release's ε, further ones to the same window are free (the
 * release's sensitivity already covers L contributions).
 */
public final class BudgetRule {
    private BudgetRule() {}

    /** Why a report does not fit. */
    public enum Refusal {
        /** The sequence number or slot lies outside the range the workload allows. */
        SEQUENCE_OUT_OF_RANGE,
        /** The same sequence number (or window slot) was already charged: a replay. */
        DUPLICATE,
        /** The report's ε would take the device over its budget. */
        BUDGET_EXHAUSTED,
        /** Central mode: the device already made L contributions to the window. */
        CONTRIBUTION_LIMIT,
        /** The report's ε would take the device over its budget group's budget (all the group's workloads). */
        GROUP_BUDGET_EXHAUSTED
    }

    /** The outcome of an admission. */
    public sealed interface Admission permits Admitted, Refused {
        boolean admitted();
    }

    /**
     * Admitted: record {@code updated} (the report's period usage after the charge).
     *
     * @param updated the usage to store
     * @param charged the ε charged (0 for a further central contribution to a paid window)
     */
    public record Admitted(BudgetUsage updated, BigDecimal charged) implements Admission {
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
     * The exact ε charged in {@code current}'s period: its own charges plus those of every usage in
     * {@code others} whose period overlaps it (usages of other period lengths; non-overlapping ones are
     * ignored).
     */
    public static BigDecimal spentOverlapping(BudgetUsage current, Collection<BudgetUsage> others) {
        BigDecimal s = current.spent();
        if (others.isEmpty()) {
            return s; // the usual case, without an iterator
        }
        for (BudgetUsage o : others) {
            if (!o.period().equals(current.period()) && o.period().overlaps(current.period())) {
                s = s.add(o.spent());
            }
        }
        return s;
    }

    /**
     * Local mode: one report with sequence number {@code sequence}.
     *
     * @param perReport the ε of one report
     * @param budget the budget per period
     * @param slots the sequence numbers allowed: {@code [0, slots)}
     * @param current the device's usage of the report's period (possibly empty)
     * @param others usages of periods of other lengths that may overlap it
     */
    public static Admission local(Epsilon perReport, Epsilon budget, int slots, BudgetUsage current,
            Collection<BudgetUsage> others, int sequence) {
        Refused refused = localRefusal(perReport, budget, headroom(perReport, budget), slots, current, others,
                sequence);
        return refused != null ? refused
                : new Admitted(current.withSequence(sequence, perReport.exact()), perReport.exact());
    }

    /**
     * The local rule of one workload version, with what it compares against computed once (for the gateway's
     * per-report path): {@link #admit} is {@link BudgetRule#local} with these arguments, and {@link #updated}
     * the same rule without a result object.
     */
    public static final class Local {
        private final Epsilon perReport;
        private final Epsilon budget;
        private final int slots;
        private final BigDecimal headroom;

        /**
         * @param perReport the ε of one report
         * @param budget the budget per period
         * @param slots the sequence numbers allowed: {@code [0, slots)}
         */
        public Local(Epsilon perReport, Epsilon budget, int slots) {
            this.perReport = java.util.Objects.requireNonNull(perReport, "perReport");
            this.budget = java.util.Objects.requireNonNull(budget, "budget");
            this.slots = slots;
            this.headroom = headroom(perReport, budget);
        }

        /** As {@link BudgetRule#local}. */
        public Admission admit(BudgetUsage current, Collection<BudgetUsage> others, int sequence) {
            Refused refused = localRefusal(perReport, budget, headroom, slots, current, others, sequence);
            return refused != null ? refused
                    : new Admitted(current.withSequence(sequence, perReport.exact()), perReport.exact());
        }

        /**
         * The updated usage if {@link #admit} admits the report (its charge is the ε per report), or {@code null}
         * if it refuses it (ask {@code admit} why).
         */
        public BudgetUsage updated(BudgetUsage current, Collection<BudgetUsage> others, int sequence) {
            return localRefusal(perReport, budget, headroom, slots, current, others, sequence) == null
                    ? current.withSequence(sequence, perReport.exact()) : null;
        }
    }

    /** {@code budget − perReport}, exactly: a report fits iff what was spent is at most this (no sum per report). */
    private static BigDecimal headroom(Epsilon perReport, Epsilon budget) {
        return budget.exact().subtract(perReport.exact());
    }

    /**
     * Why the local rule refuses the report, or {@code null} if it fits. {@code spent + ε > budget} is decided as
     * {@code spent > headroom} with {@code headroom = budget − ε}, the same comparison in exact decimals.
     */
    private static Refused localRefusal(Epsilon perReport, Epsilon budget, BigDecimal headroom, int slots,
            BudgetUsage current, Collection<BudgetUsage> others, int sequence) {
        if (sequence < 0 || sequence >= slots) {
            return new Refused(Refusal.SEQUENCE_OUT_OF_RANGE, "sequence " + sequence + " is outside [0, " + slots + ")");
        }
        if (current.usedSequence(sequence)) {
            return new Refused(Refusal.DUPLICATE, "sequence " + sequence + " of period " + current.period().index()
                    + " was already charged to this device");
        }
        BigDecimal spent = spentOverlapping(current, others);
        if (spent.compareTo(headroom) > 0) {
            return new Refused(Refusal.BUDGET_EXHAUSTED, "the device has spent ε " + spent.toPlainString()
                    + " of its budget " + budget.exact().toPlainString() + " in this period; a report costs "
                    + perReport.exact().toPlainString());
        }
        return null;
    }

    /**
     * What a device has spent of a budget group's budget in a period: the group's recorded spend (overlapping
     * periods included) plus what its members spent in the period that the group has not counted yet.
     *
     * @param membersSpent each member workload's own spend in the period
     */
    public static BigDecimal groupSpent(BudgetUsage current, Collection<BudgetUsage> others,
            Map<String, BigDecimal> membersSpent) {
        return spentOverlapping(current, others).add(uncounted(current, membersSpent));
    }

    private static BigDecimal uncounted(BudgetUsage current, Map<String, BigDecimal> membersSpent) {
        BigDecimal uncounted = BigDecimal.ZERO;
        for (Map.Entry<String, BigDecimal> m : membersSpent.entrySet()) {
            BigDecimal before = current.memberSpent(m.getKey());
            if (m.getValue().compareTo(before) > 0) {
                uncounted = uncounted.add(m.getValue().subtract(before));
            }
        }
        return uncounted;
    }

    /**
     * A budget group's share of an admitted charge. The device's usage of the group (kept under the group's own
     * key) first takes in whatever its member workloads spent in the period that the group has not counted yet
     * (their spend before they joined the group, or while they were out of it, or under a group of another
     * name), so that joining, leaving, renaming or re-declaring a group never hands a device a fresh budget. The
     * charge then fits only if, added to every overlapping period's charges, the group stays within its budget.
     * A charge of 0 (a further central contribution to a paid window) always fits, and still records what was
     * taken in.
     *
     * <p>Guarantee: after every admission, the group's recorded spend in the period is at least the sum, over
     * every workload that was ever passed in {@code membersSpent} in the period, of that workload's own spend in
     * the period; a report is admitted only if this sum plus its charge stays within the group's budget.
     *
     * @param group the group budget per period
     * @param current the device's usage of the group in the report's period (possibly empty)
     * @param others usages of the group in overlapping periods of other lengths
     * @param member the id of the reporting workload
     * @param membersSpent each member workload's own spend in the same period before this report; must include
     *     {@code member}
     * @param charge what the workload admission charged
     */
    public static Admission group(Epsilon group, BudgetUsage current, Collection<BudgetUsage> others, String member,
            Map<String, BigDecimal> membersSpent, BigDecimal charge) {
        if (!membersSpent.containsKey(member)) {
            throw new IllegalArgumentException("the reporting workload " + member + " is missing from membersSpent");
        }
        BigDecimal uncounted = uncounted(current, membersSpent);
        Map<String, BigDecimal> counted = new TreeMap<>();
        membersSpent.forEach((m, own) -> {
            if (own.compareTo(current.memberSpent(m)) > 0) {
                counted.put(m, own);
            }
        });
        BigDecimal spent = spentOverlapping(current, others).add(uncounted);
        if (charge.signum() > 0 && spent.add(charge).compareTo(group.exact()) > 0) {
            return new Refused(Refusal.GROUP_BUDGET_EXHAUSTED, "the device has spent ε " + spent.toPlainString()
                    + " of its group budget " + group.exact().toPlainString() + " in this period; this report costs "
                    + charge.toPlainString());
        }
        counted.put(member, current.memberSpent(member).max(membersSpent.get(member)).add(charge));
        return new Admitted(current.withGroupCharges(uncounted.add(charge), counted), charge);
    }

    /**
     * Central mode: one contribution in slot {@code slot} to the window starting at {@code windowStart}.
     *
     * @param perRelease the ε of one release (charged for the first contribution to a window)
     * @param budget the budget per period
     * @param contributionsPerWindow L
     */
    public static Admission central(Epsilon perRelease, Epsilon budget, int contributionsPerWindow,
            BudgetUsage current, Collection<BudgetUsage> others, long windowStart, int slot) {
        int made = current.contributions(windowStart);
        if (made >= contributionsPerWindow) {
            return new Refused(Refusal.CONTRIBUTION_LIMIT, "the device already contributed " + made
                    + " report(s) to this window (L = " + contributionsPerWindow + ")");
        }
        if (slot < 0 || slot >= contributionsPerWindow) {
            return new Refused(Refusal.SEQUENCE_OUT_OF_RANGE, "contribution slot " + slot + " is outside [0, "
                    + contributionsPerWindow + ")");
        }
        if (current.usedSlot(windowStart, slot)) {
            return new Refused(Refusal.DUPLICATE, "contribution slot " + slot + " of this window was already used"
                    + " by this device");
        }
        if (made > 0) {
            return new Admitted(current.withContribution(windowStart, slot, BigDecimal.ZERO), BigDecimal.ZERO);
        }
        BigDecimal spent = spentOverlapping(current, others);
        BigDecimal after = spent.add(perRelease.exact());
        if (after.compareTo(budget.exact()) > 0) {
            return new Refused(Refusal.BUDGET_EXHAUSTED, "the device has spent ε " + spent.toPlainString()
                    + " of its budget " + budget.exact().toPlainString() + " in this period; contributing to another"
                    + " window costs " + perRelease.exact().toPlainString());
        }
        return new Admitted(current.withContribution(windowStart, slot, perRelease.exact()), perRelease.exact());
    }
}

package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.Charge;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.budget.PeriodKey;
import java.util.Optional;

/**
 * The rules a device and the gateway must apply identically to a resolved workload version, written once: the window
 * of an event time ({@link WorkloadSpec.Window}), the budget period of an event time ({@link #periodOf}), the sequence
 * numbers a report may carry ({@link #slots()}), what a report claims of the device's budgets ({@link #claim}), and the
 * one budget-admission routine both run on a device's ledger ({@link #admit}: the device before a report leaves it,
 * the gateway's ingest before a report counts). Both the device SDK and the gateway's runtime hold one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param spec the resolved spec
 * @param contentHash its content hash ({@link CanonicalForm#contentHash})
 */
public record WorkloadRules(WorkloadSpec spec, String contentHash) {
    public WorkloadRules {
        if (spec == null || contentHash == null) {
            throw new IllegalArgumentException("spec and contentHash are required");
        }
    }

    /** The rules of a resolved spec (computes its content hash). */
    public static WorkloadRules of(WorkloadSpec spec) {
        return new WorkloadRules(spec, CanonicalForm.contentHash(spec));
    }

    /** The workload id. */
    public String id() {
        return spec.id();
    }

    /** Local or central. */
    public Mode mode() {
        return spec.mode();
    }

    /** The tumbling window (start of an event time, end, close). */
    public WorkloadSpec.Window window() {
        return spec.window();
    }

    /** The budget period containing event time {@code t}. */
    public PeriodKey periodOf(long t) {
        return PeriodKey.containing(spec.budget().periodMillis(), t);
    }

    /**
     * The sequence numbers a report may carry: {@code [0, slots())}. Local mode: one per report the budget pays for in
     * a period ({@link WorkloadSpec#reportsPerPeriod()}), which also bounds how many public-coin draws a device can
     * try. Central mode: the contribution slots of one window, {@code [0, L)}.
     */
    public int slots() {
        return spec.mode() == Mode.CENTRAL ? spec.central().contributionsPerWindow() : spec.reportsPerPeriod();
    }

    /** The budget group of the workload, if it belongs to one. */
    public Optional<WorkloadSpec.Group> group() {
        return Optional.ofNullable(spec.budget().group());
    }

    /** The workload's own budget as this version declares it. */
    public BudgetLedger.PeriodBudget budget() {
        return new BudgetLedger.PeriodBudget(spec.budget().epsilonPerPeriod(), spec.budget().periodMillis());
    }

    /** This version's declaration of its group's budget (call only when {@link #group()} is present). */
    public BudgetLedger.PeriodBudget groupBudget() {
        return new BudgetLedger.PeriodBudget(group().get().epsilonPerPeriod(), spec.budget().periodMillis());
    }

    /**
     * What a report of this version at {@code eventTime} with sequence number (local) or contribution slot (central)
     * {@code slot} claims of the device's budgets ({@link BudgetLedger#admit} decides it): local reports are charged ε
     * per report over their budget period; central contributions the ε of one release, once per window of this
     * version, over the window.
     *
     * @param group the version's group as the catalog declares it (every current member's budget and the members),
     *     or {@code null} when the workload names no group
     * @throws IllegalArgumentException if {@code group} is given exactly when the version names no group
     */
    public BudgetLedger.Claim claim(long eventTime, int slot, BudgetLedger.GroupView group) {
        if (group().isPresent() != (group != null)) {
            throw new IllegalArgumentException("the group view must be given exactly when the version names a group");
        }
        long from = chargedFrom(eventTime);
        long to = mode() == Mode.CENTRAL ? window().endOf(from) : periodOf(eventTime).end();
        return new BudgetLedger.Claim(id(), contentHash, mode() == Mode.CENTRAL, from, to, slot, slots(),
                spec.epsilonPerCharge().exact(), budget(), group);
    }

    /**
     * The budget admission of one report, the one routine a device and the gateway both run: whether the device's
     * budgets pay for a report of this version at {@code eventTime} with sequence number (local) or contribution slot
     * (central) {@code slot} — its {@link #claim} decided by {@link BudgetLedger#admit} in exact decimal ε, across
     * the workload's versions and modes, its period lengths and its budget group. The device runs it before a report
     * leaves it (with the slot {@link #nextSlot} chooses and {@link BudgetLedger.Forgotten#NONE}: its own ledger is
     * complete), the gateway's ingest before a report counts (with the report's slot and the shard's record of
     * forgotten charges). So a report the device admitted is refused by the gateway's budget only if the two
     * ledgers differ.
     *
     * <p>Writes nothing: an admitted report's charge is in {@link BudgetLedger.Admitted#updated()}, which the caller
     * records.
     *
     * @param ledger the device's ledger
     * @param group the version's group as the caller sees it ({@link #claim}), or {@code null} without a group
     * @param forgotten what was forgotten outside the ledger
     * @throws IllegalArgumentException if {@code group} is given exactly when the version names no group
     */
    public BudgetLedger.Admission admit(DeviceLedger ledger, long eventTime, int slot, BudgetLedger.GroupView group,
            BudgetLedger.Forgotten forgotten) {
        return BudgetLedger.admit(ledger, claim(eventTime, slot, group), forgotten);
    }

    /**
     * The lowest sequence number (local) or contribution slot (central) the device has not yet used for this version
     * in the period or window of {@code eventTime}: the slot a device claims next. It may be {@link #slots()} or more
     * when all are used ({@link #admit} then refuses).
     */
    public int nextSlot(DeviceLedger ledger, long eventTime) {
        Charge own = ledger.find(id(), contentHash, chargedFrom(eventTime));
        return own == null ? 0 : own.nextSlot();
    }

    /** The start of what a report at {@code eventTime} is charged over: its window (central) or period (local). */
    private long chargedFrom(long eventTime) {
        return mode() == Mode.CENTRAL ? window().startOf(eventTime) : periodOf(eventTime).start();
    }
}

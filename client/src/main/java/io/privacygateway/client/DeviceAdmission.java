package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.Charge;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Optional;

/**
 * The device's admission routine, the only one of the device SDKs ({@link Client} and the Kafka
 * {@code DeviceClient} both call it): the gateway's own rule ({@link WorkloadRules#admit}: exact ε, across workload
 * versions, modes, period lengths and budget groups) run on the device's {@link DeviceBudget}, with the next unused
 * sequence number (local) or window slot (central, {@link WorkloadRules#nextSlot}).
 *
 * <p>Callers hold the budget's monitor across {@link #current}, {@link #admit} and the durable record of the
 * updated ledger, so that the read-admit-record step of every client sharing one budget is atomic. {@link #admit}
 * itself writes nothing: the caller makes the charge durable (alone, or together with the queued report) before the
 * report can leave the device.
 */
public final class DeviceAdmission {
    private DeviceAdmission() {}

    /** How long a device keeps a charge after its interval ended, unless configured otherwise: 31 days. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(31);

    /**
     * Checks a configured retention (how long a device keeps a charge after its interval ended). A charge forgotten
     * earlier than a later version's period needs makes the device refuse that period's reports (it never guesses),
     * so it should be at least the longest budget period the device reports under.
     *
     * @return {@code retention}
     * @throws IllegalArgumentException naming the field if it is null, zero or negative
     */
    public static Duration checkRetention(Duration retention) {
        if (retention == null || retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("retention must be > 0, got " + retention);
        }
        return retention;
    }

    /** What {@link #admit} decided. */
    public sealed interface Decision permits Admitted, Refused {}

    /**
     * The report may be made at these coordinates; {@code updated} is the ledger with its charge, which the caller
     * must record durably before the report can leave the device.
     */
    public record Admitted(ReportCoordinates coordinates, long eventTime, DeviceLedger updated) implements Decision {}

    /** The budget does not pay for the report; nothing changed. */
    public record Refused(BudgetLedger.Refusal reason, long eventTime, String message) implements Decision {}

    /**
     * The device's ledger with the charges that ended more than {@code retentionMillis} before {@code now}
     * forgotten (their scopes remember when, so the rule refuses to decide on a period that began before: never an
     * overspend). Records the pruned ledger if anything was forgotten. Caller holds the budget's monitor.
     */
    public static DeviceLedger current(DeviceBudget budget, long now, long retentionMillis) {
        DeviceLedger l = budget.ledger();
        long before = now - retentionMillis;
        DeviceLedger kept = l.forget(c -> c.to() <= before, true, c -> { });
        if (kept != l) {
            budget.record(kept);
        }
        return kept;
    }

    /**
     * Records on the device that the workload is a member of its budget group ({@link BudgetLedger#join}), so that
     * joining a group never adds a fresh budget. No-op for a workload in no group or a clock before the epoch.
     */
    public static void joinGroup(DeviceBudget budget, WorkloadRules w, long now, long retentionMillis) {
        if (!w.group().isPresent() || now < 0) {
            return;
        }
        synchronized (budget) {
            DeviceLedger ledger = current(budget, now, retentionMillis);
            DeviceLedger joined = BudgetLedger.join(ledger, w.claim(now, 0, groupView(ledger, w)));
            if (joined != ledger) {
                budget.record(joined);
            }
        }
    }

    /** The workload's group as this device knows it ({@link BudgetLedger#deviceView}), or null. */
    public static BudgetLedger.GroupView groupView(DeviceLedger ledger, WorkloadRules w) {
        return w.group().map(g -> BudgetLedger.deviceView(ledger, g.name(), w.groupBudget(), w.id())).orElse(null);
    }

    /**
     * Decides whether the device's budget pays for one more report of {@code w} at {@code now}.
     *
     * @param ledger the device's current ledger ({@link #current})
     * @throws IllegalStateException if {@code now} is before the epoch (periods are non-negative)
     */
    public static Decision admit(DeviceLedger ledger, WorkloadRules w, String deviceId, long now) {
        if (now < 0) {
            throw new IllegalStateException("the device clock reads " + now + " ms, before the epoch");
        }
        int slot = w.nextSlot(ledger, now);
        BudgetLedger.Admission admission = w.admit(ledger, now, slot, groupView(ledger, w),
                BudgetLedger.Forgotten.NONE);
        if (admission instanceof BudgetLedger.Refused r) {
            return new Refused(r.reason(), now, r.message());
        }
        BudgetLedger.Admitted a = (BudgetLedger.Admitted) admission;
        return new Admitted(new ReportCoordinates(deviceId, w.periodOf(now).index(), slot), now, a.updated());
    }

    /** The exact ε spent of the current period's budget (all versions and modes of the workload). */
    public static BigDecimal spent(DeviceLedger ledger, WorkloadRules w, long now) {
        String id = w.id();
        return BudgetLedger.spent(ledger, c -> c.workloadId().equals(id), w.spec().budget().periodMillis(), now);
    }

    /** The exact ε spent of the workload's budget group in the current period, or empty without a group. */
    public static Optional<BigDecimal> groupSpent(DeviceLedger ledger, WorkloadRules w, long now) {
        if (!w.group().isPresent()) {
            return Optional.empty();
        }
        BudgetLedger.GroupView g = groupView(ledger, w);
        return Optional.of(BudgetLedger.spent(ledger, c -> g.name().equals(c.group())
                || g.members().contains(c.workloadId()), w.spec().budget().periodMillis(), now));
    }

    /**
     * How many more reports (local) or newly paid windows (central) the budget allows in the current period:
     * {@code ⌊(budget − spent) / ε⌋} in exact arithmetic, also bounded by the unused sequence numbers.
     */
    public static int remaining(DeviceLedger ledger, WorkloadRules w, long now) {
        BigDecimal left = w.spec().budget().epsilonPerPeriod().exact().subtract(spent(ledger, w, now))
                .max(BigDecimal.ZERO);
        if (w.group().isPresent()) {
            left = left.min(w.group().get().epsilonPerPeriod().exact().subtract(groupSpent(ledger, w, now)
                    .orElse(BigDecimal.ZERO)).max(BigDecimal.ZERO));
        }
        int byEpsilon = left.divide(w.spec().epsilonPerCharge().exact(), 0, RoundingMode.FLOOR).intValue();
        if (w.mode() != Mode.LOCAL) {
            return Math.max(0, byEpsilon);
        }
        Charge own = ledger.find(w.id(), w.contentHash(), w.periodOf(now).start());
        int bySlots = w.slots() - (own == null ? 0 : own.slotsUsed());
        return Math.max(0, Math.min(byEpsilon, bySlots));
    }
}

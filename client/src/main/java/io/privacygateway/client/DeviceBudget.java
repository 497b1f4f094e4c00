package io.privacygateway.client;

/**
 * What one device has spent of its privacy budgets: per workload and budget period, the sequence numbers
 * it used and the ε it was charged; per workload and window, how many central-mode contributions it made.
 * {@link DeviceClient} reads it before every report and {@linkplain #record records} the charge
 * <em>before</em> the report leaves the device, so a crash between the two can only waste budget, never
 * reuse a sequence number or overspend.
 *
 * <p>State is keyed by workload id, not by version or content hash, because the gateway's ledger is: a new
 * version of a workload registered in the middle of a period does not give devices a fresh budget.
 *
 * <p><b>Persistence.</b> A real device persists this state (a small file or key-value store) and makes
 * {@link #record} durable before returning. A device that forgets its budget (reinstall, wiped storage)
 * can only hurt itself: it would reuse sequence numbers the gateway's ledger has already seen, and the
 * gateway rejects those reports ({@code DUPLICATE}, {@code BUDGET_EXHAUSTED}) without counting them, so no
 * device ever gets more than its budget into an answer. What it loses is privacy against the operator of
 * the gateway, who sees every report sent, counted or not: this is why the device keeps its own budget
 * at all, and why a slot is charged even when sending fails.
 *
 * <p>Implementations must be thread-safe; one device's reports are serialized by its {@link DeviceClient}.
 * {@link InMemoryDeviceBudget} is the reference implementation.
 */
public interface DeviceBudget {
    /**
     * The device's usage of one workload's budget in one period.
     *
     * @return the usage, {@link PeriodUsage#NONE} if nothing was recorded (or it was forgotten)
     */
    PeriodUsage usage(String workloadId, long period);

    /** How many central-mode contributions the device made to the window starting at {@code windowStart}. */
    int contributions(String workloadId, long windowStart);

    /**
     * Records one charge: sequence number {@code charge.sequence()} of {@code charge.period()} is used, and
     * {@code charge.epsilon()} is added to the period's spent ε (0 for a further contribution to a
     * central-mode window that is already paid for); for central mode, the window's contribution count
     * grows by one.
     */
    void record(String workloadId, Charge charge);

    /**
     * A device's usage of one workload's budget in one period.
     *
     * @param nextSequence the smallest sequence number not yet used (sequence numbers are used in order)
     * @param spentEpsilon the ε charged so far (for display)
     * @param paidCharges the charges that cost ε (local: reports; central: paid windows); the device, like the
     *     gateway's ledger, admits a charge while this is below the spec's {@code reportsPerPeriod()}
     */
    record PeriodUsage(int nextSequence, double spentEpsilon, int paidCharges) {
        /** Nothing used. */
        public static final PeriodUsage NONE = new PeriodUsage(0, 0.0, 0);

        public PeriodUsage {
            if (nextSequence < 0 || !(spentEpsilon >= 0) || paidCharges < 0) {
                throw new IllegalArgumentException("nextSequence, spentEpsilon and paidCharges must be >= 0, got "
                        + nextSequence + ", " + spentEpsilon + ", " + paidCharges);
            }
        }

        /** The usage after one more charge. */
        public PeriodUsage plus(Charge c) {
            return new PeriodUsage(Math.max(nextSequence, c.sequence() + 1), spentEpsilon + c.epsilon(),
                    c.epsilon() > 0 ? paidCharges + 1 : paidCharges);
        }
    }

    /**
     * One report's charge.
     *
     * @param period the budget period
     * @param sequence the sequence number used
     * @param epsilon the ε charged (0 for a central contribution to a window already paid for)
     * @param windowStart central mode: the start of the window contributed to; local mode: {@link #NO_WINDOW}
     */
    record Charge(long period, int sequence, double epsilon, long windowStart) {
        /** The {@code windowStart} of a local-mode charge. */
        public static final long NO_WINDOW = Long.MIN_VALUE;

        /** Whether this charge is a central-mode window contribution. */
        public boolean contributesToWindow() {
            return windowStart != NO_WINDOW;
        }
    }
}

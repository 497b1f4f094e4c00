package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.DeviceLedger;

/**
 * What one device has spent of its privacy budgets: its {@link DeviceLedger} (every charge of every workload,
 * version, mode and group the device reports for), the same value and the same admission rule
 * ({@code BudgetLedger.admit}) as the gateway's. {@code DeviceClient} reads it before every report and
 * {@linkplain #record records} the charge <em>before</em> the report leaves the device, so a crash between the
 * two can only waste budget, never reuse a sequence number or overspend. Several clients of one device (one per
 * workload) share one {@code DeviceBudget}, so a budget group and every version of a workload see one ledger.
 *
 * <p><b>Persistence.</b> A real device persists the ledger ({@code DeviceLedgerCodec} gives its bytes) and makes
 * {@link #record} durable before returning. A device that forgets its budget (reinstall, wiped storage) can only
 * hurt itself: it would reuse sequence numbers the gateway has already seen, and the gateway rejects those
 * reports ({@code DUPLICATE}, {@code BUDGET_EXHAUSTED}) without counting them, so no device ever gets more than
 * its budget into an answer. What it loses is privacy against the operator of the gateway, who sees every report
 * sent, counted or not: this is why the device keeps its own budget at all, and why a charge is recorded even
 * when sending fails.
 *
 * <p>Implementations must be thread-safe; {@code DeviceClient} serializes the read-admit-record step of all clients
 * sharing one budget on the budget object itself. {@link InMemoryDeviceBudget} is the reference implementation.
 */
public interface DeviceBudget {
    /** The device's ledger ({@link DeviceLedger#empty()} if nothing is recorded). */
    DeviceLedger ledger();

    /** Replaces the ledger after an admitted charge (durably, before returning). */
    void record(DeviceLedger updated);
}

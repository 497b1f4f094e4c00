package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.BudgetUsage;
import io.privacygateway.mechanisms.budget.PeriodKey;
import java.util.List;

/**
 * What one device has spent of its privacy budgets: per workload and budget period, the
 * {@link BudgetUsage} (exact ε charged, sequence numbers used, central window slots used) — the same value and
 * the same admission rule ({@code ResolvedWorkload.admit}) as the gateway's. {@link DeviceClient} reads it
 * before every report and {@linkplain #record records} the charge <em>before</em> the report leaves the device,
 * so a crash between the two can only waste budget, never reuse a sequence number or overspend.
 *
 * <p>State is keyed by workload id, not by version or content hash, because the gateway's is: a new version of
 * a workload registered in the middle of a period (with another ε, or another period length) does not give
 * devices a fresh budget.
 *
 * <p><b>Persistence.</b> A real device persists this state ({@code BudgetUsageCodec} gives its bytes) and makes
 * {@link #record} durable before returning. A device that forgets its budget (reinstall, wiped storage) can only
 * hurt itself: it would reuse sequence numbers the gateway has already seen, and the gateway rejects those
 * reports ({@code DUPLICATE}, {@code BUDGET_EXHAUSTED}) without counting them, so no device ever gets more than
 * its budget into an answer. What it loses is privacy against the operator of the gateway, who sees every report
 * sent, counted or not: this is why the device keeps its own budget at all, and why a charge is recorded even
 * when sending fails.
 *
 * <p>Implementations must be thread-safe; one device's reports are serialized by its {@link DeviceClient}.
 * {@link InMemoryDeviceBudget} is the reference implementation.
 */
public interface DeviceBudget {
    /** The device's usage of {@code period} for a workload ({@link BudgetUsage#empty} if none is known). */
    BudgetUsage usage(String workloadId, PeriodKey period);

    /** The device's usages of periods of <em>other</em> lengths (earlier versions) that overlap {@code period}. */
    List<BudgetUsage> overlapping(String workloadId, PeriodKey period);

    /** Records the usage after an admitted charge (replacing the usage of the same period). */
    void record(String workloadId, BudgetUsage updated);
}

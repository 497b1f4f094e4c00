package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.DeviceLedger;
import java.util.Objects;

/**
 * A {@link DeviceBudget} in memory (simulations, tests, and devices that accept forgetting their budget on
 * restart; see {@link DeviceBudget} for why that only hurts the device). Thread-safe. Memory is bounded:
 * {@code DeviceClient} forgets charges older than its retention before each report, and a ledger holds at most
 * {@link DeviceLedger#MAX_CHARGES} charges.
 */
public final class InMemoryDeviceBudget implements DeviceBudget {
    private DeviceLedger ledger = DeviceLedger.empty();

    @Override
    public synchronized DeviceLedger ledger() {
        return ledger;
    }

    @Override
    public synchronized void record(DeviceLedger updated) {
        ledger = Objects.requireNonNull(updated, "updated");
    }
}

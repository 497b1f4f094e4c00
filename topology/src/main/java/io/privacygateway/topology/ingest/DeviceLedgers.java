package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.Charge;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.topology.state.TypedStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * The device ledgers of one shard: one {@link DeviceLedger} per device (every charge of every workload, version,
 * mode and group that can still matter; a changelogged RocksDB store shared by the local and the central ingest of
 * the shard, since a device's reports of both modes land on the same partition number), and per budget scope the
 * time before which charges were forgotten (so a later version with a longer period never decides on a ledger
 * that lost charges it would count; {@link BudgetLedger.Forgotten}).
 *
 * <p>Cost per report: one ledger read and one write, whatever the versions, period lengths and groups; the rule
 * itself is linear in the charges of the device's ledger that overlap the report's periods.
 *
 * <p><b>Forgetting</b> ({@link #sweep}) visits a bounded number of devices per call, in key order, resuming where
 * the last call stopped, and drops the charges no admissible report can meet any more ({@code to <= cutoff} of
 * their workload and of their group). Each forgotten charge raises its scopes' forgotten times.
 */
public final class DeviceLedgers {
    private final TypedStore<String, DeviceLedger> ledgers;
    private final TypedStore<String, Long> forgotten;
    private final BudgetLedger.Forgotten forgottenView;
    private String cursor = "";

    public DeviceLedgers(TypedStore<String, DeviceLedger> ledgers, TypedStore<String, Long> forgotten) {
        this.ledgers = ledgers;
        this.forgotten = forgotten;
        this.forgottenView = scope -> {
            Long t = forgotten.get(scope);
            return t == null ? Long.MIN_VALUE : t;
        };
    }

    /** The device's ledger (empty if nothing is recorded). */
    DeviceLedger ledger(String deviceId) {
        DeviceLedger l = ledgers.get(deviceId);
        return l == null ? DeviceLedger.empty() : l;
    }

    /** Stores the device's ledger after an admission. */
    void record(String deviceId, DeviceLedger updated) {
        if (updated.isEmpty()) {
            ledgers.delete(deviceId);
        } else {
            ledgers.put(deviceId, updated);
        }
    }

    /** What this shard forgot, per scope. */
    BudgetLedger.Forgotten forgotten() {
        return forgottenView;
    }

    /**
     * Forgets, in at most {@code maxDevices} devices, every charge whose interval ended at or before the cutoff of
     * its workload and (if it names one) of its group's scope, handing each to {@code expired} first.
     *
     * @param cutoff per scope (a workload id, or {@link BudgetLedger#groupScope}), the time before which no
     *     admissible report's budget periods can begin; {@code Long.MIN_VALUE} keeps everything of that scope
     * @return how many charges were forgotten
     */
    int sweep(ToLongFunction<String> cutoff, int maxDevices, Consumer<Charge> expired) {
        List<String> devices = new ArrayList<>();
        List<DeviceLedger> values = new ArrayList<>();
        int visited = ledgers.range(cursor, null, maxDevices, (k, v) -> {
            devices.add(k);
            values.add(v);
        });
        cursor = visited < maxDevices ? "" : devices.get(devices.size() - 1) + "\0";
        int[] count = {0};
        for (int i = 0; i < devices.size(); i++) {
            DeviceLedger l = values.get(i);
            DeviceLedger kept = l.forget(c -> c.to() <= cutoff.applyAsLong(c.workloadId())
                    && (c.group() == null || c.to() <= cutoff.applyAsLong(BudgetLedger.groupScope(c.group()))),
                    false, c -> {
                        count[0]++;
                        raise(c.workloadId(), c.to());
                        if (c.group() != null) {
                            raise(BudgetLedger.groupScope(c.group()), c.to());
                        }
                        expired.accept(c);
                    });
            if (kept != l) {
                record(devices.get(i), kept);
            }
        }
        return count[0];
    }

    private void raise(String scope, long t) {
        Long f = forgotten.get(scope);
        if (f == null || f < t) {
            forgotten.put(scope, t);
        }
    }
}

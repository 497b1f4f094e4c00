package io.privacygateway.mechanisms.budget;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Everything one device was charged that can still matter, across all its workloads, versions, modes and budget
 * groups: a list of {@link Charge}s, plus (on the device) the times before which charges were forgotten. This is
 * the one value {@link BudgetLedger} decides on; the gateway keeps one per device (one read and one write per
 * report) and the device SDK keeps its own. Immutable.
 *
 * <p><b>Bounded.</b> A ledger holds at most {@link #MAX_CHARGES} charges; {@link BudgetLedger} refuses a report
 * that would need more (the codec refuses to write more), so no stored value grows without bound.
 */
public final class DeviceLedger {
    /** The most charges one device's ledger holds. */
    public static final int MAX_CHARGES = 2048;
    private static final DeviceLedger EMPTY = new DeviceLedger(List.of(), Map.of());
    private static final Comparator<Charge> ORDER = Comparator.comparingLong(Charge::from)
            .thenComparing(Charge::workloadId).thenComparing(Charge::version);

    private final List<Charge> charges;
    private final Map<String, Long> forgotten;

    private DeviceLedger(List<Charge> charges, Map<String, Long> forgotten) {
        this.charges = charges;
        this.forgotten = forgotten;
    }

    /** A device that was charged nothing. */
    public static DeviceLedger empty() {
        return EMPTY;
    }

    /**
     * A ledger as stored (for codecs).
     *
     * @param charges its charges (at most one per workload, version and interval start)
     * @param forgotten per budget scope (a workload id, or a group's budget key), the time before which charges of
     *     that scope may have been forgotten (see {@link BudgetLedger})
     */
    public static DeviceLedger of(List<Charge> charges, Map<String, Long> forgotten) {
        List<Charge> sorted = new ArrayList<>(charges);
        sorted.sort(ORDER);
        for (int i = 1; i < sorted.size(); i++) {
            Charge a = sorted.get(i - 1);
            if (sorted.get(i).identifies(a.workloadId(), a.version(), a.from())) {
                throw new IllegalArgumentException("two charges of " + a.workloadId() + " for the same version and"
                        + " interval start " + a.from());
            }
        }
        if (sorted.isEmpty() && forgotten.isEmpty()) {
            return EMPTY;
        }
        return new DeviceLedger(List.copyOf(sorted), Collections.unmodifiableMap(new TreeMap<>(forgotten)));
    }

    /** The charges, ordered by interval start (read-only). */
    public List<Charge> charges() {
        return charges;
    }

    /** Per scope, the time before which charges may have been forgotten (read-only; empty at the gateway). */
    public Map<String, Long> forgotten() {
        return forgotten;
    }

    /** The time before which charges of {@code scope} may have been forgotten, or {@code Long.MIN_VALUE}. */
    public long forgotten(String scope) {
        Long t = forgotten.get(scope);
        return t == null ? Long.MIN_VALUE : t;
    }

    /** Whether nothing is recorded. */
    public boolean isEmpty() {
        return charges.isEmpty() && forgotten.isEmpty();
    }

    /** The entry of {@code version} of {@code workloadId} over the interval starting at {@code from}, or null. */
    public Charge find(String workloadId, String version, long from) {
        for (Charge c : charges) {
            if (c.from() > from) {
                break;
            }
            if (c.identifies(workloadId, version, from)) {
                return c;
            }
        }
        return null;
    }

    /** This ledger with {@code updated} replacing the entry with the same workload, version and start (or added). */
    DeviceLedger with(Charge updated) {
        List<Charge> next = new ArrayList<>(charges.size() + 1);
        boolean replaced = false;
        for (Charge c : charges) {
            if (!replaced && c.identifies(updated.workloadId(), updated.version(), updated.from())) {
                next.add(updated);
                replaced = true;
            } else {
                next.add(c);
            }
        }
        if (!replaced) {
            next.add(updated);
            next.sort(ORDER);
        }
        return new DeviceLedger(Collections.unmodifiableList(next), forgotten);
    }

    /**
     * This ledger without the charges {@code forget} selects, each handed to {@code forgottenCharge} first; the
     * time before which each forgotten charge's scopes (its workload and its group's budget key) may have lost
     * charges is raised to the charge's end when {@code remember} is true (the device keeps this in its own
     * ledger; the gateway keeps it per shard).
     */
    public DeviceLedger forget(Predicate<Charge> forget, boolean remember, Consumer<Charge> forgottenCharge) {
        List<Charge> kept = new ArrayList<>(charges.size());
        Map<String, Long> f = remember ? new TreeMap<>(forgotten) : null;
        for (Charge c : charges) {
            if (forget.test(c)) {
                forgottenCharge.accept(c);
                if (remember) {
                    f.merge(c.workloadId(), c.to(), Math::max);
                    if (c.group() != null) {
                        f.merge(BudgetLedger.groupScope(c.group()), c.to(), Math::max);
                    }
                }
            } else {
                kept.add(c);
            }
        }
        if (kept.size() == charges.size()) {
            return this;
        }
        return of(kept, remember ? f : forgotten);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceLedger l && charges.equals(l.charges) && forgotten.equals(l.forgotten);
    }

    @Override
    public int hashCode() {
        return Objects.hash(charges, forgotten);
    }

    @Override
    public String toString() {
        return "DeviceLedger" + charges + (forgotten.isEmpty() ? "" : " forgotten " + forgotten);
    }
}

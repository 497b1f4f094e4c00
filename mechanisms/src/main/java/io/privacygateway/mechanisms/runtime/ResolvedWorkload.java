package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.PeriodKey;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A resolved workload version as a device and the gateway run it: the spec (its mechanism is never
 * {@code auto}), the materialized {@link Workload} (except for wide marginal workloads, whose {@code 2^d} universe is
 * never formed: {@link CentralWorkload#wide()}), the mechanism's pipeline, and <b>the rules both sides
 * must agree on</b>, written once here: the window of an event time and when it closes
 * ({@link WorkloadSpec.Window}), the budget period of an event time ({@link #periodOf}), the sequence numbers
 * a report may carry ({@link #slots()}), and what a report claims of the device's budgets ({@link #claim}, decided by
 * {@link BudgetLedger}).
 *
 * <p>The two trust models are two types: {@link LocalWorkload} (devices randomize; the gateway aggregates the
 * protocol's exact state) and {@link CentralWorkload} (devices send raw values; the gateway counts them and
 * releases with noise). Immutable and thread-safe.
 */
public sealed interface ResolvedWorkload permits LocalWorkload, CentralWorkload {

    /**
     * The runtime of a resolved spec.
     *
     * @throws IllegalArgumentException if the spec names {@code auto} (resolve it with the planner first) or
     *     its pipeline cannot be built (for example an α so large that every value rounds to the same point)
     */
    static ResolvedWorkload of(WorkloadSpec spec) {
        if (spec.mechanism() == MechanismId.AUTO) {
            throw new IllegalArgumentException("workload " + spec.id() + " names mechanism auto: resolve it with the"
                    + " planner before running it (privacy-gateway register does)");
        }
        if (spec.isWide()) { // never materialised: 2^d values (docs/wide-domains.md)
            return CentralWorkload.wide(spec);
        }
        if (spec.isVectorMean()) { // mean of a ball or a box: real vectors, never materialised
            return LocalWorkload.vectors(spec);
        }
        if (spec.family().isOpenDomain()) { // heavy-hitters: strings, never materialised (docs/heavy-hitters.md)
            return LocalWorkload.openDomain(spec);
        }
        Workload w = Workload.of(spec);
        return spec.mode() == Mode.LOCAL ? new LocalWorkload(w) : new CentralWorkload(w);
    }

    /** The resolved spec. */
    WorkloadSpec spec();

    /**
     * The materialized workload (universe, queries, answer vectors).
     *
     * @throws IllegalStateException for a wide central workload ({@link WorkloadSpec#isWide()}) and an open-domain local
     *     workload (heavy-hitters), which have none
     */
    Workload workload();

    /**
     * The index of a raw value as written in a values file: its universe index ({@link Workload#encode}), or for a wide
     * central workload its bit vector ({@link CentralWorkload#encode}). Devices, the gateway and the simulator all
     * validate values here.
     */
    default int encode(String raw) throws InvalidValueException {
        return workload().encode(raw);
    }

    /**
     * Checks a raw value as a device would send it, without keeping anything: {@link #encode} for a universe; an
     * open-domain local workload (heavy-hitters) checks the string against its protocol instead
     * ({@link LocalWorkload#checkValue}). The message never repeats an open-domain value.
     */
    default void checkValue(String raw) throws InvalidValueException {
        encode(raw);
    }

    /** The labels of the answers' coordinates, in answer order. */
    default List<String> queryLabels() {
        return workload().queryLabels();
    }

    /** The workload id. */
    default String id() {
        return spec().id();
    }

    /** Lower-case hex SHA-256 of the spec's canonical form: versions everything derived from the spec. */
    default String contentHash() {
        return workload().contentHash();
    }

    /** Local or central. */
    default Mode mode() {
        return spec().mode();
    }

    /**
     * The rules a device applies identically ({@link WorkloadRules}: window, period, slots, budgets, claims); the
     * methods below delegate to them.
     */
    WorkloadRules rules();

    /** The release of this workload's windows (the release step's one interface). */
    WindowRelease windowRelease();

    /** The tumbling window (start of an event time, end, close). */
    default WorkloadSpec.Window window() {
        return spec().window();
    }

    /** The budget period containing event time {@code t} ({@link WorkloadRules#periodOf}). */
    default PeriodKey periodOf(long t) {
        return rules().periodOf(t);
    }

    /** The sequence numbers a report may carry: {@code [0, slots())} ({@link WorkloadRules#slots}). */
    default int slots() {
        return rules().slots();
    }

    /** The length of the window aggregate the gateway keeps: protocol state (local) or universe counts (central). */
    int aggregateLength();

    /**
     * The most reports one window's merged aggregate can hold exactly (the protocol's bound in local mode;
     * unbounded in central mode, whose counts are plain longs). The gateway refuses reports beyond its share of it
     * instead of building a window it could not release.
     */
    default long maxReportsPerWindow() {
        return this instanceof LocalWorkload l ? l.accumulator().maxReportsPerWindow() : Long.MAX_VALUE;
    }

    /** The budget group of the workload, if it belongs to one. */
    default Optional<WorkloadSpec.Group> group() {
        return rules().group();
    }

    /** The workload's own budget as this version declares it. */
    default BudgetLedger.PeriodBudget budget() {
        return rules().budget();
    }

    /** This version's declaration of its group's budget (call only when {@link #group()} is present). */
    default BudgetLedger.PeriodBudget groupBudget() {
        return rules().groupBudget();
    }

    /** What a report claims of the device's budgets: {@link WorkloadRules#claim}. */
    default BudgetLedger.Claim claim(long eventTime, int slot, BudgetLedger.GroupView group) {
        return rules().claim(eventTime, slot, group);
    }
}

package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.PeriodKey;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.device.DeviceWorkload;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * The one place where the SDK touches a workload's device runtime ({@link DeviceWorkload}, device floor): everything
 * the device needs of a resolved workload version (check a value, randomize it, the budget claim, the period, the
 * window deadline, the coordinates of the version). Every other SDK class goes through this adapter.
 *
 * <p>Immutable and thread-safe (the runtime it wraps is).
 */
final class WorkloadBinding {
    private final DeviceWorkload workload;
    private final WorkloadRules rules;

    private WorkloadBinding(DeviceWorkload workload) {
        this.workload = Objects.requireNonNull(workload, "workload");
        this.rules = workload.rules();
    }

    /**
     * Builds (or takes from the process cache, {@link DeviceWorkloads}) the protocol of a resolved spec. Slow for some
     * mechanisms (factorization, chaining nets: up to about a second), so the SDK calls it off the caller's thread.
     *
     * @throws IllegalArgumentException if the spec names {@code auto} or cannot be built
     */
    static WorkloadBinding of(WorkloadSpec resolvedSpec) {
        return new WorkloadBinding(DeviceWorkloads.of(resolvedSpec));
    }

    /** The device runtime behind this binding. */
    DeviceWorkload device() {
        return workload;
    }

    WorkloadSpec spec() {
        return workload.spec();
    }

    String id() {
        return workload.id();
    }

    int version() {
        return workload.spec().version();
    }

    String contentHash() {
        return workload.contentHash();
    }

    Mode mode() {
        return workload.mode();
    }

    boolean local() {
        return workload.mode() == Mode.LOCAL;
    }

    /**
     * The protocol version the device's local reports carry: the one the spec it holds names (the payload was derived
     * with it; a device never substitutes another).
     */
    int protocolVersion() {
        return workload.spec().protocolVersion();
    }

    /** The mechanism's wire name (local reports). */
    String mechanism() {
        return workload.spec().mechanism().wireName();
    }

    /** The pure ε of one local report, as the report carries it. */
    double epsilonPerReport() {
        return workload.spec().epsilonPerReport().value();
    }

    /** Checks a raw value; the exception's message never repeats an open-domain value or a coordinate. */
    void checkValue(String raw) throws InvalidValueException {
        workload.checkValue(raw);
    }

    /** Whether {@link #checkVector}/{@link #randomize(double[], ReportCoordinates, RandomBits)} apply. */
    boolean takesVectors() {
        return workload.takesVectors();
    }

    /** Checks a vector (message names the rule and the coordinate, never a value). */
    void checkVector(double[] v) throws InvalidValueException {
        workload.checkVector(v);
    }

    /** The randomized payload of a checked raw value (local mode). */
    byte[] randomize(String raw, ReportCoordinates coords, RandomBits secret) throws InvalidValueException {
        return workload.randomize(raw, coords, secret);
    }

    /** The randomized payload of a checked vector (local vector mean). */
    byte[] randomize(double[] v, ReportCoordinates coords, RandomBits secret) throws InvalidValueException {
        return workload.randomize(v, coords, secret);
    }

    /** A human description of what the workload takes (for refusals). */
    String describeValues() {
        return "family " + workload.spec().family().wireName() + " over " + workload.spec().domain().kind();
    }

    PeriodKey periodOf(long t) {
        return rules.periodOf(t);
    }

    BudgetLedger.Claim claim(long eventTime, int slot, BudgetLedger.GroupView group) {
        return rules.claim(eventTime, slot, group);
    }

    Optional<WorkloadSpec.Group> group() {
        return rules.group();
    }

    BudgetLedger.PeriodBudget groupBudget() {
        return rules.groupBudget();
    }

    BigDecimal epsilonPerPeriod() {
        return workload.spec().budget().epsilonPerPeriod().exact();
    }

    BigDecimal epsilonPerCharge() {
        return workload.spec().epsilonPerCharge().exact();
    }

    long periodMillis() {
        return workload.spec().budget().periodMillis();
    }

    /** Sequence numbers per period (local) or contribution slots per window (central). */
    int slots() {
        return rules.slots();
    }

    /**
     * The last instant (epoch ms) at which the gateway can still accept a report of this event time: the end of
     * its window plus the grace. After it the report is {@code LATE} and the SDK drops it from its queue.
     */
    long acceptUntil(long eventTime) {
        WorkloadSpec.Window w = rules.window();
        return w.closesAt(w.startOf(eventTime));
    }
}

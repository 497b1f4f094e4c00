package io.privacygateway.client;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.device.DeviceWorkload;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Objects;

/**
 * A resolved workload version as a device client uses it, the one place where the SDK touches a workload's device
 * runtime ({@link DeviceWorkload}, device floor): check a value, make its report (randomized in local mode), the rules
 * the device's admission runs ({@link #rules()}, with {@link DeviceAdmission}), the window deadline. Both device
 * clients ({@link Client}, and the Kafka {@code DeviceClient} of module {@code client-kafka}) go through it, so a
 * report is made the same way by both.
 *
 * <p>Immutable and thread-safe (the runtime it wraps is).
 */
public final class WorkloadBinding {
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
    public static WorkloadBinding of(WorkloadSpec resolvedSpec) {
        return new WorkloadBinding(DeviceWorkloads.of(resolvedSpec));
    }

    /** The device runtime behind this binding. */
    public DeviceWorkload device() {
        return workload;
    }

    /** The rules both sides apply to this version (window, period, slots, the budget admission). */
    public WorkloadRules rules() {
        return rules;
    }

    /** The workload id. */
    public String id() {
        return workload.id();
    }

    /** The version number. */
    public int version() {
        return workload.spec().version();
    }

    /** The version's content hash. */
    public String contentHash() {
        return workload.contentHash();
    }

    /** Local or central. */
    public Mode mode() {
        return workload.mode();
    }

    /** Checks a raw value; the exception's message never repeats an open-domain value or a coordinate. */
    public void checkValue(String raw) throws InvalidValueException {
        workload.checkValue(raw);
    }

    /** Whether {@link #checkVector} and {@link #report(double[], ReportCoordinates, long, RandomBits)} apply. */
    public boolean takesVectors() {
        return workload.takesVectors();
    }

    /** Checks a vector (message names the rule and the coordinate, never a value). */
    public void checkVector(double[] v) throws InvalidValueException {
        workload.checkVector(v);
    }

    /**
     * The report of a checked raw value at admitted coordinates: randomized with {@code secret} (local mode; the
     * protocol version the spec names, never another) or the trimmed raw value (central mode).
     *
     * @throws InvalidValueException if the protocol refuses the value (it passed {@link #checkValue}: never)
     */
    public DeviceReport report(String raw, ReportCoordinates c, long now, RandomBits secret)
            throws InvalidValueException {
        if (workload.mode() != Mode.LOCAL) {
            return DeviceReport.central(id(), version(), contentHash(), c, now, raw.trim());
        }
        return local(c, now, workload.randomize(raw, c, secret));
    }

    /**
     * The report of a checked vector (local vector mean) at admitted coordinates, randomized with {@code secret}.
     *
     * @throws InvalidValueException if the protocol refuses the vector (it passed {@link #checkVector}: never)
     */
    public DeviceReport report(double[] v, ReportCoordinates c, long now, RandomBits secret)
            throws InvalidValueException {
        return local(c, now, workload.randomize(v, c, secret));
    }

    private DeviceReport local(ReportCoordinates c, long now, byte[] payload) {
        WorkloadSpec s = workload.spec();
        return DeviceReport.local(id(), version(), contentHash(), c, now, s.mechanism().wireName(),
                s.epsilonPerReport().value(), payload, s.protocolVersion());
    }

    /** A human description of what the workload takes (for refusals). */
    public String describeValues() {
        return "family " + workload.spec().family().wireName() + " over " + workload.spec().domain().kind();
    }

    /**
     * The last instant (epoch ms) at which the gateway can still accept a report of this event time: the end of
     * its window plus the grace. After it the report is {@code LATE} and the SDK drops it from its queue.
     */
    public long acceptUntil(long eventTime) {
        WorkloadSpec.Window w = rules.window();
        return w.closesAt(w.startOf(eventTime));
    }
}

package io.privacygateway.mechanisms.device;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.protocols.LocalProtocols;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterProtocol;
import io.privacygateway.mechanisms.local.vector.VectorMeanProtocol;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Objects;

/**
 * A resolved workload version as a device runs it: the spec, the {@link WorkloadRules} the gateway applies too, and
 * the device half of its protocol (checking a value and randomizing it; nothing that estimates or releases). Built
 * from a resolved spec alone ({@link #of}), with the same derivations the gateway uses ({@link LocalProtocols}), so
 * the two never disagree on a payload's meaning.
 *
 * <p>Four shapes of values: indices of a materialised universe (labels, buckets, attributes, points), strings of an
 * open domain (heavy hitters), real vectors (the mean of a ball or a box), and raw values of a central-mode workload
 * (sent to the trusted gateway unrandomized, after the same check the gateway makes).
 *
 * <p>Immutable and thread-safe. Building one may be slow for some mechanisms (the factorization strategy, the nets of
 * chaining): build it off a user-facing thread.
 */
public final class DeviceWorkload {
    /** How a workload's values are represented on a device. */
    public sealed interface Values permits Universe, OpenDomain, Vectors, Central {}

    /** Values are indices of the materialised universe; the protocol randomizes the index. */
    public record Universe(Workload workload, LocalProtocol protocol) implements Values {}

    /** Values are strings of an open domain (heavy hitters). */
    public record OpenDomain(HeavyHitterProtocol protocol) implements Values {}

    /** Values are real vectors (family mean over a ball or a box). */
    public record Vectors(Domain.Vector domain, VectorMeanProtocol protocol) implements Values {}

    /**
     * Central mode: the raw value is sent; {@code workload} is null for a wide workload, whose values are bit vectors
     * of its attributes ({@link Domain.Attributes#encode}).
     */
    public record Central(Workload workload) implements Values {}

    private final WorkloadRules rules;
    private final Values values;

    private DeviceWorkload(WorkloadRules rules, Values values) {
        this.rules = rules;
        this.values = values;
    }

    /**
     * The device runtime of a resolved spec.
     *
     * @throws IllegalArgumentException if the spec names {@code auto} (the gateway resolves it when the workload is
     *     registered, and devices receive the resolved spec) or its protocol cannot be built
     */
    public static DeviceWorkload of(WorkloadSpec spec) {
        Objects.requireNonNull(spec, "spec");
        if (spec.mechanism() == MechanismId.AUTO) {
            throw new IllegalArgumentException("workload " + spec.id() + " names mechanism auto: a device needs the"
                    + " resolved spec the gateway serves");
        }
        String hash = CanonicalForm.contentHash(spec);
        WorkloadRules rules = new WorkloadRules(spec, hash);
        if (spec.mode() == Mode.CENTRAL) {
            return new DeviceWorkload(rules, new Central(spec.isWide() ? null : Workload.of(spec)));
        }
        if (spec.isVectorMean()) {
            return new DeviceWorkload(rules, new Vectors((Domain.Vector) spec.domain(),
                    LocalProtocols.vectorMean(spec, hash)));
        }
        if (spec.family().isOpenDomain()) {
            return new DeviceWorkload(rules, new OpenDomain(LocalProtocols.heavyHitters(spec, hash)));
        }
        Workload w = Workload.of(spec);
        return new DeviceWorkload(rules, new Universe(w, LocalProtocols.of(w).protocol()));
    }

    /** The rules shared with the gateway: window, period, slots, budgets, claims. */
    public WorkloadRules rules() {
        return rules;
    }

    /** The resolved spec. */
    public WorkloadSpec spec() {
        return rules.spec();
    }

    /** The workload id. */
    public String id() {
        return rules.id();
    }

    /** The content hash of the spec's canonical form (keys the public coins). */
    public String contentHash() {
        return rules.contentHash();
    }

    /** Local or central. */
    public Mode mode() {
        return rules.mode();
    }

    /** The shape of the values and the protocol that randomizes them. */
    public Values values() {
        return values;
    }

    /** Whether values are real vectors ({@link #randomize(double[], ReportCoordinates, RandomBits)}). */
    public boolean takesVectors() {
        return values instanceof Vectors;
    }

    /**
     * Checks a raw value as the gateway would, keeping nothing: its universe index, an open-domain string's length and
     * content, a vector's coordinates (see {@link #parseVector}), or a central value's encoding. The message never
     * repeats an open-domain value or a coordinate.
     *
     * @throws InvalidValueException if the value is outside the workload's domain
     */
    public void checkValue(String raw) throws InvalidValueException {
        if (values instanceof Universe u) {
            u.workload().encode(raw);
        } else if (values instanceof OpenDomain o) {
            o.protocol().paddedItem(raw);
        } else if (values instanceof Vectors v) {
            checkVector(parseVector(raw));
        } else {
            Central c = (Central) values;
            if (c.workload() == null) {
                ((Domain.Attributes) spec().domain()).encode(raw);
            } else {
                c.workload().encode(raw);
            }
        }
    }

    /**
     * Randomizes a checked raw value of a local-mode workload into its payload.
     *
     * @throws InvalidValueException if the value is outside the domain
     * @throws IllegalStateException for a central-mode workload (it sends the raw value)
     */
    public byte[] randomize(String raw, ReportCoordinates coordinates, RandomBits secret)
            throws InvalidValueException {
        if (values instanceof Universe u) {
            return u.protocol().randomize(u.workload().encode(raw), coordinates, secret);
        } else if (values instanceof OpenDomain o) {
            return o.protocol().randomize(raw, coordinates, secret);
        } else if (values instanceof Vectors) {
            return randomize(parseVector(raw), coordinates, secret);
        }
        throw new IllegalStateException("workload " + id() + " is central-mode: its reports carry the raw value");
    }

    /**
     * Refuses a vector outside the feasible set ({@link VectorValues#check}).
     *
     * @throws InvalidValueException as described there, or if the workload does not take vectors
     */
    public void checkVector(double[] value) throws InvalidValueException {
        VectorValues.check(vectors().domain(), vectors().protocol(), value);
    }

    /** The report of a vector ({@link #checkVector} first). */
    public byte[] randomize(double[] value, ReportCoordinates coordinates, RandomBits secret)
            throws InvalidValueException {
        checkVector(value);
        return ((Vectors) values).protocol().randomize(value.clone(), coordinates, secret);
    }

    /**
     * The vector a string holds ({@link VectorValues#parse}).
     *
     * @throws InvalidValueException if the text is not such a vector, or the workload does not take vectors
     */
    public double[] parseVector(String raw) throws InvalidValueException {
        return VectorValues.parse(vectors().domain(), raw);
    }

    private Vectors vectors() throws InvalidValueException {
        if (!(values instanceof Vectors v)) {
            throw new InvalidValueException("workload " + id() + " does not take vector values");
        }
        return v;
    }
}

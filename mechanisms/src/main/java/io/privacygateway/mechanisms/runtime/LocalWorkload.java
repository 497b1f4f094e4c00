package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.device.VectorValues;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.ReportAccumulator;
import io.privacygateway.mechanisms.pipeline.HeavyHitterPipeline;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.pipeline.VectorMeanPipeline;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Collection;
import java.util.List;

/**
 * A local-mode workload: the protocol devices and gateway share, and its release.
 *
 * <p>Three kinds of values, one type each ({@link Values}): a {@link Universe} (every family but heavy-hitters and
 * vector means: values are indices of the materialised {@link Workload}, run by a {@link LocalPipeline}), an
 * {@link OpenDomain} (heavy-hitters: values are strings, never enumerated, run by a {@link HeavyHitterPipeline}) and
 * {@link Vectors} (family mean over a ball or a box: values are real vectors, never enumerated, run by a
 * {@link VectorMeanPipeline}). The window, slot and budget rules are the same for all: one report is charged ε per
 * report.
 */
public final class LocalWorkload implements ResolvedWorkload {
    /** How the workload's values are represented and run. */
    public sealed interface Values permits Universe, OpenDomain, Vectors {
        /** The gateway half of the protocol. */
        ReportAccumulator accumulator();

        /** See {@link LocalWorkload#checkValue}. */
        void checkValue(String raw) throws InvalidValueException;

        /** See {@link LocalWorkload#randomize}. */
        byte[] randomize(String raw, ReportCoordinates coordinates, RandomBits secret) throws InvalidValueException;

        /** See {@link LocalWorkload#release}. */
        Answer release(long[] state, long n);

        /** See {@link LocalWorkload#queryLabels}. */
        List<String> queryLabels();
    }

    /** Values are indices of the materialised universe. */
    public record Universe(Workload workload, LocalPipeline pipeline) implements Values {
        @Override
        public ReportAccumulator accumulator() {
            return pipeline.protocol();
        }

        @Override
        public void checkValue(String raw) throws InvalidValueException {
            workload.encode(raw);
        }

        @Override
        public byte[] randomize(String raw, ReportCoordinates coordinates, RandomBits secret)
                throws InvalidValueException {
            return pipeline.protocol().randomize(workload.encode(raw), coordinates, secret);
        }

        @Override
        public Answer release(long[] state, long n) {
            return pipeline.release().release(state, n);
        }

        @Override
        public List<String> queryLabels() {
            return workload.queryLabels();
        }
    }

    /** Values are strings of an open domain (heavy-hitters). */
    public record OpenDomain(HeavyHitterPipeline pipeline) implements Values {
        @Override
        public ReportAccumulator accumulator() {
            return pipeline.protocol();
        }

        @Override
        public void checkValue(String raw) throws InvalidValueException {
            pipeline.protocol().paddedItem(raw);
        }

        @Override
        public byte[] randomize(String raw, ReportCoordinates coordinates, RandomBits secret)
                throws InvalidValueException {
            return pipeline.protocol().randomize(raw, coordinates, secret);
        }

        @Override
        public Answer release(long[] state, long n) {
            return pipeline.release(state, n);
        }

        /** Empty: the labels are the items found in each window. */
        @Override
        public List<String> queryLabels() {
            return List.of();
        }
    }

    /**
     * Values are real vectors (family mean over a ball or a box). As a string (a values file, a simulated device, the
     * string form of {@code DeviceClient.report}) a vector is its coordinates in declaration order separated by commas,
     * optionally in square brackets: {@code 12.5, 40, 3}.
     */
    public record Vectors(VectorMeanPipeline pipeline) implements Values {
        @Override
        public ReportAccumulator accumulator() {
            return pipeline.protocol();
        }

        @Override
        public void checkValue(String raw) throws InvalidValueException {
            checkVector(parse(raw));
        }

        /**
         * Refuses a vector outside the feasible set: its length, a non-finite coordinate, a coordinate outside the box,
         * a norm above the ball's radius, or anything else the protocol refuses. The message names the rule and the
         * coordinate's position, never a coordinate's value (nor the norm).
         */
        public void checkVector(double[] value) throws InvalidValueException {
            VectorValues.check(pipeline.domain(), pipeline.protocol(), value);
        }

        @Override
        public byte[] randomize(String raw, ReportCoordinates coordinates, RandomBits secret)
                throws InvalidValueException {
            return randomize(parse(raw), coordinates, secret);
        }

        /** The report of a vector ({@link #checkVector} first). */
        public byte[] randomize(double[] value, ReportCoordinates coordinates, RandomBits secret)
                throws InvalidValueException {
            checkVector(value);
            return pipeline.protocol().randomize(value.clone(), coordinates, secret);
        }

        @Override
        public Answer release(long[] state, long n) {
            return pipeline.release(state, n);
        }

        /** The coordinate names. */
        @Override
        public List<String> queryLabels() {
            return pipeline.domain().coordinates();
        }

        /**
         * The vector a string holds (see the class comment); the message of a refusal names the coordinate's position,
         * never its text.
         */
        public double[] parse(String raw) throws InvalidValueException {
            return VectorValues.parse(pipeline.domain(), raw);
        }
    }

    private final WorkloadSpec spec;
    private final String contentHash;
    private final Values values;
    private final WorkloadRules rules;
    /** {@link WorkloadRules#slots()}, computed once (exact decimal division): read for every report admitted. */
    private final int slots;

    LocalWorkload(Workload workload) {
        this(workload.spec(), workload.contentHash(), new Universe(workload, LocalPipeline.of(workload)));
    }

    private LocalWorkload(WorkloadSpec spec, String contentHash, Values values) {
        this.spec = spec;
        this.contentHash = contentHash;
        this.values = values;
        this.rules = new WorkloadRules(spec, contentHash);
        this.slots = rules.slots();
    }

    /** The runtime of a resolved vector-mean spec (family mean over a ball or a box, never materialised). */
    static LocalWorkload vectors(WorkloadSpec spec) {
        VectorMeanPipeline p = VectorMeanPipeline.of(spec);
        return new LocalWorkload(spec, p.contentHash(), new Vectors(p));
    }

    /** The runtime of a resolved heavy-hitters spec (an open domain, never materialised). */
    static LocalWorkload openDomain(WorkloadSpec spec) {
        return new LocalWorkload(spec, CanonicalForm.contentHash(spec), new OpenDomain(HeavyHitterPipeline.of(spec)));
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String contentHash() {
        return contentHash;
    }

    /** How the values are represented and run. */
    public Values values() {
        return values;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException for an open domain (heavy-hitters), which has no universe
     */
    @Override
    public Workload workload() {
        return universe().workload();
    }

    /**
     * The pipeline of a universe workload: protocol (device and gateway) and release (gateway).
     *
     * @throws IllegalStateException for an open domain (heavy-hitters; see {@link #values()})
     */
    public LocalPipeline pipeline() {
        return universe().pipeline();
    }

    /**
     * The protocol devices and gateway share, over universe indices.
     *
     * @throws IllegalStateException for an open domain (heavy-hitters; see {@link #values()})
     */
    public LocalProtocol protocol() {
        return pipeline().protocol();
    }

    /** The gateway half of the protocol, for every kind of values: payload checks and exact aggregation. */
    public ReportAccumulator accumulator() {
        return values.accumulator();
    }

    /**
     * The vector values of a vector-mean workload (family mean over a ball or a box): {@link Vectors#checkVector}
     * and {@link Vectors#randomize(double[], ReportCoordinates, RandomBits)} take a {@code double[]} directly.
     *
     * @throws IllegalStateException for every other workload
     */
    public Vectors vectors() {
        if (values instanceof Vectors v) {
            return v;
        }
        throw new IllegalStateException("workload " + spec.id() + " (family " + spec.family().wireName() + " over "
                + spec.domain().kind() + ") does not take vector values");
    }

    private Universe universe() {
        if (values instanceof Universe u) {
            return u;
        }
        throw new IllegalStateException("workload " + spec.id() + " (family " + spec.family().wireName() + " over "
                + spec.domain().kind() + ") is never materialised: it has no universe");
    }

    /**
     * {@inheritDoc} An open domain (heavy-hitters) has no universe index: its values are checked by
     * {@link #checkValue} and randomized by {@link #randomize}.
     *
     * @throws IllegalStateException for an open domain
     */
    @Override
    public int encode(String raw) throws InvalidValueException {
        return workload().encode(raw);
    }

    /**
     * Checks a raw value without randomizing it: a universe value must encode ({@link Workload#encode}); a string of
     * an open domain must fit the protocol ({@code HeavyHitterProtocol#paddedItem}). The message never repeats an
     * open-domain value.
     */
    @Override
    public void checkValue(String raw) throws InvalidValueException {
        values.checkValue(raw);
    }

    /**
     * Device side: the payload of a raw value at the given coordinates (for a universe, its index randomized by the
     * protocol; for an open domain, the string itself).
     *
     * @throws InvalidValueException if the value is outside the domain ({@link #checkValue})
     */
    public byte[] randomize(String raw, ReportCoordinates coordinates, RandomBits secret) throws InvalidValueException {
        return values.randomize(raw, coordinates, secret);
    }

    /**
     * The answer of a window (or horizon span) of {@code n >= 1} accepted reports whose exact aggregate is
     * {@code state}.
     */
    public Answer release(long[] state, long n) {
        return values.release(state, n);
    }

    /** The window release: this workload's estimator and its amplified guarantee. */
    @Override
    public WindowRelease.Local windowRelease() {
        return new WindowRelease.Local(this);
    }

    /** {@inheritDoc} Empty for an open domain: its labels are the items found in each window. */
    @Override
    public List<String> queryLabels() {
        return values.queryLabels();
    }

    @Override
    public WorkloadRules rules() {
        return rules;
    }

    @Override
    public int slots() {
        return slots;
    }

    /**
     * The most reports one device can have in a span of {@code spanMillis} aligned to a multiple of it (a window, or a
     * span of a horizon): its reports per period times the most budget periods such a span meets — {@code span /
     * period} when the period divides the span, 1 when the span divides the period, else {@code ⌈span / period⌉ + 1}
     * (a bound). At least 1; saturates at {@link Long#MAX_VALUE} (an upper bound stays an upper bound). Never
     * understated: amplified guarantees are computed for this many reports of one device, so a value capped below the
     * true count would overstate them.
     *
     * @param spanMillis the span, {@code > 0}
     */
    public long maxReportsPerDeviceIn(long spanMillis) {
        long period = spec().budget().periodMillis();
        long periods;
        if (spanMillis % period == 0) {
            periods = spanMillis / period;
        } else if (period % spanMillis == 0) {
            periods = 1;
        } else {
            periods = (spanMillis + period - 1) / period + 1;
        }
        long k = periods > Long.MAX_VALUE / Math.max(1, slots()) ? Long.MAX_VALUE : periods * slots();
        return Math.max(1, k);
    }

    @Override
    public int aggregateLength() {
        return accumulator().stateLength();
    }
}

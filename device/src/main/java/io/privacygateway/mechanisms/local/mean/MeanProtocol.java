package io.privacygateway.mechanisms.local.mean;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * The local protocol of the {@code mean} family: a {@link ScalarRandomizer} over the levels of the workload's
 * {@link Domain.Range} (docs/local-accuracy.md).
 *
 * <p><b>Wire format.</b> Two bytes: the output symbol, unsigned big-endian ({@code [0, outputCount)}; Duchi:
 * 0 = −, 1 = +; piecewise: the cell; hybrid: the piecewise cell, or {@code M} / {@code M+1} for Duchi's − / +).
 * No public coins: the coordinates are not used.
 *
 * <p><b>Aggregate.</b> {@code long[outputCount]}: the exact count of each symbol (order-independent).
 *
 * <p><b>Estimate.</b> The gateway's ({@code MeanEstimator}, module {@code mechanisms}), from the symbols'
 * {@link ScalarRandomizer#estimateOf} and the public worst-case variance.
 *
 * <p><b>Rounding.</b> The estimate is unbiased for the mean of the <em>represented</em> values; the device's
 * deterministic rounding to the nearest level moves that mean up to {@link Domain.Range#roundingBound()} (half a level
 * step) from the mean of the raw values. The estimate's bias bound is that bound, and the pipeline adds it to the bar
 * ({@link #roundingBound()}).
 */
public final class MeanProtocol implements LocalProtocol {
    private final Workload workload;
    private final Domain.Range range;
    private final ScalarRandomizer randomizer;

    /**
     * @param workload a mean-family workload
     * @param randomizer the randomizer, over the range's levels
     */
    public MeanProtocol(Workload workload, ScalarRandomizer randomizer) {
        if (workload.spec().family() != QueryFamily.MEAN) {
            throw new IllegalArgumentException("the mean protocol needs family mean, got "
                    + workload.spec().family().wireName());
        }
        this.workload = workload;
        this.range = (Domain.Range) workload.spec().domain();
        if (randomizer.levels() != range.levels()) {
            throw new IllegalArgumentException("randomizer levels " + randomizer.levels() + " != domain levels "
                    + range.levels());
        }
        this.randomizer = randomizer;
    }

    /** The protocol of a mean workload for a mean mechanism at ε. */
    public static MeanProtocol of(Workload w, MechanismId id, Epsilon epsilon) {
        int levels = ((Domain.Range) w.spec().domain()).levels();
        return new MeanProtocol(w, randomizer(id, levels, epsilon));
    }

    /** The randomizer of a mean mechanism. */
    public static ScalarRandomizer randomizer(MechanismId id, int levels, Epsilon epsilon) {
        return switch (id) {
            case DUCHI -> new DuchiScalar(levels, epsilon);
            case PIECEWISE -> new PiecewiseScalar(levels, epsilon);
            case HYBRID -> new HybridScalar(levels, epsilon);
            default -> throw new IllegalArgumentException("not a mean mechanism: " + id.wireName());
        };
    }

    public Workload workload() {
        return workload;
    }

    /** The workload's range of values. */
    public Domain.Range range() {
        return range;
    }

    public ScalarRandomizer randomizer() {
        return randomizer;
    }

    /** The device rounding's bound on the bias of the mean, {@link Domain.Range#roundingBound()}. */
    public double roundingBound() {
        return range.roundingBound();
    }

    /** {@code (hi − lo)/2}: the factor from {@code t} to the value scale. */
    public double halfWidth() {
        return (range.hi() - range.lo()) / 2;
    }

    @Override
    public MechanismId id() {
        return randomizer.id();
    }

    @Override
    public Epsilon epsilon() {
        return randomizer.epsilon();
    }

    @Override
    public int payloadBytes() {
        return 2;
    }

    @Override
    public byte[] randomize(int value, ReportCoordinates coordinates, SecretDraws draws) {
        int y = randomizer.randomize(value, draws);
        return new byte[] {(byte) (y >>> 8), (byte) y};
    }

    @Override
    public int stateLength() {
        return randomizer.outputCount();
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        return accumulate(payload, state);
    }

    @Override
    public boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        ReportCoordinates.check(deviceId, period, sequence);
        return accumulate(payload, state);
    }

    /** The coordinates play no part here (no public coins). */
    private boolean accumulate(byte[] payload, long[] state) {
        if (payload == null || payload.length != 2 || state.length != stateLength()) {
            return false;
        }
        int y = ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
        if (y >= stateLength()) {
            return false;
        }
        state[y]++;
        return true;
    }
}

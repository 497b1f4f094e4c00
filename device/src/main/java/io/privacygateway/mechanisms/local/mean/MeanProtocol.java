package io.privacygateway.mechanisms.local.mean;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;

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
 * <p><b>Estimate.</b> {@code t̄ = (1/n) Σ_y c_y · t̂(y)}, unbiased for the mean of {@code t(x_i)}; the mean is
 * {@code lo + (hi − lo)(t̄ + 1)/2}. Its standard error is the public worst case
 * {@code (hi − lo)/2 · √(V_max/n)}, {@code V_max = max_x Var(t̂ | x)} (closed form, no data involved); the
 * release projects the estimate onto K = {@code [lo, hi]} (clipping) and computes the bar from it.
 *
 * <p><b>Rounding.</b> The estimate is unbiased for the mean of the <em>represented</em> values; the device's
 * deterministic rounding to the nearest level moves that mean up to {@link Domain.Range#roundingBound()} (half a level
 * step) from the mean of the raw values. The estimate's {@link LocalEstimate#biasBound()} is that bound, and the
 * pipeline adds it to the bar ({@link #roundingBound()}).
 */
public final class MeanProtocol implements LocalProtocol {
    private final Workload workload;
    private final Domain.Range range;
    private final ScalarRandomizer randomizer;
    private final double[] estimates;
    private final double worstVariance;

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
        this.estimates = new double[randomizer.outputCount()];
        for (int y = 0; y < estimates.length; y++) {
            estimates[y] = randomizer.estimateOf(y);
        }
        this.worstVariance = randomizer.worstVariance();
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

    @Override
    public LocalEstimate estimate(long[] state, long n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        double sum = 0;
        for (int y = 0; y < state.length; y++) {
            if (state[y] != 0) {
                sum += state[y] * estimates[y];
            }
        }
        double tBar = sum / n;
        double mean = range.lo() + halfWidth() * (tBar + 1);
        double se = halfWidth() * Math.sqrt(worstVariance / n);
        return new LocalEstimate(List.of(new LocalEstimate.Level(new double[] {mean}, new double[] {se}, se, null,
                epsilon().value(), 0)), range.roundingBound());
    }

    @Override
    public double[] expectedLevelMean(int level, double[] histogram) {
        return workload.answersOf(histogram);
    }
}

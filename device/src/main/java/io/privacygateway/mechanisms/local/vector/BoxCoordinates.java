package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.local.mean.MeanProtocol;
import io.privacygateway.mechanisms.local.mean.ScalarRandomizer;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Mean of vectors in the box {@code [lo, hi]^d} by sampled coordinates (Wang et al., "Collecting and analyzing
 * multidimensional data with local differential privacy", ICDE 2019, §IV): each report describes {@code k} of the
 * {@code d} coordinates, chosen by public coins, each by the scalar randomizer of the {@code mean} family at
 * {@code ε/k} ({@code docs/vector-means.md}).
 *
 * <p><b>Public coins.</b> Stream {@link PublicCoins.Stream#VECTOR_COORDINATES} of the report's base word drives
 * Floyd's algorithm: for {@code j = d − k, …, d − 1}, {@code u = uniformInt(j + 1)} by
 * {@link ExactSampler#uniformInt(RandomBits, int)} (the wire format's unbiased bounded integers: Lemire's rule with
 * rejection); the pick is {@code u} unless {@code u} was already picked, then {@code j}. The {@code k} picks form a
 * uniform {@code k}-subset; the report lists them in increasing order.
 *
 * <p><b>Device.</b> Each coordinate {@code x_c ∈ [lo, hi]} is mapped to its level by the scalar {@code range}
 * domain's rule ({@link Domain.Range#levelOf}: the nearest of {@code levels} equally spaced levels, the lower on a
 * tie), and each sampled coordinate, in increasing order, is randomized by the scalar randomizer
 * ({@link MeanProtocol#randomizer}) at {@code ε_k}: the payload is the {@code k} output symbols, two bytes each,
 * unsigned big-endian ({@code 2k} bytes), as the scalar protocol sends one.
 *
 * <p><b>Guarantee.</b> ε-LDP for every value of the public coins: given the coins, the {@code k} symbols are
 * independent, each {@code ε_k}-LDP ({@link ScalarRandomizer}), so the payload is {@code k·ε_k}-LDP, and
 * {@code ε_k = ε/k} rounded down to 30 significant digits (the exact decimal {@link Epsilon}), so
 * {@code k·ε_k <= ε} exactly. The secret draws are {@code k} times the scalar randomizer's value-independent
 * sequence.
 *
 * <p><b>Server.</b> The state is {@code long[d × outputCount]}: the count of symbol {@code y} reported for
 * coordinate {@code c} at {@code c·outputCount + y}. Estimate: {@code t̄_c = d/(k n)·Σ_y count_{c,y}·t̂(y)}, unbiased
 * for the mean of {@code t(level(x_c))} (a coordinate is sampled with probability {@code k/d}); the mean is
 * {@code lo + (hi − lo)(t̄_c + 1)/2}.
 *
 * <p><b>Error bars.</b> A report's term for coordinate {@code c} is {@code (d/k)·1[c sampled]·t̂}: its variance is
 * {@code (d/k)(V(x) + t²) − t² <= (d/k)·V_max + d/k − 1} ({@code |t| <= 1}), so the public standard error is
 * {@code (hi − lo)/2·√(((d/k)·V_max(ε_k) + d/k − 1)/n)}. {@link #of} picks {@code k ∈ 1..min(d, 16)} minimising it;
 * {@link #best} also compares the scalar randomizers.
 */
public final class BoxCoordinates implements VectorMeanProtocol {
    /** The largest dimension. */
    public static final int MAX_DIMENSION = 256;
    /** The most sampled coordinates per report. */
    public static final int MAX_SAMPLED = 16;

    private static final MathContext SPLIT = new MathContext(30, RoundingMode.DOWN);
    private static final ThreadLocal<SplitMix64> STREAM = ThreadLocal.withInitial(() -> new SplitMix64(0));
    private static final ThreadLocal<int[]> PICKS = ThreadLocal.withInitial(() -> new int[MAX_SAMPLED]);

    private final int dim;
    private final Domain.Range range;
    private final Epsilon epsilon;
    private final PublicCoins coins;
    private final int sampled;
    private final ScalarRandomizer scalar;
    private final int outputs;
    private final double worstVariance;

    private BoxCoordinates(int dimension, Domain.Range range, ScalarRandomizer scalar, Epsilon epsilon,
            String contentHashHex, int sampled) {
        this.dim = dimension;
        this.range = range;
        this.epsilon = epsilon;
        this.coins = new PublicCoins(Require.nonNull("contentHashHex", contentHashHex));
        this.sampled = sampled;
        this.scalar = scalar;
        this.outputs = scalar.outputCount();
        this.worstVariance = scalar.worstVariance();
    }

    /**
     * The box protocol: public coins pick the sampled coordinates, each reported by the scalar randomizer.
     *
     * @param dimension the number of coordinates (1..256)
     * @param lo the lower bound of every coordinate
     * @param hi the upper bound of every coordinate ({@code lo < hi}, both finite)
     * @param levels the discretisation of each coordinate (as the scalar {@code range} domain's levels)
     * @param scalar the scalar randomizer: {@code duchi}, {@code piecewise} or {@code hybrid}
     * @param epsilon the per-report ε
     * @param contentHashHex the workload's content hash (64 hex digits): the key of the public coins
     */
    public static BoxCoordinates of(int dimension, double lo, double hi, int levels, MechanismId scalar,
            Epsilon epsilon, String contentHashHex) {
        Choice c = bestSampled(dimension, levels, scalar, epsilon);
        return of(dimension, lo, hi, levels, scalar, epsilon, contentHashHex, c.sampled());
    }

    /**
     * The box protocol with an explicit number of sampled coordinates {@code k ∈ [1, min(d, 16)]}.
     *
     * @throws IllegalArgumentException also if the scalar randomizer cannot be realised at {@code ε/k}
     */
    public static BoxCoordinates of(int dimension, double lo, double hi, int levels, MechanismId scalar,
            Epsilon epsilon, String contentHashHex, int sampled) {
        Require.inRange("dimension", dimension, 1, MAX_DIMENSION);
        Require.inRange("sampled", sampled, 1, Math.min(dimension, MAX_SAMPLED));
        Require.nonNull("scalar", scalar);
        Require.nonNull("epsilon", epsilon);
        Domain.Range range;
        try {
            range = new Domain.Range(lo, hi, levels);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("box: " + e.getMessage(), e);
        }
        ScalarRandomizer r = MeanProtocol.randomizer(scalar, levels, share(epsilon, sampled));
        return new BoxCoordinates(dimension, range, r, epsilon, contentHashHex, sampled);
    }

    /** {@code ε_k}: {@code ε/k} rounded down to 30 significant digits, so {@code k·ε_k <= ε} exactly. */
    public static Epsilon share(Epsilon epsilon, int sampled) {
        Require.inRange("sampled", sampled, 1, MAX_SAMPLED);
        return Epsilon.exactly(epsilon.exact().divide(BigDecimal.valueOf(sampled), SPLIT));
    }

    /**
     * A choice of the box protocol's parameters with its worst per-report variance in the {@code t} scale
     * ({@link #worstVariance(int, int, int, MechanismId, Epsilon)}).
     */
    public record Choice(MechanismId scalar, int sampled, double worstVariance) {}

    /**
     * The worst per-report variance of one coordinate in the {@code t ∈ [−1, 1]} scale:
     * {@code (d/k)·V_max(ε/k) + d/k − 1} (multiply by {@code ((hi − lo)/2)²/n} for the value scale), or
     * {@code +∞} if the scalar randomizer cannot be realised at {@code ε/k} on the probability grid.
     *
     * @throws IllegalArgumentException for a dimension, {@code k}, level count or mechanism out of range
     */
    public static double worstVariance(int dimension, int sampled, int levels, MechanismId scalar, Epsilon epsilon) {
        Require.inRange("dimension", dimension, 1, MAX_DIMENSION);
        Require.inRange("sampled", sampled, 1, Math.min(dimension, MAX_SAMPLED));
        ScalarRandomizer.checkLevels(levels);
        Require.nonNull("scalar", scalar);
        if (!MechanismId.MEAN_MECHANISMS.contains(scalar)) {
            throw new IllegalArgumentException("not a mean mechanism: " + scalar.wireName());
        }
        ScalarRandomizer r;
        try {
            r = MeanProtocol.randomizer(scalar, levels, share(epsilon, sampled));
        } catch (IllegalArgumentException tooSmall) {
            return Double.POSITIVE_INFINITY;
        }
        double ratio = (double) dimension / sampled;
        return ratio * r.worstVariance() + ratio - 1;
    }

    /**
     * The {@code k ∈ 1..min(d, 16)} minimising {@link #worstVariance} for this scalar (smallest on ties and near-ties:
     * {@code VectorChecks.clearlyBelow}).
     */
    public static Choice bestSampled(int dimension, int levels, MechanismId scalar, Epsilon epsilon) {
        Require.inRange("dimension", dimension, 1, MAX_DIMENSION);
        Require.nonNull("scalar", scalar);
        Require.nonNull("epsilon", epsilon);
        Choice best = null;
        for (int k = 1; k <= Math.min(dimension, MAX_SAMPLED); k++) {
            double v = worstVariance(dimension, k, levels, scalar, epsilon);
            if (best == null || VectorChecks.clearlyBelow(v, best.worstVariance())) {
                best = new Choice(scalar, k, v);
            }
        }
        if (!Double.isFinite(best.worstVariance())) {
            throw new IllegalArgumentException("epsilon=" + epsilon.value() + " is too small for the " + scalar.wireName()
                    + " randomizer with " + levels + " levels");
        }
        return best;
    }

    /**
     * The scalar randomizer ({@link MechanismId#MEAN_MECHANISMS}, in that order on ties and near-ties) and {@code k} with the
     * smallest worst variance: for the planner's comparison of the scalar mechanisms.
     */
    public static Choice best(int dimension, int levels, Epsilon epsilon) {
        Choice best = null;
        for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
            Choice c;
            try {
                c = bestSampled(dimension, levels, id, epsilon);
            } catch (IllegalArgumentException tooSmall) {
                continue;
            }
            if (best == null || VectorChecks.clearlyBelow(c.worstVariance(), best.worstVariance())) {
                best = c;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("epsilon=" + epsilon.value() + " is too small for every scalar"
                    + " randomizer with " + levels + " levels");
        }
        return best;
    }

    /** The scalar randomizer's id ({@code duchi}, {@code piecewise} or {@code hybrid}). */
    @Override
    public MechanismId id() {
        return scalar.id();
    }

    @Override
    public Epsilon epsilon() {
        return epsilon;
    }

    /** {@code 2k}: one two-byte symbol per sampled coordinate. */
    @Override
    public int payloadBytes() {
        return 2 * sampled;
    }

    /** {@code d × outputCount}. */
    @Override
    public int stateLength() {
        return dim * outputs;
    }

    @Override
    public int dimension() {
        return dim;
    }

    /** {@code k}: the coordinates described by each report. */
    public int sampledCoordinates() {
        return sampled;
    }

    /** The scalar randomizer, at {@code ε_k}. */
    public ScalarRandomizer scalar() {
        return scalar;
    }

    /** The box's per-coordinate range and levels. */
    public Domain.Range range() {
        return range;
    }

    /** The worst per-report variance of one coordinate in the {@code t} scale: {@code (d/k)V_max + d/k − 1}. */
    public double worstVariance() {
        double ratio = (double) dim / sampled;
        return ratio * worstVariance + ratio - 1;
    }

    @Override
    public void checkValue(double[] value) {
        levels(value);
    }

    /** The levels of the value's coordinates; messages never contain a coordinate. */
    int[] levels(double[] value) {
        VectorChecks.vector("value", value, dim);
        int[] out = new int[dim];
        for (int c = 0; c < dim; c++) {
            out[c] = range.levelOf(value[c]);
            if (out[c] < 0) {
                throw new IllegalArgumentException("coordinate " + c + " of the value is not a number in ["
                        + range.lo() + ", " + range.hi() + "]");
            }
        }
        return out;
    }

    /**
     * The sampled coordinates of the report with this base word, in increasing order (written to {@code out[0..k)},
     * which must hold {@code k} ints).
     */
    void sample(long base, int[] out) {
        SplitMix64 stream = STREAM.get();
        stream.reset(PublicCoins.streamSeed(base, PublicCoins.Stream.VECTOR_COORDINATES));
        int n = 0;
        for (int j = dim - sampled; j < dim; j++) {
            int u = ExactSampler.uniformInt(stream, j + 1);
            int pick = u;
            for (int i = 0; i < n; i++) {
                if (out[i] == u) {
                    pick = j;
                    break;
                }
            }
            // insertion in increasing order
            int at = n++;
            while (at > 0 && out[at - 1] > pick) {
                out[at] = out[at - 1];
                at--;
            }
            out[at] = pick;
        }
    }

    /** The sampled coordinates of a report (a new array, increasing). */
    public int[] sampledCoordinates(ReportCoordinates coordinates) {
        Require.nonNull("coordinates", coordinates);
        int[] out = new int[sampled];
        sample(coins.base(coordinates), out);
        return out;
    }

    @Override
    public byte[] randomize(double[] value, ReportCoordinates coordinates, SecretDraws draws) {
        Require.nonNull("coordinates", coordinates);
        return randomize(value, coins.base(coordinates), draws);
    }

    /** {@link #randomize} for a report's base word. */
    byte[] randomize(double[] value, long base, SecretDraws draws) {
        int[] levels = levels(value);
        Require.nonNull("draws", draws);
        int[] picks = new int[sampled];
        sample(base, picks);
        byte[] out = new byte[2 * sampled];
        for (int i = 0; i < sampled; i++) {
            int y = scalar.randomize(levels[picks[i]], draws);
            out[2 * i] = (byte) (y >>> 8);
            out[2 * i + 1] = (byte) y;
        }
        return out;
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        Require.nonNull("coordinates", coordinates);
        VectorChecks.state(state, stateLength());
        return add(payload, coins.base(coordinates), state);
    }

    @Override
    public boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        ReportCoordinates.check(deviceId, period, sequence);
        VectorChecks.state(state, stateLength());
        return add(payload, coins.base(deviceId, period, sequence), state);
    }

    private boolean add(byte[] payload, long base, long[] state) {
        if (payload == null || payload.length != 2 * sampled) {
            return false;
        }
        for (int i = 0; i < sampled; i++) {
            if (symbol(payload, i) >= outputs) {
                return false;
            }
        }
        int[] picks = PICKS.get();
        sample(base, picks);
        for (int i = 0; i < sampled; i++) {
            state[picks[i] * outputs + symbol(payload, i)]++;
        }
        return true;
    }

    private static int symbol(byte[] payload, int i) {
        return ((payload[2 * i] & 0xFF) << 8) | (payload[2 * i + 1] & 0xFF);
    }


    @Override
    public String toString() {
        return "BoxCoordinates[d=" + dim + ", [" + range.lo() + ", " + range.hi() + "], levels=" + range.levels()
                + ", k=" + sampled + ", " + scalar.id().wireName() + ", " + epsilon + "]";
    }
}

package io.privacygateway.mechanisms.local.gaussian;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigInteger;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The Gaussian-sign local protocol, wire format {@code pgw-gauss-v1} ({@code docs/wire-format.md}):
 * local projection, local coarse projection and local chaining (MECHANISMS.md §2–§3; Błasiok–Nikolov
 * Definition 5.5, Claims 5.6–5.9, Section 5.2), one {@link GaussianSignRandomizer} release per level.
 *
 * <p><b>Device.</b> Level {@code j} (0-based) randomizes the value's row of
 * {@link GaussianLevel#valueVectors()} with radius {@code r_j = valueVectors.maxNorm()} and {@code ε_j},
 * using the public direction {@code Z_j} = the first {@code m} outputs of {@link PublicGaussian} on
 * public stream {@code j} ({@link PublicCoins#stream}) of the report. It consumes exactly one secret
 * 64-bit word per level, in level order (also for levels whose bit is fair). A level with {@code r_j = 0},
 * or a value with {@code v = 0}, sends a fair bit ({@code P = 1/2} exactly, independent of the value). The
 * device's work does not depend on its value: it builds {@code Z_j} for every level of positive radius,
 * also when its own vector is 0, and makes one {@code bernoulli(T_j, 54)} draw per level.
 *
 * <p><b>Payload.</b> {@code ⌈L/8⌉} bytes for {@code L} levels; level {@code j}'s sign is bit
 * {@code j & 7} (least significant first) of byte {@code j >>> 3}, 1 meaning {@code S = +1}. The unused
 * high bits of the last byte must be 0; any other length or a stray bit makes the payload malformed.
 *
 * <p><b>Privacy.</b> The report is {@code Σ_j ε_j}-LDP ({@link #epsilon()}: the exact decimal sum of the
 * levels' declared values) for every value of the public coins: each level's
 * bit has {@code P(bit | z, x) / P(bit | z, x') ≤ e^{ε_j}} (see {@link GaussianSignRandomizer}), the
 * levels use independent secret words, and the public coins do not depend on the value.
 *
 * <p><b>Server aggregation (exact fixed point).</b> The state holds {@code L × m} longs, level-major:
 * {@code state[j·m + k] = Σ_reports S_j · rint(Z_{j,k} · 2^32)} with {@code rint} the round-to-nearest,
 * ties-to-even integer ({@link PublicGaussian#toFixed}; computed by the fused, buffer-free kernel
 * {@link PublicGaussian#addFixed} straight from the public stream).
 * Integer additions commute, so the aggregate is bit-for-bit independent of arrival order and of
 * partitioning (merge = element-wise sum). Headroom: {@link PublicGaussian} guarantees {@code |Z| < 14}, so
 * each term is below {@code 14·2^32 < 2^35.81} and the sum of up to {@link #MAX_REPORTS}{@code = 2^27}
 * reports stays below {@code 2^62.81 < 2^63}: no overflow is possible, and the estimate refuses a
 * larger {@code n}. Levels with radius 0 are not accumulated (their entries stay 0).
 *
 * <p><b>Estimate.</b> The gateway's ({@code GaussianSignEstimator}, module {@code mechanisms}), from the public
 * {@link #decodeScale} of each level.
 *
 * <p>Immutable and thread-safe (the server's re-seedable stream object is thread-local).
 */
public final class GaussianSignProtocol implements LocalProtocol {
    /** The wire-format version this class implements. */
    public static final String WIRE_VERSION = "pgw-gauss-v1";
    /** {@code F}: fixed-point fraction bits of the aggregate. */
    public static final int FIXED_POINT_BITS = PublicGaussian.FIXED_POINT_BITS;
    /** The largest window ({@code n}) whose aggregate provably cannot overflow: {@code 2^27}. */
    public static final long MAX_REPORTS = 1L << 27;
    /** The most levels (public streams 0..255; streams from 0x100 on are reserved for other purposes). */
    public static final int MAX_LEVELS = 256;

        /** Per-thread server scratch: one stream object re-seeded per level (no Z buffer is needed). */
    private static final ThreadLocal<SplitMix64> STREAM = ThreadLocal.withInitial(() -> new SplitMix64(0));

    private final PublicCoins coins;
    private final String contentHash;
    private final String workloadId;
    private final MechanismId id;
    private final List<GaussianLevel> levels;
    private final double biasBound;
    private final int levelCount;
    private final int dim;
    private final int universe;
    private final int payloadBytes;
    private final int lastByteMask;
    private final Epsilon epsilon;
    private final double[] radii;
    private final double[] decodeScales;
    private final long[] biasNumerators;
    private final double[][] vectors;
    private final long[][] valueBias;

    /**
     * The protocol for {@code workload}.
     *
     * @param workload supplies the content hash (public coins, {@link PublicCoins}), the universe size and
     *     {@code m}; every level must have {@code universeSize} rows of dimension {@code queryCount}
     * @param id {@link MechanismId#LOCAL_PROJECTION} or {@link MechanismId#LOCAL_COARSE_PROJECTION} (exactly
     *     one level), or {@link MechanismId#LOCAL_CHAINING}
     * @param levels 1 to {@value #MAX_LEVELS} levels; {@code Σ ε_j} (the exact sum of the declared values,
     *     which is this protocol's {@link #epsilon()}) must be a valid {@link Epsilon}
     * @param biasBound the design bias reported in the estimate's {@code biasBound}, finite, {@code >= 0}
     */
    public GaussianSignProtocol(Workload workload, MechanismId id, List<GaussianLevel> levels, double biasBound) {
        this(Require.nonNull("workload", workload).contentHash(), workload.spec().id(), workload.universeSize(),
                workload.queryCount(), id, levels, biasBound);
    }

    /**
     * The protocol for a workload known only by its content hash (tools, golden vectors, benchmarks); the
     * universe size and {@code m} are those of the first level.
     */
    public GaussianSignProtocol(String contentHashHex, MechanismId id, List<GaussianLevel> levels, double biasBound) {
        this(contentHashHex, null, firstLevel(levels).valueVectors().size(), firstLevel(levels).dimension(), id,
                levels, biasBound);
    }

    private static GaussianLevel firstLevel(List<GaussianLevel> levels) {
        Require.nonNull("levels", levels);
        if (levels.isEmpty()) {
            throw new IllegalArgumentException("levels must contain between 1 and " + MAX_LEVELS + " levels, got 0");
        }
        return Require.nonNull("levels[0]", levels.get(0));
    }

    private GaussianSignProtocol(String contentHash, String workloadId, int universe, int dim, MechanismId id,
            List<GaussianLevel> levels, double biasBound) {
        Require.nonBlank("contentHash", contentHash);
        this.coins = new PublicCoins(contentHash);
        this.contentHash = contentHash;
        this.workloadId = workloadId;
        this.id = Require.nonNull("id", id);
        if (id != MechanismId.LOCAL_PROJECTION && id != MechanismId.LOCAL_COARSE_PROJECTION
                && id != MechanismId.LOCAL_CHAINING) {
            throw new IllegalArgumentException("id must be one of projection, coarse-projection, chaining, got " + id);
        }
        Require.nonNull("levels", levels);
        Require.inRange("levels.size", levels.size(), 1, MAX_LEVELS);
        if (id != MechanismId.LOCAL_CHAINING && levels.size() != 1) {
            throw new IllegalArgumentException("levels.size must be 1 for " + id + ", got " + levels.size());
        }
        this.biasBound = Require.finiteNonNegative("biasBound", biasBound);
        this.levels = List.copyOf(levels);
        this.levelCount = levels.size();
        this.dim = dim;
        this.universe = universe;
        this.payloadBytes = (levelCount + 7) >>> 3;
        int used = levelCount - 8 * (payloadBytes - 1);
        this.lastByteMask = (1 << used) - 1;
        this.radii = new double[levelCount];
        this.decodeScales = new double[levelCount];
        this.biasNumerators = new long[levelCount];
        this.vectors = new double[levelCount][];
        this.valueBias = new long[levelCount][];
        for (int j = 0; j < levelCount; j++) {
            GaussianLevel level = this.levels.get(j);
            PointSet vv = level.valueVectors();
            if (vv.size() != universe) {
                throw new IllegalArgumentException("levels[" + j + "].valueVectors must have " + universe
                        + " rows (one per universe value), got " + vv.size());
            }
            if (vv.dim() != dim) {
                throw new IllegalArgumentException(
                        "levels[" + j + "].valueVectors must have dimension " + dim + ", got " + vv.dim());
            }
            double r = level.radius();
            radii[j] = r;
            vectors[j] = vv.toRowMajor();
            valueBias[j] = new long[universe];
            if (r > 0) {
                GaussianSignRandomizer rz = new GaussianSignRandomizer(r, level.epsilon(), dim);
                decodeScales[j] = rz.decodeScale();
                biasNumerators[j] = rz.biasNumerator();
                for (int x = 0; x < universe; x++) {
                    valueBias[j][x] = rz.valueBias(vv.row(x));
                }
            }
        }
        // the exact sum of the declared level values: never below the loss the levels realise (each level
        // computes with ε_j.value() <= ε_j.exact()); a floating-point sum could round below it
        this.epsilon = Epsilon.exactly("sum of level epsilons", Epsilon.sum(
                this.levels.stream().map(GaussianLevel::epsilon).collect(Collectors.toList())));
    }

    @Override
    public MechanismId id() {
        return id;
    }

    @Override
    public Epsilon epsilon() {
        return epsilon;
    }

    @Override
    public int payloadBytes() {
        return payloadBytes;
    }

    @Override
    public int stateLength() {
        return levelCount * dim;
    }

    /** {@value #MAX_REPORTS}: the most reports whose fixed-point sums provably cannot overflow. */
    @Override
    public long maxReportsPerWindow() {
        return MAX_REPORTS;
    }

    /** The levels, in stream order. */
    public List<GaussianLevel> levels() {
        return levels;
    }

    /** {@code m}. */
    public int dimension() {
        return dim;
    }

    /** The universe size. */
    public int universeSize() {
        return universe;
    }

    /** The workload content hash the public coins derive from. */
    public String contentHash() {
        return contentHash;
    }

    /** The design bias reported in every estimate (the estimate's {@code biasBound}). */
    public double biasBound() {
        return biasBound;
    }

    /** The public coins of this protocol's workload. */
    public PublicCoins coins() {
        return coins;
    }

    /** {@code c_j = r_j·√(π/2)/b̃_j}, or 0 for a level of radius 0. */
    public double decodeScale(int level) {
        return decodeScales[checkLevel(level)];
    }

    /** {@code r_j}: the public radius of level {@code level} ({@link GaussianLevel#radius()}). */
    public double radius(int level) {
        return radii[checkLevel(level)];
    }

    /** {@code B_j} (the numerator of {@code b̃_j} on the {@code 2^-53} grid), or 0 for a level of radius 0. */
    public long biasNumerator(int level) {
        return biasNumerators[checkLevel(level)];
    }

    /**
     * The exact probability, as {@code T / 2^54}, that level {@code level}'s bit is 1 for a device with
     * {@code value} in the report with base word {@code base} ({@link PublicCoins#base}). {@code T = 2^53}
     * for radius-0 levels and zero vectors.
     */
    public long plusThreshold(int level, int value, long base) {
        checkLevel(level);
        Require.inRange("value", value, 0, universe - 1L);
        return threshold(level, value, base, PUBLIC_STREAMS);
    }

    /** The public stream of a level of a report: {@link PublicCoins#stream}; tests substitute a recorder. */
    @FunctionalInterface
    interface StreamSource {
        SplitMix64 stream(long base, int level);
    }

    static final StreamSource PUBLIC_STREAMS = PublicCoins::stream;

    /**
     * {@code T} of a level. The direction is generated and the dot product computed for every value, also
     * when {@code B_u = 0} (then {@code T = 2^53 ± 0}, the fair bit): skipping that work for a zero vector
     * would make the device's time depend on its value. Only radius-0 levels (a public property of the
     * level) skip it.
     */
    private long threshold(int level, int value, long base, StreamSource streams) {
        long bu = valueBias[level][value];
        if (radii[level] == 0) {
            return GaussianSignRandomizer.FAIR_THRESHOLD;
        }
        SplitMix64 stream = streams.stream(base, level);
        double[] v = vectors[level];
        int off = value * dim;
        double dot = 0;
        for (int k = 0; k < dim; k++) {
            dot += PublicGaussian.next(stream) * v[off + k];
        }
        return GaussianSignRandomizer.threshold(bu, dot);
    }

    @Override
    public byte[] randomize(int value, ReportCoordinates coordinates, SecretDraws draws) {
        Require.nonNull("coordinates", coordinates);
        return randomize(value, coins.base(coordinates), draws, PUBLIC_STREAMS);
    }

    /** {@link #randomize} for a report's base word, with the level streams from {@code streams}. */
    byte[] randomize(int value, long base, SecretDraws draws, StreamSource streams) {
        Require.inRange("value", value, 0, universe - 1L);
        Require.nonNull("secret", draws);
        byte[] out = new byte[payloadBytes];
        for (int j = 0; j < levelCount; j++) {
            if (draws.bernoulli(threshold(j, value, base, streams), GaussianSignRandomizer.THRESHOLD_BITS)) {
                out[j >>> 3] |= (byte) (1 << (j & 7));
            }
        }
        return out;
    }

    /**
     * The exact probability that {@link #randomize} returns {@code payload} for {@code value} in the report
     * with base word {@code base}: {@code Π_j P_j} with {@code P_j = T_j/2^54} for a 1-bit and
     * {@code 1 − T_j/2^54} for a 0-bit ({@code T_j} = {@link #plusThreshold}); 0 for a malformed payload.
     * For privacy tests.
     */
    public Rational outputProbability(int value, byte[] payload, long base) {
        Require.inRange("value", value, 0, universe - 1L);
        if (!isWellFormed(payload)) {
            return Rational.ZERO;
        }
        BigInteger num = BigInteger.ONE;
        for (int j = 0; j < levelCount; j++) {
            long t = plusThreshold(j, value, base);
            num = num.multiply(BigInteger.valueOf(signBit(payload, j) ? t : (1L << 54) - t));
        }
        return Rational.of(num, BigInteger.ONE.shiftLeft(54 * levelCount));
    }

    /** Whether level {@code level}'s bit of a payload is 1 ({@code S = +1}). */
    public static boolean signBit(byte[] payload, int level) {
        return ((payload[level >>> 3] >>> (level & 7)) & 1) != 0;
    }

    /** Whether {@code payload} has the exact length and no stray bit. */
    public boolean isWellFormed(byte[] payload) {
        return payload != null && payload.length == payloadBytes
                && (payload[payloadBytes - 1] & ~lastByteMask & 0xFF) == 0;
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        checkState(state);
        Require.nonNull("coordinates", coordinates);
        if (!isWellFormed(payload)) {
            return false;
        }
        addLevels(payload, coins.base(coordinates), state);
        return true;
    }

    @Override
    public boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        ReportCoordinates.check(deviceId, period, sequence);
        checkState(state);
        if (!isWellFormed(payload)) {
            return false;
        }
        addLevels(payload, coins.base(deviceId, period, sequence), state);
        return true;
    }

    /** Adds a well-formed payload's levels, regenerated from the report's public base word. */
    private void addLevels(byte[] payload, long base, long[] state) {
        SplitMix64 stream = STREAM.get();
        for (int j = 0; j < levelCount; j++) {
            if (radii[j] == 0) {
                continue;
            }
            stream.reset(PublicCoins.streamSeed(base, j));
            boolean minus = ((payload[j >>> 3] >>> (j & 7)) & 1) == 0;
            PublicGaussian.addFixed(stream, dim, minus, state, j * dim);
        }
    }

    private void checkState(long[] state) {
        Require.nonNull("state", state);
        if (state.length != stateLength()) {
            throw new IllegalArgumentException("state must have length " + stateLength() + ", got " + state.length);
        }
    }

    private int checkLevel(int level) {
        Require.inRange("level", level, 0, levelCount - 1L);
        return level;
    }

    @Override
    public String toString() {
        return "GaussianSignProtocol[" + WIRE_VERSION + ", " + id + ", workload="
                + (workloadId != null ? workloadId : contentHash.substring(0, Math.min(12, contentHash.length())))
                + ", levels=" + levelCount + ", m=" + dim + ", " + epsilon + "]";
    }
}

package io.privacygateway.mechanisms.local.gaussian;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.random.RandomBits;

/**
 * The public standard-normal generator of wire format {@code pgw-gauss-v1}: a 256-layer ziggurat
 * (Marsaglia and Tsang, "The ziggurat method for generating random variables", J. Stat. Softw. 5(8),
 * 2000) with Doornik's correction (J. A. Doornik, "An improved ziggurat method to generate normal
 * random samples", 2005: the layer index and the abscissa come from disjoint bits of the random word),
 * driven by a {@link SplitMix64} public stream ({@code docs/wire-format.md} §2). It generates the public
 * directions {@code Z} of the Gaussian-sign randomizer in its public-coin form (MECHANISMS.md §2,
 * "Public-coin compression"; Błasiok–Nikolov Definition 5.5 draws {@code Z ~ N(0, I)}), which the device
 * and the server must reproduce identically.
 *
 * <p><b>Guarantee.</b> The output sequence is a fixed function of the stream's seed, bit for bit, on
 * every Java platform and in any other language that follows the specification: the only floating-point
 * operations are IEEE-754 {@code +, −, ×, ÷, sqrt} (correctly rounded by definition),
 * {@link StrictMath#exp} and {@link StrictMath#log} (fdlibm 5.3, specified by the Java SE API), and
 * conversions of integers below {@code 2^53} to double (exact). The tables are generated from two
 * listed constants by the procedure in {@link #buildTables} with {@link StrictMath}; the
 * generated values are listed in {@code docs/wire-format.md} Appendix A, which an implementation
 * without fdlibm must embed (a correctly rounded libm gives different last bits), and {@code WireFormatGoldenTest} checks the listing against this class.
 *
 * <p><b>Algorithm</b> (one output). Draw {@code w = stream.nextLong()}; layer {@code i = w & 0xFF}
 * (bits 0–7), magnitude {@code u = (w >>> 11) & (2^52 − 1)} (bits 11–62), sign = bit 63 (bits 8–10
 * are unused). If {@code u < K[i]}, return {@code ±(u · W[i])} (the fast path: one integer compare,
 * one exact integer-to-double conversion and one multiply; taken for about 98.5% of the words). Otherwise,
 * for {@code i = 0} sample the tail beyond {@code R} (Marsaglia 1964: draw {@code a = −log(U₁)/R},
 * {@code b = −log(U₂)} with {@code U = ((next >>> 11) + 1) · 2^-53 ∈ (0, 1]} until {@code 2b > a²}, and
 * return {@code ±(R + a)}); for {@code i ≥ 1}, with {@code x = u · W[i]} and
 * {@code U = (next >>> 11) · 2^-53 ∈ [0, 1)}, return {@code ±x} if
 * {@code F[i] + U · (F[i+1] − F[i]) < exp(−(x·x)/2)}, else start over with a fresh word.
 *
 * <p><b>Range.</b> Every output satisfies {@code |z| ≤ R + 53·ln 2 / R < 13.71} (the smallest tail
 * uniform is {@code 2^-53}); {@link #MAX_ABS} is a rigorous bound used for fixed-point headroom.
 *
 * <p><b>Distribution.</b> Exactly the ziggurat decomposition of {@code N(0,1)} up to the rounding of
 * the tables (relative errors of order {@code 2^-50} in the layer areas) and the 52-bit resolution of
 * the abscissa; tested by Kolmogorov–Smirnov, chi-square, moment and tail tests
 * ({@code PublicGaussianTest}). Public randomness only: never use it for secret noise.
 *
 * <p>Stateless and thread-safe (the tables are immutable); the {@link SplitMix64} passed in is not.
 */
public final class PublicGaussian {
    /** Number of ziggurat layers. */
    public static final int LAYERS = 256;
    /** {@code R}: the abscissa where the tail starts, {@code 0x1.d3bb48209ad33p1} (≈ 3.654152885361009). */
    public static final double R = 0x1.d3bb48209ad33p1;
    /** {@code V}: the area of every layer under {@code exp(−x²/2)}, {@code 0x1.43016a5a43732p-8} (≈ 0.004928673233974655). */
    public static final double V = 0x1.43016a5a43732p-8;
    /** A bound on {@code |z|} for every output: {@code R + 53·ln 2/R ≤ 13.71 < 14}. */
    public static final double MAX_ABS = 14.0;
    /** {@code F}: the fraction bits of the fixed-point form {@link #toFixed} used by the server's aggregate. */
    public static final int FIXED_POINT_BITS = 32;
    /** {@code 2^F}. */
    public static final double FIXED_SCALE = 0x1.0p32;

    private static final long MAGNITUDE_MASK = (1L << 52) - 1;
    private static final double TWO_M52 = 0x1.0p-52;
    private static final double TWO_M53 = 0x1.0p-53;
    private static final double ROUNDING_MAGIC = 0x1.8p52;
    private static final long ROUNDING_MAGIC_BITS = Double.doubleToRawLongBits(ROUNDING_MAGIC);

    /** {@code X[0..256]}: layer abscissae, decreasing from the virtual base width to 0. */
    private static final double[] X = new double[LAYERS + 1];
    /** {@code F[i] = exp(−X[i]²/2)}, {@code F[0]} unused (the base layer has no wedge). */
    private static final double[] F = new double[LAYERS + 1];
    /** {@code K[i] = floor(2^52 · (X[i+1] / X[i]))}: the fast-path threshold. */
    private static final long[] K = new long[LAYERS];
    /** {@code W[i] = X[i] · 2^-52}. */
    private static final double[] W = new double[LAYERS];
    /** {@code W[i] · 2^FIXED_POINT_BITS} (exact scaling), for the fused fixed-point kernel. */
    private static final double[] W_FIXED = new double[LAYERS];

    static {
        buildTables(X, F, K, W);
        for (int i = 0; i < LAYERS; i++) {
            W_FIXED[i] = W[i] * FIXED_SCALE;
        }
    }

    private PublicGaussian() {}

    /**
     * The table procedure of the specification ({@code docs/wire-format.md} §2.2). All arithmetic is
     * IEEE double in the order written; {@code exp}, {@code log} are fdlibm ({@link StrictMath}).
     *
     * <pre>
     * f(x)   = StrictMath.exp(-0.5 * (x * x))
     * X[0]   = V / f(R);   X[1] = R
     * X[i+1] = sqrt(-2.0 * StrictMath.log(V / X[i] + f(X[i])))   for i = 1 .. 254
     * X[256] = 0
     * F[0]   = 0 (unused);  F[i] = f(X[i]) for i = 1 .. 255;  F[256] = 1
     * K[i]   = (long) floor((X[i+1] / X[i]) * 2^52)              for i = 0 .. 255
     * W[i]   = X[i] * 2^-52                                       for i = 0 .. 255
     * </pre>
     */
    static void buildTables(double[] x, double[] f, long[] k, double[] w) {
        x[0] = V / gauss(R);
        x[1] = R;
        for (int i = 1; i < LAYERS - 1; i++) {
            x[i + 1] = Math.sqrt(-2.0 * StrictMath.log(V / x[i] + gauss(x[i])));
        }
        x[LAYERS] = 0.0;
        f[0] = 0.0;
        for (int i = 1; i < LAYERS; i++) {
            f[i] = gauss(x[i]);
        }
        f[LAYERS] = 1.0;
        for (int i = 0; i < LAYERS; i++) {
            k[i] = (long) Math.floor((x[i + 1] / x[i]) * 0x1.0p52);
            w[i] = x[i] * TWO_M52;
        }
    }

    /** {@code exp(−x²/2)} as specified: {@code StrictMath.exp(-0.5 * (x * x))}. */
    static double gauss(double x) {
        return StrictMath.exp(-0.5 * (x * x));
    }

    /** The next standard-normal value from {@code stream}. */
    public static double next(SplitMix64 stream) {
        long w = stream.nextLong();
        int i = (int) w & 0xFF;
        long u = (w >>> 11) & MAGNITUDE_MASK;
        if (u < K[i]) {
            return Double.longBitsToDouble(Double.doubleToRawLongBits(u * W[i]) | (w & Long.MIN_VALUE));
        }
        return slow(stream, w);
    }

    /** Fills {@code out} with consecutive values of {@code stream}. */
    public static void fill(SplitMix64 stream, double[] out) {
        fill(stream, out, 0, out.length);
    }

    /** Fills {@code out[from .. from+length)} with consecutive values of {@code stream}. */
    public static void fill(SplitMix64 stream, double[] out, int from, int length) {
        int end = from + length;
        if (from < 0 || length < 0 || end > out.length || end < 0) {
            throw new IndexOutOfBoundsException("range [" + from + ", " + from + " + " + length
                    + ") is outside an array of length " + out.length);
        }
        for (int k = from; k < end; k++) {
            long w = stream.nextLong();
            int i = (int) w & 0xFF;
            long u = (w >>> 11) & MAGNITUDE_MASK;
            if (u < K[i]) {
                out[k] = Double.longBitsToDouble(Double.doubleToRawLongBits(u * W[i]) | (w & Long.MIN_VALUE));
            } else {
                out[k] = slow(stream, w);
            }
        }
    }

    /**
     * The fixed-point form of a value: {@code rint(z · 2^32)}, i.e. {@code z · 2^32} (exact) rounded to
     * the nearest integer, ties to even (IEEE-754 {@code roundToIntegralTiesToEven}, {@link Math#rint}).
     * For outputs of this generator {@code |result| < 14 · 2^32 < 2^36}. Valid for {@code |z| < 2^19}.
     *
     * <p>Computed as {@code bits(z·2^32 + 1.5·2^52) − bits(1.5·2^52)}: for {@code |x| < 2^51} the sum lies
     * in {@code [2^52, 2^53)}, where doubles are the integers, so the IEEE addition performs exactly the
     * ties-to-even rounding of {@code x}, and the significand bits are the integer (branch-free, and much
     * faster than {@code (long) Math.rint(x)} in the server loop).
     */
    public static long toFixed(double z) {
        return Double.doubleToRawLongBits(z * FIXED_SCALE + ROUNDING_MAGIC) - ROUNDING_MAGIC_BITS;
    }

    /**
     * The fused server kernel: for the next {@code count} outputs {@code z_0, z_1, ...} of {@code stream},
     * {@code acc[offset + k] += negate ? −toFixed(z_k) : toFixed(z_k)}. Bit-for-bit the same as calling
     * {@link #next} and {@link #toFixed} (ties-to-even rounding is odd-symmetric and scaling by
     * {@code 2^32} is exact), without a buffer: the fast path rounds {@code u · W[i]·2^32} and applies
     * both signs as integer negations.
     */
    public static void addFixed(SplitMix64 stream, int count, boolean negate, long[] acc, int offset) {
        if (count < 0 || offset < 0 || offset > acc.length - count) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + offset + " + " + count
                    + ") is outside an array of length " + acc.length);
        }
        long flip = negate ? -1L : 0L;
        int end = offset + count;
        for (int k = offset; k < end; k++) {
            long w = stream.nextLong();
            int i = (int) w & 0xFF;
            long u = (w >>> 11) & MAGNITUDE_MASK;
            if (u < K[i]) { // fast path: both signs applied as integer negations
                long q = Double.doubleToRawLongBits(u * W_FIXED[i] + ROUNDING_MAGIC) - ROUNDING_MAGIC_BITS;
                long sign = (w >> 63) ^ flip;
                acc[k] += (q ^ sign) - sign;
            } else {
                long q = toFixed(slow(stream, w));
                acc[k] += (q ^ flip) - flip;
            }
        }
    }

    /**
     * The rest of one draw after the fast path rejected word {@code w} (package-private with a
     * {@link RandomBits} argument so tests can script the words).
     */
    static double slow(RandomBits stream, long w) {
        while (true) {
            int i = (int) w & 0xFF;
            long u = (w >>> 11) & MAGNITUDE_MASK;
            boolean negative = w < 0;
            if (u < K[i]) {
                double x = u * W[i];
                return negative ? -x : x;
            }
            if (i == 0) {
                return tail(stream, negative);
            }
            double x = u * W[i];
            double y = F[i] + ((stream.nextLong() >>> 11) * TWO_M53) * (F[i + 1] - F[i]);
            if (y < gauss(x)) {
                return negative ? -x : x;
            }
            w = stream.nextLong();
        }
    }

    /** The tail beyond {@link #R} (Marsaglia 1964), with the given sign. */
    static double tail(RandomBits stream, boolean negative) {
        while (true) {
            double a = -StrictMath.log(((stream.nextLong() >>> 11) + 1) * TWO_M53) / R;
            double b = -StrictMath.log(((stream.nextLong() >>> 11) + 1) * TWO_M53);
            if (b + b > a * a) {
                double x = R + a;
                return negative ? -x : x;
            }
        }
    }

    /** A copy of the abscissa table {@code X[0..256]}. */
    public static double[] abscissae() {
        return X.clone();
    }

    /** A copy of the density table {@code F[0..256]}. */
    public static double[] densities() {
        return F.clone();
    }

    /** A copy of the fast-path threshold table {@code K[0..255]}. */
    public static long[] thresholds() {
        return K.clone();
    }
}

package io.privacygateway.mechanisms.local.mean;

import io.privacygateway.mechanisms.local.fo.Grid;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The piecewise mechanism of Wang et al. ("Collecting and analyzing multidimensional data with local
 * differential privacy", ICDE 2019, §III-B), discretised onto {@code M} output cells.
 *
 * <p><b>Continuous original.</b> Output in {@code [−C, C]}, {@code C = (e^{ε/2}+1)/(e^{ε/2}−1)}: with
 * probability {@code e^{ε/2}/(e^{ε/2}+1)} uniform on a window of length {@code C − 1} that slides with
 * {@code t}, else uniform on the rest; the density inside is {@code e^ε} times the density outside. Variance
 * {@code t²/(e^{ε/2}−1) + (e^{ε/2}+3)/(3(e^{ε/2}−1)²)}: largest at {@code |t| = 1}, small at large ε.
 *
 * <p><b>Discretisation (this class).</b> {@code M} cells {@code 0..M−1}; a window of {@code w} consecutive
 * cells, {@code w = round(M/(e^{ε/2}+1))} (the original's length fraction {@code (C−1)/(2C)}), clamped to
 * {@code [1, M−1]}. Every cell inside has probability {@code a = P/w}, outside {@code b = (1−P)/(M−w)}, with
 * {@code P = N/2^53} the largest grid value with {@code a <= e^ε b} (certified). The window starts at
 * {@code s ∈ [0, R]}, {@code R = M − w}: level {@code x} has the real start {@code σ = x·R/L}, rounded to
 * {@code ⌊σ⌋} or {@code ⌊σ⌋+1} by a Bernoulli with the fractional part ({@code ⌊frac·2^53⌋/2^53}). Since
 * {@code E[j | s] = A + D·s} with {@code D = (a−b)w}, {@code A = b·M(M−1)/2 + (a−b)·w(w−1)/2}, the estimate
 * {@code t̂(j) = 2(j − A)/(D·R) − 1} is unbiased; the start's rounding to the {@code 2^-53} grid biases it by
 * at most {@code 2^-52/(D R)·D = 2^-52/R·2} in {@code t} (zero when {@code L} is a power of two, e.g. the
 * default 1025 levels). The randomized start adds a variance of at most {@code (2/R)²/4} in {@code t}, the
 * cell grid changes the window's shape by at most one cell: both {@code O(1/M)} relative to the continuous
 * variance.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: every output has probability {@code a}, {@code b} or a mixture of the
 * two for every level, and {@code a/b <= e^ε}. Secret draws, always the same four: Bernoulli (start
 * rounding, numerator depends on the level), Bernoulli {@code P}, {@code uniformInt(w)},
 * {@code uniformInt(M − w)}.
 */
public final class PiecewiseScalar implements ScalarRandomizer {
    /** The default number of output cells (a 2-byte payload). */
    public static final int DEFAULT_CELLS = 1024;
    private static final long ONE = Grid.ONE;

    private final Epsilon epsilon;
    private final int levels;
    private final int cells;
    private final int window;
    private final long inside;
    private final double a;
    private final double b;
    private final double offset;
    private final double slope;

    /** With {@link #DEFAULT_CELLS} output cells. */
    public PiecewiseScalar(int levels, Epsilon epsilon) {
        this(levels, epsilon, DEFAULT_CELLS);
    }

    /**
     * @param levels input levels {@code L + 1} in {@code [2, 65536]}
     * @param epsilon per-report ε
     * @param cells output cells {@code M} in {@code [2, 65534]}
     */
    public PiecewiseScalar(int levels, Epsilon epsilon, int cells) {
        this.levels = ScalarRandomizer.checkLevels(levels);
        if (cells < 2 || cells > 65534) {
            throw new IllegalArgumentException("cells must be in [2, 65534], got " + cells);
        }
        this.epsilon = epsilon;
        this.cells = cells;
        double half = StrictMath.exp(epsilon.value() / 2);
        this.window = (int) Math.max(1, Math.min(cells - 1, Math.round(cells / (half + 1))));
        int rest = cells - window;
        BigDecimal e = Grid.expLower(epsilon);
        // a <= e^ε b  ⇔  N·(M−w) <= e^ε·w·(2^53 − N)
        this.inside = Grid.largestWithRatio(e.multiply(BigDecimal.valueOf(window)), BigDecimal.valueOf(rest));
        double p = inside / (double) ONE;
        this.a = p / window;
        this.b = (1 - p) / rest;
        if (!(a > b)) {
            throw new IllegalArgumentException("ε " + epsilon.exact().toPlainString() + " is too small for "
                    + cells + " cells on the 2^-53 grid");
        }
        double d = (a - b) * window;
        this.offset = b * cells * (cells - 1.0) / 2 + (a - b) * window * (window - 1.0) / 2;
        this.slope = d * rest;
    }

    /** {@code w}, the window's cells. */
    public int window() {
        return window;
    }

    /** {@code N}: the probability of the window is {@code N/2^53}. */
    public long insideNumerator() {
        return inside;
    }

    /** {@code M}, the output cells. */
    public int cells() {
        return cells;
    }

    private int floorStart(int x) {
        return (int) ((long) x * (cells - window) / (levels - 1));
    }

    /** The numerator (over {@code 2^53}) of the probability that the start is {@code ⌊σ⌋ + 1}. */
    long upNumerator(int x) {
        long r = (long) x * (cells - window) % (levels - 1);
        BigInteger q = BigInteger.valueOf(r).shiftLeft(53).divide(BigInteger.valueOf(levels - 1));
        if (q.bitLength() > 63) {
            throw new ArithmeticException("numerator out of long range");
        }
        return q.longValue();
    }

    @Override
    public MechanismId id() {
        return MechanismId.PIECEWISE;
    }

    @Override
    public Epsilon epsilon() {
        return epsilon;
    }

    @Override
    public int levels() {
        return levels;
    }

    @Override
    public int outputCount() {
        return cells;
    }

    @Override
    public int randomize(int x, SecretDraws draws) {
        ScalarRandomizer.checkLevel(x, levels);
        int s = floorStart(x) + (draws.bernoulli(upNumerator(x), 53) ? 1 : 0);
        boolean in = draws.bernoulli(inside, 53);
        int u = draws.uniformInt(window);
        int v = draws.uniformInt(cells - window);
        return in ? s + u : (v < s ? v : v + window);
    }

    @Override
    public double estimateOf(int y) {
        return 2 * (y - offset) / slope - 1;
    }

    @Override
    public Rational probability(int x, int y) {
        ScalarRandomizer.checkLevel(x, levels);
        if (y < 0 || y >= cells) {
            return Rational.ZERO;
        }
        BigInteger grid = BigInteger.ONE.shiftLeft(53);
        Rational up = Rational.of(BigInteger.valueOf(upNumerator(x)), grid);
        Rational down = Rational.of(grid.subtract(BigInteger.valueOf(upNumerator(x))), grid);
        Rational pa = Rational.of(BigInteger.valueOf(inside), grid).divide(window);
        Rational pb = Rational.of(grid.subtract(BigInteger.valueOf(inside)), grid).divide(cells - window);
        int s0 = floorStart(x);
        Rational atS0 = (y >= s0 && y < s0 + window) ? pa : pb;
        Rational atS1 = (y >= s0 + 1 && y < s0 + 1 + window) ? pa : pb;
        return down.multiply(atS0).add(up.multiply(atS1));
    }

    @Override
    public double variance(int x) {
        int s0 = floorStart(x);
        double f = upNumerator(x) / (double) ONE;
        double m1 = (1 - f) * firstMoment(s0) + f * firstMoment(s0 + 1);
        double m2 = (1 - f) * secondMoment(s0) + f * secondMoment(s0 + 1);
        double varJ = Math.max(0, m2 - m1 * m1);
        double scale = 2 / slope;
        return varJ * scale * scale;
    }

    private double firstMoment(int s) {
        return offset + (a - b) * window * s;
    }

    private double secondMoment(int s) {
        return b * sumSquares(cells) + (a - b) * (sumSquares(s + window) - sumSquares(s));
    }

    /** {@code Σ_{j<n} j²}. */
    private static double sumSquares(long n) {
        return (n - 1.0) * n * (2.0 * n - 1) / 6;
    }

    /** The continuous mechanism's variance at {@code t} (Wang et al., Lemma 2), for comparison. */
    public static double continuousVariance(Epsilon epsilon, double t) {
        double h = StrictMath.exp(epsilon.value() / 2);
        return t * t / (h - 1) + (h + 3) / (3 * (h - 1) * (h - 1));
    }
}

package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.local.fo.Grid;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.gaussian.PublicGaussian;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Mean of vectors in the ℓ2 ball of radius {@code r} in {@code d} dimensions: a discrete, exactly ε-LDP form of
 * PrivUnitG (Asi, Feldman and Talwar, "Optimal algorithms for mean estimation under local differential privacy",
 * ICML 2022) over public Gaussian candidates, sending one byte ({@code docs/vector-means.md}).
 *
 * <p><b>1. Norm step (secret).</b> {@code u = x/r}, {@code ρ = ‖u‖ ≤ 1}. One draw
 * {@code bernoulli(2^52 + round(ρ·2^52), 53)} chooses the unit vector {@code x̃ = +u/ρ} (true) or {@code −u/ρ}
 * (false), so {@code E[x̃] = u} up to the rounding of the probability {@code (1 + ρ)/2} to the {@code 2^-53} grid
 * (a bias of at most {@code 2^-53} in {@code ‖E[x̃] − u‖}). For {@code ρ = 0} the same draw (probability ½)
 * chooses {@code ±e₀}. A value whose norm exceeds {@code r} by less than the relative slack {@value #NORM_SLACK}
 * (rounding) is treated as on the sphere ({@code ρ} clamped to 1); beyond it {@link #checkValue} refuses it.
 *
 * <p><b>2. Public candidates.</b> {@code N = 2^t} candidates in antipodal pairs: for {@code j < N/2}, {@code c_j}
 * is the first {@code d} outputs of {@link PublicGaussian} on public stream
 * {@link PublicCoins.Stream#VECTOR_CANDIDATE}{@code  + j} of the report, and {@code c_{j+N/2} = −c_j}.
 *
 * <p><b>3. Top set.</b> Scores {@code g_j = ⟨c_j, x̃⟩} (a double sum in coordinate order;
 * {@code g_{j+N/2} = −g_j} exactly). The candidates are ranked by score, largest first, ties by smaller index; the
 * top set {@code T} is the first {@code s} of the ranking.
 *
 * <p><b>4. Randomized response.</b> Three more draws, always the same: {@code hit = bernoulli(π)},
 * {@code i = uniformInt(s)}, {@code o = uniformInt(N − s)}; the payload is the candidate index
 * {@code J = rank[i]} on a hit and {@code J = rank[s + o]} otherwise (one byte). {@code π = P/2^53} with
 * {@code P} the largest grid numerator with {@code P·(N − s) <= L·s·(2^53 − P)}, {@code L <= e^ε} certified
 * ({@link Grid}).
 *
 * <p><b>Guarantee.</b> ε-LDP for every value of the public coins and every rounding of the scores: given the
 * candidates and {@code x̃}, {@code P(J = j) = π/s} for {@code j ∈ T(x̃)} and {@code (1 − π)/(N − s)} otherwise,
 * whatever deterministic rule picks {@code T}; both ratios of these two numbers are at most {@code L <= e^ε}
 * (checked exactly at construction). The norm step mixes two such laws, and a mixture of laws each within
 * {@code [q_min, q_max]} stays within it. The secret draws (two Bernoulli on the {@code 2^-53} grid,
 * {@code uniformInt(s)}, {@code uniformInt(N − s)}) and the public work ({@code N/2} candidates of {@code d}
 * Gaussians, {@code N/2} scores, one sort of {@code N}) are the same for every value.
 *
 * <p><b>Estimate.</b> By rotation invariance of the candidates, {@code E[c_J | x̃] = κ x̃} with
 * {@code κ = (π/s − (1 − π)/(N − s))·Σ_{r≤s} a_r}, {@code a_r} the expected {@code r}-th largest of {@code N/2}
 * half-normals ({@link HalfNormalOrderStatistics}); a report estimates {@code x} by {@code r·c_J/κ}. The server
 * adds {@code c_J} (regenerated from stream {@code VECTOR_CANDIDATE + (J mod N/2)}, negated for
 * {@code J >= N/2}) in the fixed point of {@link PublicGaussian#addFixed} ({@code 2^-32}, at most
 * {@code 14·2^32 < 2^36} per coordinate and report), so a window of up to
 * {@link GaussianSignProtocol#MAX_REPORTS} = 2^27 reports cannot overflow (the Gaussian-sign rule: one public
 * Gaussian per counter and report). The estimate is {@code r/(κ n)·Σ c_J}.
 *
 * <p><b>Error bars.</b> {@code c_J = g_J x̃ + w} with {@code w ~ N(0, I − x̃x̃ᵀ)} independent of the selection, so
 * {@code E[c_{J,k}²] = x̃_k² G + 1 − x̃_k²} with {@code G = E[g_J²] = (π/s)·B_s + ((1 − π)/(N − s))·(N − B_s)},
 * {@code B_s = Σ_{r≤s} b_r}: the worst coordinate's standard error at {@code n} reports is
 * {@code r·√max(G, 1)/(κ√n)} and the total variance of a report {@code r²(d − 1 + G)/κ²}.
 *
 * <p><b>Parameters.</b> {@link #of} scans {@code t ∈ 1..8}, {@code s ∈ 1..N/2} with {@code (N/2)·d <= 2^16}
 * Gaussians per report and keeps the smallest total variance {@code (d − 1 + G)/κ²} (ideal {@code π}, smaller
 * {@code t}, then smaller {@code s} on ties). {@code N = 2}, {@code s = 1} is Duchi et al.'s one-bit mechanism on
 * a public Gaussian direction.
 */
public final class BallCandidates implements VectorMeanProtocol {
    /** The largest dimension. */
    public static final int MAX_DIMENSION = 256;
    /** The largest candidate bits {@code t} ({@code N = 256}). */
    public static final int MAX_CANDIDATE_BITS = 8;
    /** The most public Gaussians a device generates per report ({@code (N/2)·d}). */
    public static final int MAX_DEVICE_GAUSSIANS = 1 << 16;
    /** Relative rounding slack on the norm: {@code ‖x‖ <= r(1 + slack)} is accepted as inside the ball. */
    public static final double NORM_SLACK = 1e-12;
    /** The largest window whose fixed-point sums cannot overflow (the Gaussian-sign headroom rule). */
    public static final long MAX_REPORTS = GaussianSignProtocol.MAX_REPORTS;

    private static final long HALF = DyadicProbability.ONE / 2;
    private static final ThreadLocal<SplitMix64> STREAM = ThreadLocal.withInitial(() -> new SplitMix64(0));

    private final int dim;
    private final double radius;
    private final Epsilon epsilon;
    private final PublicCoins coins;
    private final int bits;
    private final int count;
    private final int pairs;
    private final int top;
    private final DyadicProbability hit;
    private final double kappa;
    private final double scoreSquare;

    private BallCandidates(int dimension, double radius, Epsilon epsilon, String contentHashHex, int candidateBits,
            int topSize) {
        this.dim = (int) Require.inRange("dimension", dimension, 1, MAX_DIMENSION);
        if (!(radius > 0) || !Double.isFinite(radius)) {
            throw new IllegalArgumentException("radius must be finite and > 0, got " + radius);
        }
        this.radius = radius;
        this.epsilon = Require.nonNull("epsilon", epsilon);
        this.coins = new PublicCoins(Require.nonNull("contentHashHex", contentHashHex));
        this.bits = (int) Require.inRange("candidateBits", candidateBits, 1, MAX_CANDIDATE_BITS);
        this.count = 1 << candidateBits;
        this.pairs = count / 2;
        // (N/2)·d <= 128·256 = 2^15 <= MAX_DEVICE_GAUSSIANS for every allowed t and d: no check needed here
        this.top = (int) Require.inRange("topSize", topSize, 1, pairs);
        BigDecimal l = Grid.expLower(epsilon);
        long p = Grid.largestWithRatio(l.multiply(BigDecimal.valueOf(top)), BigDecimal.valueOf(count - top));
        // in ∝ π/s, out ∝ (1 − π)/(N − s): in <= L·out exactly (the grid rule's certificate, checked again), and
        // in > out, so that κ > 0 and the reverse ratio out/in is below 1 <= L
        BigInteger in = BigInteger.valueOf(p).multiply(BigInteger.valueOf(count - top));
        BigInteger out = BigInteger.valueOf(DyadicProbability.ONE - p).multiply(BigInteger.valueOf(top));
        if (new BigDecimal(in).compareTo(l.multiply(new BigDecimal(out))) > 0 || in.compareTo(out) <= 0) {
            throw new IllegalArgumentException("epsilon=" + epsilon.value() + " cannot be realised on the 2^-53 grid"
                    + " with N=" + count + ", s=" + top);
        }
        this.hit = new DyadicProbability(p);
        double pi = hit.value();
        double[][] moments = HalfNormalOrderStatistics.moments(pairs);
        double a = HalfNormalOrderStatistics.prefix(moments[0])[top];
        double b = HalfNormalOrderStatistics.prefix(moments[1])[top];
        double inside = pi / top;
        double outside = (1 - pi) / (count - top);
        this.kappa = (inside - outside) * a;
        this.scoreSquare = inside * b + outside * (count - b);
    }

    /**
     * The ℓ2-ball protocol with the candidate count and top-set size that minimise the worst-case variance.
     *
     * @param dimension the number of coordinates (1..256)
     * @param radius the ball's radius (&gt; 0, finite)
     * @param epsilon the per-report ε
     * @param contentHashHex the workload's content hash (64 hex digits): the key of the public coins
     */
    public static BallCandidates of(int dimension, double radius, Epsilon epsilon, String contentHashHex) {
        Require.inRange("dimension", dimension, 1, MAX_DIMENSION);
        Require.nonNull("epsilon", epsilon);
        int[] ts = optimalParameters(dimension, epsilon);
        return new BallCandidates(dimension, radius, epsilon, contentHashHex, ts[0], ts[1]);
    }

    /**
     * The protocol with explicit parameters (tests, benchmarks, the planner's comparisons).
     *
     * @param candidateBits {@code t ∈ [1, 8]}: {@code N = 2^t} candidates, {@code (N/2)·d <= 2^16}
     * @param topSize {@code s ∈ [1, N/2]}
     */
    public static BallCandidates of(int dimension, double radius, Epsilon epsilon, String contentHashHex,
            int candidateBits, int topSize) {
        return new BallCandidates(dimension, radius, epsilon, contentHashHex, candidateBits, topSize);
    }

    /**
     * {@code {t, s}} minimising the ideal total variance per report {@code (d − 1 + G)/κ²} (unit radius, ideal
     * {@code π = e^ε s/(e^ε s + N − s)}), over {@code t ∈ 1..8}, {@code s ∈ 1..N/2} with {@code (N/2)·d <= 2^16};
     * smaller {@code t}, then smaller {@code s}, on ties and near-ties (a later choice must be better by the relative
     * margin of {@code VectorChecks.clearlyBelow}, so that a device and the gateway on different JVMs choose the same;
     * {@code e^ε} by {@link StrictMath}).
     */
    public static int[] optimalParameters(int dimension, Epsilon epsilon) {
        Require.inRange("dimension", dimension, 1, MAX_DIMENSION);
        double e = StrictMath.exp(epsilon.value());
        int bestT = 1;
        int bestS = 1;
        double best = Double.POSITIVE_INFINITY;
        for (int t = 1; t <= MAX_CANDIDATE_BITS; t++) {
            int n = 1 << t;
            int m = n / 2;
            if ((long) m * dimension > MAX_DEVICE_GAUSSIANS) {
                break;
            }
            double[][] moments = HalfNormalOrderStatistics.moments(m);
            double[] a = HalfNormalOrderStatistics.prefix(moments[0]);
            double[] b = HalfNormalOrderStatistics.prefix(moments[1]);
            for (int s = 1; s <= m; s++) {
                double v = idealTotalVariance(dimension, e, n, s, a[s], b[s]);
                if (VectorChecks.clearlyBelow(v, best)) {
                    best = v;
                    bestT = t;
                    bestS = s;
                }
            }
        }
        return new int[] {bestT, bestS};
    }

    /** {@code (d − 1 + G)/κ²} at the ideal {@code π} for unit radius. */
    static double idealTotalVariance(int dimension, double expEpsilon, int n, int s, double aPrefix, double bPrefix) {
        double den = expEpsilon * s + n - s;
        double inside = expEpsilon / den;
        double outside = 1 / den;
        double kappa = (inside - outside) * aPrefix;
        double g = inside * bPrefix + outside * (n - bPrefix);
        return (dimension - 1 + g) / (kappa * kappa);
    }

    @Override
    public MechanismId id() {
        return MechanismId.PRIVUNIT_G;
    }

    @Override
    public Epsilon epsilon() {
        return epsilon;
    }

    /** One byte: the candidate index {@code J ∈ [0, N)}. */
    @Override
    public int payloadBytes() {
        return 1;
    }

    /** {@code d} fixed-point sums. */
    @Override
    public int stateLength() {
        return dim;
    }

    /** {@value #MAX_REPORTS} (2^27). */
    @Override
    public long maxReportsPerWindow() {
        return MAX_REPORTS;
    }

    @Override
    public int dimension() {
        return dim;
    }

    /** The ball's radius {@code r}. */
    public double radius() {
        return radius;
    }

    /** {@code t}: {@code N = 2^t} candidates. */
    public int candidateBits() {
        return bits;
    }

    /** {@code N}. */
    public int candidateCount() {
        return count;
    }

    /** {@code s}: the size of the top set. */
    public int topSize() {
        return top;
    }

    /** The exact probability {@code π} that the reported candidate is in the top set. */
    public DyadicProbability topProbability() {
        return hit;
    }

    /** {@code κ}: {@code E[c_J | x̃] = κ x̃}. */
    public double kappa() {
        return kappa;
    }

    /** {@code G = E[g_J²]}, the same for every unit {@code x̃}. */
    public double scoreSquare() {
        return scoreSquare;
    }

    /** The worst per-report variance of one coordinate of the estimate: {@code r²·max(G, 1)/κ²}. */
    public double worstCoordinateVariance() {
        return radius * radius * Math.max(scoreSquare, 1) / (kappa * kappa);
    }

    /**
     * The worst per-report total variance (the trace): {@code r²(d − 1 + G)/κ²}, an upper bound of
     * {@code E‖r c_J/κ − x‖²} for every {@code x} in the ball (it is the second moment).
     */
    public double worstTotalVariance() {
        return radius * radius * (dim - 1 + scoreSquare) / (kappa * kappa);
    }

    @Override
    public void checkValue(double[] value) {
        unitScaled(value);
    }

    /**
     * {@code u = x/r} after checking {@code x}; the norm is compared with the slack. Messages never contain a
     * coordinate.
     */
    private double[] unitScaled(double[] value) {
        VectorChecks.vector("value", value, dim);
        double[] u = new double[dim];
        for (int k = 0; k < dim; k++) {
            if (!Double.isFinite(value[k])) {
                throw new IllegalArgumentException("coordinate " + k + " of the value is not a finite number");
            }
            u[k] = value[k] / radius;
        }
        if (norm(u) > 1 + NORM_SLACK) {
            throw new IllegalArgumentException("the value's ℓ2 norm exceeds the radius " + radius);
        }
        return u;
    }

    /** {@code ‖u‖} without overflow or underflow of the squares (scaled by the largest magnitude). */
    static double norm(double[] u) {
        double m = 0;
        for (double v : u) {
            m = Math.max(m, Math.abs(v));
        }
        if (m == 0 || !Double.isFinite(m)) {
            return m;
        }
        double s = 0;
        for (double v : u) {
            double q = v / m;
            s += q * q;
        }
        return m * Math.sqrt(s);
    }

    @Override
    public byte[] randomize(double[] value, ReportCoordinates coordinates, SecretDraws draws) {
        Require.nonNull("coordinates", coordinates);
        return randomize(value, coins.base(coordinates), draws);
    }

    /** {@link #randomize} for a report's base word ({@link PublicCoins#base}). */
    byte[] randomize(double[] value, long base, SecretDraws draws) {
        double[] u = unitScaled(value);
        Require.nonNull("draws", draws);
        double rho = Math.min(1, norm(u));
        boolean plus = draws.bernoulli(normNumerator(rho), DyadicProbability.BITS);
        double[] unit = new double[dim];
        if (rho == 0) {
            unit[0] = plus ? 1 : -1;
        } else {
            for (int k = 0; k < dim; k++) {
                double v = u[k] / rho;
                unit[k] = plus ? v : -v;
            }
        }
        int[] rank = ranking(unit, base);
        boolean inTop = draws.bernoulli(hit);
        int i = draws.uniformInt(top);
        int o = draws.uniformInt(count - top);
        return new byte[] {(byte) (inTop ? rank[i] : rank[top + o])};
    }

    /** The numerator over {@code 2^53} of {@code P(x̃ = +u/ρ) = (1 + ρ)/2}, {@code ρ ∈ [0, 1]}. */
    static long normNumerator(double rho) {
        return HALF + Math.round(rho * 0x1.0p52);
    }

    /** Candidate {@code j < N/2} of the report with this base word (a new array of {@code d} Gaussians). */
    double[] candidate(long base, int j) {
        double[] c = new double[dim];
        PublicGaussian.fill(PublicCoins.stream(base, PublicCoins.Stream.VECTOR_CANDIDATE + j), c);
        return c;
    }

    /**
     * The ranking of the {@code N} candidates for the unit vector {@code unit}: indices by score, largest first,
     * ties by smaller index. The first {@code s} are the top set. The work is the same for every unit vector:
     * {@code N/2} candidates of {@code d} Gaussians, {@code N/2} dot products, one merge sort of {@code N}.
     */
    int[] ranking(double[] unit, long base) {
        double[] score = new double[count];
        double[] c = new double[dim];
        SplitMix64 stream = new SplitMix64(0);
        for (int j = 0; j < pairs; j++) {
            stream.reset(PublicCoins.streamSeed(base, PublicCoins.Stream.VECTOR_CANDIDATE + j));
            PublicGaussian.fill(stream, c);
            double g = 0;
            for (int k = 0; k < dim; k++) {
                g += c[k] * unit[k];
            }
            score[j] = g;
            score[j + pairs] = -g;
        }
        return rank(score);
    }

    /**
     * The indices of {@code score} (finite) by score, largest first, ties (numeric equality, so {@code 0.0} and
     * {@code −0.0} tie) by smaller index: a stable bottom-up merge sort of the indices in increasing order.
     */
    static int[] rank(double[] score) {
        int n = score.length;
        int[] a = new int[n];
        int[] b = new int[n];
        for (int j = 0; j < n; j++) {
            a[j] = j;
        }
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    // take from the right run only if strictly larger: equal scores keep their index order
                    b[k++] = score[a[j]] > score[a[i]] ? a[j++] : a[i++];
                }
                while (i < mid) {
                    b[k++] = a[i++];
                }
                while (j < hi) {
                    b[k++] = a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    /**
     * The exact probability of payload index {@code j} given the unit vector's top set: {@code π/s} inside,
     * {@code (1 − π)/(N − s)} outside (for tests and documentation).
     */
    Rational candidateProbability(boolean inTopSet) {
        return inTopSet ? Rational.dyadic(hit.numerator()).divide(top)
                : Rational.dyadic(DyadicProbability.ONE - hit.numerator()).divide(count - top);
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        Require.nonNull("coordinates", coordinates);
        VectorChecks.state(state, dim);
        if (!wellFormed(payload)) {
            return false;
        }
        add(payload[0] & 0xFF, coins.base(coordinates), state);
        return true;
    }

    @Override
    public boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        ReportCoordinates.check(deviceId, period, sequence);
        VectorChecks.state(state, dim);
        if (!wellFormed(payload)) {
            return false;
        }
        add(payload[0] & 0xFF, coins.base(deviceId, period, sequence), state);
        return true;
    }

    private boolean wellFormed(byte[] payload) {
        return payload != null && payload.length == 1 && (payload[0] & 0xFF) < count;
    }

    private void add(int j, long base, long[] state) {
        SplitMix64 stream = STREAM.get();
        stream.reset(PublicCoins.streamSeed(base, PublicCoins.Stream.VECTOR_CANDIDATE + (j % pairs)));
        PublicGaussian.addFixed(stream, dim, j >= pairs, state, 0);
    }


    @Override
    public String toString() {
        return "BallCandidates[d=" + dim + ", r=" + radius + ", N=" + count + ", s=" + top + ", " + epsilon + "]";
    }
}

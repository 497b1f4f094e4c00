package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.WalshHadamard;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A local randomizer for the {@code t}-way marginals of {@code d} binary attributes whose reconstruction works in
 * the Fourier (Walsh–Hadamard) basis of {@code {0,1}^d}: every {@code t}-way marginal is a fixed combination of the
 * coefficients {@code θ_β = Σ_x f_x (−1)^{β·x}} with {@code |β| <= t}, so only those need estimating. In the spirit of
 * Cormode, Kulkarni and Srivastava, "Marginal release under local differential privacy" (SIGMOD 2018), whose
 * Hadamard-based randomizers each learn one coefficient per report; here a report covers a whole block of them.
 *
 * <p><b>Mechanism.</b> Public parameters: a block size {@code r ∈ [t, d]} and a set {@code H} of Hamming weights in
 * {@code [0, r]} (neither empty nor all). The device draws a uniform {@code r}-subset {@code S} of the attributes and
 * an {@code r}-bit noise pattern {@code z}: with probability {@code π} a uniform pattern of weight in {@code H} (one of
 * {@code h} such patterns), otherwise a uniform pattern of the other weights (one of {@code l = 2^r − h}), and reports
 * {@code (S, y = x_S ⊕ z)}. So {@code P(S, y | x) = (1/C(d, r))·π/h} when {@code |y ⊕ x_S| ∈ H} and
 * {@code (1/C(d, r))·(1 − π)/l} otherwise. {@code π = N/2^53} with {@code N} the largest grid numerator with
 * {@code N·l <= L·h·(2^53 − N)}, {@code L <= e^ε} certified ({@link Grid}).
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: for one output, two values' probabilities are {@code π/h} or
 * {@code (1 − π)/l} (times the same {@code 1/C(d, r)}), and their ratio {@code [π/(1 − π)]·l/h <= L <= e^ε}; the
 * reverse ratio is checked at construction. No public coins.
 *
 * <p><b>Sampling (exact, value-independent draws).</b> {@code uniformInt(C(d, r))}, {@code bernoulli(π)},
 * {@code uniformInt(h)}, {@code uniformInt(l)}, always in this order; the Bernoulli keeps one of the two patterns.
 *
 * <p><b>Server.</b> The state counts each output. The noise's Fourier coefficients depend only on the weight:
 * {@code λ_w = Σ_z q(z)(−1)^{|z ∧ β|}} for {@code |β| = w} ({@code q} the pattern law), and a report's
 * {@code (−1)^{β_S·y}} has mean {@code λ_{|β|}(−1)^{β·x}} when {@code β ⊆ S}, which happens with probability
 * {@code P_{|β|} = C(d − |β|, r − |β|)/C(d, r)}. So {@code θ̂_β = Σ_{reports with S ⊇ β} (−1)^{β_S·y}/(n P_{|β|}
 * λ_{|β|})} is unbiased, and {@code p̂ = 2^{−d}(1 + Σ_{1 <= |β| <= t} θ̂_β (−1)^{β·x})} is unbiased for every
 * marginal of at most {@code t} attributes (not for the frequencies themselves: the coefficients of weight above
 * {@code t} are set to zero, which no such marginal sees). For a fixed dataset, exactly, per report,
 * {@code Cov(θ̂_β, θ̂_β') = θ_{β⊕β'}·[P_{|β∪β'|} λ_{|β⊕β'|}/(P_{|β|}P_{|β'|}λ_{|β|}λ_{|β'|}) − 1]}
 * ({@code P = 0} above {@code r}); the variances below are those of that estimate, divided by {@code n}.
 *
 * <p><b>Parameters.</b> {@code (r, H)} minimises the variance of a {@code t}-way marginal cell at uniform data,
 * {@code Σ_{w=1..t} C(t, w)/(P_w λ_w²)}, with the unrounded {@code π = h e^ε/(h e^ε + l)} in {@code StrictMath},
 * over every {@code r} with {@code C(d, r)·2^r <= 2^16} outputs and every {@code H} (ties: smaller {@code r}, then the
 * smaller bit mask of {@code H}); a deterministic function of {@code (d, t, ε)}, so devices and the gateway agree.
 *
 * <p><b>Wire format.</b> The output index {@code o = s·2^r + y}, 2 bytes big-endian: {@code s} the rank of
 * {@code S} among the {@code r}-subsets in increasing order of their bit masks (attribute {@code j} is bit
 * {@code j} of a value), bit {@code i} of {@code y} the {@code i}-th lowest attribute of {@code S}.
 *
 * <p><b>Preconditions.</b> {@code 1 <= t <= d <= }{@value #MAX_ATTRIBUTES}.
 */
public final class FourierMarginals extends OutputCountOracle {
    /** Largest number of attributes. */
    public static final int MAX_ATTRIBUTES = WorkloadSpec.MAX_FOURIER_ATTRIBUTES;

    private final int d;
    final int way;
    final int r;
    private final int weights; // bit j set: patterns of weight j are the favoured ones
    private final int[] subsets; // the r-subsets' bit masks, increasing
    private final int[] favoured; // the favoured patterns, increasing
    private final int[] others; // the other patterns, increasing
    private final long favouredNumerator;
    private final DyadicProbability pickFavoured;
    final double[] lambda; // λ_w, w = 0..r
    final double[] cover; // P_w, w = 0..d (0 above r)
    final int[] betas; // the coefficients 1 <= |β| <= t, increasing
    final int[] betaIndex; // β -> its index in betas (for the β of betas)
    final int[][] subsetBetas; // per subset: the indices of the β ⊆ S
    final int[][] subsetBetasRestricted; // per subset: those β restricted to S's r bits

    /**
     * The oracle for the {@code way}-way marginals of {@code attributes} binary attributes at this ε, with the
     * parameters of {@link #chooseParameters}.
     */
    public FourierMarginals(int attributes, int way, Epsilon epsilon) {
        this(attributes, way, epsilon, chooseParameters(attributes, way, epsilon));
    }

    /** With explicit parameters (tests). */
    FourierMarginals(int attributes, int way, Epsilon epsilon, Parameters parameters) {
        super(1 << (int) Require.inRange("attributes", attributes, 1, MAX_ATTRIBUTES), epsilon,
                outputCount(attributes, parameters));
        this.d = attributes;
        this.way = (int) Require.inRange("way", way, 1, attributes);
        this.r = (int) Require.inRange("blockSize", parameters.blockSize(), way, attributes);
        this.weights = parameters.favouredWeights();
        int all = (1 << (r + 1)) - 1;
        if (weights <= 0 || weights >= all) {
            throw new IllegalArgumentException("favouredWeights must name some but not all weights 0.." + r + ", got "
                    + Integer.toBinaryString(weights));
        }
        this.subsets = subsetsOf(d, r);
        List<Integer> fav = new ArrayList<>();
        List<Integer> oth = new ArrayList<>();
        for (int z = 0; z < (1 << r); z++) {
            ((weights >>> Integer.bitCount(z) & 1) != 0 ? fav : oth).add(z);
        }
        this.favoured = fav.stream().mapToInt(Integer::intValue).toArray();
        this.others = oth.stream().mapToInt(Integer::intValue).toArray();
        BigDecimal l = Grid.expLower(eps);
        long nf = Grid.largestWithRatio(l.multiply(Grid.bd(favoured.length)), Grid.bd(others.length));
        BigInteger in = BigInteger.valueOf(nf).multiply(BigInteger.valueOf(others.length));
        BigInteger out = BigInteger.valueOf(Grid.ONE - nf).multiply(BigInteger.valueOf(favoured.length));
        if (nf == 0 || nf == Grid.ONE || !Grid.ratioAtMost(in, out, l) || !Grid.ratioAtMost(out, in, l)
                || in.compareTo(out) <= 0) {
            throw new IllegalArgumentException("epsilon=" + eps.value() + " cannot be realised on the 2^-53"
                    + " probability grid for fourier with " + d + " attributes, block size " + r);
        }
        this.favouredNumerator = nf;
        this.pickFavoured = new DyadicProbability(nf);
        double pi = pickFavoured.value();
        this.lambda = noiseCoefficients(r, weights, pi / favoured.length, (1 - pi) / others.length);
        this.cover = coverage(d, r);
        for (int w = 1; w <= way; w++) {
            if (!(Math.abs(lambda[w]) > 1e-9)) {
                throw new IllegalArgumentException("favouredWeights " + Integer.toBinaryString(weights) + " leave the"
                        + " coefficients of weight " + w + " unobservable");
            }
        }
        List<Integer> bl = new ArrayList<>();
        this.betaIndex = new int[k]; // read only at the β of betas
        for (int b = 1; b < k; b++) {
            if (Integer.bitCount(b) <= way) {
                betaIndex[b] = bl.size();
                bl.add(b);
            }
        }
        this.betas = bl.stream().mapToInt(Integer::intValue).toArray();
        this.subsetBetas = new int[subsets.length][];
        this.subsetBetasRestricted = new int[subsets.length][];
        for (int s = 0; s < subsets.length; s++) {
            List<int[]> in2 = new ArrayList<>();
            for (int b : betas) {
                if ((b & ~subsets[s]) == 0) {
                    in2.add(new int[] {betaIndex[b], restrict(b, subsets[s])});
                }
            }
            subsetBetas[s] = in2.stream().mapToInt(a -> a[0]).toArray();
            subsetBetasRestricted[s] = in2.stream().mapToInt(a -> a[1]).toArray();
        }
    }

    /** {@code C(d, r)·2^r}, or 0 for a block size out of range (the constructor then names the field). */
    private static int outputCount(int attributes, Parameters parameters) {
        int r = Require.nonNull("parameters", parameters).blockSize();
        return r < 1 || r > attributes ? 2 : (int) Math.min(Integer.MAX_VALUE, binomial(attributes, r) << r);
    }

    /** The public parameters: the block size {@code r} and the favoured weights {@code H} as a bit mask. */
    public record Parameters(int blockSize, int favouredWeights) {}

    /**
     * The parameters minimising the variance of a {@code way}-way marginal cell at uniform data (class comment),
     * computed in {@code StrictMath} so every platform chooses the same.
     */
    public static Parameters chooseParameters(int attributes, int way, Epsilon epsilon) {
        Require.inRange("attributes", attributes, 1, MAX_ATTRIBUTES);
        Require.inRange("way", way, 1, attributes);
        double e = StrictMath.exp(Require.nonNull("epsilon", epsilon).value());
        Parameters best = null;
        double bestV = Double.POSITIVE_INFINITY;
        for (int r = way; r <= attributes; r++) {
            if (binomial(attributes, r) << r > MAX_OUTPUTS) {
                continue;
            }
            double[] p = coverage(attributes, r);
            for (int mask = 1; mask < (1 << (r + 1)) - 1; mask++) {
                long h = 0;
                for (int j = 0; j <= r; j++) {
                    if ((mask >>> j & 1) != 0) {
                        h += binomial(r, j);
                    }
                }
                long l = (1L << r) - h;
                double pi = h * e / (h * e + l);
                double[] lam = noiseCoefficients(r, mask, pi / h, (1 - pi) / l);
                double v = 0;
                for (int w = 1; w <= way; w++) {
                    v += binomial(way, w) / (p[w] * lam[w] * lam[w]);
                }
                if (Double.isFinite(v) && v < bestV) {
                    bestV = v;
                    best = new Parameters(r, mask);
                }
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no block fits " + MAX_OUTPUTS + " outputs for " + attributes
                    + " attributes"); // unreachable for attributes <= MAX_ATTRIBUTES: r = d always fits
        }
        return best;
    }

    /** The per-report variance of one {@code way}-way cell at uniform data, times {@code 4^way} (tests, planning). */
    double cellVarianceFactor() {
        double v = 0;
        for (int w = 1; w <= way; w++) {
            v += binomial(way, w) / (cover[w] * lambda[w] * lambda[w]);
        }
        return v;
    }

    /** {@code λ_w = Σ_j q_j K_j(w)}: the noise law's Fourier coefficient at weight {@code w} (Krawtchouk sums). */
    static double[] noiseCoefficients(int r, int mask, double qFavoured, double qOther) {
        double[] lam = new double[r + 1];
        for (int w = 0; w <= r; w++) {
            double s = 0;
            for (int j = 0; j <= r; j++) {
                long kr = 0;
                for (int i = Math.max(0, j - (r - w)); i <= Math.min(w, j); i++) {
                    kr += ((i & 1) == 0 ? 1 : -1) * binomial(w, i) * binomial(r - w, j - i);
                }
                s += ((mask >>> j & 1) != 0 ? qFavoured : qOther) * kr;
            }
            lam[w] = s;
        }
        return lam;
    }

    /** {@code P_w = C(d − w, r − w)/C(d, r)}: the chance that a uniform r-subset covers a given w-set. */
    static double[] coverage(int d, int r) {
        double[] p = new double[d + 1];
        double all = binomial(d, r);
        for (int w = 0; w <= r; w++) {
            p[w] = binomial(d - w, r - w) / all;
        }
        return p;
    }

    static long binomial(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        long c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }

    /** Every r-subset of d attributes as a bit mask, increasing. */
    static int[] subsetsOf(int d, int r) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < (1 << d); s++) {
            if (Integer.bitCount(s) == r) {
                out.add(s);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The bits of {@code x} at the positions of {@code set}'s bits, packed from the lowest. */
    static int restrict(int x, int set) {
        int out = 0;
        int i = 0;
        for (int s = set; s != 0; s &= s - 1) {
            int bit = Integer.numberOfTrailingZeros(s);
            out |= ((x >>> bit) & 1) << i++;
        }
        return out;
    }

    @Override
    public MechanismId id() {
        return MechanismId.FOURIER;
    }

    /** The number of attributes {@code d}. */
    public int attributes() {
        return d;
    }

    /** The marginal width {@code t} the estimate serves. */
    public int way() {
        return way;
    }

    /** The public parameters in use. */
    public Parameters parameters() {
        return new Parameters(r, weights);
    }

    /** The probability of the favoured patterns, {@code π} (exact, on the {@code 2^-53} grid). */
    public DyadicProbability favouredProbability() {
        return pickFavoured;
    }

    @Override
    public byte[] randomize(int value, long publicBase, SecretDraws draws) {
        checkValue(value);
        Require.nonNull("draws", draws);
        int s = draws.uniformInt(subsets.length);
        boolean fav = draws.bernoulli(pickFavoured);
        int zf = favoured[draws.uniformInt(favoured.length)];
        int zo = others[draws.uniformInt(others.length)];
        int y = restrict(value, subsets[s]) ^ (fav ? zf : zo);
        return encodeOutput((s << r) | y);
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        int o = decodeOutput(payload);
        if (o < 0) {
            return Rational.ZERO;
        }
        int s = o >>> r;
        int z = (o & ((1 << r) - 1)) ^ restrict(value, subsets[s]);
        boolean fav = (weights >>> Integer.bitCount(z) & 1) != 0;
        long num = fav ? favouredNumerator : Grid.ONE - favouredNumerator;
        long count = fav ? favoured.length : others.length;
        return Rational.of(BigInteger.valueOf(num), BigInteger.valueOf(Grid.ONE).multiply(BigInteger.valueOf(count))
                .multiply(BigInteger.valueOf(subsets.length)));
    }

    /** Less the part common to every output, {@code 2^{−d}}: the report's share of the Fourier reconstruction. */
    @Override
    public double[] contribution(int o) {
        Require.inRange("output", o, 0, outputs - 1L);
        double[] a = new double[k];
        int s = o >>> r;
        int y = o & ((1 << r) - 1);
        int[] idx = subsetBetas[s];
        int[] res = subsetBetasRestricted[s];
        for (int i = 0; i < idx.length; i++) {
            int b = betas[idx[i]];
            int w = Integer.bitCount(b);
            a[b] = ((Integer.bitCount(res[i] & y) & 1) == 0 ? 1 : -1) / (cover[w] * lambda[w]);
        }
        WalshHadamard.transform(a);
        for (int x = 0; x < k; x++) {
            a[x] /= k;
        }
        return a;
    }
}

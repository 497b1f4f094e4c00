package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Certified synthetic data per window (certified private data release paper, Algorithm 1 with the choices of §3
 * and the tighter certificate of §5.4; see {@code docs/synthetic-data.md}): from a window's exact s-way marginal
 * counts over d binary attributes, a set of synthetic records and a published bound on their utility loss for
 * every query on at most s attributes. <b>Pure ε-DP, δ = 0.</b>
 *
 * <ol>
 *   <li><b>Private step</b> ({@link #privatize}, the only one that reads the data): the count (noisy under
 *       add/remove, {@link CountRelease}, pure {@code ε_count}) and the coefficients {@code w_b = H·c_b + ξ_b} of
 *       every table, ξ i.i.d. discrete Laplace of scale {@code t >= K·Δ_H·L/ε_marg} (rounded up from the exact
 *       quotient), {@code Δ_H} the basis' per-table sensitivity ({@link NoiseBasis#blockSensitivity}). For
 *       neighbouring windows {@code ‖Hc − Hc'‖₁ <= K·Δ_H·L}, so the pmf ratio of w is at most
 *       {@code e^{ε_marg}} (Lemma 2); the two parts compose to {@code ε_count + ε_marg}, whose exact sum is at
 *       most the declared ε ({@link PrivacySplit}).</li>
 *   <li><b>Post-processing</b> ({@link #publish}, a deterministic function of the private outputs): noisy tables
 *       {@code v = H^{-1}w}, normalised by {@code D = max(1, ñ)}; candidate records (the whole domain when
 *       {@code 2^d <= candidates}, otherwise draws from {@link ChainModel}s fitted to the noisy tables); the
 *       {@link MarginalLp} weights; N records by systematic sampling of those weights; the certificate evaluated
 *       exactly on the released records. The public randomness of candidates and sampling is seeded from the
 *       private outputs (SplitMix64 of their words), so anyone holding {@link NoisyMarginals} recomputes the same
 *       release.</li>
 * </ol>
 *
 * <p><b>Certificate</b> (Lemma 1 with the proxy {@code G(v, v') = max_b ½‖v_b − v'_b‖₁}, which equals the utility
 * loss on consistent tables, is translation invariant and a seminorm): with probability at least the declared
 * confidence, {@code U(window, records) <= noise + count + fit} (see {@link Certificate}). No discretisation or
 * right-inverse term appears: the attributes are binary, so the tables lose nothing, and U depends on a
 * distribution only through its tables.
 */
public final class CertifiedSyntheticData {
    /** Count shares tried under add/remove (the split minimising the predicted certificate is used). */
    static final double[] COUNT_SHARES = {0.01, 0.02, 0.05, 0.1};
    /** Part of the failure probability spent on the count under add/remove. */
    static final double COUNT_FAILURE_SHARE = 0.1;
    /** LP budget: iterations and relative gap. */
    static final int LP_ITERATIONS = 600;
    static final double LP_RELATIVE_GAP = 0.01;

    private final SyntheticParameters params;
    private final MarginalLayout layout;
    private final long[][] synthesis;
    private final int[][] analysis;
    private final double epsilonCount;
    private final double epsilonMarginals;
    private final CountRelease count;
    private final DiscreteLaplace noise;
    private final long sensitivity;
    private final double noiseQuantile;
    private final long countRadius;
    private final double betaNoise;
    private final double betaCount;

    private CertifiedSyntheticData(SyntheticParameters p, double fc) {
        this.params = p;
        this.layout = p.layout();
        this.analysis = p.basis().analysis(layout.way());
        this.synthesis = p.basis().synthesis(layout.way());
        double eps = p.epsilon().value();
        double[] parts = PrivacySplit.split(eps, fc, 1 - fc);
        this.epsilonCount = parts[0];
        this.epsilonMarginals = parts[1];
        this.count = CountRelease.of(p.neighbour(), p.contributions(), epsilonCount);
        this.sensitivity = Math.multiplyExact(Math.multiplyExact((long) layout.blocks(),
                p.basis().blockSensitivity(layout.way(), p.neighbour())), p.contributions());
        this.noise = new DiscreteLaplace(PrivacySplit.dyadicUp(sensitivity, epsilonMarginals));
        double beta = p.confidence().beta();
        boolean noisyCount = count instanceof CountRelease.Noisy;
        this.betaCount = noisyCount ? beta * COUNT_FAILURE_SHARE : 0;
        this.betaNoise = beta - betaCount;
        this.noiseQuantile = NoiseQuantile.tableNoise(p.basis(), layout.way(), layout.blocks(), noise, betaNoise);
        this.countRadius = count instanceof CountRelease.Noisy c ? NoiseQuantile.countRadius(c.noise(), betaCount) : 0;
    }

    /**
     * The mechanism for the given parameters. Under add/remove the count's ε share is the one of
     * {@link #COUNT_SHARES} that minimises the predicted certificate {@code (2z + r/2)/n} at the planned report
     * count (z the table-noise quantile, r the count radius); under replace-one the count is public and all of ε
     * goes to the tables.
     */
    public static CertifiedSyntheticData of(SyntheticParameters p) {
        Require.nonNull("parameters", p);
        if (CountRelease.isPublic(p.neighbour())) {
            return new CertifiedSyntheticData(p, 0);
        }
        CertifiedSyntheticData best = null;
        double bestScore = Double.POSITIVE_INFINITY;
        for (double fc : COUNT_SHARES) {
            CertifiedSyntheticData m = new CertifiedSyntheticData(p, fc);
            double score = (2 * m.noiseQuantile + 0.5 * m.countRadius) / p.plannedReports();
            if (score < bestScore) {
                bestScore = score;
                best = m;
            }
        }
        return best;
    }

    public SyntheticParameters parameters() {
        return params;
    }

    public MarginalLayout layout() {
        return layout;
    }

    /** ε spent on the count (0 when it is public). */
    public double epsilonCount() {
        return epsilonCount;
    }

    /** ε spent on the table coefficients. */
    public double epsilonMarginals() {
        return epsilonMarginals;
    }

    /** The l1 sensitivity of all coefficients {@code (H·c_b)_b} under the declared neighbours and L. */
    public long sensitivity() {
        return sensitivity;
    }

    /** The noise on every coefficient. */
    public DiscreteLaplace coefficientNoise() {
        return noise;
    }

    /** The count's release. */
    public CountRelease count() {
        return count;
    }

    /** The (1 − β_noise) quantile bound of the largest table's ½‖η‖₁, in counts. */
    public double noiseQuantile() {
        return noiseQuantile;
    }

    /** The count radius r with {@code P(|ñ − n| > r) <= β_count} (0 when the count is public). */
    public long countRadius() {
        return countRadius;
    }

    /** The pure-DP guarantee of a release with data: the exact sum of the shares, rounded up. */
    public PrivacyCost.Pure cost() {
        return new PrivacyCost.Pure(Composition.sumEpsilon(epsilonCount, epsilonMarginals));
    }

    /**
     * Releases a window.
     *
     * @param marginalCounts the exact counts of every cell of every table (layout order), each table summing to n
     * @param n the window's report count (every device at most L reports)
     * @param secret secret randomness ({@code SecureRandomBits} in production)
     */
    public SyntheticRelease release(long[] marginalCounts, long n, RandomBits secret) {
        if (count instanceof CountRelease.Public && checkInput(marginalCounts, n) == 0) {
            return noData();
        }
        return publish(privatize(marginalCounts, n, secret));
    }

    /** The private step: the released count and the noisy coefficients (the only use of the data). */
    public NoisyMarginals privatize(long[] marginalCounts, long n, RandomBits secret) {
        checkInput(marginalCounts, n);
        Require.nonNull("secret", secret);
        long released = count.release(n, secret);
        int w = layout.cellsPerBlock();
        long[] coef = new long[marginalCounts.length];
        for (int b = 0; b < layout.blocks(); b++) {
            for (int i = 0; i < w; i++) {
                long s = 0;
                for (int j = 0; j < w; j++) {
                    s = Math.addExact(s, analysis[i][j] * marginalCounts[b * w + j]);
                }
                coef[b * w + i] = Math.addExact(s, noise.sample(secret));
            }
        }
        return new NoisyMarginals(released, coef);
    }

    /** How the consistent distribution is fitted to the noisy tables (post-processing either way). */
    public enum Fit {
        /** The paper's LP: minimises the certificate's fit term (the smallest certificate). */
        LP,
        /** Least squares over the same candidates: averages noise across overlapping tables (smaller errors). */
        LEAST_SQUARES
    }

    /** Everything the release publishes, from the private outputs and public parameters only (deterministic). */
    public SyntheticRelease publish(NoisyMarginals noisy) {
        return publish(noisy, Fit.LP);
    }

    /**
     * {@link #publish(NoisyMarginals)} with a choice of fit. The certificate holds for either (Lemma 1 holds for all
     * record sets at once), so both may even be published for the same window at no privacy cost.
     */
    public SyntheticRelease publish(NoisyMarginals noisy, Fit fit) {
        Require.nonNull("noisy", noisy);
        Require.nonNull("fit", fit);
        long d = noisy.divisor();
        long[] scaled = noisy.scaledTables(layout, synthesis);
        int w = layout.cellsPerBlock();
        double[] u = new double[scaled.length];
        for (int i = 0; i < u.length; i++) {
            u[i] = scaled[i] / ((double) w * d);
        }
        RandomBits coins = publicCoins(noisy);
        int[] candidates = candidates(u, coins);
        MarginalLp lp = new MarginalLp(layout, candidates);
        double[] start = startingWeights(u, candidates);
        MarginalLp.Solution sol;
        if (fit == Fit.LP) {
            sol = lp.solve(u, start, LP_ITERATIONS, LP_RELATIVE_GAP);
        } else {
            double[] a = lp.leastSquares(u, start, LP_ITERATIONS);
            sol = new MarginalLp.Solution(a, lp.objective(lp.apply(a), u), 0, LP_ITERATIONS);
        }
        long[] mult = systematicSample(sol.alpha(), params.records(), ExactSampler.uniformDouble(coins));
        int[][] rows = compress(candidates, mult);
        int[] rowRecords = rows[0];
        long[] rowCounts = new long[rowRecords.length];
        for (int i = 0; i < rowRecords.length; i++) {
            rowCounts[i] = mult[rows[1][i]];
        }
        Certificate cert = certificate(noisy, scaled, rowRecords, rowCounts);
        return new SyntheticRelease(layout.attributes(), layout.way(), rowRecords, rowCounts, params.records(),
                CountRelease.published(noisy.releasedCount()), cert, cost(), sol.objective(), sol.lowerBound(),
                noisy);
    }

    /**
     * The certificate of records (rows with multiplicities) against the private outputs, exactly: the fit term
     * {@code max_b ½‖v_b/D − r_b/N‖₁} is computed in integers and rounded up once, and every sum is rounded up.
     */
    public Certificate certificate(NoisyMarginals noisy, int[] rows, long[] multiplicities) {
        return certificate(noisy, noisy.scaledTables(layout, synthesis), rows, multiplicities);
    }

    private Certificate certificate(NoisyMarginals noisy, long[] scaled, int[] rows, long[] multiplicities) {
        long d = noisy.divisor();
        long n = 0;
        for (long m : multiplicities) {
            n = Math.addExact(n, m);
        }
        if (n < 1) {
            throw new IllegalArgumentException("the records must hold at least one record");
        }
        long[] r = layout.counts(rows, multiplicities);
        int w = layout.cellsPerBlock();
        BigInteger bigN = BigInteger.valueOf(n);
        BigInteger scaleR = BigInteger.valueOf(w).multiply(BigInteger.valueOf(d));
        BigInteger worst = BigInteger.ZERO;
        for (int b = 0; b < layout.blocks(); b++) {
            BigInteger sum = BigInteger.ZERO;
            for (int i = b * w; i < (b + 1) * w; i++) {
                sum = sum.add(BigInteger.valueOf(scaled[i]).multiply(bigN)
                        .subtract(scaleR.multiply(BigInteger.valueOf(r[i]))).abs());
            }
            worst = worst.max(sum);
        }
        BigDecimal denominator = new BigDecimal(scaleR.multiply(bigN).shiftLeft(1));
        double fit = new BigDecimal(worst).divide(denominator, new MathContext(20, RoundingMode.CEILING))
                .doubleValue();
        fit = Math.nextUp(fit);
        double noiseTerm = Math.nextUp(noiseQuantile / d);
        double countTerm = 0;
        if (count instanceof CountRelease.Noisy) {
            long gap = Math.abs(d - noisy.releasedCount());
            countTerm = Math.nextUp((gap + (double) countRadius) / (2.0 * d));
        }
        double total = Math.nextUp(Math.nextUp(noiseTerm + countTerm) + fit);
        return new Certificate(Math.min(1, total), noiseTerm, countTerm, fit, params.confidence().value());
    }

    /** The release of a window whose count is public and 0: no data, nothing to protect, no records, cost 0. */
    private SyntheticRelease noData() {
        Certificate trivial = new Certificate(1, 0, 0, 0, params.confidence().value());
        return new SyntheticRelease(layout.attributes(), layout.way(), new int[0], new long[0], 0, 0, trivial,
                new PrivacyCost.Pure(0), 0, 0, new NoisyMarginals(0, new long[layout.cells()]));
    }

    /** Validates the input; returns n. */
    private long checkInput(long[] marginalCounts, long n) {
        Require.nonNull("marginalCounts", marginalCounts);
        if (marginalCounts.length != layout.cells()) {
            throw new IllegalArgumentException("marginalCounts must have " + layout.cells() + " entries ("
                    + layout + "), got " + marginalCounts.length);
        }
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        int w = layout.cellsPerBlock();
        for (int b = 0; b < layout.blocks(); b++) {
            long s = 0;
            for (int i = b * w; i < (b + 1) * w; i++) {
                if (marginalCounts[i] < 0) {
                    throw new IllegalArgumentException("marginalCounts[" + i + "] must be >= 0, got "
                            + marginalCounts[i]);
                }
                s = Math.addExact(s, marginalCounts[i]);
            }
            if (s != n) {
                throw new IllegalArgumentException("table " + b + " " + Arrays.toString(layout.subset(b)) + " sums to "
                        + s + ", not n = " + n);
            }
        }
        return n;
    }

    /** Public coins seeded from the private outputs (so the release is a function of them). */
    static RandomBits publicCoins(NoisyMarginals noisy) {
        long h = SplitMix64.mix64(noisy.releasedCount() ^ 0x5EED_5EED_5EEDL);
        for (long c : noisy.coefficients()) {
            h = SplitMix64.mix64(h ^ c) + SplitMix64.GOLDEN;
        }
        return new SplitMix64(h);
    }

    /** The candidate support: the whole domain if it fits the budget, else distinct draws from chain models. */
    int[] candidates(double[] u, RandomBits coins) {
        int d = layout.attributes();
        int budget = params.candidates();
        if ((1L << d) <= budget) {
            int[] all = new int[1 << d];
            for (int x = 0; x < all.length; x++) {
                all[x] = x;
            }
            return all;
        }
        ChainModel[] models = new ChainModel[4];
        models[0] = ChainModel.fit(layout, u, ChainModel.identityOrder(d));
        int[] rev = new int[d];
        for (int i = 0; i < d; i++) {
            rev[i] = d - 1 - i;
        }
        models[1] = ChainModel.fit(layout, u, rev);
        models[2] = ChainModel.fit(layout, u, ChainModel.randomOrder(d, coins));
        models[3] = ChainModel.fit(layout, u, ChainModel.randomOrder(d, coins));
        Set<Integer> out = new LinkedHashSet<>();
        for (int draw = 0; draw < 8 * budget && out.size() < budget; draw++) {
            out.add(models[draw & 3].sample(coins));
        }
        int[] c = out.stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(c);
        return c;
    }

    /** LP start: the identity-order chain model's probabilities on the candidates. */
    private double[] startingWeights(double[] u, int[] candidates) {
        ChainModel m = ChainModel.fit(layout, u, ChainModel.identityOrder(layout.attributes()));
        double[] p = new double[candidates.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = m.probability(candidates[i]);
        }
        return p;
    }

    /**
     * Systematic sampling of n records from weights α (public offset U in [0, 1)): candidate c gets
     * {@code ⌊n·F_c + U⌋ − ⌊n·F_{c−1} + U⌋} records, F the cumulative weights with the last set to exactly 1, so
     * every candidate gets {@code ⌊nα_c⌋} or {@code ⌈nα_c⌉} (up to rounding of F) and the total is exactly n.
     */
    static long[] systematicSample(double[] alpha, long n, double offset) {
        long[] out = new long[alpha.length];
        double total = 0;
        for (double a : alpha) {
            total += a;
        }
        double cum = 0;
        long prev = (long) Math.floor(offset);
        for (int i = 0; i < alpha.length; i++) {
            cum += alpha[i] / total;
            double f = i == alpha.length - 1 ? 1.0 : Math.min(1.0, cum);
            long next = (long) Math.floor(n * f + offset);
            out[i] = Math.max(0, next - prev);
            prev = Math.max(prev, next);
        }
        return out;
    }

    /** {rows (sorted distinct records with a positive count), their indices into candidates}. */
    private static int[][] compress(int[] candidates, long[] mult) {
        int k = 0;
        for (long m : mult) {
            if (m > 0) {
                k++;
            }
        }
        Integer[] order = new Integer[k];
        int j = 0;
        for (int i = 0; i < mult.length; i++) {
            if (mult[i] > 0) {
                order[j++] = i;
            }
        }
        Arrays.sort(order, (a, b) -> Integer.compare(candidates[a], candidates[b]));
        int[] rows = new int[k];
        int[] idx = new int[k];
        for (int i = 0; i < k; i++) {
            rows[i] = candidates[order[i]];
            idx[i] = order[i];
        }
        return new int[][] {rows, idx};
    }
}

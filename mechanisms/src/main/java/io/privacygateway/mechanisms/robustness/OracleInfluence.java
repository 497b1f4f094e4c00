package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.fo.OutputCountOracle;
import io.privacygateway.mechanisms.local.fo.FrequencyOracle;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.fo.GeneralizedRandomizedResponse;
import io.privacygateway.mechanisms.local.fo.HadamardResponse;
import io.privacygateway.mechanisms.local.fo.OptimizedLocalHashing;
import io.privacygateway.mechanisms.local.fo.OptimizedUnaryEncoding;
import io.privacygateway.mechanisms.local.fo.SubsetSelection;
import io.privacygateway.mechanisms.param.Require;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import io.privacygateway.mechanisms.linalg.WalshHadamard;

/**
 * Closed forms for the single-report frequency oracles (GRR, OUE, OLH, subset selection, Hadamard response).
 *
 * <p><b>Shape.</b> A support-count oracle estimates {@code p̂_x = (C_x/n − q*)/(p* − q*)}, where {@code C_x}
 * counts the reports that support {@code x}, and answers {@code Σ_x p̂_x Q(x)}. A report whose payload supports
 * the set {@code A} therefore contributes {@code s·Σ_{x∈A} Q(x)}, {@code s = 1/(p* − q*)}, and the influence is
 * {@code s} times the spread of these subset sums over the sets a payload can support:
 * <ul>
 *   <li>GRR: the singletons, so {@code s·max_q range_x Q_q(x)} and {@code s·diam{Q(x)}} ({@code s} and
 *       {@code √2·s} for a histogram);
 *   <li>OUE: every subset (any bit vector is a valid payload), so {@code s·max_q Σ_x |Q_q(x)|} and, as every
 *       answer vector is non-negative, {@code s·‖Σ_x Q(x)‖₂} (all bits against none: {@code s}, {@code √k·s}
 *       for a histogram);
 *   <li>OLH: the preimages {@code h⁻¹(y)} of the report's hash; over every hash function these are every
 *       subset, which gives OUE's formulas with OLH's {@code s}. A hash sending every value to one bucket
 *       attains them; with {@code g^{k−1}} far above the {@code 2^64} keys no such key need exist, so the
 *       worst case is a proven bound, not an attained one, and grinding device ids only reaches what the
 *       sampled coins show;
 *   <li>subset selection: the {@code d}-subsets, so {@code s·max_q (top-d sum − bottom-d sum of Q_q)} and
 *       for ℓ2 the largest {@code ‖Σ_A Q − Σ_B Q‖} over two {@code d}-subsets: enumerated when there are few
 *       subsets, {@code √(2·min(d, k − d))·s} for a histogram, else the box bound;
 *   <li>Hadamard response: {@code p̂_x = T(x+1)/(n(2π − 1))} with {@code T} the Walsh–Hadamard transform of
 *       the output histogram, so output {@code j} contributes {@code Σ_x H(x+1, j) Q(x)/(2π − 1)} with
 *       {@code H(a, j) = (−1)^{popcount(a & j)}}; the spread over the {@code K} outputs, in closed form
 *       {@code 2/(2π−1)} and {@code 2·√(max_{d≠0} #{1 ≤ a ≤ k : popcount(a & d) odd})/(2π−1)} for a histogram;
 * <li>workload factorization and Fourier marginals ({@link OutputCountOracle}): the estimate is linear in the output
 *       counts (for factorization {@code p̂ = V y/n}), so output {@code o} contributes {@code Σ_x c_o(x) Q(x)}; the
 *       spread over the outputs.
 * </ul>
 * Only OLH depends on the public coins. {@code p*} and {@code q*} are the oracles' exact grid probabilities
 * as doubles, as the estimators use them.
 */
final class OracleInfluence implements MechanismInfluence {
    /** Subset selection's ℓ2 is enumerated exactly when there are at most this many d-subsets. */
    static final int MAX_ENUMERATED_SUBSETS = 4096;

    private final FrequencyOracleProtocol protocol;
    private final FrequencyOracle oracle;
    private final PointSet answers;
    private final double scale;
    private final Influence fixed;
    private final Influence worst;
    private final String basis;

    OracleInfluence(FrequencyOracleProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.oracle = protocol.oracle();
        this.answers = protocol.workload().points();
        int k = oracle.domainSize();
        if (oracle instanceof GeneralizedRandomizedResponse g) {
            double p = g.keepProbability().value();
            double q = (1 - p) / (k - 1);
            scale = 1 / (p - q);
            fixed = singletons(answers).times(scale);
            worst = fixed;
            basis = "exact: a payload is one value; no public coins";
        } else if (oracle instanceof OptimizedUnaryEncoding o) {
            scale = 1 / (0.5 - o.flipProbability().value());
            fixed = allSubsets(answers).times(scale);
            worst = fixed;
            basis = "exact: every bit vector is a valid payload (all bits against none); no public coins";
        } else if (oracle instanceof OptimizedLocalHashing o) {
            scale = 1 / (o.keepProbability().value() - 1.0 / o.range());
            fixed = null;
            Influence all = allSubsets(answers).times(scale);
            // for a histogram every key attains ℓ∞ (a value's bucket against any other bucket moves its own
            // answer by s); otherwise neither value need be attained by a realisable key
            worst = new Influence(all.linf(), all.l2(), all.projectedL2(), isOneHot(answers), false);
            basis = "over every hash function: attained by a hash sending all values to one bucket, which the 2^64"
                    + " keys need not contain; ground coins show what device-id grinding reaches";
        } else if (oracle instanceof SubsetSelection s) {
            double pi = s.inclusionProbability().value();
            int d = s.subsetSize();
            double q = (pi * (d - 1) + (1 - pi) * d) / (k - 1);
            scale = 1 / (pi - q);
            fixed = dSubsets(answers, d).times(scale);
            worst = fixed;
            basis = "exact ℓ∞" + (fixed.l2Exact() ? " and ℓ2" : "; ℓ2 a box bound") + ": payloads are the "
                    + d + "-subsets; no public coins";
        } else if (oracle instanceof HadamardResponse h) {
            scale = 1 / (2 * h.inSetProbability().value() - 1);
            fixed = hadamard(answers, h.order()).times(scale);
            worst = fixed;
            basis = "exact ℓ∞" + (fixed.l2Exact() ? " and ℓ2" : "; ℓ2 a box bound") + ": payloads are the "
                    + h.order() + " Hadamard outputs; no public coins";
        } else if (oracle instanceof OutputCountOracle o) {
            scale = 1;
            fixed = linear(answers, o);
            worst = fixed;
            basis = "exact ℓ∞" + (fixed.l2Exact() ? " and ℓ2" : "; ℓ2 a bound") + ": payloads are the " + o.outputs()
                    + " outputs, each contributing its reconstruction; no public coins";
        } else {
            throw new IllegalArgumentException("no closed form for oracle " + oracle.id().wireName());
        }
    }

    @Override
    public FrequencyOracleProtocol protocol() {
        return protocol;
    }

    @Override
    public PointSet expectedContributions() {
        return answers;
    }

    @Override
    public Influence worst() {
        return worst;
    }

    @Override
    public boolean coinDependent() {
        return fixed == null;
    }

    @Override
    public boolean worstCoversAllCoins() {
        return true;
    }

    @Override
    public String basis() {
        return basis;
    }

    /**
     * OLH: the spread of {@code s·Σ_{x∈h⁻¹(y)} Q(x)} over the buckets {@code y} of this report's hash (the
     * preimages read back through the oracle's own {@code accumulate}); the other oracles: the fixed value.
     */
    @Override
    public Influence atCoordinates(ReportCoordinates coordinates) {
        Require.nonNull("coordinates", coordinates);
        if (fixed != null) {
            return fixed;
        }
        OptimizedLocalHashing olh = (OptimizedLocalHashing) oracle;
        long base = protocol.publicBase(coordinates);
        int k = oracle.domainSize();
        int m = answers.dim();
        List<double[]> sums = new ArrayList<>(olh.range());
        long[] state = new long[oracle.stateLength()];
        for (int y = 0; y < olh.range(); y++) {
            Arrays.fill(state, 0);
            if (!oracle.accumulate(index(y, oracle.payloadBytes()), base, state)) {
                throw new IllegalStateException("OLH refused bucket " + y + " of its range " + olh.range());
            }
            double[] v = new double[m];
            for (int x = 0; x < k; x++) {
                if (state[x] != 0) {
                    answers.addScaledRow(x, scale * state[x], v);
                }
            }
            sums.add(v);
        }
        List<double[][]> levels = new ArrayList<>(sums.size());
        for (double[] v : sums) {
            levels.add(new double[][] {v});
        }
        return Spread.ofLevels(levels);
    }

    /** An index payload: unsigned big-endian in {@code width} bytes (the oracles' index wire format). */
    static byte[] index(int y, int width) {
        byte[] out = new byte[width];
        for (int i = width - 1; i >= 0; i--, y >>>= 8) {
            out[i] = (byte) y;
        }
        return out;
    }

    // ------------------------------------------------------------------ spreads of subset sums (scale 1)

    /** The rows themselves. */
    static Influence singletons(PointSet q) {
        if (isOneHot(q)) {
            return new Influence(1, Math.sqrt(2), Math.sqrt(2), true, true);
        }
        List<double[][]> rows = new ArrayList<>(q.size());
        for (int x = 0; x < q.size(); x++) {
            rows.add(new double[][] {q.row(x)});
        }
        return Spread.ofLevels(rows);
    }

    /**
     * Workload factorization and the Fourier marginals oracle: output {@code o} contributes
     * {@code Σ_x c_o(x) Q(x)}, {@code c_o} its {@link OutputCountOracle#contribution}; the spread over the outputs.
     */
    static Influence linear(PointSet q, OutputCountOracle oracle) {
        int[][] nonZeros = new int[q.size()][]; // each value's answer is sparse for marginals (one cell per marginal)
        long entries = 0;
        for (int x = 0; x < q.size(); x++) {
            int count = 0;
            int[] idx = new int[q.dim()];
            for (int c = 0; c < q.dim(); c++) {
                if (q.get(x, c) != 0) {
                    idx[count++] = c;
                }
            }
            nonZeros[x] = Arrays.copyOf(idx, count);
            entries += count;
        }
        long work = oracle.outputs() * (q.size() + entries);
        if (work > MAX_LINEAR_WORK) {
            throw new IllegalArgumentException("the influence of " + oracle.outputs() + " outputs over " + q.size()
                    + " values and " + entries + " non-zero answer coordinates is too costly to enumerate (" + work
                    + " > " + MAX_LINEAR_WORK + ")");
        }
        List<double[][]> rows = new ArrayList<>(oracle.outputs());
        for (int o = 0; o < oracle.outputs(); o++) {
            double[] contribution = oracle.contribution(o);
            double[] c = new double[q.dim()];
            for (int x = 0; x < q.size(); x++) {
                double a = contribution[x];
                if (a != 0) {
                    for (int j : nonZeros[x]) {
                        c[j] += a * q.get(x, j);
                    }
                }
            }
            rows.add(new double[][] {c});
        }
        return Spread.ofLevels(rows);
    }

    /**
     * Largest {@code outputs × (values + non-zero answer coordinates)} {@link #linear} enumerates: 3-way marginals of
     * 12 attributes at ε = 1 (7,920 outputs) take 7.2·10⁹, 2-way ones (25,344 outputs) 7.0·10⁹.
     */
    static final long MAX_LINEAR_WORK = 10_000_000_000L;

    /** Sums over every subset: {@code max_q Σ|Q_q|} and, for non-negative rows, {@code ‖Σ_x Q(x)‖₂}. */
    static Influence allSubsets(PointSet q) {
        int m = q.dim();
        double[] abs = new double[m];
        boolean nonNegative = true;
        for (int x = 0; x < q.size(); x++) {
            for (int c = 0; c < m; c++) {
                double v = q.get(x, c);
                abs[c] += Math.abs(v);
                nonNegative &= v >= 0;
            }
        }
        double linf = 0;
        double l2 = 0;
        for (double a : abs) {
            linf = Math.max(linf, a);
            l2 += a * a;
        }
        l2 = Math.sqrt(l2);
        // Q >= 0: every coordinate of Σ_A Q − Σ_B Q is at most Σ_x Q_q(x) in absolute value, with equality for
        // A = everything, B = nothing. Otherwise the same expression bounds it coordinate by coordinate.
        return new Influence(linf, l2, l2, true, nonNegative);
    }

    /** Sums over the {@code d}-subsets. */
    static Influence dSubsets(PointSet q, int d) {
        int k = q.size();
        int m = q.dim();
        double linf = 0;
        double box = 0;
        double[] col = new double[k];
        for (int c = 0; c < m; c++) {
            for (int x = 0; x < k; x++) {
                col[x] = q.get(x, c);
            }
            Arrays.sort(col);
            double range = 0;
            for (int i = 0; i < d; i++) {
                range += col[k - 1 - i] - col[i];
            }
            range = Math.max(0, range);
            linf = Math.max(linf, range);
            box += range * range;
        }
        if (isOneHot(q)) {
            double l2 = Math.sqrt(2.0 * Math.min(d, k - d));
            return new Influence(linf, l2, l2, true, true);
        }
        if (binomialAtMost(k, d, MAX_ENUMERATED_SUBSETS)) {
            List<double[][]> sums = new ArrayList<>();
            int[] idx = new int[d];
            for (int i = 0; i < d; i++) {
                idx[i] = i;
            }
            while (true) {
                double[] v = new double[m];
                for (int x : idx) {
                    q.addScaledRow(x, 1, v);
                }
                sums.add(new double[][] {v});
                int i = d - 1;
                while (i >= 0 && idx[i] == k - d + i) {
                    i--;
                }
                if (i < 0) {
                    break;
                }
                idx[i]++;
                for (int j = i + 1; j < d; j++) {
                    idx[j] = idx[j - 1] + 1;
                }
            }
            Influence e = Spread.ofLevels(sums);
            return new Influence(linf, e.l2(), e.l2(), true, e.l2Exact());
        }
        double l2 = Math.sqrt(box);
        return new Influence(linf, l2, l2, true, false);
    }

    /** The output contributions {@code Σ_x H(x+1, j) Q(x)}, {@code j ∈ [K]}. */
    static Influence hadamard(PointSet q, int order) {
        int k = q.size();
        int m = q.dim();
        if (isOneHot(q)) {
            int most = 0;
            for (int d = 1; d < order; d++) {
                int c = 0;
                for (int a = 1; a <= k; a++) {
                    c += Integer.bitCount(a & d) & 1;
                }
                most = Math.max(most, c);
            }
            double l2 = 2 * Math.sqrt(most);
            return new Influence(2, l2, l2, true, true);
        }
        double[][] v = new double[order][m];
        double[] column = new double[order];
        for (int c = 0; c < m; c++) {
            Arrays.fill(column, 0);
            for (int x = 0; x < k; x++) {
                column[x + 1] = q.get(x, c);
            }
            WalshHadamard.transform(column);
            for (int j = 0; j < order; j++) {
                v[j][c] = column[j];
            }
        }
        List<double[][]> outs = new ArrayList<>(order);
        for (double[] row : v) {
            outs.add(new double[][] {row});
        }
        return Spread.ofLevels(outs);
    }

    /** Whether every row is a standard basis vector and no two rows are equal (a histogram's answers). */
    static boolean isOneHot(PointSet q) {
        if (q.dim() != q.size()) {
            return false;
        }
        boolean[] used = new boolean[q.dim()];
        for (int x = 0; x < q.size(); x++) {
            int one = -1;
            for (int c = 0; c < q.dim(); c++) {
                double v = q.get(x, c);
                if (v == 1 && one < 0) {
                    one = c;
                } else if (v != 0) {
                    return false;
                }
            }
            if (one < 0 || used[one]) {
                return false;
            }
            used[one] = true;
        }
        return true;
    }

    /** Whether {@code C(k, d) <= limit}, without overflow. */
    static boolean binomialAtMost(int k, int d, long limit) {
        int r = Math.min(d, k - d);
        BigInteger c = BigInteger.ONE;
        for (int i = 1; i <= r; i++) {
            c = c.multiply(BigInteger.valueOf(k - r + i)).divide(BigInteger.valueOf(i));
            if (c.compareTo(BigInteger.valueOf(limit)) > 0) {
                return false;
            }
        }
        return true;
    }
}

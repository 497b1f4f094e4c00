package io.privacygateway.mechanisms.amplification;

import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * Certified amplification by shuffling: for n reports, each the output of an ε₀-LDP randomizer (on any inputs), any
 * function of the <em>multiset</em> of reports is (ε, δ)-DP with respect to changing one report, for the ε computed
 * here. Local-mode answers are such a function.
 *
 * <p><b>The reduction</b> (proofs in {@code docs/horizons.md}). Fix the report that changes, from input x⁰ to x¹, with
 * output distributions P₀, P₁, and the other n − 1 reports' inputs. Every other report's distribution contains a
 * "clone" part: with some probability it is drawn from one of two distributions W₀, W₁ (each with the same
 * probability), and P₀, P₁ themselves are mixtures of W₀ and W₁ with weights {@code (a, 1 − a)} and
 * {@code (1 − a)·…}. The multiset is then a post-processing of the pair (number of W₀ draws, number of W₁ draws), and
 * (ε, δ)-indistinguishability of that pair under x⁰ and x¹ suffices. With {@code C ~ Binomial(n − 1, r)} clones,
 * {@code A ~ Binomial(C, 1/2)} of them W₀, and the changing report W₀ with probability a:
 * <ul>
 *   <li>{@link Method#CLONES} (Feldman, McMillan and Talwar, "Hiding among the clones", FOCS 2021, the stronger clone
 *       bound): {@code r = e^{−ε₀}}, {@code a = e^{ε₀}/(e^{ε₀} + 1)}; holds for every ε₀-LDP randomizer.</li>
 *   <li>{@link Method#VARIATION_RATIO} (Wang, Peng, Li, Wen, Li, Yu, Wang and Yang, "Privacy amplification via
 *       shuffling: unified, simplified, and tightened", VLDB 2024, with their parameters
 *       {@code (p, β, q) = (e^{ε₀}, (e^{ε₀} − 1)/(e^{ε₀} + 1), e^{ε₀})} for ε₀-LDP): {@code r = 2/(e^{ε₀} + 1)}, the same
 *       a. Twice as many clones per type, so about √2 smaller ε for large n.</li>
 * </ul>
 *
 * <p><b>Numerics, all in the safe direction.</b> δ(ε) is the hockey-stick divergence
 * {@code Σ_K P(C + 1 = K)·Σ_k [P(k | K) − e^ε·Q(k | K)]₊}, summed term by term from the mode outwards with every term's
 * positive part (so a misplaced threshold can only add), geometric bounds on both truncated tails added, and the whole
 * multiplied by {@code 1 + 10⁻⁶} to cover rounding (probabilities from {@link BinomialDistribution#logProbability}
 * and recurrences, accurate to far better than 10⁻⁸ relative). ε₀ is rounded up from its exact decimal, a rounded up,
 * the clone rate r rounded down and {@code e^ε} rounded down: each makes δ(ε) larger (a larger a is a mixture of the
 * smaller one with a symmetric part; fewer clones are a post-processing of more). The binary search on ε keeps as its
 * answer only values where the computed bound was at most δ, and never returns more than ε₀ (which holds with δ = 0).
 *
 * <p><b>Several reports of one device</b> in the same window ({@link #amplified}): changing k reports is k changes of
 * one report each, with all other reports (the device's own included) as the crowd, so by the group property of
 * (ε₁, δ₁)-DP the multiset is {@code (k·ε₁, δ₁·Σ_{i<k} e^{i·ε₁})}-DP; ε₁ is searched so that this δ is at most the
 * declared δ. (The k reports are one shuffle, not k independent releases, so composition theorems do not apply; the
 * group argument does.) The sum is computed in closed form, {@code (e^{k·ε₁} − 1)/(e^{ε₁} − 1)}, rounded upwards, so
 * any k is accepted (a span of a day with a report every 62.5 ms has k = 1,382,400); for large k the search usually
 * finds no ε₁ and the answer is the unamplified {@code k·ε₀}, which is then the honest figure.
 *
 * <p><b>Every input a valid workload can produce is accepted</b>: any {@code n >= 1} (beyond
 * {@link #MAX_COMPUTED_REPORTS} the bound is computed for that many reports, valid for more, see {@link #roundDown}),
 * any {@code k >= 1}, every ε₀ of an {@link Epsilon} and every δ in (0, 1).
 */
public final class AmplificationBound {
    /** Relative inflation of every computed δ, covering floating-point rounding. */
    static final double ROUNDING_SLACK = 1e-6;
    private static final int SEARCH_STEPS = 34;
    private static final Map<Key, AmplifiedGuarantee> CACHE = new ConcurrentHashMap<>();
    private static final int CACHE_LIMIT = 4096;
    /**
     * The largest n the bound is computed for: a larger crowd is given the guarantee of this many reports (valid, see
     * {@link #roundDown}; at ε₀ = 2, δ = 10⁻⁶ that is ε ≈ 7·10⁻⁴ instead of about 10⁻⁴ at n = 2·10⁹). It bounds the
     * uncached computation to a few seconds; the exact sums grow with √n (about a minute at n = 2·10⁹).
     */
    public static final long MAX_COMPUTED_REPORTS = 100_000_000L;

    private AmplificationBound() {}

    /** The numerical bounds. */
    public enum Method {
        /** Feldman, McMillan and Talwar (FOCS 2021), the stronger clone reduction. */
        CLONES("clones"),
        /** Wang et al. (VLDB 2024), the variation-ratio reduction. */
        VARIATION_RATIO("variation-ratio");

        private final String wireName;

        Method(String wireName) {
            this.wireName = wireName;
        }

        /** The name published in {@code amplified.method}. */
        public String wireName() {
            return wireName;
        }
    }

    private record Key(double eps0, long n, long k, double delta) {}

    /**
     * Whether a local mechanism's answers are a function of the multiset of report <em>payloads</em> alone, which the
     * amplification theorems need: generalized randomized response, optimized unary encoding, subset selection,
     * Hadamard response, workload factorization (one output of a strategy fixed by the workload, no coins) and the
     * Fourier marginals oracle (a block and its randomized bits, no coins). Not the mechanisms whose reports are read with public coins derived from the device's
     * coordinates (OLH's hash, the tree's level, the Gaussian-sign directions of projection, coarse projection and
     * chaining): there the gateway aggregates (coins, payload) pairs, and anyone who can compute a device's coins can
     * single out its report, so shuffling hides nothing and no amplified guarantee may be published.
     */
    public static boolean appliesTo(MechanismId mechanism) {
        return switch (Require.nonNull("mechanism", mechanism)) {
            case GRR, OUE, SUBSET_SELECTION, HADAMARD_RESPONSE, FACTORIZATION, FOURIER -> true;
            default -> false;
        };
    }

    /**
     * The amplified guarantee of a local-mode window: the smaller of the two methods' ε for n rounded down to three
     * significant digits ({@link #roundDown}), cached by (ε₀, rounded n, k, δ). A few hundred milliseconds at n = 10⁶
     * when not cached.
     *
     * @param epsilonPerReport ε₀ of every report (the exact declared value; rounded up here)
     * @param reports n, the number of reports the answer is computed from ({@code >= 1}; computed as at most
     *     {@link #MAX_COMPUTED_REPORTS})
     * @param reportsPerDeviceInWindow k, the most reports one device may have in the window ({@code >= 1}, any size)
     * @param delta the declared δ, in {@code (0, 1)}
     */
    public static AmplifiedGuarantee amplified(Epsilon epsilonPerReport, long reports, long reportsPerDeviceInWindow,
            double delta) {
        Require.nonNull("epsilonPerReport", epsilonPerReport);
        double eps0 = DirectedDoubles.ceil(epsilonPerReport.exact());
        Require.inRange("reports", reports, 1, Long.MAX_VALUE);
        Require.inRange("reportsPerDeviceInWindow", reportsPerDeviceInWindow, 1, Long.MAX_VALUE);
        Require.inOpenRange("delta", delta, 0, 1);
        long rounded = roundDown(Math.min(reports, MAX_COMPUTED_REPORTS));
        Key key = new Key(eps0, rounded, reportsPerDeviceInWindow, delta);
        AmplifiedGuarantee hit = CACHE.get(key);
        if (hit != null) {
            return hit;
        }
        AmplifiedGuarantee best = null;
        for (Method m : Method.values()) {
            AmplifiedGuarantee g = amplified(m, eps0, rounded, reportsPerDeviceInWindow, delta);
            if (best == null || g.epsilon() < best.epsilon()) {
                best = g;
            }
        }
        best = new AmplifiedGuarantee(best.epsilon(), delta, best.method(), reportsPerDeviceInWindow, reports);
        if (CACHE.size() >= CACHE_LIMIT) {
            CACHE.clear();
        }
        CACHE.put(key, best);
        return best;
    }

    /**
     * n rounded down to three significant digits (at most 1% fewer reports). Safe: a multiset of more reports is a
     * post-processing of a multiset of fewer (add the extra reports, drawn independently of the changing one), so a
     * guarantee for fewer reports holds for more. It makes the cache useful from window to window.
     */
    static long roundDown(long n) {
        long scale = 1;
        while (n / scale >= 1000) {
            scale *= 10;
        }
        return n / scale * scale;
    }

    /**
     * One method's guarantee for k reports of one device among n, each ε₀-LDP.
     *
     * @param eps0 an upper bound on ε₀, finite, {@code > 0}, at most {@link Epsilon#MAX}
     * @param reports n, {@code >= 1}; computed as {@code min(n, }{@link #MAX_COMPUTED_REPORTS}{@code )}
     * @param reportsPerDeviceInWindow k, {@code >= 1}
     */
    public static AmplifiedGuarantee amplified(Method method, double eps0, long reports, long reportsPerDeviceInWindow,
            double delta) {
        Require.nonNull("method", method);
        Require.inHalfOpenRange("eps0", eps0, 0, Epsilon.MAX);
        Require.inRange("reports", reports, 1, Long.MAX_VALUE);
        Require.inRange("reportsPerDeviceInWindow", reportsPerDeviceInWindow, 1, Long.MAX_VALUE);
        Require.inOpenRange("delta", delta, 0, 1);
        long k = reportsPerDeviceInWindow;
        long n = Math.min(reports, MAX_COMPUTED_REPORTS);
        // terms below this are bounded geometrically; never 0 (a δ near Double.MIN_VALUE would otherwise sum every
        // term of Binomial(n − 1, r), n boxed weights), and MIN_NORMAL is far below any δ the bound can then certify
        double negligible = Math.max(delta * 1e-9, Double.MIN_NORMAL);
        double lo = 0;
        double hi = eps0;
        // stop at 10⁻⁵ relative: the answer is the upper end, where the bound was verified
        for (int step = 0; step < SEARCH_STEPS && hi - lo > 1e-5 * hi; step++) {
            double mid = (lo + hi) / 2;
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (groupDelta(method, eps0, n, k, mid, negligible) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        // k·ε rounded up exactly (k may exceed 2^53); the verified ε₁ one step up, as before
        double cap = Math.nextUp(timesUp(k, eps0));
        double total = hi == eps0 ? timesUp(k, eps0) : Math.nextUp(timesUp(k, hi));
        return new AmplifiedGuarantee(Math.min(total, cap), delta, method.wireName(), k, reports);
    }

    /** The smallest double {@code >= k·x}, exactly. */
    private static double timesUp(long k, double x) {
        return DirectedDoubles.ceil(new BigDecimal(k).multiply(new BigDecimal(x)));
    }

    /** An upper bound on {@code δ₁(ε₁)·Σ_{i<k} e^{i·ε₁}} (any {@code k >= 1}; +∞ when the sum overflows). */
    static double groupDelta(Method method, double eps0, long n, long k, double eps1, double negligible) {
        double d = delta(method, eps0, n, eps1, negligible);
        if (k == 1 || d == 0) {
            return d;
        }
        return Math.nextUp(d * geometricSumUpper(k, eps1));
    }

    /**
     * An upper bound on {@code Σ_{i<k} e^{i·x} = (e^{k·x} − 1)/(e^x − 1)} for {@code k >= 2}, {@code x > 0}: the
     * exponent {@code k·x} rounded up exactly, {@code expm1} (fdlibm, error below one ulp of the exact value) stepped
     * two doubles up in the numerator and two down in the denominator (two steps cover a result just below a power of
     * two, where the exact value's ulp is twice the result's), the quotient one step up. +∞ when the numerator
     * overflows or the denominator is not certainly positive (a valid, useless bound).
     */
    static double geometricSumUpper(long k, double x) {
        double num = Math.nextUp(Math.nextUp(StrictMath.expm1(timesUp(k, x))));
        double den = Math.nextDown(Math.nextDown(StrictMath.expm1(x)));
        if (!(den > 0) || !Double.isFinite(num)) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.nextUp(num / den);
    }

    /**
     * An upper bound on the hockey-stick divergence {@code δ(ε)} of the method's reduction for n reports of an ε₀-LDP
     * randomizer (0 for {@code ε >= ε₀}).
     */
    public static double delta(Method method, double eps0, long n, double eps) {
        return delta(method, eps0, n, eps, 1e-300);
    }

    /**
     * {@link #delta(Method, double, long, double)}, summing terms only down to about {@code negligible} and bounding
     * the rest geometrically (the result stays an upper bound; a larger {@code negligible} only makes it faster and
     * looser by about that much).
     */
    static double delta(Method method, double eps0, long n, double eps, double negligible) {
        Require.inHalfOpenRange("eps0", eps0, 0, Epsilon.MAX);
        Require.inRange("n", n, 1, Integer.MAX_VALUE);
        Require.finiteNonNegative("eps", eps);
        if (eps >= eps0) {
            return 0;
        }
        double p = Math.nextUp(Math.exp(eps0));
        double a = Math.min(1, Math.nextUp(p / (p + 1)));
        double rate = switch (method) {
            case CLONES -> Math.nextDown(Math.exp(-eps0));
            case VARIATION_RATIO -> Math.nextDown(2 / (p + 1));
        };
        double e = Math.nextDown(Math.exp(eps));
        return hockeyStick(n, Math.max(0, rate), a, e, negligible);
    }

    /**
     * {@code Σ_{s} Binomial(n − 1, rate)(s)·I(s + 1)} with I the inner divergence for K = s + 1 draws of W₀/W₁,
     * bounded above (see the class comment).
     */
    static double hockeyStick(long n, double rate, double a, double e, double negligible) {
        double b = 1 - a;
        double up = a - e * b;
        double down = e * a - b;
        if (!(up > 0)) {
            return 0;
        }
        long others = n - 1;
        if (others == 0 || rate == 0) {
            return inflate(inner(1, a, b, e, negligible));
        }
        BinomialDistribution outer = BinomialDistribution.of((int) others, rate);
        long mode = Math.min(others, (long) Math.floor((others + 1) * rate));
        double wMode = Math.exp(outer.logProbability((int) mode));
        // the weights from the mode outwards until negligible, with geometric bounds on the rest
        double remainder = 0;
        long hiS = mode;
        double w = wMode;
        ArrayList<Double> upward = new ArrayList<>();
        upward.add(wMode);
        for (long s = mode + 1; s <= others; s++) {
            w *= (double) (others - s + 1) / s * rate / (1 - rate);
            upward.add(w);
            hiS = s;
            double ratio = (double) (others - s) / (s + 1) * rate / (1 - rate);
            if (ratio < 0.999 && w < negligible && w * ratio / (1 - ratio) < negligible) {
                remainder += w * ratio / (1 - ratio);
                break;
            }
        }
        long loS = mode;
        w = wMode;
        ArrayList<Double> downward = new ArrayList<>();
        for (long s = mode - 1; s >= 0; s--) {
            w *= (double) (s + 1) / (others - s) * (1 - rate) / rate;
            downward.add(w);
            loS = s;
            double ratio = (double) s / (others - s + 1) * (1 - rate) / rate;
            if (ratio < 0.999 && w < negligible && w * ratio / (1 - ratio) < negligible) {
                remainder += w * ratio / (1 - ratio);
                break;
            }
        }
        int len = (int) (hiS - loS + 1);
        double[] weight = new double[len];
        for (int i = 0; i < downward.size(); i++) {
            weight[(int) (mode - 1 - i - loS)] = downward.get(i);
        }
        for (int i = 0; i < upward.size(); i++) {
            weight[(int) (mode + i - loS)] = upward.get(i);
        }
        // The inner divergence does not increase with the number of clones (one more fair clone is a post-processing
        // applied alike under both inputs), so a block of s values is bounded by its smallest: blocks of 1/32 of the
        // clone count's standard deviation, aligned to multiples of their size (a few hundred inner sums).
        long block = Math.max(1, (long) (Math.sqrt(others * rate * (1 - rate)) / 32));
        double total = 0;
        long s = loS;
        while (s <= hiS) {
            long end = Math.min(hiS, (s / block + 1) * block - 1);
            double mass = 0;
            for (long t = s; t <= end; t++) {
                mass += weight[(int) (t - loS)];
            }
            total += mass * inner(s + 1, a, b, e, negligible);
            s = end + 1;
        }
        return inflate(total) + Math.nextUp(remainder * 1.01);
    }

    private static double inflate(double x) {
        return Math.nextUp(x * (1 + ROUNDING_SLACK));
    }

    /**
     * {@code Σ_k [P(k | K) − e·Q(k | K)]₊} where k ~ Binomial(K, 1/2) weighted by {@code (a·k + b·(K − k))·2/K} under
     * P and {@code (b·k + a·(K − k))·2/K} under Q: the divergence given K draws, the changing report among them.
     */
    static double inner(long kk, double a, double b, double e, double negligible) {
        double up = a - e * b;
        double down = e * a - b;
        double slope = up + down;
        double theta = down / slope;
        long start = Math.max(0, (long) Math.floor(theta * kk) - 1);
        if (start > kk) {
            return 0;
        }
        BinomialDistribution half = BinomialDistribution.of((int) kk, 0.5);
        double bk = Math.exp(half.logProbability((int) start));
        if (bk == 0) {
            // below the smallest double: Hoeffding, P(k >= start) <= exp(−2(start − K/2)²/K), each term <= 2·slope
            double d = Math.max(0, start - kk / 2.0);
            return Math.nextUp(2 * slope * Math.exp(-2 * d * d / kk)) + Double.MIN_NORMAL;
        }
        double sum = 0;
        for (long k = start; k <= kk; k++) {
            if (k > start) {
                bk *= (double) (kk - k + 1) / k;
            }
            double term = bk * (up * k - down * (kk - k)) * 2 / kk;
            if (term > 0) {
                sum += term;
            }
            if (k > kk / 2 + 1 && bk * slope * 2 < negligible * 1e-3) {
                double ratio = (double) (kk - k) / (k + 1);
                if (ratio < 1) {
                    sum += bk * slope * kk * 2 / kk * ratio / (1 - ratio);
                    break;
                }
            }
        }
        return sum;
    }
}

package io.privacygateway.mechanisms.local.vector;

import org.apache.commons.numbers.gamma.Erf;
import org.apache.commons.numbers.gamma.Erfc;

/**
 * The expected order statistics of {@code M} independent half-normal variables {@code |h|}, {@code h ~ N(0, 1)}:
 * {@code a_r = E[|h|_(r:M)]} and {@code b_r = E[|h|²_(r:M)]}, {@code r = 1..M} in <em>descending</em> order
 * ({@code r = 1} is the largest). {@link BallCandidates} needs them for {@code M = N/2 ≤ 128}: the top set's
 * scores are the {@code s} largest {@code |⟨c_j, x̃⟩|}.
 *
 * <p><b>Method.</b> With {@code F(x) = erf(x/√2)} the half-normal distribution function, {@code f(x) = 2φ(x)} its
 * density, the {@code r}-th largest of {@code M} has density
 * {@code M·C(M−1, r−1)·(1 − F)^{r−1}·F^{M−r}·f}. Its first two moments are integrated over {@code x ∈ [0, 10]}
 * after the substitution {@code x = 10·v²} (which puts points where the smallest order statistics live,
 * near 0 with a width of about {@code 1/M}) by composite Simpson's rule on {@value #INTERVALS} intervals of
 * {@code v}; at each point the term of the binomial mode is evaluated in logarithms ({@code 1 − F} by {@code erfc}, so
 * the upper tail keeps its relative accuracy) and the others by the ratio of consecutive terms. The cut at 10 drops at most {@code M·P(|h| > 10)·(10 + 1)² < 10^-18}.
 *
 * <p><b>Accuracy.</b> About {@code 10^-12} absolute for every {@code a_r, b_r} with {@code M ≤ 128}, checked by
 * the identities {@code Σ_r a_r = M·√(2/π)} and {@code Σ_r b_r = M}, the closed forms for {@code M = 1, 2}
 * ({@code E|h| = √(2/π)}, {@code E max(|h₁|, |h₂|) = 2/√π}, {@code E max(h₁², h₂²) = 1 + 2/π}) and a Monte Carlo
 * comparison ({@code HalfNormalOrderStatisticsTest}). The values only choose parameters and scale estimates:
 * privacy never depends on them.
 *
 * <p>Computed once per {@code M} (a few milliseconds for {@code M = 128}) and cached; thread-safe.
 */
final class HalfNormalOrderStatistics {
    /** Largest {@code M} ({@code N = 256} candidates). */
    static final int MAX_M = 128;
    /** Simpson intervals in {@code v}. */
    static final int INTERVALS = 4096;
    /** The upper end of the integration in {@code x}. */
    static final double X_MAX = 10;

    private static final double LOG_SQRT_2_OVER_PI = 0.5 * StrictMath.log(2 / Math.PI);
    private static final double[][][] CACHE = new double[8][][];

    private HalfNormalOrderStatistics() {}

    /**
     * {@code {a, b}}: {@code a[r−1] = E[|h|_(r:M)]}, {@code b[r−1] = E[|h|²_(r:M)]} for {@code r = 1..M},
     * descending; {@code M} a power of two in {@code [1, 128]}. The arrays are shared: do not modify.
     */
    static double[][] moments(int m) {
        if (m < 1 || m > MAX_M || Integer.bitCount(m) != 1) {
            throw new IllegalArgumentException("M must be a power of two in [1, " + MAX_M + "], got " + m);
        }
        int slot = Integer.numberOfTrailingZeros(m);
        synchronized (CACHE) {
            if (CACHE[slot] == null) {
                CACHE[slot] = compute(m);
            }
            return CACHE[slot];
        }
    }

    /** The prefix sums {@code A_s = Σ_{r≤s} a_r}, {@code s = 0..M} (length {@code M + 1}). */
    static double[] prefix(double[] values) {
        double[] out = new double[values.length + 1];
        for (int r = 0; r < values.length; r++) {
            out[r + 1] = out[r] + values[r];
        }
        return out;
    }

    /** The integration itself (no cache): for tests of other {@code M}. */
    static double[][] compute(int m) {
        double[] logCoefficient = new double[m + 1];
        // log(M·C(M−1, r−1)) by running sums of logs, r = 1..M
        double logBinomial = 0;
        for (int r = 1; r <= m; r++) {
            if (r > 1) {
                logBinomial += StrictMath.log((double) (m - r + 1)) - StrictMath.log((double) (r - 1));
            }
            logCoefficient[r] = StrictMath.log(m) + logBinomial;
        }
        double[] a = new double[m];
        double[] b = new double[m];
        double h = 1.0 / INTERVALS;
        for (int i = 1; i <= INTERVALS; i++) { // v = 0 contributes 0 (the Jacobian 2·X·v vanishes)
            double v = i * h;
            double weight = (i == INTERVALS ? 1 : (i % 2 == 1 ? 4 : 2)) * h / 3;
            double x = X_MAX * v * v;
            double z = x / Math.sqrt(2);
            double below = Erf.value(z);
            double tail = Erfc.value(z);
            double w = weight * 2 * X_MAX * v;
            // the terms M·C(M−1, r−1)·tail^{r−1}·below^{M−r}·f: one exp at the binomial mode, ratios either side
            int mode = (int) Math.min(m, Math.floor(m * tail) + 1);
            double log = logCoefficient[mode] + LOG_SQRT_2_OVER_PI - 0.5 * x * x;
            if (mode > 1) {
                log += (mode - 1) * StrictMath.log(tail);
            }
            if (mode < m) {
                log += (m - mode) * StrictMath.log(below);
            }
            double peak = StrictMath.exp(log) * w;
            double up = tail / below;
            double term = peak;
            for (int r = mode; r <= m && term > 0; r++) {
                a[r - 1] += x * term;
                b[r - 1] += x * x * term;
                term *= (m - r) / (double) r * up;
            }
            term = peak;
            for (int r = mode - 1; r >= 1 && term > 0; r--) {
                term *= r / (double) (m - r) / up;
                a[r - 1] += x * term;
                b[r - 1] += x * x * term;
            }
        }
        return new double[][] {a, b};
    }
}

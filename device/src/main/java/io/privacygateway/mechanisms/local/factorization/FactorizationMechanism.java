package io.privacygateway.mechanisms.local.factorization;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A workload-adaptive local randomizer (workload factorization, McKenna et al., VLDB 2020; see
 * {@link StrategyOptimizer}): an optimised strategy {@code Q} (p outputs × n values), rounded to integer weights on a
 * {@code 2^gridBits} grid, sampled with one exact uniform integer, and the unbiased weighted least-squares
 * reconstruction {@code x̂ = (QᵀD⁻¹Q)⁻¹QᵀD⁻¹ y/N} at the gateway.
 *
 * <p><b>Exact law.</b> {@code P(o | x) = w[o][x] / 2^gridBits} with integer weights summing to {@code 2^gridBits} in
 * every column: the device draws {@code u = uniformInt(2^gridBits)} and reports the output whose cumulative weight
 * interval contains {@code u} — one draw, the same for every value.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: for every output row, {@code max_x w[o][x] <= L · min_x w[o][x]} with
 * {@code L <= e^ε} a certified lower bound, checked on the integers at construction. The optimiser's real-valued
 * {@code Q} has row ratios at most {@code e^ε}; before rounding it is mixed with the uniform strategy by the smallest
 * {@code λ ∈ {0, 2^-20, 2^-19, …, 1/2, 1}} for which the rounded weights pass the exact check (at λ = 1 every
 * column is the same, which passes whenever {@code p <= 2^g}, so one always does).
 *
 * <p><b>Unbiasedness.</b> The reconstruction uses the rounded weights, and any left inverse of {@code Q} is unbiased:
 * {@code E[x̂] = x} exactly (up to floating point).
 */
public final class FactorizationMechanism {
    private final Epsilon epsilon;
    private final int values;
    private final int outputs;
    private final int gridBits;
    private final long[][] weights; // [o][x]
    private final long[][] cumulative; // [x][o]: exclusive upper end of o's interval
    private final double[][] reconstruction; // n × p
    private final double lossPerUser;
    private final double mixing;

    /**
     * @param workload W (queries × n values)
     * @param epsilon per-report ε
     * @param outputs p (e.g. 4n)
     * @param iterations optimiser iterations
     * @param gridBits weight grid, in {@code [8, 30]}
     * @param seed the optimiser's start (public; part of the mechanism's definition)
     */
    public FactorizationMechanism(double[][] workload, Epsilon epsilon, int outputs, int iterations, int gridBits,
            long seed) {
        this(StrategyOptimizer.withSearchedKFor(workload, epsilon.value(), outputs, seed), workload[0].length, epsilon,
                outputs, iterations, gridBits, seed);
    }

    /**
     * The same mechanism from the workload's Gram matrix {@code WᵀW} alone (all the optimiser reads of W): equal,
     * bit for bit, to the one built from W whenever {@code gram} is {@code WᵀW} summed over the queries in order.
     *
     * @param gram {@code WᵀW}, n × n
     */
    public static FactorizationMechanism fromGram(double[][] gram, Epsilon epsilon, int outputs, int iterations,
            int gridBits, long seed) {
        return new FactorizationMechanism(StrategyOptimizer.withSearchedK(gram, epsilon.value(), outputs, seed),
                gram.length, epsilon, outputs, iterations, gridBits, seed);
    }

    /**
     * {@link #fromGram} with K fixed at {@link StrategyOptimizer#defaultK} instead of searched: the strategy of
     * factorization protocol version 1 (wire format {@code pgw-wfm-v1}), kept so a gateway can serve that version.
     */
    public static FactorizationMechanism fromGramWithDefaultK(double[][] gram, Epsilon epsilon, int outputs,
            int iterations, int gridBits, long seed) {
        return new FactorizationMechanism(StrategyOptimizer.ofGram(gram, epsilon.value(), outputs,
                StrategyOptimizer.defaultK(epsilon.value(), outputs)), gram.length, epsilon, outputs, iterations,
                gridBits, seed);
    }

    private FactorizationMechanism(StrategyOptimizer opt, int values, Epsilon epsilon, int outputs, int iterations,
            int gridBits, long seed) {
        if (gridBits < 8 || gridBits > 30) {
            throw new IllegalArgumentException("gridBits must be in [8, 30], got " + gridBits);
        }
        if (outputs > (1L << gridBits)) {
            throw new IllegalArgumentException("outputs must be at most 2^gridBits = " + (1L << gridBits) + ", got "
                    + outputs + ": an output with weight 0 cannot pass the ratio check");
        }
        this.epsilon = epsilon;
        this.values = values;
        this.outputs = outputs;
        this.gridBits = gridBits;
        double[][] q = opt.strategy(opt.optimise(iterations, seed));
        Mixed mixed = mix(q, ExpBounds.lowerBoundOfExp(epsilon), gridBits);
        long[][] w = mixed.weights();
        this.mixing = mixed.lambda();
        this.weights = w;
        this.cumulative = new long[values][outputs];
        for (int x = 0; x < values; x++) {
            long c = 0;
            for (int o = 0; o < outputs; o++) {
                c += w[o][x];
                cumulative[x][o] = c;
            }
        }
        double[][] qr = new double[outputs][values];
        double scale = Math.scalb(1.0, -gridBits);
        for (int o = 0; o < outputs; o++) {
            for (int x = 0; x < values; x++) {
                qr[o][x] = w[o][x] * scale;
            }
        }
        this.lossPerUser = opt.lossOf(qr) / values;
        // V = (QᵀD⁻¹Q)⁻¹ QᵀD⁻¹
        double[] d = new double[outputs];
        for (int o = 0; o < outputs; o++) {
            for (int x = 0; x < values; x++) {
                d[o] += qr[o][x];
            }
        }
        double[][] qtd = new double[values][outputs];
        for (int o = 0; o < outputs; o++) {
            for (int x = 0; x < values; x++) {
                qtd[x][o] = qr[o][x] / d[o];
            }
        }
        double[][] m = Dense.multiply(qtd, qr);
        double[][] mi = Dense.inverseSpd(m);
        if (mi == null) {
            throw new IllegalStateException("the strategy does not identify the data (QᵀD⁻¹Q is singular)");
        }
        this.reconstruction = Dense.multiply(mi, qtd);
    }

    /**
     * The weights {@code ((1−λ)·q + λ/p)·2^g} of each column, floored, then the column's remaining units (so that
     * it sums to {@code 2^g} exactly) given one each to the outputs with the largest fractional parts (ties to the
     * lower output). A column may sum to slightly below 1 by rounding, leaving up to p units; more, or a sum above
     * 1, means it was not a probability column.
     */
    static long[][] round(double[][] q, double lambda, int gridBits) {
        int outputs = q.length;
        int values = q[0].length;
        long one = 1L << gridBits;
        long[][] w = new long[outputs][values];
        for (int x = 0; x < values; x++) {
            double[] frac = new double[outputs];
            long sum = 0;
            for (int o = 0; o < outputs; o++) {
                double v = ((1 - lambda) * q[o][x] + lambda / outputs) * one;
                long f = (long) Math.floor(v);
                w[o][x] = f;
                frac[o] = v - f;
                sum += f;
            }
            long left = one - sum;
            if (left < 0 || left > outputs) {
                throw new IllegalStateException("the strategy's column " + x + " does not sum to 1");
            }
            while (left > 0) { // largest remainders first (ties to the lower output)
                int best = 0;
                for (int o = 1; o < outputs; o++) {
                    if (frac[o] > frac[best]) {
                        best = o;
                    }
                }
                w[best][x]++;
                frac[best] = -1;
                left--;
            }
        }
        return w;
    }

    /** Rounded weights that passed the exact ratio check, and the mixing weight λ that made them pass. */
    record Mixed(long[][] weights, double lambda) {}

    /**
     * The rounding of {@code (1−λ)·q + λ·uniform} for the smallest λ of 0, 2^-20, 2^-19, …, 1/2, 1 that passes
     * {@link #passes}. At λ = 1 every column is the same, so every row is constant and, as {@code p <= 2^g}, every
     * weight is at least 1: the last step always passes.
     */
    static Mixed mix(double[][] q, BigDecimal bound, int gridBits) {
        double lambda = 0;
        long[][] w = round(q, 0, gridBits);
        for (int j = -20; !passes(w, bound); j++) {
            if (j > 0) { // unreachable for p <= 2^g (see above)
                throw new IllegalStateException("no rounding of the strategy passed the exact ratio check");
            }
            lambda = Math.scalb(1.0, j);
            w = round(q, lambda, gridBits);
        }
        return new Mixed(w, lambda);
    }

    /**
     * The exact privacy check on the integers: every weight is at least 1 (an output that can never occur would
     * leave the reconstruction undefined) and in every row {@code max <= bound·min}.
     */
    static boolean passes(long[][] w, BigDecimal bound) {
        for (long[] row : w) {
            long[] extremes = minAndMax(row);
            long min = extremes[0];
            long max = extremes[1];
            if (min <= 0 || new BigDecimal(max).compareTo(bound.multiply(new BigDecimal(min))) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A row's smallest and largest weight, as {@code {min, max}}: what the privacy check ({@link #passes}) and the
     * diagnostics ({@link #worstRatio}) both read. An empty row gives {@code {Long.MAX_VALUE, Long.MIN_VALUE}}.
     */
    static long[] minAndMax(long[] row) {
        long max = Long.MIN_VALUE;
        long min = Long.MAX_VALUE;
        for (long v : row) {
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        return new long[] {min, max};
    }

    /** Device side: the output for value x, from one exact uniform draw. */
    public int randomize(int x, SecretDraws draws) {
        if (x < 0 || x >= values) {
            throw new IllegalArgumentException("value must be in [0, " + values + "), got " + x);
        }
        long u = draws.uniformInt(1 << gridBits);
        long[] c = cumulative[x];
        int lo = 0;
        int hi = outputs - 1;
        while (lo < hi) { // the first output whose cumulative end exceeds u
            int mid = (lo + hi) >>> 1;
            if (c[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** The exact probability of output o for value x. */
    public Rational probability(int x, int o) {
        return Rational.of(BigInteger.valueOf(weights[o][x]), BigInteger.ONE.shiftLeft(gridBits));
    }

    /** {@code L(Q̃)/n}: the predicted per-user total variance of the workload's answers at uniform data. */
    public double perUserTotalVariance() {
        return lossPerUser;
    }

    /** The integer weight {@code w[o][x]}: {@code P(o | x) = w[o][x] / 2^gridBits}. */
    public long weight(int x, int o) {
        return weights[o][x];
    }

    /** The weights' grid: every column of weights sums to {@code 2^gridBits}. */
    public int gridBits() {
        return gridBits;
    }

    /**
     * The reconstruction coefficient {@code V[x][o]} of {@code x̂ = V y / N} ({@code V = (QᵀD⁻¹Q)⁻¹QᵀD⁻¹}, a left
     * inverse of the rounded strategy): one report of output o adds {@code V[x][o]} to {@code N·x̂_x}.
     */
    public double reconstruction(int x, int o) {
        return reconstruction[x][o];
    }

    public Epsilon epsilon() {
        return epsilon;
    }

    public int values() {
        return values;
    }

    public int outputs() {
        return outputs;
    }

    /** The uniform mixing weight λ the exact rounding needed. */
    public double mixing() {
        return mixing;
    }

    /** The largest exact row ratio {@code max w / min w} (for diagnostics). */
    public double worstRatio() {
        double r = 0;
        for (long[] row : weights) {
            long[] extremes = minAndMax(row);
            r = Math.max(r, extremes[1] / (double) extremes[0]);
        }
        return r;
    }
}

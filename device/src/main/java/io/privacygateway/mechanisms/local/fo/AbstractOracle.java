package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import java.util.function.ToDoubleFunction;

/** Shared parameter validation of the frequency oracles. */
abstract class AbstractOracle implements FrequencyOracle {
    /** Largest supported domain size {@code 2^24}. */
    static final int MAX_DOMAIN = 1 << 24;

    final int k;
    final Epsilon eps;

    AbstractOracle(int k, Epsilon eps) {
        Require.inRange("domainSize", k, 2, MAX_DOMAIN);
        this.k = k;
        this.eps = Require.nonNull("epsilon", eps);
    }

    @Override
    public final Epsilon epsilon() {
        return eps;
    }

    @Override
    public final int domainSize() {
        return k;
    }

    /**
     * Rejects an ε so small that the grid rounding leaves no signal ({@code p* <= q*}: the estimator
     * would divide by zero). Only happens for ε below about {@code k · 2^-53}.
     */
    final void requireInformative(double pStar, double qStar) {
        if (!(pStar > qStar)) {
            throw new IllegalArgumentException("epsilon=" + eps.value() + " is too small to be realised on the 2^-53"
                    + " probability grid for " + id().wireName() + " with domainSize=" + k);
        }
    }

    final void checkValue(int value) {
        Require.inRange("value", value, 0, k - 1);
    }

    final void checkState(long[] state) {
        if (state == null || state.length != stateLength()) {
            throw new IllegalArgumentException("state must have length " + stateLength() + ", got "
                    + (state == null ? "nothing" : Integer.toString(state.length)));
        }
    }

    static void checkN(long n) {
        Require.inRange("n", n, 1, Long.MAX_VALUE);
    }

    /**
     * Checks that the window size {@code n} given to {@code estimate} is the number of reports the state holds, for
     * oracles whose state records that number.
     *
     * @param accumulated the number of reports the state holds (computed by the caller from the state)
     * @param n the window size passed to {@code estimate}
     * @throws IllegalArgumentException if they differ
     */
    static void checkAccumulated(long accumulated, long n) {
        if (accumulated != n) {
            throw new IllegalArgumentException("n must equal the number of accumulated reports " + accumulated
                    + ", got " + n);
        }
    }

    /**
     * Accumulation for oracles whose state counts reports per payload index: adds one to the count of the index the
     * payload encodes ({@code width} bytes, in {@code [0, range)}).
     *
     * @return {@code false}, leaving {@code state} untouched, if the payload is malformed
     */
    final boolean countIndex(byte[] payload, int width, int range, long[] state) {
        checkState(state);
        int j = IndexCodec.decode(payload, width, range);
        if (j < 0) {
            return false;
        }
        state[j]++;
        return true;
    }

    /**
     * The checks of {@code estimate} for oracles whose state counts reports per payload index: the state's length,
     * {@code n >= 1}, and {@code n} equal to the sum of the counts.
     */
    final void checkIndexCounts(long[] state, long n) {
        checkState(state);
        checkN(n);
        long total = 0;
        for (long c : state) {
            total += c;
        }
        checkAccumulated(total, n);
    }

    final void checkVector(String field, double[] v) {
        if (v == null || v.length != k) {
            throw new IllegalArgumentException(field + " must have length " + k + ", got "
                    + (v == null ? "nothing" : Integer.toString(v.length)));
        }
        for (int i = 0; i < v.length; i++) {
            if (!Double.isFinite(v[i])) {
                throw new IllegalArgumentException(field + "[" + i + "] must be finite, got " + v[i]);
            }
        }
    }

    final void checkFrequencies(double[] f) {
        checkVector("frequencies", f);
        for (int i = 0; i < f.length; i++) {
            Require.inClosedRange("frequencies[" + i + "]", f[i], 0, 1);
        }
    }

    @Override
    public double[] variances(long n, double[] frequencies) {
        checkN(n);
        checkFrequencies(frequencies);
        return variancesAt(n, frequencies);
    }

    @Override
    public double queryVariance(long n, double[] frequencies, double[] coefficients) {
        checkN(n);
        checkFrequencies(frequencies);
        checkVector("coefficients", coefficients);
        return queryVarianceAt(n, frequencies, coefficients);
    }

    @Override
    public double[] queryVariances(long n, double[] frequencies, PointSet answers) {
        checkN(n);
        checkFrequencies(frequencies);
        Require.nonNull("answers", answers);
        if (answers.size() != k) {
            throw new IllegalArgumentException("answers must have one point per value (" + k + "), got "
                    + answers.size());
        }
        return queryVariancesAt(n, frequencies, answers);
    }

    @Override
    public double[] covarianceTimes(long n, double[] frequencies, double[] u) {
        checkN(n);
        checkFrequencies(frequencies);
        checkVector("u", u);
        return covarianceTimesAt(n, frequencies, u);
    }

    /**
     * {@link #covarianceTimes}, unvalidated. The default polarizes the quadratic form exactly:
     * {@code (Σu)_x = (Var(u + e_x) − Var(u − e_x)) / 4}, at the cost of {@code 2k} query variances.
     */
    double[] covarianceTimesAt(double n, double[] f, double[] u) {
        double[] out = new double[k];
        double[] c = u.clone();
        for (int x = 0; x < k; x++) {
            c[x] = u[x] + 1;
            double plus = queryVarianceAt(n, f, c);
            c[x] = u[x] - 1;
            double minus = queryVarianceAt(n, f, c);
            c[x] = u[x];
            out[x] = (plus - minus) / 4;
        }
        return out;
    }

    /** {@link #queryVariances}, unvalidated; the default evaluates {@link #queryVarianceAt} per query. */
    double[] queryVariancesAt(double n, double[] f, PointSet answers) {
        return perQuery(answers, c -> queryVarianceAt(n, f, c));
    }

    /**
     * {@code variance} of every query's coefficient column {@code c = (answers.get(x, q))_x}, in query order.
     * Preconditions: {@code answers} has {@code k} points; {@code variance} reads its argument only during the
     * call (one buffer serves every query).
     */
    final double[] perQuery(PointSet answers, ToDoubleFunction<double[]> variance) {
        int m = answers.dim();
        double[] out = new double[m];
        double[] c = new double[k];
        for (int q = 0; q < m; q++) {
            for (int x = 0; x < k; x++) {
                c[x] = answers.get(x, q);
            }
            out[q] = variance.applyAsDouble(c);
        }
        return out;
    }

    /** {@link #variances} for a (possibly fractional) number of reports {@code n > 0}, unvalidated. */
    abstract double[] variancesAt(double n, double[] f);

    /** {@link #queryVariance} for a (possibly fractional) number of reports {@code n > 0}, unvalidated. */
    abstract double queryVarianceAt(double n, double[] f, double[] c);
}

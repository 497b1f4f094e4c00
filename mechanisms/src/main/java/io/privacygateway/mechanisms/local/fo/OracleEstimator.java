package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Require;

/** The shared validation and defaults of the frequency oracles' estimators. */
abstract class OracleEstimator<O extends AbstractOracle> implements FrequencyOracleEstimator {
    final O o;
    final int k;

    OracleEstimator(O oracle) {
        this.o = Require.nonNull("oracle", oracle);
        this.k = oracle.domainSize();
    }

    @Override
    public final FrequencyOracle oracle() {
        return o;
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
     * The checks of {@code estimate} for oracles whose state counts reports per payload index: the state's length,
     * {@code n >= 1}, and {@code n} equal to the sum of the counts.
     */
    final void checkIndexCounts(long[] state, long n) {
        o.checkState(state);
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
        return o.perQuery(answers, c -> queryVarianceAt(n, f, c));
    }

    /** {@link #variances} for a (possibly fractional) number of reports {@code n > 0}, unvalidated. */
    abstract double[] variancesAt(double n, double[] f);

    /** {@link #queryVariance} for a (possibly fractional) number of reports {@code n > 0}, unvalidated. */
    abstract double queryVarianceAt(double n, double[] f, double[] c);
}

package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Statistical checks of the estimators against their closed forms, per oracle (seeded; {@link SeededRandomBits}
 * stands in for the secret source and for the public bases).
 *
 * <p>Data: a fixed non-uniform dataset over {@code k = 16} values (32 buckets for the tree) with a zero
 * count. Tested quantities: the {@code k} coordinates of {@code p̂} and three linear queries (a prefix sum,
 * a ±1 contrast, random weights), {@code m = k + 3} in all.
 *
 * <ul>
 *   <li><b>Unbiasedness</b> ({@link #unbiased}): one window of {@code n = 40,000} reports; each quantity is
 *       z-tested against the truth with the closed-form variance, two-sided at level {@code 1e-6/m}
 *       (Bonferroni), so a correct oracle fails with probability {@code <= 1e-6} (normal approximation).
 *   <li><b>Variance</b> ({@link #varianceMatchesClosedForm}): {@code R = 400} windows of {@code n = 1,000};
 *       for each quantity {@code T = Σ_r (est_r − truth)²/Var} is compared with the {@code χ²_R} quantiles
 *       at {@code 1e-6/(2m)} on each side (Bonferroni; false-failure probability {@code <= 1e-6} under the
 *       normal approximation). The band is about {@code [0.67 R, 1.36 R]}: the stated tolerance is that
 *       the empirical variance lies within roughly −33%/+36% of the closed form on every quantity, and the
 *       test also asserts that a factor-2 error in either direction would be detected on every quantity.
 * </ul>
 * Total false-failure probability of the class: {@code <= 1.2e-5} (12 tests of {@code 1e-6}).
 */
class FrequencyOracleEstimationTest {
    private static final double ALPHA = 1e-6;

    static FrequencyOracle oracle(MechanismId id) {
        Epsilon e = Epsilon.of(1.0);
        return id == MechanismId.TREE ? new TreeMechanism(32, e) : FrequencyOracles.create(id, 16, e);
    }

    /** A fixed dataset of n values with frequencies ∝ (x mod 5 + 1)·(1 + x/k), value 3 absent. */
    static int[] dataset(int k, int n) {
        double[] w = new double[k];
        double s = 0;
        for (int x = 0; x < k; x++) {
            w[x] = x == 3 ? 0 : (x % 5 + 1) * (1 + x / (double) k);
            s += w[x];
        }
        int[] values = new int[n];
        int pos = 0;
        for (int x = 0; x < k; x++) {
            int c = (int) Math.floor(n * w[x] / s);
            for (int i = 0; i < c; i++) {
                values[pos++] = x;
            }
        }
        while (pos < n) {
            values[pos++] = 0;
        }
        return values;
    }

    static double[] frequencies(int k, int[] values) {
        double[] f = new double[k];
        for (int v : values) {
            f[v] += 1.0 / values.length;
        }
        return f;
    }

    static List<double[]> queries(int k) {
        List<double[]> q = new ArrayList<>();
        double[] prefix = new double[k];
        double[] contrast = new double[k];
        double[] random = new double[k];
        RandomBits r = new SeededRandomBits(99);
        for (int x = 0; x < k; x++) {
            prefix[x] = x < k / 2 - 1 ? 1 : 0;
            contrast[x] = x % 2 == 0 ? 1 : -1;
            random[x] = (r.nextLong() >>> 11) * 0x1.0p-53;
        }
        q.add(prefix);
        q.add(contrast);
        q.add(random);
        return q;
    }

    static long[] run(FrequencyOracle o, int[] values, RandomBits secret, RandomBits bases) {
        long[] state = new long[o.stateLength()];
        for (int v : values) {
            long b = bases.nextLong();
            assertThat(o.accumulate(o.randomize(v, b, secret), b, state)).isTrue();
        }
        return state;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    @ParameterizedTest
    @EnumSource(value = MechanismId.class, names = {"GRR", "OUE", "OLH", "SUBSET_SELECTION", "HADAMARD_RESPONSE", "TREE"})
    void unbiased(MechanismId id) {
        FrequencyOracle o = oracle(id);
        int k = o.domainSize();
        int n = 40_000;
        int[] values = dataset(k, n);
        double[] f = frequencies(k, values);
        long[] state = run(o, values, new SeededRandomBits(1000 + id.ordinal()), new SeededRandomBits(2000 + id.ordinal()));
        double[] est = FrequencyOracleEstimator.of(o).estimate(state, n);
        double[] var = FrequencyOracleEstimator.of(o).variances(n, f);
        List<double[]> qs = queries(k);
        int m = k + qs.size();
        double zMax = NormalDistribution.of(0, 1).inverseSurvivalProbability(ALPHA / (2 * m));
        for (int x = 0; x < k; x++) {
            double z = (est[x] - f[x]) / Math.sqrt(var[x]);
            assertThat(Math.abs(z)).as("%s value %d: z", id, x).isLessThan(zMax);
        }
        for (int j = 0; j < qs.size(); j++) {
            double[] c = qs.get(j);
            double z = (dot(c, est) - dot(c, f)) / Math.sqrt(FrequencyOracleEstimator.of(o).queryVariance(n, f, c));
            assertThat(Math.abs(z)).as("%s query %d: z", id, j).isLessThan(zMax);
        }
    }

    @ParameterizedTest
    @EnumSource(value = MechanismId.class, names = {"GRR", "OUE", "OLH", "SUBSET_SELECTION", "HADAMARD_RESPONSE", "TREE"})
    void varianceMatchesClosedForm(MechanismId id) {
        FrequencyOracle o = oracle(id);
        int k = o.domainSize();
        int n = 1_000;
        int windows = 400;
        int[] values = dataset(k, n);
        double[] f = frequencies(k, values);
        List<double[]> qs = queries(k);
        int m = k + qs.size();
        double[] predicted = new double[m];
        double[] v = FrequencyOracleEstimator.of(o).variances(n, f);
        System.arraycopy(v, 0, predicted, 0, k);
        for (int j = 0; j < qs.size(); j++) {
            predicted[k + j] = FrequencyOracleEstimator.of(o).queryVariance(n, f, qs.get(j));
            // the per-value variances are the query variances of the unit vectors
            double[] unit = new double[k];
            unit[j] = 1;
            assertThat(FrequencyOracleEstimator.of(o).queryVariance(n, f, unit)).isCloseTo(v[j], org.assertj.core.data.Percentage.withPercentage(1e-6));
        }
        double[] t = new double[m];
        RandomBits secret = new SeededRandomBits(3000 + id.ordinal());
        RandomBits bases = new SeededRandomBits(4000 + id.ordinal());
        for (int r = 0; r < windows; r++) {
            double[] est = FrequencyOracleEstimator.of(o).estimate(run(o, values, secret, bases), n);
            for (int x = 0; x < k; x++) {
                double d = est[x] - f[x];
                t[x] += d * d / predicted[x];
            }
            for (int j = 0; j < qs.size(); j++) {
                double d = dot(qs.get(j), est) - dot(qs.get(j), f);
                t[k + j] += d * d / predicted[k + j];
            }
        }
        ChiSquaredDistribution chi = ChiSquaredDistribution.of(windows);
        double lo = chi.inverseCumulativeProbability(ALPHA / (2 * m));
        double hi = chi.inverseSurvivalProbability(ALPHA / (2 * m));
        double worst = 0;
        for (int i = 0; i < m; i++) {
            assertThat(t[i]).as("%s quantity %d: sum of squared z over %d windows", id, i, windows).isBetween(lo, hi);
            assertThat(t[i] / 2).as("a doubled variance would be detected").isLessThan(lo);
            assertThat(t[i] * 2).as("a halved variance would be detected").isGreaterThan(hi);
            worst = Math.max(worst, Math.abs(t[i] / windows - 1));
        }
        System.out.printf("%s: variance ratio empirical/closed-form within ±%.1f%% on %d quantities (band %.2f..%.2f)%n",
                id, 100 * worst, m, lo / windows, hi / windows);
    }
}

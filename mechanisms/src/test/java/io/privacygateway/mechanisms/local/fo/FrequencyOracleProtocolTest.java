package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The oracles as {@link io.privacygateway.mechanisms.local.LocalProtocol}s of workloads. The statistical
 * check ({@link #answersAreWithinTheirStandardErrors}) z-tests every query answer of a CDF workload with
 * Bonferroni over the 11 queries at overall level {@code 1e-6} per mechanism (seeded).
 */
class FrequencyOracleProtocolTest {
    static Workload workload(String family, Map<String, Object> domain) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "fo-test");
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return Workload.of(WorkloadSpecParser.parse(t));
    }

    static Workload cdf12() {
        List<Integer> edges = new ArrayList<>();
        for (int i = 0; i <= 12; i++) {
            edges.add(10 * i);
        }
        return workload("cdf", Map.of("buckets", edges));
    }

    @ParameterizedTest
    @EnumSource(value = MechanismId.class, names = {"GRR", "OUE", "OLH", "SUBSET_SELECTION", "HADAMARD_RESPONSE", "TREE"})
    void estimateHasTheContractedShape(MechanismId id) {
        Workload w = workload("histogram", Map.of("labels", List.of("a", "b", "c", "d", "e", "f")));
        FrequencyOracleProtocol p = FrequencyOracleProtocol.of(w, id, Epsilon.of(1.5));
        assertThat(p.id()).isEqualTo(id);
        assertDeclaredEpsilonIsRealised(p);
        assertThat(p.payloadBytes()).isEqualTo(p.oracle().payloadBytes());
        assertThat(p.stateLength()).isEqualTo(p.oracle().stateLength());
        RandomBits secret = new SeededRandomBits(1);
        long[] state = new long[p.stateLength()];
        long[] direct = new long[p.stateLength()];
        PublicCoins coins = new PublicCoins(w.contentHash());
        int n = 3_000;
        for (int i = 0; i < n; i++) {
            ReportCoordinates c = new ReportCoordinates("device-" + (i % 500), 7, i / 500);
            assertThat(p.publicBase(c)).isEqualTo(coins.base(c));
            byte[] y = p.randomize(i % 6, c, secret);
            assertThat(y).hasSize(p.payloadBytes());
            assertThat(p.accumulate(y, c, state)).isTrue();
            assertThat(p.oracle().accumulate(y, coins.base(c), direct)).isTrue();
        }
        assertThat(state).isEqualTo(direct);
        LocalEstimate est = LocalEstimators.of(p).estimate(state, n);
        assertThat(est.levels()).hasSize(1);
        assertThat(est.biasBound()).isZero();
        LocalEstimate.Level level = est.levels().get(0);
        double[] phat = FrequencyOracleEstimator.of(p.oracle()).estimate(state, n);
        assertThat(level.mean()).containsExactly(w.answersOf(phat));
        assertThat(level.hull()).isNull();
        assertThat(level.epsilon()).isEqualTo(p.epsilon().value()); // the ε checked on the distribution above
        assertThat(level.radius()).isZero();
        double[] f = FrequencyOracleProtocolEstimator.plugIn(phat);
        double max = 0;
        for (int q = 0; q < w.queryCount(); q++) {
            double[] c = new double[w.universeSize()];
            for (int x = 0; x < c.length; x++) {
                c[x] = w.points().get(x, q);
            }
            double se = Math.sqrt(FrequencyOracleEstimator.of(p.oracle()).queryVariance(n, f, c));
            assertThat(level.standardErrors()[q]).isCloseTo(se, within(1e-15));
            max = Math.max(max, se);
        }
        // noiseScale is √λ_max of the answers' covariance (power iteration, +5%): compare with the top
        // eigenvalue of the covariance matrix built entry by entry from the quadratic form.
        int m = w.queryCount();
        int k = w.universeSize();
        double[][] cov = new double[m][m];
        for (int q = 0; q < m; q++) {
            for (int r = 0; r < m; r++) {
                double[] plus = new double[k];
                double[] minus = new double[k];
                for (int x = 0; x < k; x++) {
                    plus[x] = w.points().get(x, q) + w.points().get(x, r);
                    minus[x] = w.points().get(x, q) - w.points().get(x, r);
                }
                cov[q][r] = (FrequencyOracleEstimator.of(p.oracle()).queryVariance(n, f, plus) - FrequencyOracleEstimator.of(p.oracle()).queryVariance(n, f, minus)) / 4;
            }
        }
        double lambda = topEigenvalue(cov);
        assertThat(level.noiseScale()).isGreaterThanOrEqualTo(max);
        assertThat(level.noiseScale()).isBetween(Math.sqrt(lambda) * (1 - 1e-6), 1.05 * Math.sqrt(lambda) * (1 + 1e-6));
    }

    /**
     * The protocol's declared ε is what its device realises: the law of {@code randomize} over the whole
     * draw tree, for every value and several reports (every tree level, several OLH hashes), has worst
     * ratio at most {@code e^ε} exactly and within {@code 1e-9} of it.
     */
    static void assertDeclaredEpsilonIsRealised(FrequencyOracleProtocol p) {
        java.math.BigDecimal l = io.privacygateway.mechanisms.param.ExpBounds.lowerBoundExact(p.epsilon().value(), 40);
        double worst = 0;
        for (int i = 0; i < 24; i++) {
            ReportCoordinates c = new ReportCoordinates("device-" + i, 7, 0);
            List<Map<String, io.privacygateway.mechanisms.random.Rational>> laws = new ArrayList<>();
            for (int x = 0; x < p.workload().universeSize(); x++) {
                int value = x;
                laws.add(io.privacygateway.mechanisms.random.DrawTree.law(
                        (io.privacygateway.mechanisms.random.SecretDraws d) -> java.util.HexFormat.of()
                                .formatHex(p.randomize(value, c, d))));
            }
            java.util.Set<String> support = new java.util.HashSet<>();
            laws.forEach(m -> support.addAll(m.keySet()));
            for (String y : support) {
                for (var a : laws) {
                    for (var b : laws) {
                        var pa = a.getOrDefault(y, io.privacygateway.mechanisms.random.Rational.ZERO);
                        var pb = b.getOrDefault(y, io.privacygateway.mechanisms.random.Rational.ZERO);
                        assertThat(pa.ratioAtMost(pb, l)).as("%s payload %s", p.id(), y).isTrue();
                        worst = Math.max(worst, pa.doubleValue() / pb.doubleValue());
                    }
                }
            }
        }
        assertThat(worst).as("%s: the declared ε is reached", p.id()).isGreaterThan(Math.exp(p.epsilon().value()) * (1 - 1e-9));
    }

    /** The largest eigenvalue of a symmetric PSD matrix, by 5,000 power iterations. */
    static double topEigenvalue(double[][] a) {
        int m = a.length;
        double[] u = new double[m];
        java.util.Arrays.fill(u, 1 / Math.sqrt(m));
        double lambda = 0;
        for (int it = 0; it < 5_000; it++) {
            double[] v = new double[m];
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < m; j++) {
                    v[i] += a[i][j] * u[j];
                }
            }
            double norm = 0;
            lambda = 0;
            for (int i = 0; i < m; i++) {
                norm += v[i] * v[i];
                lambda += u[i] * v[i];
            }
            norm = Math.sqrt(norm);
            for (int i = 0; i < m; i++) {
                u[i] = v[i] / norm;
            }
        }
        return lambda;
    }

    /** The covariance product agrees with the quadratic form: uᵀ(Σu) = Var(uᵀp̂), and (Σu)_x by polarization. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = MechanismId.class,
            names = {"GRR", "OUE", "OLH", "SUBSET_SELECTION", "HADAMARD_RESPONSE", "TREE"})
    void covarianceProductMatchesTheQuadraticForm(MechanismId id) {
        int k = 13;
        FrequencyOracle o = FrequencyOracles.create(id, k, new io.privacygateway.mechanisms.param.Epsilon(1.3));
        double[] f = new double[k];
        double[] u = new double[k];
        double s = 0;
        for (int x = 0; x < k; x++) {
            f[x] = 1 + (x * 7) % 5;
            s += f[x];
            u[x] = Math.sin(3 * x + 1);
        }
        for (int x = 0; x < k; x++) {
            f[x] /= s;
        }
        long n = 1000;
        double[] cu = FrequencyOracleEstimator.of(o).covarianceTimes(n, f, u);
        double quad = 0;
        for (int x = 0; x < k; x++) {
            quad += u[x] * cu[x];
        }
        assertThat(quad).isCloseTo(FrequencyOracleEstimator.of(o).queryVariance(n, f, u), within(1e-12 * Math.abs(quad) + 1e-18));
        for (int x = 0; x < k; x++) {
            double[] plus = u.clone();
            double[] minus = u.clone();
            plus[x] += 1;
            minus[x] -= 1;
            double polar = (FrequencyOracleEstimator.of(o).queryVariance(n, f, plus) - FrequencyOracleEstimator.of(o).queryVariance(n, f, minus)) / 4;
            assertThat(cu[x]).as("%s x=%d", id, x).isCloseTo(polar, within(1e-9 * (Math.abs(polar) + 1e-9)));
        }
    }

    @Test
    void plugInIsClippedAndRenormalised() {
        assertThat(FrequencyOracleProtocolEstimator.plugIn(new double[] {-0.2, 0.3, 0.9})).containsExactly(0, 0.25, 0.75);
        assertThat(FrequencyOracleProtocolEstimator.plugIn(new double[] {-0.2, -0.3})).containsExactly(0.5, 0.5);
    }

    @ParameterizedTest
    @EnumSource(value = MechanismId.class, names = {"GRR", "OLH", "HADAMARD_RESPONSE", "TREE"})
    void answersAreWithinTheirStandardErrors(MechanismId id) {
        Workload w = cdf12();
        FrequencyOracleProtocol p = FrequencyOracleProtocol.of(w, id, Epsilon.of(1.0));
        RandomBits secret = new SeededRandomBits(10 + id.ordinal());
        long[] counts = new long[12];
        long[] state = new long[p.stateLength()];
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            int v = (i * i + 3 * i) % 12 < 8 ? i % 4 : i % 12; // skewed towards the low buckets
            counts[v]++;
            ReportCoordinates c = new ReportCoordinates("d" + i, 1, 0);
            p.accumulate(p.randomize(v, c, secret), c, state);
        }
        double[] truth = w.meanAnswer(counts);
        LocalEstimate.Level level = LocalEstimators.of(p).estimate(state, n).levels().get(0);
        double zMax = NormalDistribution.of(0, 1).inverseSurvivalProbability(1e-6 / (2 * truth.length));
        for (int q = 0; q < truth.length; q++) {
            assertThat(Math.abs(level.mean()[q] - truth[q]) / level.standardErrors()[q]).as("%s query %d", id, q)
                    .isLessThan(zMax);
        }
    }

    @Test
    void domainMismatchIsRejected() {
        Workload w = cdf12();
        assertThatThrownBy(() -> new FrequencyOracleProtocol(w, new GeneralizedRandomizedResponse(5, Epsilon.of(1))))
                .hasMessageContaining("domainSize").hasMessageContaining("12").hasMessageContaining("got 5");
        assertThatThrownBy(() -> FrequencyOracleProtocol.of(w, MechanismId.LAPLACE, Epsilon.of(1)))
                .hasMessageContaining("laplace");
    }

    @Test
    void factoryAndPredictions() {
        for (MechanismId id : FrequencyOracles.SUPPORTED) {
            FrequencyOracle o = FrequencyOracles.create(id, 64, Epsilon.of(1.0));
            assertThat(o.id()).isEqualTo(id);
            assertThat(o.domainSize()).isEqualTo(64);
            double v = FrequencyOracleEstimator.predictedVariance(id, 64, Epsilon.of(1.0), 10_000);
            assertThat(v).isPositive().isEqualTo(FrequencyOracleEstimator.predictedVariance(o, 10_000));
            // variance scales as 1/n
            assertThat(FrequencyOracleEstimator.predictedVariance(o, 20_000)).isCloseTo(v / 2, within(v * 1e-9));
        }
        assertThat(FrequencyOracles.supports(MechanismId.TREE)).isTrue();
        assertThat(FrequencyOracles.supports(MechanismId.AUTO)).isFalse();
        // the textbook approximations (Wang et al. 2017) at small frequencies
        double e = Math.exp(1.0);
        long n = 10_000;
        double[] zero = new double[64];
        zero[0] = 1;
        assertThat(FrequencyOracleEstimator.of(new GeneralizedRandomizedResponse(64, Epsilon.of(1))).variances(n, zero)[5])
                .isCloseTo((e + 62) / (n * (e - 1) * (e - 1)), within(1e-12));
        assertThat(FrequencyOracleEstimator.of(new OptimizedUnaryEncoding(64, Epsilon.of(1))).variances(n, zero)[5])
                .isCloseTo(4 * e / (n * (e - 1) * (e - 1)), within(1e-12));
        assertThat(FrequencyOracleEstimator.of(new HadamardResponse(64, Epsilon.of(1))).variances(n, zero)[5])
                .isCloseTo(Math.pow((e + 1) / (e - 1), 2) / n, within(1e-12));
        // OLH at eps = ln(3): g = 4 = e^eps + 1 exactly, so the textbook formula applies
        assertThat(FrequencyOracleEstimator.of(new OptimizedLocalHashing(64, Epsilon.of(Math.log(3)))).variances(n, zero)[5])
                .isCloseTo(4 * 3 / (n * 4.0), within(1e-12));
    }

    @Test
    void subsetSizeIsNearKOverEPlusOne() {
        for (int k : new int[] {2, 5, 16, 64, 256, 1000}) {
            for (double eps : new double[] {0.1, 0.5, 1, 2, 4, 8}) {
                int d = SubsetSelection.optimalSubsetSize(k, Epsilon.of(eps));
                double ideal = k / (Math.exp(eps) + 1);
                assertThat(d).as("k=%d eps=%s", k, eps).isBetween(Math.max(1, (int) Math.floor(ideal)),
                        Math.max(1, (int) Math.ceil(ideal)));
            }
        }
        assertThat(OptimizedLocalHashing.optimalRange(Epsilon.of(1.0))).isEqualTo(4);
        assertThat(OptimizedLocalHashing.optimalRange(Epsilon.of(0.01))).isEqualTo(2);
        assertThat(OptimizedLocalHashing.optimalRange(Epsilon.of(40))).isEqualTo(Integer.MAX_VALUE);
        assertThat(new HadamardResponse(8, Epsilon.of(1)).order()).isEqualTo(16);
        assertThat(new HadamardResponse(9, Epsilon.of(1)).order()).isEqualTo(16);
    }
}

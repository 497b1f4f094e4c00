package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.Random;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The factorization oracle's edges found by mutation testing: every entry point validates its arguments naming them,
 * the Gram matrix and the batched query variances agree with their plain definitions on answer vectors that are not
 * 0/1 and whose supports vary, and the strategy cache builds once per key and keeps at most its stated size.
 */
class FactorizationOracleValidationGramMatrixAndCacheTest {
    /** k answer vectors in dimension m with values in {0, ±0.5, 1.25, 2} and varying supports. */
    static PointSet irregular(int k, int m, long seed) {
        Random r = new Random(seed);
        double[] values = {0, 0, 0.5, -0.5, 1.25, 2};
        double[][] rows = new double[k][m];
        for (int x = 0; x < k; x++) {
            for (int c = 0; c < m; c++) {
                rows[x][c] = values[r.nextInt(values.length)];
            }
        }
        return PointSet.of(m, rows);
    }

    @Test
    void everyEntryPointValidatesNamingTheArgument() {
        FactorizationOracle o = new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(1), 20, 12);
        assertThatThrownBy(() -> o.randomize(4, 0L, ExactSampler.draws(new SeededRandomBits(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("value");
        assertThatThrownBy(() -> o.randomize(-1, 0L, ExactSampler.draws(new SeededRandomBits(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("value");
        assertThatThrownBy(() -> o.outputProbability(4, FactorizationOracleTest.index(0), 0L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("value");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).estimate(new long[o.outputs() + 1], 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("state");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).estimate(new long[o.outputs()], 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n");
    }

    @Test
    void theGramMatrixIsWTransposeW() {
        PointSet a = irregular(7, 5, 11);
        double[][] g = FactorizationOracle.gramOf(a);
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 7; j++) {
                double s = 0;
                for (int c = 0; c < 5; c++) {
                    s += a.get(i, c) * a.get(j, c);
                }
                assertThat(g[i][j]).as("G[%d][%d]", i, j).isCloseTo(s, within(1e-12));
            }
        }
    }

    @Test
    void batchedQueryVariancesEqualTheOneQueryDefinition() {
        PointSet a = irregular(6, 9, 5);
        FactorizationOracle o = new FactorizationOracle(FactorizationOracleTest.cdf(6), Epsilon.of(1), 30, 20);
        double[] f = {0.3, 0.05, 0.2, 0.1, 0.25, 0.1};
        double[] batch = new FactorizationEstimator(o).queryVariancesAt(1000, f, a);
        for (int c = 0; c < 9; c++) {
            double[] coef = new double[6];
            for (int x = 0; x < 6; x++) {
                coef[x] = a.get(x, c);
            }
            assertThat(batch[c]).as("query %d", c).isCloseTo(new FactorizationEstimator(o).queryVarianceAt(1000, f, coef), within(1e-12));
        }
    }

    @Test
    void theCacheBuildsOncePerKeyAndKeepsAtMostItsSize() {
        Epsilon e = Epsilon.of(0.75);
        long before = FactorizationOracle.BUILDS.get();
        FactorizationOracle first = FactorizationOracle.of(FactorizationOracleTest.cdf(3), e);
        assertThat(FactorizationOracle.of(FactorizationOracleTest.cdf(3), e)).isSameAs(first);
        assertThat(FactorizationOracle.BUILDS.get() - before).as("one build for two calls").isEqualTo(1);
        for (int k = 4; k < 4 + FactorizationOracle.CACHE_SIZE - 1; k++) {
            FactorizationOracle.of(FactorizationOracleTest.cdf(k), e);
        }
        // CACHE_SIZE distinct keys so far, the first one the least recently used: still cached
        assertThat(FactorizationOracle.of(FactorizationOracleTest.cdf(3), e)).isSameAs(first);
        // two more keys push out the least recently used ones (cdf(4), cdf(5)), not cdf(3), used just now
        FactorizationOracle.of(FactorizationOracleTest.cdf(4 + FactorizationOracle.CACHE_SIZE), e);
        FactorizationOracle.of(FactorizationOracleTest.cdf(5 + FactorizationOracle.CACHE_SIZE), e);
        assertThat(FactorizationOracle.of(FactorizationOracleTest.cdf(3), e)).isSameAs(first);
        long builds = FactorizationOracle.BUILDS.get();
        FactorizationOracle.of(FactorizationOracleTest.cdf(4), e);
        assertThat(FactorizationOracle.BUILDS.get()).as("cdf(4) was evicted and is built again").isEqualTo(builds + 1);
    }

    @Test
    void aWaiterSeesTheFailedBuildsOwnException() {
        IllegalArgumentException cause = new IllegalArgumentException("domainSize");
        assertThat(FactorizationOracle.unwrap(new CompletionException(cause))).isSameAs(cause);
        CompletionException wrapped = new CompletionException(new StackOverflowError());
        assertThat(FactorizationOracle.unwrap(wrapped)).isSameAs(wrapped);
    }
}

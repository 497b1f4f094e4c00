package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.benchmarks.commands.AccuracyBenchmark.BenchWorkload;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The analytics benchmark judges {@code auto} by the planner's own criterion: minimax regret over the three reference
 * distributions, with a bootstrap to tell a real difference from trial noise.
 */
class AnalyticsBenchmarkTest {
    private static BenchWorkload workload(String name) {
        return AnalyticsBenchmark.standardWorkloads().stream().filter(w -> w.name().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void regretIsTheWorstRatioToTheBestMeanAndAnInapplicableMechanismNeverWins() {
        double[][] means = {{1, 4, 2}, {2, 1, 2}, null, {1.5, 1.5, 1.5}};
        assertThat(AnalyticsBenchmark.regrets(means)).containsExactly(4, 2, Double.POSITIVE_INFINITY, 1.5);
        assertThat(AnalyticsBenchmark.minimax(means)).isEqualTo(3);
    }

    @Test
    void theBootstrapSeparatesAClearWinnerFromATie() {
        double[][][] clear = {{{1, 1.1, 0.9, 1}}, {{3, 3.2, 2.9, 3.1}}};
        assertThat(AnalyticsBenchmark.bootstrapShare(clear, 0, 1)).isEqualTo(1.0);
        assertThat(AnalyticsBenchmark.bootstrapShare(clear, 1, 1)).isEqualTo(0.0);
        double[][][] tie = {{{1, 3, 1, 3, 2, 2}}, {{2, 2.5, 1.5, 2, 3, 1}}};
        double share = AnalyticsBenchmark.bootstrapShare(tie, 1, 1);
        assertThat(share).isBetween(0.2, 0.8);
        assertThat(share + AnalyticsBenchmark.bootstrapShare(tie, 0, 1)).isEqualTo(1.0);
    }

    /**
     * Regression d = 8, ε = 2, n = 10³: the old benchmark measured Zipf windows only and reported that {@code auto}
     * picked the loser; on all three reference distributions Laplace SSP is the minimax choice (AdaSSP loses by
     * ×4 and more on uniform and sparse windows), as {@code auto} says.
     */
    @Test
    void autoFollowsTheMeasurementWhereTheZipfOnlyBenchmarkSaidItDidNot() {
        AnalyticsBenchmark.Row row = new AnalyticsBenchmark(7).run(workload("regression d=8"), 2, 1000);
        assertThat(row.dataSets()).containsExactly("uniform", "zipf-1.1", "sparse-3");
        AnalyticsBenchmark.Cell adassp = row.cells().get(0);
        AnalyticsBenchmark.Cell ssp = row.cells().get(1);
        assertThat(adassp.meanError()[0]).as("uniform").isGreaterThan(4 * ssp.meanError()[0]);
        assertThat(adassp.meanError()[2]).as("sparse").isGreaterThan(4 * ssp.meanError()[2]);
        assertThat(row.measured()).isEqualTo("ssp-laplace");
        assertThat(row.auto()).isEqualTo("ssp-laplace");
        assertThat(row.autoFollows()).isTrue();
        String table = AnalyticsBenchmark.table(List.of(row));
        assertThat(table).contains("uniform / zipf-1.1 / sparse-3").contains("auto follows the measurement in 1 of 1");
    }

    @Test
    void aPublicDataSetIsMeasuredAloneAndADifferenceIsReported() {
        AnalyticsBenchmark.Row row = new AnalyticsBenchmark(7).run(workload(AnalyticsBenchmark.BREAST_CANCER), 0.5,
                1000);
        assertThat(row.dataSets()).containsExactly("breast cancer");
        assertThat(row.cells()).allSatisfy(c -> assertThat(c.meanError()).hasSize(1));
        assertThat(row.measured()).isEqualTo("erm-exponential");
        assertThat(row.autoFollows()).isFalse();
        assertThat(AnalyticsBenchmark.table(List.of(row))).contains("**differs**");
    }
}

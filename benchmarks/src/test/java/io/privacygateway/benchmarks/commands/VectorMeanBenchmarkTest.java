package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench vector-means} at a small size: every row and method, errors near the closed forms. */
class VectorMeanBenchmarkTest {
    @Test
    void rowsAreMeasuredAndPrinted() throws Exception {
        List<VectorMeanBenchmark.Row> rows = new VectorMeanBenchmark(5_000, 8, 2).run(new double[] {4}, new int[] {8},
                s -> { });
        assertThat(rows).hasSize(3);
        for (VectorMeanBenchmark.Row r : rows) {
            assertThat(r.rms()).hasSize(VectorMeanBenchmark.METHODS.size());
            for (double v : r.rms()) {
                assertThat(v).isStrictlyBetween(0.0, 2.0);
            }
            // the worst-case bound of privunit-g: 8 trials of a (projected) error whose mean square is at most the
            // bound squared; the RMS of 8 trials exceeds 1.8 times its expectation with probability below 1e-4
            assertThat(r.rms()[0]).as(r.data()).isLessThan(1.8 * r.predicted());
            // at ε = 4, d = 8 the chosen (N, s) beats the one-bit mechanism about threefold in variance
            assertThat(r.rms()[0]).as(r.data()).isLessThan(r.rms()[1]);
            assertThat(r.parameters()).startsWith("N=256");
        }
        String table = VectorMeanBenchmark.table(rows);
        assertThat(table).contains("| 4 | 8 | skewed |").contains("PrivUnitG-continuous").contains("1.00");
    }

    /** The data lie in the unit ball; the shapes differ. */
    @Test
    void theDataAreInTheBall() {
        for (String shape : VectorMeanBenchmark.DATA) {
            double[][] x = VectorMeanBenchmark.data(shape, 32, 2000, 3);
            for (double[] v : x) {
                assertThat(VectorMeanBenchmark.norm(v)).isLessThanOrEqualTo(1);
            }
        }
        double[][] skewed = VectorMeanBenchmark.data("skewed", 8, 4000, 1);
        double[] mean = new double[8];
        for (double[] v : skewed) {
            for (int k = 0; k < 8; k++) {
                mean[k] += v[k] / skewed.length;
            }
        }
        assertThat(VectorMeanBenchmark.norm(mean)).isCloseTo(0.8, within(0.05));
    }

    /** The continuous reference: the ratio of its two densities is e^ε, and the variance scan beats γ = 0. */
    @Test
    void theContinuousReferenceIsPrivUnitG() {
        VectorMeanBenchmark.ContinuousPrivUnitG c = new VectorMeanBenchmark.ContinuousPrivUnitG(16, 2);
        var normal = org.apache.commons.statistics.distribution.NormalDistribution.of(0, 1);
        double inside = c.p / normal.survivalProbability(c.gamma);
        double outside = (1 - c.p) / normal.cumulativeProbability(c.gamma);
        assertThat(inside / outside).isCloseTo(Math.exp(2), within(1e-9));
        assertThat(c.totalVariance).isLessThanOrEqualTo(VectorMeanBenchmark.ContinuousPrivUnitG.variance(16,
                Math.exp(2), 0)[0]);
    }

    /**
     * The closed forms: at the benchmark's (ε, d) the discrete privunit-g's total variance is within 1.3% (0.6% in
     * RMS) of the continuous PrivUnitG's at its best threshold, and the one-bit mechanism's is larger.
     */
    @Test
    void privunitGIsCloseToTheContinuumInClosedForm() {
        for (int d : new int[] {8, 32}) {
            for (double e : new double[] {0.5, 1, 2, 4}) {
                double continuous = new VectorMeanBenchmark.ContinuousPrivUnitG(d, e).totalVariance;
                var p = io.privacygateway.mechanisms.local.vector.BallCandidates.of(d, 1,
                        io.privacygateway.mechanisms.param.Epsilon.of(e), VectorMeanBenchmark.HASH);
                var oneBit = io.privacygateway.mechanisms.local.vector.BallCandidates.of(d, 1,
                        io.privacygateway.mechanisms.param.Epsilon.of(e), VectorMeanBenchmark.HASH, 1, 1);
                assertThat(p.worstTotalVariance() / continuous).as("d=%d ε=%s", d, e).isBetween(1.0, 1.013);
                assertThat(oneBit.worstTotalVariance()).isGreaterThan(p.worstTotalVariance());
            }
        }
    }

    @Test
    void theCommandRuns() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute("bench", "vector-means", "--n", "500", "--trials", "1", "--epsilons", "1", "--dims", "4",
                "--threads", "1")).isZero();
        assertThat(out.toString()).contains("bench vector-means").contains("| 1 | 4 | bimodal |");
    }
}

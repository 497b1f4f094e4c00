package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench accuracy --workloads mean} at a small size: every row, measured errors near the closed forms. */
class MeanAccuracyBenchmarkTest {
    @Test
    void meanRowsAreMeasuredAndPrinted() throws Exception {
        List<MeanAccuracyBenchmark.Row> rows = new MeanAccuracyBenchmark(20_000, 30, 2).run(new double[] {1, 4});
        assertThat(rows).hasSize(6);
        for (MeanAccuracyBenchmark.Row r : rows) {
            assertThat(MechanismId.MEAN_MECHANISMS).contains(r.auto());
            for (int i = 0; i < 3; i++) {
                // 30 trials: the RMS of 30 normal errors is in [0.5, 1.6] times its expectation except with
                // probability about 2e-5 (chi-square with 30 degrees of freedom), 4e-4 over the 18 checks;
                // the run is seeded, so a pass is reproducible
                assertThat(r.rms()[i] / r.predicted()[i]).as("%s ε=%s %s", MechanismId.MEAN_MECHANISMS.get(i),
                        r.epsilon(), r.data()).isBetween(0.5, 1.6);
            }
        }
        // at ε = 4 the piecewise mechanism beats Duchi's by far on every shape (closed form)
        rows.stream().filter(r -> r.epsilon() == 4).forEach(r -> assertThat(r.predicted()[1]).isLessThan(0.7 * r.predicted()[0]));
        String table = MeanAccuracyBenchmark.table(rows);
        assertThat(table).contains("| 4 | bimodal |").contains("piecewise/duchi");
    }

    @Test
    void theCommandRunsOnlyTheMeanRowsWhenAskedTo() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertThat(cl.execute("bench", "accuracy", "--workloads", "mean", "--n", "2000", "--trials", "2",
                "--epsilons", "2", "--threads", "1")).isZero();
        assertThat(out.toString()).contains("mean family").contains("| 2 | uniform |").doesNotContain("histogram");
    }
}

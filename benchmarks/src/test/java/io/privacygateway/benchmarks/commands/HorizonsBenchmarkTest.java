package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench horizons} runs the production counter on small sizes and prints its table (no timing asserted). */
class HorizonsBenchmarkTest {

    @Test
    void commandPrintsTheTable() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        int code = cl.execute("bench", "horizons", "--trials", "2", "--windows", "64,16", "--universe", "4",
                "--no-amplification");
        assertThat(code).isZero();
        assertThat(out.toString()).contains("| windows T | tree nodes |").contains("| 16 |").contains("| 64 |")
                .contains("one tree of depth 6 (levels 7)").doesNotContain("variation-ratio ε");
    }

    /** The amplification table: the variation-ratio bound is below the clone bound where amplification helps. */
    @Test
    void amplificationTable() {
        String t = HorizonsBenchmark.amplificationTable(new double[] {4}, new long[] {100_000}, 1e-6);
        assertThat(t).contains("| 4.0 | 100,000 | 0.1698 | 0.1182 |");
    }

    /**
     * The figures are what the theory says: the baseline's total adds T noisy windows, the tree's its canonical cover
     * (1 node at T = 2^h, popcount(T) in general); both errors are near their predictions, and the tree wins once T
     * is large against its depth.
     */
    @Test
    void figuresFollowTheTheory() {
        List<HorizonsBenchmark.Row> rows = new HorizonsBenchmark(8, 1.0, 50, 8).run(new long[] {7, 1024}, s -> { });
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).treeNodes()).isEqualTo(3);
        assertThat(rows.get(1).treeNodes()).isEqualTo(1);
        for (HorizonsBenchmark.Row r : rows) {
            assertThat(r.treeRms()).isBetween(0.5 * r.treePredicted(), 1.6 * r.treePredicted());
            assertThat(r.baselineRms()).isBetween(0.5 * r.baselinePredicted(), 1.6 * r.baselinePredicted());
        }
        assertThat(rows.get(1).ratio()).isLessThan(0.5);
        assertThat(HorizonsBenchmark.table(rows)).contains("| 1,024 | 1 |");
    }
}

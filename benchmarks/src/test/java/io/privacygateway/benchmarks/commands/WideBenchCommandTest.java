package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.app.Main;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bench wide --quick}: every mechanism runs and reports, and the published bounds held. */
class WideBenchCommandTest {
    @Test
    void quickRunReportsEveryMechanism() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("bench", "wide", "--quick", "--verbose")).as("%s", err).isZero();
        String text = out.toString();
        for (String m : new String[] {WideBenchmark.MWEM, WideBenchmark.CHAINING, WideBenchmark.LAPLACE,
            WideBenchmark.LAPLACE_PROJECTED, WideBenchmark.CENTRAL_PROJECTION}) {
            assertThat(text).as(text).containsPattern("\\| 8 \\| 10,000 \\| 1 \\| " + java.util.regex.Pattern.quote(m)
                    + " \\|");
        }
        // the two wide mechanisms publish an l∞ bound; in this run it held
        for (String m : new String[] {WideBenchmark.MWEM, WideBenchmark.CHAINING}) {
            assertThat(text).containsPattern("\\| " + java.util.regex.Pattern.quote(m) + " \\|[^\\n]*\\| 1/1 \\|");
        }
    }

    /** {@code bench accuracy --mode central} covers the wide marginal releases too (here alone, at one cell). */
    @Test
    void centralAccuracyCoversTheWideReleases() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("bench", "accuracy", "--mode", "central", "--workloads", "wide-marginals", "--ns", "10000",
                "--epsilons", "1", "--trials", "1")).as("%s", err).isZero();
        String text = out.toString();
        assertThat(text).contains("wide-marginals: all 3-way marginals over d = 8");
        for (String m : new String[] {WideBenchmark.MWEM, WideBenchmark.CHAINING}) {
            assertThat(text).as(text).containsPattern("\\| 8 \\| 10,000 \\| 1 \\| " + java.util.regex.Pattern.quote(m)
                    + " \\|");
        }
    }

    @Test
    void windowsAreTheExactMarginalsOfTheValues() {
        MarginalWorkload w = MarginalWorkload.anonymous(9, 3);
        long[] counts = WideBenchmark.population(9, 5000, 3);
        MarginalCounts viaTransform = WideBenchmark.marginals(w, counts);
        MarginalCounts direct = MarginalCounts.empty(w);
        for (int x = 0; x < counts.length; x++) {
            for (long i = 0; i < counts[x]; i++) {
                direct.add(x);
            }
        }
        assertThat(viaTransform).isEqualTo(direct);
    }
}

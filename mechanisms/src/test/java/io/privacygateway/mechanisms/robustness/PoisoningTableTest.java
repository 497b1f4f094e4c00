package io.privacygateway.mechanisms.robustness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The tables of {@code docs/poisoning.md} are what the code computes. By default the closed-form columns
 * (worst case, honest input) are recomputed and compared with the document; the grinding columns take
 * {@value #DOC_TRIES} sampled coordinates per mechanism and ε (a few minutes) and are compared only with
 * {@code -Dpoisoning.table=verify}; {@code -Dpoisoning.table=print} prints the tables to paste.
 */
class PoisoningTableTest {
    /** Device ids tried per mechanism and ε in the document's grinding columns. */
    static final int DOC_TRIES = 1_000_000;
    static final double[] EPSILONS = {0.5, 1, 2, 4};
    static final Path DOC = Path.of("..", "docs", "poisoning.md");

    static final List<Table> TABLES = List.of(
            new Table("histogram-16", PoisoningWorkloads::histogram16, Math.sqrt(2)),
            new Table("cdf-16", PoisoningWorkloads::cdf16, Math.sqrt(15)));

    /**
     * @param honestL2 the document's claim for every row: an honest app lying about its value moves the
     *     expected answer by at most 1 per coordinate and {@code honestL2} in ℓ2 (times 1/n)
     */
    record Table(String name, DoubleFunction<WorkloadSpec> spec, double honestL2) {}

    /** The markdown rows of a table; {@code tries = 0} leaves the grinding columns as {@code …}. */
    static List<String> rows(Table t, int tries) {
        List<String> out = new ArrayList<>();
        out.add("| mechanism | ε | worst ℓ∞ | worst ℓ2 (published) | own id ℓ∞ (mean) | best of 10⁶ ids ℓ∞ | best of 10⁶ ids ℓ2 |");
        out.add("|---|---|---|---|---|---|---|");
        for (double eps : EPSILONS) {
            WorkloadSpec s = t.spec().apply(eps);
            Object projection = null;
            for (MechanismId id : PoisoningWorkloads.local(s)) {
                LocalPipeline p = PoisoningWorkloads.pipeline(s, id);
                if (id == MechanismId.LOCAL_PROJECTION) {
                    projection = LocalPlanner.fingerprint(p);
                } else if (id == MechanismId.LOCAL_COARSE_PROJECTION && LocalPlanner.fingerprint(p).equals(projection)) {
                    continue; // the net keeps every answer vector: the same protocol as projection
                }
                PoisoningBound b = PoisoningBound.of(p, tries);
                assertThat(b.honestInput().linf()).as(id + " honest ℓ∞").isCloseTo(1.0, within(1e-12));
                assertThat(b.honestInput().l2()).as(id + " honest ℓ2").isCloseTo(t.honestL2(), within(1e-12));
                String typical = "…";
                String groundLinf = "…";
                String groundL2 = "…";
                if (b.grinding().isPresent()) {
                    PoisoningBound.Grinding g = b.grinding().get();
                    typical = fmt(g.typical().linf());
                    groundLinf = fmt(g.ground().linf());
                    groundL2 = fmt(g.ground().projectedL2());
                }
                out.add("| " + id.wireName() + " | " + fmt(eps) + " | " + fmt(b.worst().linf()) + mark(b.worst().linfExact())
                        + " | " + fmt(b.worst().projectedL2()) + mark(b.worst().l2Exact()) + " | " + typical + " | "
                        + groundLinf + " | " + groundL2 + " |");
            }
        }
        return out;
    }

    /** {@code ≤} marks a proven bound that is not attained by realisable coins. */
    static String mark(boolean exact) {
        return exact ? "" : " ≤";
    }

    static String fmt(double v) {
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** The rows of the document's table {@code name} (between its markers). */
    static List<String> documented(String name) throws IOException {
        List<String> lines = Files.readAllLines(DOC);
        int from = lines.indexOf("<!-- table " + name + " -->");
        int to = lines.indexOf("<!-- end table " + name + " -->");
        assertThat(from).as("marker of table " + name).isGreaterThanOrEqualTo(0);
        assertThat(to).isGreaterThan(from);
        return lines.subList(from + 1, to);
    }

    /** Cells 0–3 (mechanism, ε, worst ℓ∞, worst ℓ2) of every row. */
    static List<String> closedFormCells(List<String> rows) {
        List<String> out = new ArrayList<>();
        for (String r : rows) {
            String[] cells = r.split("\\|");
            out.add(String.join("|", List.of(cells).subList(0, Math.min(cells.length, 5))));
        }
        return out;
    }

    @Test
    void documentedTablesAreWhatTheCodeComputes() throws IOException {
        String mode = System.getProperty("poisoning.table", "");
        for (Table t : TABLES) {
            if (mode.equals("print")) {
                System.out.println("<!-- table " + t.name() + " -->");
                rows(t, DOC_TRIES).forEach(System.out::println);
                System.out.println("<!-- end table " + t.name() + " -->");
                continue;
            }
            List<String> doc = documented(t.name());
            if (mode.equals("verify")) {
                assertThat(doc).isEqualTo(rows(t, DOC_TRIES));
            } else {
                assertThat(closedFormCells(doc)).isEqualTo(closedFormCells(rows(t, 0)));
            }
        }
    }
}

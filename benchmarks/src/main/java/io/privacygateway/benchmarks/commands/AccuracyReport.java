package io.privacygateway.benchmarks.commands;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Text and CSV renderings of the accuracy benchmark. */
final class AccuracyReport {
    private AccuracyReport() {}

    /** One line per row: best peer, and auto / projection / chaining as ratios to it. */
    static String summary(List<AccuracyBenchmark.Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%n| workload | ε | data | best peer (projected) | its RMS | auto → choice | auto/best |"
                + " projection/best | chaining/best | best raw peer/best |%n"));
        sb.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (AccuracyBenchmark.Row r : rows) {
            AccuracyBenchmark.Cell best = r.bestPeer();
            AccuracyBenchmark.Cell auto = r.cell("auto");
            AccuracyBenchmark.Cell proj = r.cell("projection");
            AccuracyBenchmark.Cell chain = r.cell("chaining");
            double rawBest = Double.POSITIVE_INFINITY;
            for (AccuracyBenchmark.Cell c : r.cells()) {
                if (AccuracyBenchmark.isPeer(c.column())) {
                    rawBest = Math.min(rawBest, c.unprojected());
                }
            }
            sb.append(String.format("| %s | %s | %s | %s | %.5f | %s | %.3f | %.3f | %s | %.3f |%n", r.workload(),
                    fmt(r.epsilon()), r.data(), best.column(), best.projected(), r.autoChoice(),
                    auto.projected() / best.projected(), proj.projected() / best.projected(),
                    chain == null ? "n/a" : String.format("%.3f", chain.projected() / best.projected()),
                    rawBest / best.projected()));
        }
        return sb.toString();
    }

    /** Every cell: projected RMS (raw RMS for peers in parentheses). */
    static String details(List<AccuracyBenchmark.Row> rows) {
        StringBuilder sb = new StringBuilder();
        String current = null;
        List<String> cols = new ArrayList<>();
        for (AccuracyBenchmark.Row r : rows) {
            if (!r.workload().equals(current)) {
                current = r.workload();
                Set<String> c = new LinkedHashSet<>();
                for (AccuracyBenchmark.Row x : rows) {
                    if (x.workload().equals(current)) {
                        x.cells().forEach(cell -> c.add(cell.column()));
                    }
                }
                cols = new ArrayList<>(c);
                sb.append(String.format("%n%s: projected RMS per query (raw, unprojected RMS of peers in parentheses)%n",
                        current));
                sb.append(String.format("%-5s %-9s", "ε", "data"));
                for (String col : cols) {
                    sb.append(String.format(" %18s", col));
                }
                sb.append('\n');
            }
            sb.append(String.format("%-5s %-9s", fmt(r.epsilon()), r.data()));
            for (String col : cols) {
                AccuracyBenchmark.Cell cell = r.cell(col);
                if (cell == null) {
                    sb.append(String.format(" %18s", "-"));
                } else if (AccuracyBenchmark.isPeer(col)) {
                    sb.append(String.format(" %8.5f(%8.5f)", cell.projected(), cell.unprojected()));
                } else {
                    sb.append(String.format(" %18.5f", cell.projected()));
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String csv(List<AccuracyBenchmark.Row> rows) {
        StringBuilder sb = new StringBuilder("workload,epsilon,data,column,configuration,projected_rms,unprojected_rms\n");
        for (AccuracyBenchmark.Row r : rows) {
            for (AccuracyBenchmark.Cell c : r.cells()) {
                sb.append(String.format("%s,%s,%s,%s,\"%s\",%.6g,%.6g%n", r.workload(), fmt(r.epsilon()), r.data(),
                        c.column(), c.config(), c.projected(), c.unprojected()));
            }
        }
        return sb.toString();
    }

    static String fmt(double e) {
        return AccuracyReportFormat.eps(e);
    }
}

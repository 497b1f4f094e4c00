package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.central.CentralParameters;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How long a central release takes on very different data with the same parameters: the timing side
 * channel of the release step. Iterative hull projections of the Gaussian intermediate stop on a
 * data-dependent gap, so the duration of a release depends a little on the data; this measures how much.
 *
 * <p>For every central workload and mechanism (ε = 1, add/remove, parameters planned for 10,000 reports), the
 * same release runs on datasets that differ as much as possible: no reports, one report, 10,000 reports all
 * on the first or on the last value, and 10,000 reports from each reference distribution. Datasets are
 * interleaved round by round (so drift and JIT affect them alike) after a warm-up, with secret randomness from
 * {@code SecureRandom} as in the gateway. Printed per dataset: median, 90th and 99th percentile in ms; per
 * (workload, mechanism): the largest difference between two datasets' medians.
 */
public final class ReleaseTimingBenchmark {
    private final int rounds;
    private final int warmup;

    public ReleaseTimingBenchmark(int rounds, int warmup) {
        this.rounds = rounds;
        this.warmup = warmup;
    }

    /** The durations of one dataset, in ms. */
    public record Timing(String data, double median, double p90, double p99) {}

    /** One (workload, mechanism): every dataset's timing and the largest gap between medians. */
    public record Row(String workload, String mechanism, List<Timing> timings, double medianSpread) {}

    public List<Row> run(List<AccuracyBenchmark.BenchWorkload> workloads, Consumer<Row> progress) {
        List<Row> rows = new ArrayList<>();
        for (AccuracyBenchmark.BenchWorkload bw : workloads) {
            for (MechanismId id : List.of(MechanismId.CENTRAL_PROJECTION, MechanismId.CENTRAL_CHAINING,
                    MechanismId.LAPLACE)) {
                WorkloadSpec s = bw.spec().toBuilder().mechanism(id).expectedReportsPerWindow(10_000).build();
                if (id == MechanismId.CENTRAL_CHAINING && s.alpha() == null) {
                    s = s.toBuilder().alpha(new Alpha(0.25)).build();
                }
                CentralRelease p;
                try {
                    p = CountsReleases.of(Workload.of(s));
                } catch (IllegalArgumentException e) {
                    continue; // e.g. α too large for the workload
                }
                Row r = measure(bw.name(), p);
                progress.accept(r);
                rows.add(r);
            }
        }
        return rows;
    }

    /**
     * The window analytics ({@code mode}, {@code regression}, {@code erm}): every central mechanism of each workload
     * (ε = 1, planned n = 10,000), timed on the same kinds of datasets as the linear families.
     */
    public List<Row> runAnalytics(List<AccuracyBenchmark.BenchWorkload> workloads,
            Consumer<Row> progress) {
        List<Row> rows = new ArrayList<>();
        for (AccuracyBenchmark.BenchWorkload bw : workloads) {
            WorkloadSpec base = bw.spec().toBuilder().epsilonPerAnswer(Epsilon.of(1))
                    .budgetAtLeastOneCharge().build();
            for (MechanismId id : base.family().centralMechanisms()) {
                CentralRelease p;
                try {
                    p = CountsReleases.of(Workload.of(base.toBuilder().mechanism(id).expectedReportsPerWindow(10_000)
                            .build()));
                } catch (IllegalArgumentException e) {
                    continue; // not applicable to this workload (e.g. the grid mechanism beyond its dimension)
                }
                Row r = measure(bw.name(), p);
                progress.accept(r);
                rows.add(r);
            }
        }
        return rows;
    }

    private Row measure(String name, CentralRelease p) {
        Workload w = p.workload();
        int u = w.universeSize();
        Map<String, long[]> data = new LinkedHashMap<>();
        data.put("empty", new long[u]);
        long[] one = new long[u];
        one[u / 2] = 1;
        data.put("one report", one);
        long[] first = new long[u];
        first[0] = 10_000;
        data.put("all on first", first);
        long[] last = new long[u];
        last[u - 1] = 10_000;
        data.put("all on last", last);
        for (ReferenceData ref : ReferenceData.all()) {
            long[] c = new long[u];
            for (int v : ref.stratified(u, 10_000)) {
                c[v]++;
            }
            data.put(ref.label(), c);
        }
        RandomBits secret = new SecureRandomBits();
        List<long[]> sets = new ArrayList<>(data.values());
        for (int i = 0; i < warmup; i++) {
            p.release(sets.get(i % sets.size()), secret);
        }
        long[][] nanos = new long[sets.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int d = 0; d < sets.size(); d++) {
                int k = (d + r) % sets.size(); // rotate the order every round
                long t0 = System.nanoTime();
                p.release(sets.get(k), secret);
                nanos[k][r] = System.nanoTime() - t0;
            }
        }
        List<Timing> timings = new ArrayList<>();
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        List<String> names = new ArrayList<>(data.keySet());
        for (int d = 0; d < sets.size(); d++) {
            long[] t = nanos[d].clone();
            Arrays.sort(t);
            double median = t[t.length / 2] / 1e6;
            timings.add(new Timing(names.get(d), median, t[(int) (0.9 * (t.length - 1))] / 1e6,
                    t[(int) (0.99 * (t.length - 1))] / 1e6));
            lo = Math.min(lo, median);
            hi = Math.max(hi, median);
        }
        String mech = p.workload().spec().mechanism().wireName();
        if (p.parameters() instanceof CentralParameters.Gaussian g) {
            mech += " (" + g.space().name().toLowerCase(Locale.ROOT) + ")";
        }
        return new Row(name, mech, timings, hi - lo);
    }

    /** A markdown table: one line per (workload, mechanism), medians per dataset, then the spread. */
    public static String table(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\n| workload | mechanism |");
        List<Timing> first = rows.get(0).timings();
        for (Timing t : first) {
            sb.append(' ').append(t.data()).append(" |");
        }
        sb.append(" largest gap between medians | largest p99 |\n|---|---|");
        sb.append("---|".repeat(first.size() + 2)).append('\n');
        for (Row r : rows) {
            sb.append("| ").append(r.workload()).append(" | ").append(r.mechanism()).append(" |");
            double p99 = 0;
            for (Timing t : r.timings()) {
                sb.append(String.format(Locale.ROOT, " %.3f |", t.median()));
                p99 = Math.max(p99, t.p99());
            }
            sb.append(String.format(Locale.ROOT, " %.3f | %.3f |%n", r.medianSpread(), p99));
        }
        sb.append("\n(medians in ms; every dataset has the same parameters; gap = largest median − smallest median)\n");
        return sb.toString();
    }
}

package io.privacygateway.benchmarks.speed;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.gaussian.GaussianLevel;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.gaussian.PublicGaussian;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A self-contained micro-benchmark (no JMH) of the server cost of one Gaussian-sign report, to check
 * that public coins keep the gateway's per-report work close to the cost of the Gaussians themselves.
 *
 * <p>For each {@code m}: a one-level {@link GaussianSignProtocol} over a histogram-like universe of
 * {@code m} one-hot vectors. The <em>measured</em> cost per report is {@link GaussianSignProtocol#accumulate}
 * (payload check, SipHash base of the report coordinates, stream seed, regenerating {@code Z} with
 * {@link PublicGaussian}, fixed-point accumulation). The <em>baseline</em> per report is re-seeding a
 * {@link SplitMix64} and drawing {@code m} Gaussians with {@link PublicGaussian#fill}. Both loops are
 * timed alternately in each repetition, after warm-up repetitions; the figures are medians. Results
 * depend on the machine and its load: they are measurements, not guarantees.
 *
 * <p>Run: {@code bin/privacy-gateway bench speed}; {@code main} of this class runs it alone on the benchmarks module's classpath.
 */
public final class GaussianSignBenchmark {
    /** The dimensions of the standard run. */
    public static final int[] DIMENSIONS = {16, 64, 256, 1024};

    private static final String CONTENT_HASH = "5a".repeat(32);
    private static final int DISTINCT_REPORTS = 4096;

    private GaussianSignBenchmark() {}

    /**
     * One line of the result.
     *
     * @param m the dimension
     * @param nsPerReport median server cost of one report (accumulate), in ns
     * @param nsBaseline median cost of re-seeding a stream and drawing {@code m} Gaussians, in ns
     * @param ratio {@code nsPerReport / nsBaseline}
     * @param nsSipHash median cost of the report's SipHash base word alone (part of {@code nsPerReport}), in ns
     */
    public record Row(int m, double nsPerReport, double nsBaseline, double ratio, double nsSipHash) {}

    /**
     * A benchmark run.
     *
     * @param rows one row per dimension
     * @param warmups warm-up repetitions per dimension (not measured)
     * @param repetitions measured repetitions per dimension
     * @param gaussiansPerRepetition about how many Gaussians each timed loop draws
     */
    public record Result(List<Row> rows, int warmups, int repetitions, long gaussiansPerRepetition) {
        public Result {
            rows = List.copyOf(rows);
        }

        /** A plain-text table. */
        public String table() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(Locale.ROOT, "%6s %12s %12s %7s %12s %11s%n", "m", "ns/report", "ns baseline",
                    "ratio", "ns/Gaussian", "ns SipHash"));
            for (Row r : rows) {
                sb.append(String.format(Locale.ROOT, "%6d %12.1f %12.1f %7.3f %12.2f %11.1f%n", r.m(), r.nsPerReport(),
                        r.nsBaseline(), r.ratio(), r.nsBaseline() / r.m(), r.nsSipHash()));
            }
            sb.append(String.format(Locale.ROOT, "(medians of %d repetitions after %d warm-ups, ~%d Gaussians each)%n",
                    repetitions, warmups, gaussiansPerRepetition));
            return sb.toString();
        }
    }

    /** The standard run: {@link #DIMENSIONS}, 8 warm-ups, 15 repetitions of about 2^21 Gaussians. */
    public static Result run() {
        return run(DIMENSIONS, 8, 15, 1L << 21);
    }

    /**
     * A run.
     *
     * @param dims dimensions, each {@code >= 1}
     * @param warmups warm-up repetitions, {@code >= 0}
     * @param repetitions measured repetitions, {@code >= 1}
     * @param gaussiansPerRepetition target Gaussians per timed loop ({@code >= 1}); the loop has
     *     {@code max(1, gaussiansPerRepetition / m)} reports
     */
    public static Result run(int[] dims, int warmups, int repetitions, long gaussiansPerRepetition) {
        Require.nonNull("dims", dims);
        Require.inRange("warmups", warmups, 0, 1000);
        Require.positive("repetitions", repetitions);
        Require.inRange("gaussiansPerRepetition", gaussiansPerRepetition, 1, 1L << 30);
        for (int m : dims) {
            Require.positive("m", m);
        }
        for (int m : dims) { // a first pass over every dimension so the JIT sees all shapes before timing
            measure(m, warmups, 1, gaussiansPerRepetition);
        }
        List<Row> rows = new ArrayList<>();
        for (int m : dims) {
            rows.add(measure(m, warmups, repetitions, gaussiansPerRepetition));
        }
        return new Result(rows, warmups, repetitions, gaussiansPerRepetition);
    }

    private static Row measure(int m, int warmups, int repetitions, long gaussiansPerRepetition) {
        double[][] rows = new double[m][m];
        for (int i = 0; i < m; i++) {
            rows[i][i] = 1;
        }
        GaussianSignProtocol protocol = new GaussianSignProtocol(CONTENT_HASH, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(1.0), PointSet.of(m, rows), null)), 0.0);
        SplitMix64 secret = new SplitMix64(42); // synthetic payloads: no privacy at stake in a benchmark
        ReportCoordinates[] coords = new ReportCoordinates[DISTINCT_REPORTS];
        byte[][] payloads = new byte[DISTINCT_REPORTS][];
        long[] seeds = new long[DISTINCT_REPORTS];
        for (int i = 0; i < DISTINCT_REPORTS; i++) {
            coords[i] = new ReportCoordinates(String.format(Locale.ROOT, "device-%06d", i), 20_000 + (i & 7), i & 3);
            payloads[i] = protocol.randomize(i % m, coords[i], secret);
            seeds[i] = PublicCoins.streamSeed(protocol.coins().base(coords[i]), 0);
        }
        int reports = (int) Math.max(1, gaussiansPerRepetition / m);
        long[] state = new long[protocol.stateLength()];
        double[] buf = new double[m];
        SplitMix64 stream = new SplitMix64(0);
        double[] server = new double[repetitions];
        double[] baseline = new double[repetitions];
        double[] sip = new double[repetitions];
        PublicCoins coins = protocol.coins();
        double sink = 0;
        long hashSink = 0;
        for (int rep = -warmups; rep < repetitions; rep++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < reports; i++) {
                int r = i & (DISTINCT_REPORTS - 1);
                protocol.accumulate(payloads[r], coords[r], state);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < reports; i++) {
                stream.reset(seeds[i & (DISTINCT_REPORTS - 1)]);
                PublicGaussian.fill(stream, buf, 0, m);
                sink += buf[i % m];
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < reports; i++) {
                hashSink += coins.base(coords[i & (DISTINCT_REPORTS - 1)]);
            }
            long t3 = System.nanoTime();
            if (rep >= 0) {
                server[rep] = (t1 - t0) / (double) reports;
                baseline[rep] = (t2 - t1) / (double) reports;
                sip[rep] = (t3 - t2) / (double) reports;
            }
        }
        if (sink == 42.4242 && state[0] == 42 && hashSink == 42) { // keep the work observable
            System.out.print("");
        }
        double s = median(server);
        double b = median(baseline);
        return new Row(m, s, b, s / b, median(sip));
    }

    private static double median(double[] a) {
        double[] c = a.clone();
        Arrays.sort(c);
        int n = c.length;
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }

    /** Runs the standard benchmark and prints the table. */
    public static void main(String[] args) {
        System.out.print(run().table());
    }
}

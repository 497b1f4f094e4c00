package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.central.synthetic.CertifiedSyntheticData;
import io.privacygateway.mechanisms.central.synthetic.ChainModel;
import io.privacygateway.mechanisms.central.synthetic.MarginalLayout;
import io.privacygateway.mechanisms.central.synthetic.NoiseBasis;
import io.privacygateway.mechanisms.central.synthetic.NoisyMarginals;
import io.privacygateway.mechanisms.central.synthetic.SyntheticParameters;
import io.privacygateway.mechanisms.central.synthetic.SyntheticRelease;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.projection.Projections;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * {@code bench synthetic}: certified synthetic data (issue 12, part 3) on all 3-way marginals over d binary
 * attributes, against two marginals-then-sample baselines, on the same data and the same ε (add/remove neighbours,
 * L = 1).
 *
 * <ul>
 *   <li><b>certified</b>: {@link CertifiedSyntheticData} (identity basis; the Haar basis of the paper alongside).
 *       Reported: the certificate and the realised utility loss U (largest total-variation distance between a true
 *       and a synthetic 3-way table) per trial, their smallest ratio (must be ≥ 1 in every trial), the average and
 *       largest absolute error over all K·8 marginal cells (fractions), release time and bytes allocated.</li>
 *   <li><b>least squares</b>: the same private outputs, the same candidates, weights minimising the squared
 *       distance to the noisy tables instead of the LP's largest TV, certified by the same lemma (held is checked for
 *       both fits).</li>
 *   <li><b>chain</b> (every d): the same private outputs (identity basis), no LP: a chain model fitted to the noisy
 *       tables, N records drawn i.i.d. (PrivBayes-style marginals-then-sample).</li>
 *   <li><b>central Laplace</b> (d ≤ 12, where the existing central mode can materialise the workload): the existing
 *       {@code laplace} central release of the 3-way marginals (noisy count, discrete Laplace on the answers,
 *       projection onto the marginal polytope), then N records from the projection's weights (systematic sampling,
 *       as for the certified release).</li>
 * </ul>
 *
 * <p>Data: a seeded mixture of four product distributions (each attribute's probability in [0.1, 0.3] or
 * [0.7, 0.9] per component), fresh per trial; secret randomness seeded for reproducibility. Wall-clock figures
 * are printed, never asserted.
 */
public final class SyntheticBenchmark {
    /** One (d, n, ε) cell; errors are of marginal-cell fractions. */
    public record Row(int d, long n, double epsilon, int trials, double certificateMean, double certificateMax,
            double lossMean, double lossMax, double smallestFactor, double largestFactor, boolean heldEveryTrial,
            double avgError, double maxError, double chainAvgError, double chainMaxError, double chainLoss,
            double laplaceAvgError, double laplaceMaxError, double laplaceLoss, double haarCertificate,
            double haarLoss, double seconds, double haarSeconds, double laplaceSeconds, double allocatedMb,
            double lpGapMean, double lsCertificate, double lsLoss, double lsAvgError, double lsMaxError) {}

    private final int trials;
    private final boolean haar;

    public SyntheticBenchmark(int trials, boolean haar) {
        this.trials = trials;
        this.haar = haar;
    }

    public List<Row> run(int[] ds, long[] ns, double[] epsilons, Consumer<Row> progress) {
        List<Row> rows = new ArrayList<>();
        for (int d : ds) {
            for (long n : ns) {
                for (double e : epsilons) {
                    Row r = runCell(d, n, e);
                    progress.accept(r);
                    rows.add(r);
                }
            }
        }
        return rows;
    }

    Row runCell(int d, long n, double eps) {
        MarginalLayout layout = MarginalLayout.of(d, 3);
        SyntheticParameters p = SyntheticParameters.of(layout, Epsilon.of(eps), NeighbourRelation.ADD_REMOVE, 1)
                .withPlannedReports(n);
        CertifiedSyntheticData cert = CertifiedSyntheticData.of(p);
        CertifiedSyntheticData certHaar = haar ? CertifiedSyntheticData.of(p.withBasis(NoiseBasis.HAAR)) : null;
        CentralRelease laplace = d <= 12 ? laplacePipeline(d, eps, n) : null;
        int records = p.records();
        boolean heldLs = true;
        double[] certs = new double[trials];
        double[] losses = new double[trials];
        double avg = 0, mx = 0, cAvg = 0, cMax = 0, cLoss = 0, lAvg = 0, lMax = 0, lLoss = 0, hCert = 0, hLoss = 0;
        double secs = 0, hSecs = 0, lSecs = 0, alloc = 0, gap = 0, lsCert = 0, lsLoss = 0, lsAvg = 0, lsMax = 0;
        for (int t = 0; t < trials; t++) {
            long seed = 0x5A17L * (t + 1) + 31L * d + n;
            int[] data = mixture(d, (int) n, seed);
            long[] truth = marginalCounts(layout, data);
            long a0 = allocated();
            long t0 = System.nanoTime();
            SyntheticRelease r = cert.release(truth, n, new SeededRandomBits(seed + 1));
            secs += (System.nanoTime() - t0) / 1e9;
            alloc += (allocated() - a0) / 1e6;
            long[] syn = layout.counts(r.rows(), r.multiplicities());
            certs[t] = r.certificate().value();
            losses[t] = loss(layout, truth, n, syn, r.recordCount());
            double[] e = errors(truth, n, syn, r.recordCount());
            avg += e[0];
            mx = Math.max(mx, e[1]);
            gap += r.lpObjective() - r.lpLowerBound();
            // least-squares records from the same private outputs (certified by the same lemma)
            SyntheticRelease ls = cert.publish(r.noisy(), CertifiedSyntheticData.Fit.LEAST_SQUARES);
            long[] lsCounts = layout.counts(ls.rows(), ls.multiplicities());
            lsCert += ls.certificate().value();
            double lsU = loss(layout, truth, n, lsCounts, ls.recordCount());
            lsLoss += lsU;
            heldLs &= lsU <= ls.certificate().value();
            double[] lse = errors(truth, n, lsCounts, ls.recordCount());
            lsAvg += lse[0];
            lsMax = Math.max(lsMax, lse[1]);
            // chain baseline on the same private outputs
            long[] chain = chainBaseline(layout, cert, r.noisy(), records, seed + 2);
            double[] ce = errors(truth, n, chain, records);
            cAvg += ce[0];
            cMax = Math.max(cMax, ce[1]);
            cLoss += loss(layout, truth, n, chain, records);
            if (certHaar != null) {
                long h0 = System.nanoTime();
                SyntheticRelease h = certHaar.release(truth, n, new SeededRandomBits(seed + 3));
                hSecs += (System.nanoTime() - h0) / 1e9;
                hCert += h.certificate().value();
                hLoss += loss(layout, truth, n, layout.counts(h.rows(), h.multiplicities()), h.recordCount());
            }
            if (laplace != null) {
                long l0 = System.nanoTime();
                long[] lap = laplaceBaseline(laplace, data, d, records, seed + 4);
                lSecs += (System.nanoTime() - l0) / 1e9;
                double[] le = errors(truth, n, layout.counts(allRecords(d), lap), records);
                lAvg += le[0];
                lMax = Math.max(lMax, le[1]);
                lLoss += loss(layout, truth, n, layout.counts(allRecords(d), lap), records);
            }
        }
        double smallest = Double.POSITIVE_INFINITY;
        double largest = 0;
        boolean held = heldLs;
        for (int t = 0; t < trials; t++) {
            smallest = Math.min(smallest, certs[t] / losses[t]);
            largest = Math.max(largest, certs[t] / losses[t]);
            held &= losses[t] <= certs[t];
        }
        double nan = Double.NaN;
        return new Row(d, n, eps, trials, mean(certs), Arrays.stream(certs).max().orElse(nan), mean(losses),
                Arrays.stream(losses).max().orElse(nan), smallest, largest, held, avg / trials, mx, cAvg / trials, cMax,
                cLoss / trials, laplace == null ? nan : lAvg / trials, laplace == null ? nan : lMax,
                laplace == null ? nan : lLoss / trials, certHaar == null ? nan : hCert / trials,
                certHaar == null ? nan : hLoss / trials, secs / trials, certHaar == null ? nan : hSecs / trials,
                laplace == null ? nan : lSecs / trials, alloc / trials, gap / trials, lsCert / trials, lsLoss / trials,
                lsAvg / trials, lsMax);
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    /** The marginals-then-sample baseline without consistency: a chain model on the noisy tables, i.i.d. records. */
    static long[] chainBaseline(MarginalLayout layout, CertifiedSyntheticData m, NoisyMarginals noisy, int records,
            long seed) {
        long[] coef = noisy.coefficients(); // identity basis: the coefficients are the noisy counts
        double dv = noisy.divisor();
        double[] u = new double[coef.length];
        for (int i = 0; i < u.length; i++) {
            u[i] = coef[i] / dv;
        }
        ChainModel model = ChainModel.fit(layout, u, ChainModel.identityOrder(layout.attributes()));
        SeededRandomBits coins = new SeededRandomBits(seed);
        int[] rec = new int[records];
        for (int i = 0; i < records; i++) {
            rec[i] = model.sample(coins);
        }
        long[] ones = new long[records];
        Arrays.fill(ones, 1);
        return layout.counts(rec, ones);
    }

    /** The existing central mode's Laplace release of the 3-way marginals (the workload must fit: d ≤ 12). */
    static CentralRelease laplacePipeline(int d, double eps, long n) {
        List<String> names = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            names.add("a" + j);
        }
        Epsilon e = Epsilon.of(eps);
        WorkloadSpec base = AccuracyBenchmark.spec("marg3of" + d, "marginals", Map.of("attributes", names),
                Map.of("way", 3)).toBuilder().inCentralMode(e, NeighbourRelation.ADD_REMOVE, 1).build();
        base = base.toBuilder().epsilonPerAnswer(e).budgetAtLeastOneCharge().build();
        return CountsReleases.of(Workload.of(new Candidate(MechanismId.LAPLACE, null, null).apply(base, e, n)));
    }

    /** Runs the existing Laplace release, projects its answer onto the polytope for weights, samples N records. */
    static long[] laplaceBaseline(CentralRelease p, int[] data, int d, int records, long seed) {
        long[] hist = new long[1 << d];
        for (int x : data) {
            hist[x]++;
        }
        Answer a = p.release(hist, new SeededRandomBits(seed));
        double[] weights = Projections.hull(p.workload().points()).project(a.estimates()).weights();
        return systematic(weights, records, new SplittableRandom(seed).nextDouble());
    }

    private static long[] systematic(double[] alpha, long n, double offset) {
        long[] out = new long[alpha.length];
        double total = 0;
        for (double v : alpha) {
            total += Math.max(0, v);
        }
        double cum = 0;
        long prev = 0;
        for (int i = 0; i < alpha.length; i++) {
            cum += Math.max(0, alpha[i]) / total;
            double f = i == alpha.length - 1 ? 1.0 : Math.min(1.0, cum);
            long next = (long) Math.floor(n * f + offset);
            out[i] = Math.max(0, next - prev);
            prev = Math.max(prev, next);
        }
        return out;
    }

    private static int[] allRecords(int d) {
        int[] r = new int[1 << d];
        for (int x = 0; x < r.length; x++) {
            r[x] = x;
        }
        return r;
    }

    /** Seeded mixture of four product distributions over {0,1}^d. */
    public static int[] mixture(int d, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] p = new double[4][d];
        for (int a = 0; a < 4; a++) {
            for (int j = 0; j < d; j++) {
                p[a][j] = r.nextDouble() < 0.5 ? 0.1 + 0.2 * r.nextDouble() : 0.7 + 0.2 * r.nextDouble();
            }
        }
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int a = r.nextInt(4);
            int x = 0;
            for (int j = 0; j < d; j++) {
                if (r.nextDouble() < p[a][j]) {
                    x |= 1 << j;
                }
            }
            out[i] = x;
        }
        return out;
    }

    /**
     * Exact 3-way marginal counts of n records in O(K·n/64): bit columns per attribute, popcounts of their ANDs,
     * inclusion–exclusion for the 8 cells (layout order: first attribute most significant).
     */
    static long[] marginalCounts(MarginalLayout layout, int[] data) {
        int d = layout.attributes();
        int words = (data.length + 63) / 64;
        long[][] col = new long[d][words];
        for (int i = 0; i < data.length; i++) {
            int x = data[i];
            for (int j = 0; j < d; j++) {
                if (((x >>> j) & 1) == 1) {
                    col[j][i >>> 6] |= 1L << (i & 63);
                }
            }
        }
        long n = data.length;
        long[] single = new long[d];
        long[][] pair = new long[d][d];
        for (int a = 0; a < d; a++) {
            single[a] = pop(col[a], null, null);
            for (int b = a + 1; b < d; b++) {
                pair[a][b] = pop(col[a], col[b], null);
            }
        }
        long[] out = new long[layout.cells()];
        for (int k = 0; k < layout.blocks(); k++) {
            int[] s = layout.subset(k);
            int a = s[0], b = s[1], c = s[2];
            long abc = pop(col[a], col[b], col[c]);
            long ab = pair[a][b], ac = pair[a][c], bc = pair[b][c];
            long na = single[a], nb = single[b], nc = single[c];
            long[] cell = new long[8];
            cell[7] = abc;
            cell[6] = ab - abc; // a=1 b=1 c=0
            cell[5] = ac - abc; // a=1 b=0 c=1
            cell[3] = bc - abc; // a=0 b=1 c=1
            cell[4] = na - ab - ac + abc; // a=1 only
            cell[2] = nb - ab - bc + abc;
            cell[1] = nc - ac - bc + abc;
            cell[0] = n - na - nb - nc + ab + ac + bc - abc;
            System.arraycopy(cell, 0, out, k * 8, 8);
        }
        return out;
    }

    private static long pop(long[] x, long[] y, long[] z) {
        long s = 0;
        for (int i = 0; i < x.length; i++) {
            long v = x[i];
            if (y != null) {
                v &= y[i];
            }
            if (z != null) {
                v &= z[i];
            }
            s += Long.bitCount(v);
        }
        return s;
    }

    static double loss(MarginalLayout layout, long[] a, long na, long[] b, long nb) {
        double worst = 0;
        for (int t = 0; t < layout.blocks(); t++) {
            double s = 0;
            for (int i = t * 8; i < (t + 1) * 8; i++) {
                s += Math.abs(a[i] / (double) na - b[i] / (double) nb);
            }
            worst = Math.max(worst, s / 2);
        }
        return worst;
    }

    /** {average, max} of |a/na − b/nb| over cells. */
    static double[] errors(long[] a, long na, long[] b, long nb) {
        double s = 0;
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            double e = Math.abs(a[i] / (double) na - b[i] / (double) nb);
            s += e;
            m = Math.max(m, e);
        }
        return new double[] {s / a.length, m};
    }

    private static long allocated() {
        ThreadMXBean b = ManagementFactory.getThreadMXBean();
        if (b instanceof com.sun.management.ThreadMXBean s) {
            return s.getCurrentThreadAllocatedBytes();
        }
        return 0;
    }

    /** The markdown table. */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%n| d | n | ε | certificate (mean / max) |"
                + " realised U (mean / max) | certificate ÷ U (min–max) | held in every trial | cell error avg / max:"
                + " certified | chain baseline | central Laplace baseline | U of baselines (chain / Laplace) | Haar:"
                + " certificate / U | least squares: certificate / U / cell error avg / max | release s (identity / Haar /"
                + " Laplace) | MB allocated | LP gap |%n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%n"));
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %.4f / %.4f | %.4f / %.4f | %.2f–%.2f | %s |"
                    + " %.5f / %.4f | %.5f / %.4f | %s | %.4f / %s | %s | %.4f / %.4f / %.5f / %.4f | %.2f / %s / %s |"
                    + " %.0f | %.4f |%n",
                    r.d(), r.n(), AccuracyReportFormat.eps(r.epsilon()), r.certificateMean(), r.certificateMax(),
                    r.lossMean(), r.lossMax(), r.smallestFactor(), r.largestFactor(),
                    r.heldEveryTrial() ? "yes (" + r.trials() + ")" : "**NO**", r.avgError(), r.maxError(),
                    r.chainAvgError(), r.chainMaxError(),
                    Double.isNaN(r.laplaceAvgError()) ? "does not fit"
                            : String.format(Locale.ROOT, "%.5f / %.4f", r.laplaceAvgError(), r.laplaceMaxError()),
                    r.chainLoss(), Double.isNaN(r.laplaceLoss()) ? "—" : String.format(Locale.ROOT, "%.4f",
                            r.laplaceLoss()),
                    Double.isNaN(r.haarCertificate()) ? "—" : String.format(Locale.ROOT, "%.4f / %.4f",
                            r.haarCertificate(), r.haarLoss()),
                    r.lsCertificate(), r.lsLoss(), r.lsAvgError(), r.lsMaxError(), r.seconds(), Double.isNaN(r.haarSeconds()) ? "—" : String.format(Locale.ROOT, "%.2f",
                            r.haarSeconds()),
                    Double.isNaN(r.laplaceSeconds()) ? "—" : String.format(Locale.ROOT, "%.2f", r.laplaceSeconds()),
                    r.allocatedMb(), r.lpGapMean()));
        }
        return sb.toString();
    }
}

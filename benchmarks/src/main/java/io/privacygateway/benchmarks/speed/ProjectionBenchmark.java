package io.privacygateway.benchmarks.speed;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.projection.HullProjection;
import io.privacygateway.mechanisms.projection.ProjectionResult;
import io.privacygateway.mechanisms.testing.SyntheticPointSets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * A self-contained speed benchmark of {@link HullProjection} (no JMH): realistic targets
 * {@code y = x̄ + N(0, σ²I)}, where {@code x̄} is the mean answer of a random dataset of reports over
 * the atoms, projected to a fixed certified gap. Everything is generated from a public seed
 * (commons-rng), so runs are reproducible up to timing; the clock is injected (the project's logic never
 * reads time itself). Figures are wall-clock per projection on the calling thread, after a few untimed
 * warm-up projections for the JIT.
 *
 * <p>The standard configuration ({@link #standard}) is the speed goal of the hull solver: 4,096 random
 * 0/1 points in {@code m = 256} (each point's density uniform in [0.1, 0.5]), gap {@code 1e-6}, noise
 * {@code σ ∈ {0.001, 0.01, 0.05}}.
 */
public final class ProjectionBenchmark {
    /** The default public seed. */
    public static final long DEFAULT_SEED = 0x9D0_1EC7L;

    private ProjectionBenchmark() {}

    /** Figures for one noise level. */
    public record Row(double noiseStd, int targets, double medianMs, double p90Ms, double maxMs,
            int medianIterations, int maxIterations, int medianSupport, double maxGap, int reachedTolerance) {}

    /**
     * The outcome of a run.
     *
     * @param points the number of atoms {@code N}
     * @param dim the dimension {@code m}
     * @param gapTolerance the requested certified gap
     * @param reportsPerDataset reports in each random dataset
     * @param warmups untimed projections before measuring
     * @param medianMs median milliseconds per projection over all targets
     * @param p90Ms 90th percentile milliseconds per projection over all targets
     * @param rows figures per noise level
     */
    public record Figures(int points, int dim, double gapTolerance, int reportsPerDataset, int warmups,
            double medianMs, double p90Ms, List<Row> rows) {
        public Figures {
            rows = List.copyOf(rows);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(Locale.ROOT,
                    "hull projection: N=%d atoms, m=%d, gap tolerance %.1e, %d reports per dataset, %d warm-ups%n",
                    points, dim, gapTolerance, reportsPerDataset, warmups));
            sb.append(String.format(Locale.ROOT, "all targets: median %.2f ms, p90 %.2f ms%n", medianMs, p90Ms));
            sb.append(String.format(Locale.ROOT, "%8s %7s %9s %9s %9s %9s %8s %8s %10s %8s%n", "noise", "targets",
                    "median ms", "p90 ms", "max ms", "med iter", "max iter", "med supp", "max gap", "reached"));
            for (Row r : rows) {
                sb.append(String.format(Locale.ROOT, "%8.3f %7d %9.2f %9.2f %9.2f %9d %8d %8d %10.2e %5d/%d%n",
                        r.noiseStd(), r.targets(), r.medianMs(), r.p90Ms(), r.maxMs(), r.medianIterations(),
                        r.maxIterations(), r.medianSupport(), r.maxGap(), r.reachedTolerance(), r.targets()));
            }
            return sb.toString();
        }
    }

    /** The standard run with the default seed and {@link System#nanoTime()}. */
    public static Figures standard() {
        return standard(DEFAULT_SEED, System::nanoTime);
    }

    /** The standard configuration (see the class comment), 8 targets per noise level. */
    public static Figures standard(long seed, LongSupplier nanoClock) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        PointSet atoms = SyntheticPointSets.randomBinaryPoints(4096, 256, 0.1, 0.5, rng);
        return run(atoms, 1e-6, new double[] {0.001, 0.01, 0.05}, 8, 1000, seed + 1, nanoClock);
    }

    /**
     * Projects {@code targetsPerLevel} noisy targets per noise level onto {@code conv(atoms)}.
     *
     * @param reportsPerDataset the size of each random dataset whose mean answer is the target's centre
     */
    public static Figures run(PointSet atoms, double gapTolerance, double[] noiseLevels, int targetsPerLevel,
            int reportsPerDataset, long seed, LongSupplier nanoClock) {
        if (targetsPerLevel < 1 || reportsPerDataset < 1 || noiseLevels.length == 0) {
            throw new IllegalArgumentException("need at least one noise level, target and report");
        }
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        HullProjection hull = new HullProjection(atoms, gapTolerance);
        int warmups = 8;
        for (int i = 0; i < warmups; i++) {
            hull.project(SyntheticPointSets.noisyMean(atoms, reportsPerDataset, noiseLevels[i % noiseLevels.length], rng));
        }
        List<Row> rows = new ArrayList<>();
        List<Double> all = new ArrayList<>();
        for (double sigma : noiseLevels) {
            double[] ms = new double[targetsPerLevel];
            int[] iters = new int[targetsPerLevel];
            int[] support = new int[targetsPerLevel];
            double maxGap = 0;
            int reached = 0;
            for (int t = 0; t < targetsPerLevel; t++) {
                double[] y = SyntheticPointSets.noisyMean(atoms, reportsPerDataset, sigma, rng);
                long start = nanoClock.getAsLong();
                ProjectionResult r = hull.project(y);
                ms[t] = (nanoClock.getAsLong() - start) / 1e6;
                all.add(ms[t]);
                iters[t] = r.iterations();
                support[t] = (int) Arrays.stream(r.weights()).filter(v -> v > 0).count();
                maxGap = Math.max(maxGap, r.dualityGap());
                if (r.dualityGap() <= gapTolerance) {
                    reached++;
                }
            }
            double[] sorted = ms.clone();
            Arrays.sort(sorted);
            Arrays.sort(iters);
            Arrays.sort(support);
            rows.add(new Row(sigma, targetsPerLevel, quantile(sorted, 0.5), quantile(sorted, 0.9),
                    sorted[sorted.length - 1], iters[iters.length / 2], iters[iters.length - 1],
                    support[support.length / 2], maxGap, reached));
        }
        double[] allMs = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new Figures(atoms.size(), atoms.dim(), gapTolerance, reportsPerDataset, warmups,
                quantile(allMs, 0.5), quantile(allMs, 0.9), rows);
    }

    private static double quantile(double[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}

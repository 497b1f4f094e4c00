package io.privacygateway.benchmarks.speed;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.nets.ChainingDecomposition;
import io.privacygateway.mechanisms.nets.CoarseDecomposition;
import io.privacygateway.mechanisms.nets.NestedNets;
import io.privacygateway.mechanisms.param.Alpha;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A plain timing harness (no JMH) for the nets: builds the nested nets and the chaining decomposition
 * (and, separately, the coarse decomposition) for a seeded synthetic workload and reports wall-clock
 * figures and net sizes. Not used by the mechanisms; run it with
 * {@code bin/privacy-gateway bench speed}; {@code main} of this class runs it alone on the benchmarks module's classpath (arguments {@code [n] [m] [alpha] [seed]}).
 *
 * <p>Default data: {@code n = 16384} points in {@code m = 64}: a seeded shuffle of one third Gaussian
 * blobs (32 centres, sd 0.03 per coordinate, clipped to {@code [0,1]}), one third uniform
 * {@code [0,1]^m} and one third random 0/1 vectors; {@code α = 0.05} ({@code k = 6}).
 */
public final class NetsBenchmark {
    private NetsBenchmark() {}

    /**
     * One run's figures.
     *
     * @param label the data set
     * @param n number of points
     * @param m dimension
     * @param levels chaining levels k
     * @param nestedMillis building {@code S_1..S_k} and {@code π_1..π_k}
     * @param chainingMillis the chaining maps, level sets and radii on top of the nets
     * @param coarseMillis the coarse decomposition at {@code α/2}
     * @param netSizes {@code |S_1|..|S_k|}
     * @param levelSetSizes {@code |X^(1)|..|X^(k)|}
     * @param coarseSize the size of the {@code α/2} net
     * @param nestedDistanceEvaluations canonical distance evaluations for the nested family
     * @param coarseDistanceEvaluations the same for the coarse net
     */
    public record Result(String label, int n, int m, int levels, double nestedMillis, double chainingMillis,
            double coarseMillis, int[] netSizes, int[] levelSetSizes, int coarseSize, long nestedDistanceEvaluations,
            long coarseDistanceEvaluations) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT,
                    "%-8s n=%d m=%d k=%d  nested nets %.0f ms + chaining %.0f ms = %.0f ms  (%,d distance evals; "
                            + "|S_j| = %s, |X^(j)| = %s)  |  coarse α/2 net %.0f ms (%,d evals, |N| = %d)",
                    label, n, m, levels, nestedMillis, chainingMillis, nestedMillis + chainingMillis,
                    nestedDistanceEvaluations, Arrays.toString(netSizes), Arrays.toString(levelSetSizes),
                    coarseMillis, coarseDistanceEvaluations, coarseSize);
        }
    }

    /** Times the nested nets + chaining decomposition and the coarse decomposition on {@code points}. */
    public static Result run(String label, PointSet points, Alpha alpha) {
        long t0 = System.nanoTime();
        NestedNets nets = NestedNets.forAlpha(points, alpha);
        long t1 = System.nanoTime();
        ChainingDecomposition dec = ChainingDecomposition.of(nets);
        long t2 = System.nanoTime();
        CoarseDecomposition coarse = CoarseDecomposition.build(points, alpha);
        long t3 = System.nanoTime();
        int k = nets.levels();
        int[] sizes = new int[k];
        int[] setSizes = new int[k];
        for (int j = 1; j <= k; j++) {
            sizes[j - 1] = nets.level(j).size();
            setSizes[j - 1] = dec.levelSet(j).size();
        }
        return new Result(label, points.size(), points.dim(), k, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6,
                sizes, setSizes, coarse.net().size(), nets.distanceEvaluations(),
                coarse.net().distanceEvaluations());
    }

    /** Synthetic data kinds. */
    public enum Kind {
        /** A seeded shuffle of one third each of the three kinds below. */
        MIXTURE,
        /** Gaussian blobs: 32 uniform centres, sd 0.03 per coordinate, clipped to [0,1]. */
        BLOBS,
        /** Uniform on [0,1]^m. */
        UNIFORM,
        /** Uniform on {0,1}^m. */
        BINARY
    }

    /** {@code n} seeded points of the given kind in dimension {@code m}. */
    public static PointSet generate(Kind kind, int n, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] centres = new double[32][m];
        for (double[] c : centres) {
            for (int i = 0; i < m; i++) {
                c[i] = r.nextDouble();
            }
        }
        double[][] rows = new double[n][];
        for (int p = 0; p < n; p++) {
            Kind k = kind != Kind.MIXTURE ? kind : Kind.values()[1 + (3 * p) / n];
            double[] row = new double[m];
            switch (k) {
                case BLOBS -> {
                    double[] c = centres[r.nextInt(centres.length)];
                    for (int i = 0; i < m; i++) {
                        row[i] = Math.min(1, Math.max(0, c[i] + 0.03 * gaussian(r)));
                    }
                }
                case UNIFORM -> {
                    for (int i = 0; i < m; i++) {
                        row[i] = r.nextDouble();
                    }
                }
                default -> {
                    for (int i = 0; i < m; i++) {
                        row[i] = r.nextBoolean() ? 1 : 0;
                    }
                }
            }
            rows[p] = row;
        }
        if (kind == Kind.MIXTURE) {
            for (int i = n - 1; i > 0; i--) { // seeded Fisher–Yates shuffle: interleave the kinds
                int j = r.nextInt(i + 1);
                double[] tmp = rows[i];
                rows[i] = rows[j];
                rows[j] = tmp;
            }
        }
        return PointSet.of(m, rows);
    }

    private static double gaussian(SplittableRandom r) {
        double u = r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 16_384;
        int m = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        Alpha alpha = Alpha.of(args.length > 2 ? Double.parseDouble(args[2]) : 0.05);
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 20240601L;
        PointSet mix = generate(Kind.MIXTURE, n, m, seed);
        System.out.println("cold: " + run("mixture", mix, alpha));
        System.out.println("warm: " + run("mixture", mix, alpha));
        for (Kind kind : new Kind[] {Kind.BLOBS, Kind.UNIFORM, Kind.BINARY}) {
            String label = kind.name().toLowerCase(Locale.ROOT);
            System.out.println("      " + run(label, generate(kind, n, m, seed), alpha));
        }
    }
}

package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.mean.MeanProtocol;
import io.privacygateway.mechanisms.local.mean.ScalarRandomizer;
import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.BoxCoordinates;
import io.privacygateway.mechanisms.local.vector.VectorMeanEstimator;
import io.privacygateway.mechanisms.local.vector.VectorMeanProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * {@code bench vector-means}: the vector-mean protocols of {@code local.vector} on data in the unit ℓ2 ball of
 * dimension {@code d} (which also lies in the box {@code [−1, 1]^d}), through the real device and gateway code
 * (seeded secret randomness, reproducible). Metric: the RMS over trials of {@code ‖project(estimate) − mean‖₂}.
 *
 * <p>Methods, on the same data and secret stream per trial:
 * <ul>
 *   <li>{@code privunit-g}: {@link BallCandidates} with the chosen {@code (N, s)};</li>
 *   <li>{@code one-bit}: {@link BallCandidates} with {@code N = 2} (Duchi et al.'s one bit on a public Gaussian
 *       direction);</li>
 *   <li>{@code PrivUnitG (continuous)}: Asi, Feldman and Talwar's continuous PrivUnitG as an <em>ideal
 *       reference</em> — floating-point sampling, not exact, not shipped: the same norm step, then
 *       {@code U ~ N(0, I)} conditioned on {@code ⟨U, x̃⟩ >= γ} with probability {@code p}, else on
 *       {@code < γ}, with {@code p/(1 − Φ̄(γ))} and {@code (1 − p)/Φ(γ)} in ratio {@code e^ε} and {@code γ}
 *       minimising the total variance on a grid; the estimate is {@code U/m}, {@code m = E⟨U, x̃⟩};</li>
 *   <li>the box family: {@link BoxCoordinates} on {@code [−1, 1]^d}, 1025 levels, with each scalar randomizer at
 *       its chosen {@code k}, and at {@code k = d} (every coordinate at {@code ε/d}; for {@code d > 16}, which the
 *       protocol does not allow, the benchmark runs the scalar randomizers directly).</li>
 * </ul>
 *
 * <p>Data ({@code n} points per trial, seeded): {@code uniform} in the ball; {@code skewed}: {@code 0.8·w} plus
 * Gaussian noise of scale {@code 0.15/√d} per coordinate for a fixed random unit {@code w} (pulled back into the
 * ball); {@code bimodal}: half around {@code 0.7·w}, half around {@code 0.7·w'} ({@code w'} another unit vector),
 * noise {@code 0.1/√d}.
 */
public final class VectorMeanBenchmark {
    /** The data shapes. */
    public static final List<String> DATA = List.of("uniform", "skewed", "bimodal");
    /** The methods, in table order. */
    public static final List<String> METHODS = List.of("privunit-g", "one-bit", "PrivUnitG-continuous",
            "box duchi k*", "box piecewise k*", "box hybrid k*", "box duchi k=d", "box piecewise k=d",
            "box hybrid k=d");
    static final String HASH = "766563746f722d6d65616e732d62656e63686d61726b2d636f696e732d6b6579"; // the ASCII text vector-means-benchmark-coins-key
    static final int LEVELS = 1025;

    /** One row: RMS errors per method (in {@link #METHODS} order) and the chosen parameters. */
    public record Row(double epsilon, int d, String data, double[] rms, String parameters, double predicted) {
        /** The smallest RMS of the row. */
        public double best() {
            double b = Double.POSITIVE_INFINITY;
            for (double v : rms) {
                b = Math.min(b, v);
            }
            return b;
        }
    }

    private final int n;
    private final int trials;
    private final int threads;

    public VectorMeanBenchmark(int n, int trials, int threads) {
        this.n = n;
        this.trials = trials;
        this.threads = threads;
    }

    /** Every (ε, d, data) row. */
    public List<Row> run(double[] epsilons, int[] dims, Consumer<String> progress) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Row>> futures = new ArrayList<>();
            for (int d : dims) {
                for (double e : epsilons) {
                    for (String data : DATA) {
                        futures.add(pool.submit(() -> {
                            Row r = row(Epsilon.of(e), d, data);
                            progress.accept("done: ε=" + e + " d=" + d + " " + data);
                            return r;
                        }));
                    }
                }
            }
            List<Row> out = new ArrayList<>();
            for (Future<Row> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The data of one trial. */
    static double[][] data(String shape, int d, int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        SplittableRandom fixed = new SplittableRandom(0xD1CEL + d);
        double[] w = unit(fixed, d);
        double[] w2 = unit(fixed, d);
        double[][] out = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] x = new double[d];
            switch (shape) {
                case "uniform" -> {
                    double[] u = unit(rnd, d);
                    double radius = Math.pow(rnd.nextDouble(), 1.0 / d);
                    for (int k = 0; k < d; k++) {
                        x[k] = radius * u[k];
                    }
                }
                case "skewed" -> {
                    for (int k = 0; k < d; k++) {
                        x[k] = 0.8 * w[k] + 0.15 * gaussian(rnd) / Math.sqrt(d);
                    }
                }
                default -> {
                    double[] c = rnd.nextBoolean() ? w : w2;
                    for (int k = 0; k < d; k++) {
                        x[k] = 0.7 * c[k] + 0.1 * gaussian(rnd) / Math.sqrt(d);
                    }
                }
            }
            double norm = norm(x);
            if (norm > 1) {
                for (int k = 0; k < d; k++) {
                    x[k] /= norm;
                }
                if (norm(x) > 1) { // rounding: scale a hair further in
                    for (int k = 0; k < d; k++) {
                        x[k] *= 1 - 1e-15;
                    }
                }
            }
            out[i] = x;
        }
        return out;
    }

    static double[] unit(SplittableRandom rnd, int d) {
        double[] u = new double[d];
        for (int k = 0; k < d; k++) {
            u[k] = gaussian(rnd);
        }
        double nu = norm(u);
        for (int k = 0; k < d; k++) {
            u[k] /= nu;
        }
        return u;
    }

    static double gaussian(SplittableRandom rnd) {
        return Math.sqrt(-2 * Math.log1p(-rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }

    static double norm(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    Row row(Epsilon eps, int d, String shape) {
        BallCandidates privunit = BallCandidates.of(d, 1, eps, HASH);
        BallCandidates oneBit = BallCandidates.of(d, 1, eps, HASH, 1, 1);
        ContinuousPrivUnitG continuous = new ContinuousPrivUnitG(d, eps.value());
        List<MechanismId> scalars = MechanismId.MEAN_MECHANISMS;
        BoxCoordinates[] boxes = new BoxCoordinates[scalars.size()];
        StringBuilder params = new StringBuilder("N=" + privunit.candidateCount() + " s=" + privunit.topSize() + "; k*");
        for (int i = 0; i < boxes.length; i++) {
            boxes[i] = BoxCoordinates.of(d, -1, 1, LEVELS, scalars.get(i), eps, HASH);
            params.append(i == 0 ? " " : "/").append(boxes[i].sampledCoordinates());
        }
        double[] sq = new double[METHODS.size()];
        for (int t = 0; t < trials; t++) {
            long seed = 0x7EC7L ^ (shape.hashCode() * 31L + d * 1009L + Double.hashCode(eps.value())) * 1_000_003L + t;
            double[][] x = data(shape, d, n, seed);
            double[] truth = new double[d];
            for (double[] v : x) {
                for (int k = 0; k < d; k++) {
                    truth[k] += v[k] / n;
                }
            }
            long secret = seed * 7919L + 17;
            String device = "bench-" + t;
            sq[0] += squared(privunit, x, truth, device, secret);
            sq[1] += squared(oneBit, x, truth, device, secret);
            sq[2] += squared(continuous.run(x, secret), truth);
            for (int i = 0; i < boxes.length; i++) {
                sq[3 + i] += squared(boxes[i], x, truth, device, secret);
                sq[6 + i] += squared(everyCoordinate(scalars.get(i), eps, x, secret), truth);
            }
        }
        double[] rms = new double[sq.length];
        for (int i = 0; i < sq.length; i++) {
            rms[i] = Math.sqrt(sq[i] / trials);
        }
        // the closed form of privunit-g's mean squared ℓ2 error: at most r²(d − 1 + G)/(κ² n)
        double predicted = Math.sqrt(privunit.worstTotalVariance() / n);
        return new Row(eps.value(), d, shape, rms, params.toString(), predicted);
    }

    static double squared(VectorMeanProtocol p, double[][] x, double[] truth, String device, long secret) {
        SecretDraws draws = ExactSampler.draws(new SeededRandomBits(secret));
        long[] state = new long[p.stateLength()];
        for (int i = 0; i < x.length; i++) {
            ReportCoordinates c =
                    new ReportCoordinates(device, 0, i);
            if (!p.accumulate(p.randomize(x[i], c, draws), device, 0, i, state)) {
                throw new IllegalStateException("a report was refused");
            }
        }
        VectorMeanEstimator e =
                VectorMeanEstimator.of(p);
        return squared(e.project(e.estimate(state, x.length).mean()), truth);
    }

    static double squared(double[] estimate, double[] truth) {
        double s = 0;
        for (int k = 0; k < truth.length; k++) {
            double e = estimate[k] - truth[k];
            s += e * e;
        }
        return s;
    }

    /**
     * Every coordinate reported at {@code ε/d} (rounded down) by the scalar randomizer, clipped to {@code [−1, 1]}:
     * {@code k = d} of the box protocol, run directly (the protocol caps {@code k} at 16).
     */
    static double[] everyCoordinate(MechanismId id, Epsilon eps, double[][] x, long secret) {
        int d = x[0].length;
        Epsilon share = Epsilon.exactly(eps.exact().divide(BigDecimal.valueOf(d), new MathContext(30, RoundingMode.DOWN)));
        ScalarRandomizer r = MeanProtocol.randomizer(id, LEVELS, share);
        Domain.Range range = new Domain.Range(-1, 1, LEVELS);
        double[] est = new double[r.outputCount()];
        for (int y = 0; y < est.length; y++) {
            est[y] = r.estimateOf(y);
        }
        SecretDraws draws = ExactSampler.draws(new SeededRandomBits(secret));
        double[] sum = new double[d];
        for (double[] v : x) {
            for (int k = 0; k < d; k++) {
                sum[k] += est[r.randomize(range.levelOf(v[k]), draws)];
            }
        }
        double[] out = new double[d];
        for (int k = 0; k < d; k++) {
            out[k] = Math.max(-1, Math.min(1, sum[k] / x.length)); // t̄ is the value on [−1, 1]
        }
        return out;
    }

    /**
     * Asi, Feldman and Talwar's continuous PrivUnitG (ICML 2022), unit radius, after the same norm step: an ideal
     * reference in floating point (not exact, not shipped).
     */
    static final class ContinuousPrivUnitG {
        private static final NormalDistribution NORMAL = NormalDistribution.of(0, 1);
        final int d;
        final double gamma;
        final double p;
        final double m;
        final double totalVariance;

        ContinuousPrivUnitG(int d, double epsilon) {
            this.d = d;
            double e = Math.exp(epsilon);
            double bestV = Double.POSITIVE_INFINITY;
            double bestG = 0;
            for (double g = -1; g <= 8; g += 0.001) {
                double v = variance(d, e, g)[0];
                if (v < bestV) {
                    bestV = v;
                    bestG = g;
                }
            }
            double[] v = variance(d, e, bestG);
            this.gamma = bestG;
            this.totalVariance = v[0];
            this.p = v[1];
            this.m = v[2];
        }

        /** {total variance (d − 1 + E α²)/m², p, m} at threshold γ. */
        static double[] variance(int d, double e, double g) {
            double above = NORMAL.survivalProbability(g);
            double below = NORMAL.cumulativeProbability(g);
            double phi = NORMAL.density(g);
            double p = e * above / (e * above + below);
            double m = p * phi / above - (1 - p) * phi / below;
            double second = p * (1 + g * phi / above) + (1 - p) * (1 - g * phi / below);
            return new double[] {(d - 1 + second) / (m * m), p, m};
        }

        double[] run(double[][] x, long secret) {
            SplittableRandom rnd = new SplittableRandom(secret ^ 0xC0FFEEL);
            double[] sum = new double[d];
            double above = NORMAL.survivalProbability(gamma);
            double below = NORMAL.cumulativeProbability(gamma);
            double[] u = new double[d];
            for (double[] v : x) {
                double rho = Math.min(1, norm(v));
                double sign = rnd.nextDouble() < (1 + rho) / 2 ? 1 : -1;
                double[] unit = new double[d];
                if (rho == 0) {
                    unit[0] = sign;
                } else {
                    for (int k = 0; k < d; k++) {
                        unit[k] = sign * v[k] / rho;
                    }
                }
                double alpha = rnd.nextDouble() < p
                        ? NORMAL.inverseSurvivalProbability(above * (1 - rnd.nextDouble()))
                        : NORMAL.inverseCumulativeProbability(below * (1 - rnd.nextDouble()));
                double dot = 0;
                for (int k = 0; k < d; k++) {
                    u[k] = gaussian(rnd);
                    dot += u[k] * unit[k];
                }
                for (int k = 0; k < d; k++) { // U = α x̃ + (I − x̃x̃ᵀ) W
                    sum[k] += (alpha * unit[k] + u[k] - dot * unit[k]) / m;
                }
            }
            double[] mean = new double[d];
            for (int k = 0; k < d; k++) {
                mean[k] = sum[k] / x.length;
            }
            double nm = norm(mean);
            if (nm > 1) {
                for (int k = 0; k < d; k++) {
                    mean[k] /= nm;
                }
            }
            return mean;
        }
    }

    /** The markdown tables of the rows: the RMS errors, then their ratios to the best of the row. */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("RMS ℓ2 error of the projected mean (data in the unit ball):\n\n| ε | d | data | parameters |");
        for (String m : METHODS) {
            sb.append(' ').append(m).append(" |");
        }
        sb.append(" privunit-g predicted (worst case) |\n|---|---|---|---|");
        sb.append("---|".repeat(METHODS.size() + 1)).append('\n');
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %s |", trim(r.epsilon()), r.d(), r.data(),
                    r.parameters()));
            for (double v : r.rms()) {
                sb.append(String.format(Locale.ROOT, " %.4f |", v));
            }
            sb.append(String.format(Locale.ROOT, " %.4f |%n", r.predicted()));
        }
        sb.append("\nRatio to the best method of the same row (1.00 = best):\n\n| ε | d | data |");
        for (String m : METHODS) {
            sb.append(' ').append(m).append(" |");
        }
        sb.append("\n|---|---|---|").append("---|".repeat(METHODS.size())).append('\n');
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %s |", trim(r.epsilon()), r.d(), r.data()));
            for (double v : r.rms()) {
                sb.append(String.format(Locale.ROOT, " %.2f |", v / r.best()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String trim(double e) {
        return e == Math.rint(e) ? Long.toString((long) e) : Double.toString(e);
    }
}

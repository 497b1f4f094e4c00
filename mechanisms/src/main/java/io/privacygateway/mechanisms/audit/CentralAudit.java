package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Black-box audit of a central release on neighbouring window aggregates, through the production
 * release ({@link CentralReleases}). Neighbours follow the workload's declaration: one device's
 * {@code L = contributionsPerWindow} reports, all of the same value (the largest change of every sum),
 * are added or removed (add/remove), or moved from one value to another (replace-one).
 *
 * <p><b>Rows.</b> Two, each with the declared ε per release:
 * <ul>
 *   <li><i>small window</i>: add/remove: the empty window against one device's {@code L} reports at
 *       {@code x}, for the {@code pairCandidates} values whose answer vectors are farthest from 0;
 *       replace-one: a window holding only that device, {@code L} reports at {@code x} against at
 *       {@code x'}, for the farthest-apart pairs. Here the count is small, so the released mean moves
 *       most, but projection onto K can hide some of the noise's information.
 *   <li><i>typical window</i>: every value holds {@code max(L, round(n/N))} reports, {@code n} the planned
 *       reports per window; add/remove adds the device at the {@code x} farthest from the window's mean
 *       answer; replace-one moves its reports between the farthest-apart values. The answers lie inside K,
 *       so projection changes them least.
 * </ul>
 *
 * <p><b>Output.</b> Everything numeric a published answer carries: the published count {@code n̂}, the
 * answers {@code a}, {@code n̂·a}, the error bars, standard errors, the error bounds and the per-level
 * details (noise scale, width, hull size, projection gap, ε, ρ). An event may use any of them.
 *
 * <p><b>Guarantee of the result.</b> As for {@link LocalAudit}: with probability at least
 * {@code confidence}, both rows' ε̂ are at most the release's true privacy loss on their inputs.
 */
public final class CentralAudit {
    private CentralAudit() {}

    /**
     * Audits a central release.
     *
     * @param workload the resolved central-mode workload whose declaration (ε per release, neighbour
     *     relation, L, planned n) is checked
     * @param release the release to audit ({@link CentralReleases#of} of the same workload in production)
     * @param settings sample sizes, confidence, candidates
     * @param randomness the randomness handed to the release as its secret randomness
     */
    public static AuditReport run(Workload workload, CentralReleases.Release release, AuditSettings settings,
            RandomBits randomness) {
        Require.nonNull("workload", workload);
        Require.nonNull("release", release);
        Require.nonNull("settings", settings);
        Require.nonNull("randomness", randomness);
        WorkloadSpec s = workload.spec();
        if (s.mode() != Mode.CENTRAL) {
            throw new IllegalArgumentException("mode must be central for a central audit, got " + s.mode().wireName());
        }
        Epsilon declared = s.central().epsilonPerRelease();
        int contributions = s.central().contributionsPerWindow();
        boolean addRemove = s.central().neighbour() == NeighbourRelation.ADD_REMOVE;
        int k = workload.universeSize();
        double[][] q = new double[k][];
        for (int x = 0; x < k; x++) {
            q[x] = workload.points().row(x);
        }
        long planned = s.plannedReportsPerWindow();
        long perValue = Math.max(contributions, Math.round((double) planned / k));
        long[] typical = new long[k];
        Arrays.fill(typical, perValue);
        String device = contributions == 1 ? "1 report" : contributions + " reports";

        List<NeighbouringInputs> small = new ArrayList<>();
        List<NeighbouringInputs> usual = new ArrayList<>();
        if (addRemove) {
            for (int x : Pairs.farthestFrom(new double[workload.queryCount()], q, settings.pairCandidates())) {
                small.add(inputs(workload, release, "empty window", new long[k], "one device: " + device + " at "
                        + workload.universeLabel(x), plus(new long[k], x, contributions), "window of 0 reports"));
            }
            double[] mean = workload.meanAnswer(typical);
            for (int x : Pairs.farthestFrom(mean, q, settings.pairCandidates())) {
                usual.add(inputs(workload, release, "typical window", typical, "typical window + one device: " + device
                        + " at " + workload.universeLabel(x), plus(typical, x, contributions),
                        "typical window: " + perValue + " reports at each of the " + k + " values"));
            }
        } else {
            for (int[] p : Pairs.farthestPairs(q, settings.pairCandidates())) {
                small.add(inputs(workload, release, "one device: " + device + " at " + workload.universeLabel(p[0]),
                        plus(new long[k], p[0], contributions), "… at " + workload.universeLabel(p[1]),
                        plus(new long[k], p[1], contributions), "window holding only that device"));
                long[] from = typical.clone();
                long[] to = plus(typical, p[0], -contributions);
                to[p[1]] += contributions;
                usual.add(inputs(workload, release, "device's " + device + " at " + workload.universeLabel(p[0]), from,
                        "… at " + workload.universeLabel(p[1]), to, "typical window: " + perValue
                                + " reports at each of the " + k + " values, the device's among them"));
            }
        }
        double rowError = settings.confidence().beta() / 2;
        String mechanism = s.mechanism().wireName();
        List<AuditRow> rows = List.of(
                RowAudit.run(mechanism, "release, small window", declared.exact(), small, settings, rowError, randomness),
                RowAudit.run(mechanism, "release, typical window (n = " + perValue * k + ")", declared.exact(), usual,
                        settings, rowError, randomness));
        return new AuditReport(s.id(), "central", mechanism, settings.confidence().value(), settings.samples(), rows);
    }

    private static long[] plus(long[] counts, int x, long delta) {
        long[] out = counts.clone();
        out[x] += delta;
        return out;
    }

    private static NeighbouringInputs inputs(Workload w, CentralReleases.Release release, String first,
            long[] firstCounts, String second, long[] secondCounts, String context) {
        long[] a = firstCounts.clone();
        long[] b = secondCounts.clone();
        int m = w.queryCount();
        // one probe release (output discarded) tells how many per-level details an answer carries
        int levels = release.release(a, new SeededRandomBits(0)).levels().size();
        int dim = AnswerFeatures.dimension(m, levels);
        IntFunction<String> names = j -> AnswerFeatures.name(w, levels, j);
        return new NeighbouringInputs(first, second, context, rng -> AnswerFeatures.of(release.release(a, rng)),
                rng -> AnswerFeatures.of(release.release(b, rng)), dim, names, AnswerFeatures.directions(w, a, b, levels));
    }

    /** The published answer as features. */
    static final class AnswerFeatures {
        private static final String[] GLOBAL = {"n̂", "expected RMS", "RMS bound", "RMS bound is finite"};
        private static final String[] PER_QUERY = {"a", "n̂·a", "lower", "upper", "se"};
        private static final String[] PER_LEVEL = {"ε", "radius", "noise scale", "width", "hull size", "projection gap",
            "ρ"};

        private AnswerFeatures() {}

        static int dimension(int m, int levels) {
            return GLOBAL.length + PER_QUERY.length * m + PER_LEVEL.length * levels;
        }

        static String name(Workload w, int levels, int j) {
            int m = w.queryCount();
            if (j < GLOBAL.length) {
                return GLOBAL[j];
            }
            j -= GLOBAL.length;
            if (j < PER_QUERY.length * m) {
                return PER_QUERY[j / m] + "[" + w.queryLabel(j % m) + "]";
            }
            j -= PER_QUERY.length * m;
            return "level " + (j / PER_LEVEL.length + 1) + " " + PER_LEVEL[j % PER_LEVEL.length];
        }

        /**
         * The noise-free differences between the inputs, each block on its own: of the sums {@code n̂·a}
         * ({@code Σ_x (b_x − a_x) Q(x)}), of the count {@code n̂} when it differs, and of the mean answers
         * {@code a} when both windows are non-empty.
         */
        static List<double[]> directions(Workload w, long[] a, long[] b, int levels) {
            int m = w.queryCount();
            int dim = dimension(m, levels);
            double[] sums = new double[dim];
            for (int x = 0; x < a.length; x++) {
                long d = b[x] - a[x];
                if (d != 0) {
                    for (int q = 0; q < m; q++) {
                        sums[GLOBAL.length + m + q] += d * w.points().get(x, q);
                    }
                }
            }
            List<double[]> out = new ArrayList<>(List.of(sums));
            long na = Arrays.stream(a).sum();
            long nb = Arrays.stream(b).sum();
            if (na != nb) {
                double[] count = new double[dim];
                count[0] = nb - na;
                out.add(count);
            }
            if (na > 0 && nb > 0) {
                double[] ma = w.meanAnswer(a);
                double[] mb = w.meanAnswer(b);
                double[] means = new double[dim];
                for (int q = 0; q < m; q++) {
                    means[GLOBAL.length + q] = mb[q] - ma[q];
                }
                out.add(means);
            }
            return out;
        }

        static Observation of(Answer a) {
            int m = a.estimates().length;
            int levels = a.levels().size();
            double[] f = new double[dimension(m, levels)];
            double n = a.n();
            f[0] = n;
            f[1] = a.expectedRmsError();
            f[2] = finite(a.rmsErrorBoundAtConfidence());
            f[3] = Double.isFinite(a.rmsErrorBoundAtConfidence()) ? 1 : 0;
            int off = GLOBAL.length;
            for (int q = 0; q < m; q++) {
                f[off + q] = a.estimates()[q];
                f[off + m + q] = n * a.estimates()[q];
                f[off + 2 * m + q] = a.lower()[q];
                f[off + 3 * m + q] = a.upper()[q];
                f[off + 4 * m + q] = a.standardErrors().isPresent() ? a.standardErrors().get()[q] : 0;
            }
            off += PER_QUERY.length * m;
            for (Answer.LevelDetail d : a.levels()) {
                f[off++] = d.cost() instanceof PrivacyCost.Pure p ? p.epsilon() : 0;
                f[off++] = d.radius();
                f[off++] = d.noiseScale();
                f[off++] = d.gaussianWidth();
                f[off++] = d.hullSize();
                f[off++] = d.projectionGap().orElse(0);
                f[off++] = d.cost() instanceof PrivacyCost.Zcdp z ? z.rho() : 0;
            }
            for (int i = 0; i < f.length; i++) {
                f[i] = finite(f[i]);
            }
            return Observation.dense(f, Observation.digest(f), "n̂ = " + a.n() + ", a = " + Observation.shortVector(a.estimates()));
        }

        /** Infinite or NaN entries (an unbounded error bound) become 0; a separate feature says which. */
        private static double finite(double v) {
            return Double.isFinite(v) ? v : 0;
        }
    }
}

package io.privacygateway.mechanisms.pipeline;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.gaussian.GaussianLevel;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.nets.ChainingDecomposition;
import io.privacygateway.mechanisms.nets.CoarseDecomposition;
import io.privacygateway.mechanisms.nets.LevelEpsilonSplit;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.release.DecompositionBias;
import io.privacygateway.mechanisms.release.LocalRelease;
import io.privacygateway.mechanisms.workload.EpsilonSplit;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The local-model pipeline a resolved workload names: the {@link LocalProtocol} devices and gateway
 * share, and the {@link LocalRelease} that turns a window's aggregate into an answer. Everything is a
 * deterministic function of the workload spec (its content hash versions it), so a device and the
 * gateway that load the same spec build identical protocols.
 *
 * <ul>
 *   <li>{@code projection}: one Gaussian-sign level with the answer vectors {@code Q(x)}, projected
 *       onto K (MECHANISMS.md §3, "local projection").
 *   <li>{@code coarse-projection}: devices round {@code Q(x)} to the nearest point of a maximal
 *       α/2-separated net N; one level projected onto conv(N), then onto K.
 *   <li>{@code chaining}: the decomposition of Lemma 4.2 with {@code k = ⌈log₂(2/α)⌉} levels, one
 *       Gaussian-sign bit per informative level, ε split equally or to minimise the predicted error
 *       for {@code expectedReportsPerWindow} reports ({@value #DEFAULT_PLANNED_REPORTS} if absent).
 *       A level whose set {@code X^(j)} is a single point carries no information: its constant
 *       component is folded into the first informative level and it spends no ε.
 *   <li>frequency oracles and the tree: the oracle over the universe, answers {@code Σ_x p̂_x Q(x)},
 *       projected onto K.
 *   <li>{@code duchi}, {@code piecewise}, {@code hybrid} (family mean): an unbiased scalar randomizer over the
 *       range's levels ({@code local.mean}), the mean clipped to {@code [lo, hi]}; the bar adds the device
 *       rounding's bound ({@code Domain.Range.roundingBound}, half a level step).
 * </ul>
 */
public final class LocalPipeline {
    /** The n used to split ε across chaining levels when the spec gives none. */
    public static final long DEFAULT_PLANNED_REPORTS = io.privacygateway.mechanisms.workload.WorkloadSpec.DEFAULT_PLANNED_REPORTS;

    private final Workload workload;
    private final LocalProtocol protocol;
    private final LocalRelease release;

    private LocalPipeline(Workload workload, LocalProtocol protocol, double[] perCoordinateBias) {
        this.workload = workload;
        this.protocol = protocol;
        this.release = new LocalRelease(workload, protocol, perCoordinateBias);
    }

    /**
     * Builds the pipeline of a local-mode workload whose mechanism is resolved (not {@code auto}).
     *
     * @throws IllegalArgumentException if the spec is central-mode, unresolved, or its α is so large
     *     that every device would send the same vector
     */
    public static LocalPipeline of(Workload w) {
        WorkloadSpec s = w.spec();
        if (s.mode() != Mode.LOCAL) {
            throw new IllegalArgumentException("mode must be local for a local pipeline, got " + s.mode().wireName());
        }
        MechanismId id = s.mechanism();
        Epsilon eps = s.epsilonPerReport();
        PointSet points = w.points();
        switch (id) {
            case AUTO:
                throw new IllegalArgumentException("mechanism is auto: resolve it with the planner first");
            case LOCAL_PROJECTION:
                return new LocalPipeline(w, new GaussianSignProtocol(w, id,
                        List.of(new GaussianLevel(eps, points, null)), 0.0), null);
            case LOCAL_COARSE_PROJECTION: {
                CoarseDecomposition c = Decompositions.coarse(points, s.alpha());
                if (c.hull().size() < 2) {
                    throw new IllegalArgumentException("alpha " + s.alpha().value()
                            + " is too large for this workload: every value rounds to the same point");
                }
                return new LocalPipeline(w, new GaussianSignProtocol(w, id,
                        List.of(new GaussianLevel(eps, c.rounded(), c.hull())), DecompositionBias.normalised(points, c.rounded())),
                        DecompositionBias.perCoordinate(points, c.rounded()));
            }
            case LOCAL_CHAINING:
                return chaining(w, eps);
            case DUCHI: // numeric means (family mean; docs/local-accuracy.md)
            case PIECEWISE:
            case HYBRID:
            {
                // the device rounds each value to the nearest level: the bar adds that bias's bound (issue 27)
                io.privacygateway.mechanisms.local.mean.MeanProtocol mean =
                        io.privacygateway.mechanisms.local.mean.MeanProtocol.of(w, id, eps);
                return new LocalPipeline(w, mean, new double[] {mean.roundingBound()});
            }
            default:
                return new LocalPipeline(w, FrequencyOracleProtocol.of(w, id, eps), null);
        }
    }

    private static LocalPipeline chaining(Workload w, Epsilon eps) {
        WorkloadSpec s = w.spec();
        PointSet points = w.points();
        ChainingDecomposition d = Decompositions.chaining(points, s.alpha());
        List<LevelEpsilonSplit.Level> all = LevelEpsilonSplit.levelsOf(d);
        int m = points.dim();
        List<Integer> informative = new ArrayList<>();
        double[] offset = new double[m];
        for (int j = 1; j <= d.levels(); j++) {
            if (d.levelSet(j).size() > 1) {
                informative.add(j);
            } else {
                double[] c = d.levelSet(j).row(0);
                for (int q = 0; q < m; q++) {
                    offset[q] += c[q];
                }
            }
        }
        if (informative.isEmpty()) {
            throw new IllegalArgumentException("alpha " + s.alpha().value()
                    + " is too large for this workload: every value has the same chaining decomposition");
        }
        List<LevelEpsilonSplit.Level> levels = new ArrayList<>();
        for (int j : informative) {
            levels.add(all.get(j - 1));
        }
        long planned = s.plannedReportsPerWindow();
        double[] split = s.epsilonSplit() == EpsilonSplit.EQUAL
                ? LevelEpsilonSplit.equal(levels.size(), eps)
                : LevelEpsilonSplit.optimal(levels, m, planned, eps).epsilons();
        for (double e : split) {
            if (!(e > 0)) { // a level the optimiser found useless: keep every informative level, split equally
                split = LevelEpsilonSplit.equal(levels.size(), eps);
                break;
            }
        }
        List<GaussianLevel> gl = new ArrayList<>();
        for (int i = 0; i < informative.size(); i++) {
            int j = informative.get(i);
            PointSet vectors = d.components(j);
            PointSet hull = d.levelSet(j);
            if (i == 0) {
                vectors = shifted(vectors, offset);
                hull = shifted(hull, offset);
            }
            // the split's exact sum is at most ε (LevelEpsilonSplit rounds down): take each share exactly as the
            // double it is, so the levels spend exactly the split
            gl.add(new GaussianLevel(Epsilon.exactly(new BigDecimal(split[i])), vectors, hull));
        }
        int[] last = d.chain(d.levels());
        PointSet ends = DecompositionBias.rows(points, last);
        return new LocalPipeline(w, new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING, gl,
                DecompositionBias.normalised(points, ends)), DecompositionBias.perCoordinate(points, ends));
    }

    private static PointSet shifted(PointSet set, double[] offset) {
        boolean zero = true;
        for (double v : offset) {
            zero &= v == 0;
        }
        if (zero) {
            return set;
        }
        int m = set.dim();
        double[] out = set.toRowMajor();
        for (int i = 0; i < set.size(); i++) {
            for (int q = 0; q < m; q++) {
                out[i * m + q] += offset[q];
            }
        }
        return PointSet.ofRowMajor(set.size(), m, out);
    }

    public Workload workload() {
        return workload;
    }

    public LocalProtocol protocol() {
        return protocol;
    }

    public LocalRelease release() {
        return release;
    }
}

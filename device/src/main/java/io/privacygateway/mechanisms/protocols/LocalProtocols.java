package io.privacygateway.mechanisms.protocols;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.gaussian.GaussianLevel;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterParameters;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterProtocol;
import io.privacygateway.mechanisms.local.mean.MeanProtocol;
import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.BoxCoordinates;
import io.privacygateway.mechanisms.local.vector.VectorMeanProtocol;
import io.privacygateway.mechanisms.nets.ChainingDecomposition;
import io.privacygateway.mechanisms.nets.CoarseDecomposition;
import io.privacygateway.mechanisms.nets.DecompositionBias;
import io.privacygateway.mechanisms.nets.Decompositions;
import io.privacygateway.mechanisms.nets.LevelEpsilonSplit;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.EpsilonSplit;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The local protocol a resolved workload names, derived deterministically from its spec: the one place where a
 * device and the gateway build what they share (docs/wire-format.md). Everything is a function of the spec (its
 * content hash versions it), so a device and the gateway that hold the same spec build identical protocols.
 *
 * <ul>
 *   <li>{@code projection}: one Gaussian-sign level with the answer vectors {@code Q(x)} (MECHANISMS.md §3).
 *   <li>{@code coarse-projection}: devices round {@code Q(x)} to the nearest point of a maximal α/2-separated net N;
 *       one level over the rounded points.
 *   <li>{@code chaining}: the decomposition of Lemma 4.2 with {@code k = ⌈log₂(2/α)⌉} levels, one Gaussian-sign bit per
 *       informative level, ε split equally or to minimise the predicted error for
 *       {@link WorkloadSpec#plannedReportsPerWindow()} reports. A level whose set {@code X^(j)} is a single point
 *       carries no information: its constant component is folded into the first informative level and it spends no
 *       ε.
 *   <li>frequency oracles and the tree: the oracle over the universe.
 *   <li>{@code duchi}, {@code piecewise}, {@code hybrid} (family mean): an unbiased scalar randomizer over the range's
 *       levels.
 *   <li>heavy hitters ({@link #heavyHitters}) and vector means ({@link #vectorMean}) over domains that are never
 *       materialised.
 * </ul>
 */
public final class LocalProtocols {
    private LocalProtocols() {}

    /**
     * A built protocol and the per-coordinate bound of the bias its rounding adds to the answers (the coarse and
     * chaining decompositions, the mean's level rounding), or {@code null} when it adds none; the gateway's error bars
     * include that bound.
     */
    public record Built(LocalProtocol protocol, double[] perCoordinateBias) {}

    /**
     * Builds the protocol of a local-mode workload whose mechanism is resolved (not {@code auto}).
     *
     * @throws IllegalArgumentException if the spec is central-mode, unresolved, or its α is so large that every device
     *     would send the same vector
     */
    public static Built of(Workload w) {
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
                return new Built(new GaussianSignProtocol(w, id,
                        List.of(new GaussianLevel(eps, points, null)), 0.0), null);
            case LOCAL_COARSE_PROJECTION: {
                CoarseDecomposition c = Decompositions.coarse(points, s.alpha());
                if (c.hull().size() < 2) {
                    throw new IllegalArgumentException("alpha " + s.alpha().value()
                            + " is too large for this workload: every value rounds to the same point");
                }
                return new Built(new GaussianSignProtocol(w, id,
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
                MeanProtocol mean =
                        MeanProtocol.of(w, id, eps);
                return new Built(mean, new double[] {mean.roundingBound()});
            }
            default:
                return new Built(FrequencyOracleProtocol.of(w, id, eps), null);
        }
    }

    private static Built chaining(Workload w, Epsilon eps) {
        WorkloadSpec s = w.spec();
        PointSet points = w.points();
        ChainingDecomposition d = Decompositions.chaining(points, s.alpha());
        // the chaining protocol's version (docs/wire-format.md §3.1, §12): 2 derives the widths and the optimiser's
        // functions from the specification's own generator and fdlibm exp/log; 1 as before
        int version = s.mechanism() == MechanismId.LOCAL_CHAINING ? s.protocolVersion()
                : ProtocolVersions.current(MechanismId.LOCAL_CHAINING);
        List<LevelEpsilonSplit.Level> all = LevelEpsilonSplit.levelsOf(d, version);
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
                : LevelEpsilonSplit.optimal(levels, m, planned, eps, version).epsilons();
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
        return new Built(new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING, gl,
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

    /** The heavy-hitters protocol of a resolved heavy-hitters spec ({@code prefix-tree-sketch}). */
    public static HeavyHitterProtocol heavyHitters(WorkloadSpec spec, String contentHash) {
        if (spec.family() != QueryFamily.HEAVY_HITTERS || spec.mechanism() != MechanismId.PREFIX_TREE_SKETCH) {
            throw new IllegalArgumentException("workload " + spec.id() + ": a heavy-hitters protocol needs family"
                    + " heavy-hitters and mechanism prefix-tree-sketch, got " + spec.family().wireName() + " and "
                    + spec.mechanism().wireName());
        }
        return new HeavyHitterProtocol(heavyHitterParameters(spec), contentHash);
    }

    /** The protocol parameters of a heavy-hitters spec (docs/heavy-hitters.md). */
    public static HeavyHitterParameters heavyHitterParameters(WorkloadSpec spec) {
        return HeavyHitterParameters.defaults(spec.epsilonPerReport(), ((Domain.Strings) spec.domain()).maxBytes(),
                spec.plannedReportsPerWindow());
    }

    /**
     * The protocol of a resolved vector-mean spec with the given content hash (the key of its public coins).
     *
     * @throws IllegalArgumentException if the spec is not a vector mean resolved to a mechanism of its domain, or the
     *     protocol cannot realise its ε
     */
    public static VectorMeanProtocol vectorMean(WorkloadSpec spec, String contentHash) {
        if (spec.family() != QueryFamily.MEAN || !(spec.domain() instanceof Domain.Vector v)) {
            throw new IllegalArgumentException("workload " + spec.id() + ": a vector-mean protocol needs family mean"
                    + " over a ball or a box, got " + spec.family().wireName() + " over " + spec.domain().kind());
        }
        MechanismId id = spec.mechanism();
        if (v instanceof Domain.Ball b) {
            if (id != MechanismId.PRIVUNIT_G) {
                throw new IllegalArgumentException("workload " + spec.id() + ": the mean of a ball is answered by"
                        + " privunit-g, got " + id.wireName() + (id == MechanismId.AUTO ? " (resolve it first)" : ""));
            }
            return BallCandidates.of(b.dimension(), b.radius(), spec.epsilonPerReport(), contentHash);
        }
        Domain.Box box = (Domain.Box) v;
        if (!MechanismId.MEAN_MECHANISMS.contains(id)) {
            throw new IllegalArgumentException("workload " + spec.id() + ": the mean of a box is answered by duchi,"
                    + " piecewise or hybrid, got " + id.wireName() + (id == MechanismId.AUTO ? " (resolve it first)"
                            : ""));
        }
        return BoxCoordinates.of(box.dimension(), box.lo(), box.hi(), box.levels(), id, spec.epsilonPerReport(),
                contentHash);
    }
}

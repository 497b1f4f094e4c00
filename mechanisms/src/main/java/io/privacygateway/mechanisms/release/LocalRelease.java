package io.privacygateway.mechanisms.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.projection.ConvexProjection;
import io.privacygateway.mechanisms.projection.ProjectionResult;
import io.privacygateway.mechanisms.projection.Projections;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The server's release step in the local model (MECHANISMS.md §3): from a window's exact aggregate,
 * the protocol's unbiased estimate; each level projected onto the hull its true mean lies in (the
 * workload's K for single-level mechanisms, {@code conv(X^(j))} for chaining levels, {@code conv(N)}
 * for coarse projection); the levels summed; the sum projected onto K; and error bars
 * ({@link ErrorBars}).
 *
 * <p><b>Privacy.</b> Everything here is post-processing of ε-LDP reports, so the answer is ε-DP for
 * every device with δ = 0, whatever the projections compute.
 *
 * <p>Thread-safe; per-level projections and Gaussian widths are computed once and cached.
 */
public final class LocalRelease {
    private final Workload workload;
    private final LocalProtocol protocol;
    private final LocalEstimator estimator;
    private final ConvexProjection feasible;
    private final PointSet feasibleAtoms;
    private final double[] perCoordinateBias;
    /** A bound on {@code diam(K)}: the estimate and {@code x̄} both lie in K, so their distance never exceeds it. */
    private final double feasibleDiameter;
    private final Map<PointSet, LevelGeometry> geometry = new IdentityHashMap<>();
    private LevelGeometry feasibleGeometry;

    /**
     * @param workload the workload (K = conv of its points)
     * @param protocol the local protocol whose aggregates are released
     * @param perCoordinateBias public per-coordinate bounds on the mechanism's deliberate bias
     *     ({@code max_x |decomposed(x)_q − Q(x)_q|}), or {@code null} when the mechanism is unbiased
     */
    public LocalRelease(Workload workload, LocalProtocol protocol, double[] perCoordinateBias) {
        this.workload = workload;
        this.protocol = protocol;
        this.estimator = LocalEstimators.of(protocol);
        this.feasible = Projections.forWorkload(workload);
        this.feasibleAtoms = workload.points();
        this.perCoordinateBias = perCoordinateBias == null ? null : perCoordinateBias.clone();
        this.feasibleDiameter = ErrorBars.diameterBound(feasibleAtoms);
    }

    public Workload workload() {
        return workload;
    }

    public LocalProtocol protocol() {
        return protocol;
    }

    /** Releases the answer of a window from its aggregate state and report count {@code n >= 1}. */
    public Answer release(long[] state, long n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1 to release an answer, got " + n);
        }
        return releaseEstimate(estimator.estimate(state, n), n);
    }

    /**
     * Releases the answer from an already computed estimate of {@code n} reports (the planner uses it
     * with simulated estimates).
     */
    public Answer releaseEstimate(LocalEstimate est, long n) {
        int m = workload.queryCount();
        double[] unprojected = new double[m];
        double[] seSq = new double[m];
        double[] sum = new double[m];
        List<Answer.LevelDetail> details = new ArrayList<>();
        ErrorBars.LevelNoise[] noise = new ErrorBars.LevelNoise[est.levels().size()];
        int j = 0;
        ProjectionResult last = null;
        for (LocalEstimate.Level level : est.levels()) {
            LevelGeometry g = geometryOf(level.hull());
            ProjectionResult p = g.projection.project(level.mean());
            last = p;
            double trace = 0;
            for (int q = 0; q < m; q++) {
                unprojected[q] += level.mean()[q];
                double v = level.standardErrors()[q] * level.standardErrors()[q];
                seSq[q] += v;
                trace += v;
                sum[q] += p.point()[q];
            }
            noise[j] = new ErrorBars.LevelNoise(level.noiseScale(), trace, g.width.upper(), g.diameter);
            details.add(new Answer.LevelDetail(j + 1, new PrivacyCost.Pure(level.epsilon()), level.radius(),
                    level.noiseScale(), g.width.mean(), g.hullSize, OptionalDouble.of(p.dualityGap())));
            j++;
        }
        boolean singleLevelOntoK = est.levels().size() == 1 && est.levels().get(0).hull() == null;
        // the box containing K: [0, 1] for the linear families, [lo, hi] for a mean
        double clipLo = workload.spec().domain() instanceof Domain.Range r
                ? r.lo() : 0;
        double clipHi = workload.spec().domain() instanceof Domain.Range r
                ? r.hi() : 1;
        // the projection onto K lands within rounding of K; clamping into the box (which contains K) removes the
        // rounding (an answer of 1 + 2^-52 for a share) and never moves the estimate away from any point of K
        double[] published = ErrorBars.clampedInto(singleLevelOntoK ? last.point() : feasible.project(sum).point(), clipLo,
                clipHi);
        double[] se = new double[m];
        for (int q = 0; q < m; q++) {
            se[q] = Math.sqrt(seSq[q]);
        }
        // bars are clipped to the same box
        ErrorBars.Bounds b = ErrorBars.compute(published, unprojected, se, perCoordinateBias, noise, est.biasBound(),
                workload.spec().confidence(), clipLo, clipHi);
        double trivial = feasibleDiameter / Math.sqrt(m);
        Answer answer = new Answer(protocol.id(), PrivacyCost.pure(protocol.epsilon()), n, workload.queryLabels(), published,
                Optional.of(unprojected), Optional.of(se), b.lower(), b.upper(), workload.spec().confidence().value(),
                Math.min(trivial, b.expectedRmsError()), Math.min(trivial, b.rmsErrorBoundAtConfidence()), details,
                workload.contentHash());
        if (workload.spec().domain() instanceof Domain.Range) {
            // the mean family also publishes its one number and its bar as named scalars (docs/local-accuracy.md)
            answer = answer.withExtras(new Answer.Extras(List.of(), Map.of("mean", published[0],
                    "lower", b.lower()[0], "upper", b.upper()[0], "standardError", se[0]), OptionalDouble.empty()));
        }
        return answer;
    }

    private synchronized LevelGeometry geometryOf(PointSet hull) {
        if (hull == null) {
            if (feasibleGeometry == null) {
                feasibleGeometry = new LevelGeometry(feasible, feasibleAtoms);
            }
            return feasibleGeometry;
        }
        return geometry.computeIfAbsent(hull, h -> new LevelGeometry(Projections.hull(h), h));
    }

    /** Projection, Gaussian width and a diameter bound of one level's hull. */
    private static final class LevelGeometry {
        final ConvexProjection projection;
        final GaussianWidth.Estimate width;
        final double diameter;
        final int hullSize;

        LevelGeometry(ConvexProjection projection, PointSet atoms) {
            this.projection = projection;
            this.width = GaussianWidth.of(atoms);
            this.diameter = ErrorBars.diameterBound(atoms);
            this.hullSize = atoms.size();
        }
    }
}

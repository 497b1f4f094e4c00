package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.projection.ConvexProjection;
import io.privacygateway.mechanisms.projection.Projections;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * The public facts about a workload's feasible set {@code K = conv{Q(x)}} that every central answer uses:
 * its projection, Gaussian width, a diameter bound, the largest answer coordinate, and a data-independent
 * point of K. Also assembles the parts of an answer that do not depend on the variant (the trivial bounds, the
 * answer of a window with no reports; bars clipped to [0, 1] are {@link ErrorBars#clipped}).
 */
final class FeasibleAnswers {
    private final Workload workload;
    private final ConvexProjection projection;
    private final double width;
    private final double diameter;
    private final double maxAbs;
    private final double[] centroid;

    private FeasibleAnswers(Workload workload) {
        this.workload = workload;
        PointSet p = workload.points();
        this.projection = Projections.forWorkload(workload);
        this.width = GaussianWidth.of(p).upper();
        this.diameter = ErrorBars.diameterBound(p);
        double best = 0;
        double[] c = new double[p.dim()];
        for (int i = 0; i < p.size(); i++) {
            for (int q = 0; q < p.dim(); q++) {
                best = Math.max(best, Math.abs(p.get(i, q)));
                c[q] += p.get(i, q) / p.size();
            }
        }
        this.maxAbs = best;
        this.centroid = c;
    }

    static FeasibleAnswers of(Workload w) {
        return new FeasibleAnswers(w);
    }

    Workload workload() {
        return workload;
    }

    int m() {
        return workload.queryCount();
    }

    /** The projection onto K. */
    ConvexProjection projection() {
        return projection;
    }

    /** An upper bound on the Gaussian width g(K). */
    double width() {
        return width;
    }

    /** A bound on diam(K). */
    double diameter() {
        return diameter;
    }

    /** {@code max_x max_q |Q(x)_q|}: bounds every true answer coordinate. */
    double maxAbs() {
        return maxAbs;
    }

    /**
     * {@code diam(K)/√m}: a bound on {@code ‖a − x̄‖₂/√m} for every a and x̄ in K, which holds with
     * probability 1; every central answer's RMS figures are capped by it.
     */
    double trivialRms() {
        return diameter / Math.sqrt(m());
    }

    /** The failure probability the confidence level allows: {@code 1 − confidence}. */
    double failureBudget() {
        return 1 - workload.spec().confidence().value();
    }

    /** The smaller of an RMS bound (possibly +∞ or NaN from an infinite count bound) and the trivial one. */
    double capped(double rms) {
        return rms >= 0 && rms < trivialRms() ? rms : trivialRms();
    }

    /**
     * The answer of a window whose report count is public and 0 (replace-one neighbours): there is exactly one
     * such dataset, so nothing about anyone can be learnt and no mechanism runs. It says so: n = 0, the estimate
     * is a fixed point of K (the mean of the answer vectors), the bars are the whole range [0, 1], the RMS
     * figures are the trivial bound, no noisy vector exists (unprojected and standard errors are absent), and the
     * cost is 0.
     */
    Answer noData(MechanismId mechanism) {
        return Answer.noData(mechanism, workload.queryLabels(), centroid.clone(), workload.spec().confidence().value(),
                trivialRms(), workload.contentHash(), Answer.Extras.NONE);
    }

    /** The total number of reports of a window (exact). */
    static long total(long[] counts) {
        long n = 0;
        for (long c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("counts must be >= 0, got " + c);
            }
            n = Math.addExact(n, c);
        }
        return n;
    }
}

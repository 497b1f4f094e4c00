package io.privacygateway.mechanisms.release;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.BoxCoordinates;
import io.privacygateway.mechanisms.local.vector.VectorMeanEstimate;
import io.privacygateway.mechanisms.local.vector.VectorMeanEstimator;
import io.privacygateway.mechanisms.local.vector.VectorMeanProtocol;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The published answer of a vector-mean window (family mean over a ball or a box): a function of the protocol's
 * {@link VectorMeanEstimate} and public parameters only.
 *
 * <ul>
 *   <li><b>coordinates</b>: one per coordinate of the domain, labelled by its name, in declaration order: the estimate
 *       is the unbiased mean projected onto the feasible set ({@link VectorMeanEstimator#project}, then clamped into
 *       the per-coordinate bounds, which only removes rounding), the unprojected value the unbiased mean, the standard
 *       error the protocol's public worst-case one, and the bar {@code a_q ± (|a_q − u_q| + z·se_q + r)} clipped to
 *       the coordinate's bounds ({@link ErrorBars#compute}: as the scalar mean's bar, the projection's move added; the
 *       bounds are {@code [lo, hi]} for a box and {@code [−radius, radius]} for a ball, which contain every feasible
 *       coordinate); {@code r} is the device rounding's bound for a box ({@link Domain.Range#roundingBound()}: every
 *       coordinate is rounded to the nearest level, so the estimate is unbiased for the mean of the represented values,
 *       up to half a level step from the raw mean) and 0 for a ball;</li>
 *   <li><b>RMS figures</b>: {@code expectedRmsError} is {@code √(mean se²) + r} (the projection onto a convex set
 *       holding the true mean never increases the distance to it), {@code rmsErrorBoundAtConfidence} the Bonferroni
 *       bound {@code z_{β/(2d)}·√(mean se²) + r} (every coordinate within its {@code z·se} at once, normal
 *       approximation), both capped at the trivial {@code diam/√d};</li>
 *   <li><b>named scalars</b> ({@link #SCALARS}): {@code dimension}, the domain's bounds ({@code radius}, or
 *       {@code lo}, {@code hi}, {@code levels}), the protocol's {@code payloadBytes} and {@code stateLongs},
 *       {@code maxStandardError}, the largest per-coordinate standard error, and the protocol's chosen parameters: for
 *       a ball {@code candidates} (N) and {@code topSet} (s), for a box {@code sampledCoordinates} (k).</li>
 * </ul>
 */
public final class VectorMeanRelease {
    /** The names of the scalars an answer may publish (the record-size rule sizes all of them). */
    public static final List<String> SCALARS = List.of("dimension", "radius", "lo", "hi", "levels", "payloadBytes",
            "stateLongs", "maxStandardError", "candidates", "topSet", "sampledCoordinates");

    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

    private VectorMeanRelease() {}

    /**
     * The answer of a window.
     *
     * @param estimator the estimator that produced the estimate (its projection and the protocol's public parameters)
     * @param estimate the protocol's estimate of the window
     * @param mechanism the resolved mechanism of the workload (privunit-g, or the box's scalar randomizer)
     * @param domain the workload's vector domain (labels and bounds)
     * @param confidence the confidence of the bars
     * @param workloadHash the workload's content hash
     */
    public static Answer answer(VectorMeanEstimator estimator, VectorMeanEstimate estimate, MechanismId mechanism,
            Domain.Vector domain, ConfidenceLevel confidence, String workloadHash) {
        Require.nonNull("estimator", estimator);
        VectorMeanProtocol protocol = estimator.protocol();
        Require.nonNull("estimate", estimate);
        Require.nonNull("domain", domain);
        Require.nonNull("confidence", confidence);
        int d = domain.dimension();
        double[] raw = estimate.mean();
        double[] se = estimate.standardError();
        if (raw.length != d) {
            throw new IllegalArgumentException("the estimate has " + raw.length + " coordinates, the domain " + d);
        }
        double lo = domain.coordinateLo();
        double hi = domain.coordinateHi();
        double[] published = ErrorBars.clampedInto(estimator.project(raw), lo, hi);
        // a box's devices round every coordinate to the nearest level: the bars add that bias's bound (issue 27)
        double rounding = protocol instanceof BoxCoordinates b ? b.range().roundingBound() : 0;
        double[] bias = null;
        if (rounding > 0) {
            bias = new double[d];
            Arrays.fill(bias, rounding);
        }
        ErrorBars.Bounds bars = ErrorBars.compute(published, raw, se, bias, new ErrorBars.LevelNoise[0], 0, confidence,
                lo, hi);
        double sumSq = 0;
        double maxSe = 0;
        for (double s : se) {
            sumSq += s * s;
            maxSe = Math.max(maxSe, s);
        }
        double rms = Math.sqrt(sumSq / d);
        double trivial = diameter(domain) / Math.sqrt(d);
        double z = STANDARD_NORMAL.inverseCumulativeProbability(1 - confidence.beta() / (2.0 * d));
        Map<String, Double> scalars = new TreeMap<>();
        scalars.put("dimension", (double) d);
        if (domain instanceof Domain.Ball b) {
            scalars.put("radius", b.radius());
        } else {
            Domain.Box box = (Domain.Box) domain;
            scalars.put("lo", box.lo());
            scalars.put("hi", box.hi());
            scalars.put("levels", (double) box.levels());
        }
        scalars.put("payloadBytes", (double) protocol.payloadBytes());
        scalars.put("stateLongs", (double) protocol.stateLength());
        scalars.put("maxStandardError", maxSe);
        if (protocol instanceof BallCandidates b) { // the chosen parameters: N public candidates, top set of s
            scalars.put("candidates", (double) b.candidateCount());
            scalars.put("topSet", (double) b.topSize());
        } else if (protocol instanceof BoxCoordinates b) { // k of d coordinates described by each report
            scalars.put("sampledCoordinates", (double) b.sampledCoordinates());
        }
        return new Answer(mechanism, PrivacyCost.pure(protocol.epsilon()), estimate.n(), domain.coordinates(),
                published, Optional.of(raw), Optional.of(se), bars.lower(), bars.upper(), confidence.value(),
                Math.min(trivial, rms + rounding), Math.min(trivial, z * rms + rounding), List.of(), workloadHash,
                new Answer.Extras(List.of(), scalars, OptionalDouble.empty()));
    }

    /** The ℓ2 diameter of the feasible set: {@code 2·radius} for a ball, {@code (hi − lo)·√d} for a box. */
    static double diameter(Domain.Vector domain) {
        return domain instanceof Domain.Ball b ? 2 * b.radius()
                : (domain.coordinateHi() - domain.coordinateLo()) * Math.sqrt(domain.dimension());
    }
}

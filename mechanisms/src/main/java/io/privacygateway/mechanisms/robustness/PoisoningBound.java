package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The poisoning bound of a local pipeline: how far reports that do not come from the real randomizer can move
 * a window's published answer.
 *
 * <p><b>Threat.</b> A modified app can send any well-formed payload, and it can try many device ids (and so many
 * public coins, which derive from the report's coordinates) before it reports. Nothing in a single report tells
 * the gateway it was not produced by the randomizer: every well-formed payload of every mechanism here has a
 * positive probability under every input (the ε-LDP ratio bound forces it). What the gateway can publish instead
 * is how much such a report can do.
 *
 * <p><b>Definition.</b> With {@code n} accepted reports in a window, replacing the payloads of {@code k} of
 * them (any payloads, any coins) moves every coordinate of the unprojected estimate by at most
 * {@code k·worst.linf/n} and the published (projected) answer by at most
 * {@code min(k·worst.projectedL2/n, diam K)} in ℓ2, hence in every coordinate ({@link #unprojectedShift},
 * {@link #publishedShift}). The estimators are affine in the aggregate, so {@code n·shift} is a constant of the
 * mechanism, its parameters and the workload; the tree is the exception (each level is normalised by its own
 * report count) and its value is the one at the design counts {@code n_ℓ = n/h} (see {@link #basis}).
 *
 * <p><b>Honest against malicious.</b> {@link #honestInput} is how far a device running the real randomizer can
 * move the <em>expected</em> answer by lying about its value ({@code diam{a(x)}}, no more than the answers'
 * own spread): local privacy cannot prevent that. {@link #worst} is what a modified app achieves on every
 * report; an honest report reaches the same extremes only with small probability, and its errors average out.
 * The optional {@link Grinding} shows the effect of the coins: the influence for typical coins (a modified app
 * that keeps its device id) against the largest over many sampled coins (one that grinds ids).
 *
 * @param mechanism the mechanism
 * @param epsilon the per-report ε (as the mechanism computes with it)
 * @param worst worst payload, worst coins ({@link MechanismInfluence#worst})
 * @param worstCoversAllCoins whether {@code worst} holds for every coin value (false only for the generic
 *     analysis, which samples coordinates)
 * @param honestInput the spread of the honest expected contributions {@code a(x)}
 * @param feasibleDiameter an upper bound on {@code diam K}: no window's published answer moves further
 * @param grinding typical and ground-coins influence, when computed
 * @param basis how {@code worst} was obtained and what it assumes
 */
public record PoisoningBound(MechanismId mechanism, double epsilon, Influence worst, boolean worstCoversAllCoins,
        Influence honestInput, double feasibleDiameter, Optional<Grinding> grinding, String basis) {
    public PoisoningBound {
        Require.nonNull("mechanism", mechanism);
        Require.nonNull("worst", worst);
        Require.nonNull("honestInput", honestInput);
        Require.finiteNonNegative("feasibleDiameter", feasibleDiameter);
        Require.nonNull("grinding", grinding);
        Require.nonNull("basis", basis);
    }

    /**
     * The influence for coins that are not chosen and for coins chosen among many.
     *
     * @param typical the mean over {@code tries} sampled coordinates of the influence at those coordinates
     *     (each component separately): what a modified app that keeps its device id achieves on average
     * @param ground the largest over the same coordinates: a modified app that tries {@code tries} device ids
     *     and reports under the best one
     * @param tries the number of sampled coordinates ({@code 1} for a mechanism without public coins)
     */
    public record Grinding(Influence typical, Influence ground, int tries) {}

    /** The bound without the grinding figures (closed forms only: fast enough for the planner). */
    public static PoisoningBound of(LocalPipeline pipeline) {
        return of(pipeline, 0);
    }

    /**
     * The bound, with the grinding figures over {@code tries} sampled coordinates
     * ({@code ("poisoning-probe-<i>", 0, 0)}, {@code i < tries}) when {@code tries > 0}.
     */
    public static PoisoningBound of(LocalPipeline pipeline, int tries) {
        Require.nonNull("pipeline", pipeline);
        Require.inRange("tries", tries, 0, Integer.MAX_VALUE);
        MechanismInfluence mi = MechanismInfluence.of(pipeline);
        Influence honest = Spread.ofLevels(rows(mi.expectedContributions()));
        // K = conv{Q(x)}: its diameter is that of its vertices (exact when small, else a proven bound)
        double diameter = Spread.l2Diameter(vectors(pipeline.workload().points())).value();
        Optional<Grinding> g = tries == 0 ? Optional.empty() : Optional.of(grinding(mi, tries));
        return new PoisoningBound(mi.protocol().id(), mi.protocol().epsilon().value(), mi.worst(),
                mi.worstCoversAllCoins(), honest, diameter, g, mi.basis());
    }

    private static List<double[]> vectors(PointSet points) {
        List<double[]> out = new ArrayList<>(points.size());
        for (int x = 0; x < points.size(); x++) {
            out.add(points.row(x));
        }
        return out;
    }

    private static List<double[][]> rows(PointSet points) {
        List<double[][]> out = new ArrayList<>(points.size());
        for (int x = 0; x < points.size(); x++) {
            out.add(new double[][] {points.row(x)});
        }
        return out;
    }

    /** The typical and ground influence of {@code mi} over {@code tries} sampled coordinates. */
    static Grinding grinding(MechanismInfluence mi, int tries) {
        if (!mi.coinDependent()) {
            Influence at = mi.atCoordinates(MechanismInfluence.probe(0));
            return new Grinding(at, at, 1);
        }
        double linf = 0;
        double l2 = 0;
        double projected = 0;
        Influence ground = null;
        for (int i = 0; i < tries; i++) {
            ReportCoordinates c = MechanismInfluence.probe(i);
            Influence at = mi.atCoordinates(c);
            linf += at.linf();
            l2 += at.l2();
            projected += at.projectedL2();
            ground = ground == null ? at : ground.max(at);
        }
        Influence typical = new Influence(linf / tries, l2 / tries, projected / tries, false, false);
        return new Grinding(typical, ground, tries);
    }

    /**
     * The most {@code devices} reports can move one coordinate of the unprojected estimate of a window of
     * {@code n} accepted reports: {@code devices · worst.linf / n}.
     */
    public double unprojectedShift(long n, long devices) {
        check(n, devices);
        return devices * worst.linf() / n;
    }

    /**
     * The most {@code devices} reports can move the published answer of a window of {@code n} accepted
     * reports, in ℓ2 (hence in every coordinate): {@code min(devices · worst.projectedL2 / n, diam K)}.
     */
    public double publishedShift(long n, long devices) {
        check(n, devices);
        return Math.min(devices * worst.projectedL2() / n, feasibleDiameter);
    }

    private static void check(long n, long devices) {
        Require.inRange("n", n, 1, Long.MAX_VALUE);
        Require.inRange("devices", devices, 0, n);
    }
}

package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The pure-DP baseline of central mode: the count ({@link CountRelease}, pure {@code ε_count}), then discrete
 * Laplace noise of scale {@code t >= Δ₁/ε_sum} on every coordinate of the integer window sum ({@code Δ₁} the
 * l1 sensitivity under the declared neighbour relation, {@link CentralGeometry#l1Sensitivity}; t rounded up
 * from the exact quotient). For neighbouring windows the noisy sums' pmf ratio is at most
 * {@code e^{‖Δt‖₁/t}} ≤ {@code e^{ε_sum}}, and the two compose to {@code ε_count + ε_sum} ≤ the declared ε.
 *
 * <p><b>Published</b>: only functions of the released count ñ and the noisy sums T̃ ({@link #publish}): the
 * noisy mean {@code y = T̃/(max(1, ñ)·G)} as {@code unprojected}, its projection onto K as the estimate, and
 * bars from the noise parameters and ñ.
 *
 * <p><b>Error bars.</b> {@code y_q − x̄_q = N_q/(DG) + x̄_q(n − D)/D} with D = max(1, ñ); with probability at
 * least 1 − β per coordinate {@code |N_q| <= t·ln(2/β)}, and the count term is bounded by
 * {@link CountRelease#relativeBound}. y is pure, so the distance the projection moved each coordinate is
 * added. The l2 bound uses {@code √m·t·ln(2m/β)/(DG)} (union over coordinates) plus the count term times
 * diam(K). Where ñ &lt; 1 no relative bound exists and the bars are the whole range.
 */
public final class LaplaceRelease implements CentralRelease {
    private final Workload workload;
    private final CentralGeometry geometry;
    private final CentralParameters.Laplace params;
    private final CentralParameterChoice.Inputs model;
    private final FeasibleAnswers feasible;
    private final CountRelease count;
    private final DiscreteLaplace sumNoise;

    private LaplaceRelease(Workload workload, CentralGeometry geometry, CentralParameters.Laplace params,
            CentralParameterChoice.Inputs model, long l1Sensitivity) {
        this.workload = workload;
        this.geometry = geometry;
        this.params = params;
        this.model = model;
        this.feasible = FeasibleAnswers.of(workload);
        WorkloadSpec s = workload.spec();
        this.count = CountRelease.of(s.central().neighbour(), s.central().contributionsPerWindow(),
                params.epsilonCount());
        this.sumNoise = new DiscreteLaplace(PrivacySplit.dyadicUp(l1Sensitivity, params.epsilonSum()));
    }

    public static LaplaceRelease of(Workload w, long planned) {
        CentralGeometry geo = CentralGeometry.of(w);
        CentralParameterChoice.Inputs in = CentralParameterChoice.Inputs.answers(w, geo, planned, List.of(), 0);
        NeighbourRelation relation = w.spec().central().neighbour();
        return new LaplaceRelease(w, geo, CentralParameterChoice.laplace(in), in,
                geo.l1Sensitivity(relation, w.spec().central().contributionsPerWindow()));
    }

    @Override
    public Workload workload() {
        return workload;
    }

    @Override
    public CentralParameters.Laplace parameters() {
        return params;
    }


    /** The count's release. */
    CountRelease count() {
        return count;
    }

    /** The noise on every coordinate of the sum (grid units). */
    public DiscreteLaplace sumNoise() {
        return sumNoise;
    }

    @Override
    public Answer release(long[] counts, RandomBits secret) {
        long n = CentralRelease.checkedTotal(workload, counts);
        if (count instanceof CountRelease.Public && n == 0) {
            return feasible.noData(MechanismId.LAPLACE);
        }
        long released = count.release(n, secret);
        long[] noisy = geometry.sum(counts);
        for (int q = 0; q < noisy.length; q++) {
            noisy[q] = Math.addExact(noisy[q], sumNoise.sample(secret));
        }
        return publish(released, noisy);
    }

    /**
     * Everything the answer publishes, computed from the pure outputs only: the released count and the noisy
     * sums (and public parameters).
     */
    Answer publish(long released, long[] noisySums) {
        int m = workload.queryCount();
        double nG = (double) CountRelease.divisor(released) * geometry.scale();
        double[] y = new double[m];
        for (int q = 0; q < m; q++) {
            y[q] = noisySums[q] / nG;
        }
        // K ⊆ [0, 1]^m: clamping removes the projection's rounding only
        double[] estimate = ErrorBars.clampedInto(feasible.projection().project(y).point(), 0, 1);
        double scale = sumNoise.scaleDouble() / nG;
        double beta = feasible.failureBudget() / 2;
        double relCount = count.relativeBound(beta, released);
        boolean bounded = relCount < Double.POSITIVE_INFINITY;
        double bound = bounded
                ? Math.sqrt(m) * scale * Math.log(2 * m / beta) + relCount * feasible.diameter()
                : Double.POSITIVE_INFINITY;
        double tail = scale * Math.log(2 / beta) + feasible.maxAbs() * relCount;
        double[] halfWidth = new double[m];
        double[] se = new double[m];
        double sd = Math.sqrt(sumNoise.variance()) / nG;
        for (int q = 0; q < m; q++) {
            halfWidth[q] = bounded ? Math.abs(estimate[q] - y[q]) + tail : Double.POSITIVE_INFINITY;
            se[q] = sd;
        }
        double[][] bars = ErrorBars.clipped(estimate, halfWidth, true);
        double countScale = count instanceof CountRelease.Noisy c ? c.noise().scaleDouble() : 0;
        double expected = CentralParameterChoice.laplaceRms(model, sumNoise.scaleDouble(), countScale,
                CountRelease.divisor(released));
        Answer.LevelDetail level = new Answer.LevelDetail(1, new PrivacyCost.Pure(params.epsilonSum()),
                workload.points().maxNorm(), sd, feasible.width(), workload.universeSize(), OptionalDouble.empty());
        return new Answer(MechanismId.LAPLACE, cost(), CountRelease.published(released), workload.queryLabels(),
                estimate, Optional.of(y), Optional.of(se), bars[0], bars[1], workload.spec().confidence().value(),
                feasible.capped(expected), feasible.capped(bound / Math.sqrt(m)), List.of(level),
                workload.contentHash());
    }
}

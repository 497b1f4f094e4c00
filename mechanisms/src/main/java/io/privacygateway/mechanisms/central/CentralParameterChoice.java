package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.List;

/**
 * Chooses (ε split, ρ, δ, ω, ε') for a declared total pure ε by minimising the predicted error
 * (issue: "for a declared total ε, choose (ρ, δ, ω, ε') to minimise predicted error").
 *
 * <p><b>Error model</b> (per-answer RMS, answer units; n is the planned report count, G the grid scale):
 * <ul>
 *   <li>Gaussian part, per level j: {@code σ_j = √(Δ₂,j²/(2ρ_j))/(nG)}, error
 *       {@code √min(σ_j², σ_j·g_j/m)} (MECHANISMS.md §3), levels adding up (Lemma 3.3);
 *   <li>purification: discrete Laplace of scale {@code b = 2Δ/ε'} per answer with
 *       {@code Δ = 2·d^{1−1/q}·R·κ}, {@code κ = (δ/(2ω))^{1/d}} (Algorithm 1), shrunk by the final projection:
 *       {@code √min(2b², √2·b·g/m)};
 *   <li>the mixing event (probability ω) can cost up to the whole range: {@code √ω};
 *   <li>the noisy count (add/remove): discrete Laplace of scale {@code L/ε_count}, a relative error of
 *       {@code √2·L/(ε_count·n)} on answers of size at most {@code max‖Q(x)‖/√m}.
 * </ul>
 * The parts are combined as independent: {@code √(gaussian² + purification² + ω + count²)}.
 *
 * <p><b>Search.</b> A grid over the count share, the purification share ε'/ε, ω ∈ {10^-2..10^-14} and
 * ln κ, using the closed-form standard conversion {@code ε = ρ + 2√(ρ ln(1/δ))}; the winner is then
 * re-evaluated with the tighter Canonne–Kamath–Steinke conversion ({@link Conversions#largestRho}), which
 * only allows a larger ρ (less noise) for the same (ε, δ). ln δ = d·ln κ + ln(2ω) is carried in log
 * space throughout.
 */
public final class CentralParameterChoice {
    private static final double[] COUNT_SHARES = {0.02, 0.05, 0.1, 0.2};
    private static final double[] PURIFICATION_SHARES = {0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4,
        0.5, 0.6, 0.7};
    private static final double[] OMEGA_EXPONENTS = {2, 3, 4, 5, 6, 8, 10, 12, 14};

    private CentralParameterChoice() {}

    /**
     * One level of the Gaussian part.
     *
     * @param sensitivitySquared squared l2 sensitivity of the level's sum (grid units)
     * @param gaussianWidth g of the set the level is projected onto (answer units)
     */
    public record Level(double sensitivitySquared, double gaussianWidth) {}

    /**
     * The public inputs of the choice, in the space the mechanism works in (answers: m = the number of
     * answers; histogram: m = the universe size N).
     *
     * @param answerFactor converts the working space's per-coordinate RMS to per-answer RMS: 1 in answer
     *     space; {@code ‖P‖_F/√m_answers} in histogram space (an error spread evenly over the N counts)
     * @param histogramSpace whether the working space is the histogram
     */
    public record Inputs(double epsilon, boolean countPublic, int contributions, long plannedN, long gridScale, int m,
            double maxAnswerNorm, double widthK, CentralGeometry.Ball ball, List<Level> levels, double l1Sensitivity,
            double answerFactor, boolean histogramSpace) {}

    /** Parameters of the purified Gaussian mechanism (projection: one level; chaining: several). */
    public static CentralParameters gaussian(MechanismId mechanism, Inputs in) {
        double best = Double.POSITIVE_INFINITY;
        double[] arg = null;
        double[] shares = levelShares(in);
        int d = in.m();
        double cost = in.ball().cost();
        for (double fc : in.countPublic() ? new double[] {0} : COUNT_SHARES) {
            for (double fp : PURIFICATION_SHARES) {
                double epsApx = in.epsilon() * (1 - fc - fp);
                if (epsApx <= 0) {
                    continue;
                }
                for (double k : OMEGA_EXPONENTS) {
                    double lnOmega = -k * Math.log(10);
                    for (double lnKappa = -60; lnKappa <= 0; lnKappa += 0.25) {
                        double lnDelta = d * lnKappa + Math.log(2) + lnOmega;
                        if (!(lnDelta < 0)) {
                            continue;
                        }
                        double rho = standardRho(epsApx, -lnDelta);
                        double err = predicted(in, shares, rho, fc, in.epsilon() * fp, 2 * cost * Math.exp(lnKappa),
                                Math.exp(lnOmega));
                        if (err < best) {
                            best = err;
                            arg = new double[] {fc, fp, lnOmega, lnKappa};
                        }
                    }
                }
            }
        }
        double fc = arg[0];
        double fp = arg[1];
        double lnOmega = arg[2];
        double lnKappa = arg[3];
        double epsApx = in.epsilon() * (1 - fc - fp);
        double lnDelta = d * lnKappa + Math.log(2) + lnOmega;
        double rho = Conversions.largestRho(epsApx, new LogDelta(lnDelta)); // tighter, still valid
        double[] levelRho = new double[shares.length];
        for (int j = 0; j < shares.length; j++) {
            levelRho[j] = rho * shares[j];
        }
        double err = predicted(in, shares, rho, fc, in.epsilon() * fp, 2 * cost * Math.exp(lnKappa),
                Math.exp(lnOmega));
        return new CentralParameters(mechanism, in.epsilon(), in.epsilon() * fc, epsApx, in.epsilon() * fp, lnDelta,
                Math.exp(lnOmega), rho, levelRho, in.ball().norm(), 0, err * in.answerFactor(),
                in.histogramSpace() ? CentralParameters.Space.HISTOGRAM : CentralParameters.Space.ANSWERS);
    }

    /** Parameters of the Laplace baseline (discrete Laplace with the l1 sensitivity, then projection). */
    public static CentralParameters laplace(Inputs in) {
        double best = Double.POSITIVE_INFINITY;
        double bestFc = 0;
        for (double fc : in.countPublic() ? new double[] {0} : COUNT_SHARES) {
            double t = in.l1Sensitivity() / (in.epsilon() * (1 - fc));
            double sigma = Math.sqrt(2) * t / ((double) in.plannedN() * in.gridScale());
            double err = Math.sqrt(sq(Math.sqrt(Math.min(sigma * sigma, sigma * in.widthK() / in.m())))
                    + sq(countError(in, fc)));
            if (err < best) {
                best = err;
                bestFc = fc;
            }
        }
        return new CentralParameters(MechanismId.LAPLACE, in.epsilon(), in.epsilon() * bestFc, 0, 0, 0, 0, 0,
                new double[0], LqNorm.L1, in.l1Sensitivity() / (in.epsilon() * (1 - bestFc)), best,
                CentralParameters.Space.ANSWERS);
    }

    /** The predicted RMS of the Gaussian mechanism for a given ρ and purification parameters. */
    static double predicted(Inputs in, double[] shares, double rho, double countShare, double epsPrime,
            double wasserstein, double omega) {
        double nG = (double) in.plannedN() * in.gridScale();
        double gauss = 0;
        for (int j = 0; j < shares.length; j++) {
            Level l = in.levels().get(j);
            double sigma = Math.sqrt(l.sensitivitySquared() / (2 * rho * shares[j])) / nG;
            gauss += Math.sqrt(Math.min(sigma * sigma, sigma * l.gaussianWidth() / in.m()));
        }
        double b = 2 * wasserstein / epsPrime;
        double purif = Math.sqrt(Math.min(2 * b * b, Math.sqrt(2) * b * in.widthK() / in.m()));
        return Math.sqrt(gauss * gauss + purif * purif + omega + sq(countError(in, countShare)));
    }

    static double countError(Inputs in, double countShare) {
        if (in.countPublic() || countShare == 0) {
            return 0;
        }
        double t = in.contributions() / (in.epsilon() * countShare);
        return Math.sqrt(2) * t / in.plannedN() * in.maxAnswerNorm() / Math.sqrt(in.m());
    }

    /** ρ with {@code ρ + 2√(ρ·L) = ε} (Bun–Steinke Prop. 1.3 inverted). */
    static double standardRho(double epsilon, double logInverseDelta) {
        double s = Math.sqrt(logInverseDelta + epsilon) - Math.sqrt(logInverseDelta);
        return s * s;
    }

    /**
     * Shares of ρ per level minimising {@code Σ_j err_j} at a representative ρ (the optimum depends on ρ
     * only through which branch of each level's min is active, so the shares found at the planned scale
     * are reused for the whole search): proportional to {@code a_j^{2/3}} on the σ branch
     * ({@code err ∝ ρ^{-1/2}}) and refined by pairwise exchanges.
     */
    static double[] levelShares(Inputs in) {
        int k = in.levels().size();
        double[] s = new double[k];
        if (k == 1) {
            s[0] = 1;
            return s;
        }
        double total = 0;
        for (int j = 0; j < k; j++) {
            s[j] = Math.pow(Math.max(in.levels().get(j).sensitivitySquared(), 1e-300), 1.0 / 3);
            total += s[j];
        }
        for (int j = 0; j < k; j++) {
            s[j] /= total;
        }
        double rho = 0.01; // representative scale; the exchange step below adapts to the actual error shape
        double step = 0.2;
        for (int round = 0; round < 200 && step > 1e-4; round++) {
            boolean moved = false;
            for (int a = 0; a < k; a++) {
                for (int b = 0; b < k; b++) {
                    if (a == b || s[a] <= step * s[a]) {
                        continue;
                    }
                    double before = levelsError(in, s, rho);
                    double delta = step * s[a];
                    s[a] -= delta;
                    s[b] += delta;
                    if (levelsError(in, s, rho) < before) {
                        moved = true;
                    } else {
                        s[a] += delta;
                        s[b] -= delta;
                    }
                }
            }
            if (!moved) {
                step /= 2;
            }
        }
        return s;
    }

    private static double levelsError(Inputs in, double[] shares, double rho) {
        double nG = (double) in.plannedN() * in.gridScale();
        double e = 0;
        for (int j = 0; j < shares.length; j++) {
            Level l = in.levels().get(j);
            double sigma = Math.sqrt(l.sensitivitySquared() / (2 * rho * shares[j])) / nG;
            e += Math.sqrt(Math.min(sigma * sigma, sigma * l.gaussianWidth() / in.m()));
        }
        return e;
    }

    private static double sq(double x) {
        return x * x;
    }
}

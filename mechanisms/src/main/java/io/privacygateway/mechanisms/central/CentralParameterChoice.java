package io.privacygateway.mechanisms.central;

import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.release.ErrorBars;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Arrays;
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
 *       {@code √2·L/(ε_count·n)} on answers of size at most {@code max‖Q(x)‖/√m};
 *   <li>central chaining's deliberate bias (devices contribute their chain end {@code π_k(Q(x))}, not
 *       {@code Q(x)}): {@code max_x ‖π_k(Q(x)) − Q(x)‖₂/√m}, added.
 * </ul>
 * The noise parts are combined as independent: {@code √(gaussian² + purification² + ω + count²) + bias}
 * ({@link #gaussianRms}, {@link #laplaceRms}; the released answers evaluate the same model at their published
 * count).
 *
 * <p><b>Rounding.</b> The search works in plain doubles; the shares finally spent are re-derived with
 * {@link PrivacySplit#split}, so their exact sum is at most the declared ε, and the ρ of the levels add up
 * exactly to at most the Gaussian part's ρ.
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
     * @param epsilon the declared total pure ε per release
     * @param widthK g of the working space's feasible set (K, or the simplex in histogram space)
     * @param answerFactor converts the working space's per-coordinate RMS to per-answer RMS: 1 in answer
     *     space; {@code ‖P‖_F/√m_answers} in histogram space (an error spread evenly over the N counts)
     * @param histogramSpace whether the working space is the histogram
     * @param biasRms the mechanism's deliberate bias {@code max_x ‖a(x) − Q(x)‖₂/√m} (chaining; 0 otherwise),
     *     added to every prediction
     */
    public record Inputs(Epsilon epsilon, boolean countPublic, int contributions, long plannedN, long gridScale, int m,
            double maxAnswerNorm, double widthK, CentralGeometry.Ball ball, List<Level> levels, double l1Sensitivity,
            double answerFactor, boolean histogramSpace, double biasRms) {

        /**
         * Inputs in answer space: the m answers on the workload's grid, K's width, the cheapest ball around K,
         * the given levels (none for the Laplace baseline) and bias.
         */
        static Inputs answers(Workload w, CentralGeometry geo, long planned, List<Level> levels, double biasRms) {
            WorkloadSpec s = w.spec();
            int contributions = s.central().contributionsPerWindow();
            NeighbourRelation relation = s.central().neighbour();
            return new Inputs(s.central().epsilonPerRelease(), CountRelease.isPublic(relation),
                    contributions, planned, geo.scale(), w.queryCount(), w.points().maxNorm(),
                    GaussianWidth.of(w.points()).upper(), geo.cheapestBall(), levels,
                    geo.l1Sensitivity(relation, contributions), 1.0, false, biasRms);
        }

        /**
         * Inputs in histogram space: N counts with the histogram's sensitivity
         * ({@link CentralGeometry#histogramSensitivitySquared}), the simplex's Gaussian width bounded by
         * {@code √(2 ln N)}, the l1 ball of centre {@code 1/N} and diameter {@code 4(1 − 1/N)} around it, and the
         * factor {@code ‖P‖_F/√m} from per-count to per-answer RMS.
         */
        static Inputs histogram(Workload w, long planned) {
            WorkloadSpec s = w.spec();
            int n = w.universeSize();
            int contributions = s.central().contributionsPerWindow();
            NeighbourRelation relation = s.central().neighbour();
            double width = Math.sqrt(2 * Math.log(n));
            double[] center = new double[n];
            Arrays.fill(center, 1.0 / n);
            CentralGeometry.Ball ball = new CentralGeometry.Ball(LqNorm.L1, center, 4 * (1 - 1.0 / n) * (1 + 1e-9));
            double frob = 0;
            PointSet pts = w.points();
            for (int x = 0; x < n; x++) {
                double r = pts.norm(x);
                frob += r * r;
            }
            double factor = Math.sqrt(frob / w.queryCount());
            double d2 = CentralGeometry.histogramSensitivitySquared(relation, contributions);
            return new Inputs(s.central().epsilonPerRelease(), CountRelease.isPublic(relation),
                    contributions, planned, 1, n, 1.0, width, ball, List.of(new Level(d2, width)), 0, factor, true, 0);
        }
    }

    /** Parameters of the purified Gaussian mechanism (projection: one level; chaining: several). */
    public static CentralParameters.Gaussian gaussian(MechanismId mechanism, Inputs in) {
        double best = Double.POSITIVE_INFINITY;
        double[] arg = null;
        double[] shares = levelShares(in);
        int d = in.m();
        double cost = in.ball().cost();
        double eps = in.epsilon().value();
        for (double fc : in.countPublic() ? new double[] {0} : COUNT_SHARES) {
            for (double fp : PURIFICATION_SHARES) {
                double epsApx = eps * (1 - fc - fp);
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
                        double err = plannedGaussianRms(in, shares, rho, eps * fc, eps * fp,
                                2 * cost * Math.exp(lnKappa), Math.exp(lnOmega));
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
        // the shares actually spent: exact sum <= ε.value() <= the declared ε (the search above only chose them)
        double[] parts = PrivacySplit.split(eps, fc, fp, 1 - fc - fp);
        double epsCount = parts[0];
        double epsPrime = parts[1];
        double epsApx = parts[2];
        double lnDelta = d * lnKappa + Math.log(2) + lnOmega;
        double rho = Conversions.largestRho(epsApx, new LogDelta(lnDelta)); // tighter than standardRho, still valid
        double[] levelRho = PrivacySplit.split(rho, shares);
        double err = plannedGaussianRms(in, shares, rho, epsCount, epsPrime, 2 * cost * Math.exp(lnKappa),
                Math.exp(lnOmega));
        return new CentralParameters.Gaussian(mechanism, epsCount, epsApx, epsPrime, lnDelta, Math.exp(lnOmega), rho,
                levelRho, in.ball().norm(), err,
                in.histogramSpace() ? CentralParameters.Space.HISTOGRAM : CentralParameters.Space.ANSWERS);
    }

    /** Parameters of the Laplace baseline (discrete Laplace with the l1 sensitivity, then projection). */
    public static CentralParameters.Laplace laplace(Inputs in) {
        double best = Double.POSITIVE_INFINITY;
        double bestFc = 0;
        double eps = in.epsilon().value();
        for (double fc : in.countPublic() ? new double[] {0} : COUNT_SHARES) {
            double err = laplaceRms(in, in.l1Sensitivity() / (eps * (1 - fc)),
                    fc == 0 ? 0 : in.contributions() / (eps * fc), in.plannedN());
            if (err < best) {
                best = err;
                bestFc = fc;
            }
        }
        double[] parts = PrivacySplit.split(eps, bestFc, 1 - bestFc);
        double err = laplaceRms(in, in.l1Sensitivity() / parts[1],
                parts[0] == 0 ? 0 : in.contributions() / parts[0], in.plannedN());
        return new CentralParameters.Laplace(parts[0], parts[1], err);
    }

    /** The predicted RMS of the Gaussian mechanism at the planned n for a ρ split by {@code shares}. */
    static double plannedGaussianRms(Inputs in, double[] shares, double rho, double epsCount, double epsPrime,
            double wasserstein, double omega) {
        double[] sigma = new double[shares.length];
        for (int j = 0; j < shares.length; j++) {
            sigma[j] = Math.sqrt(in.levels().get(j).sensitivitySquared() / (2 * rho * shares[j]));
        }
        return gaussianRms(in, sigma, 2 * wasserstein / epsPrime, omega,
                in.countPublic() || epsCount == 0 ? 0 : in.contributions() / epsCount, in.plannedN());
    }

    /**
     * The error model of the purified Gaussian mechanism, per answer (RMS), for given noise and report count n
     * (the planned count when choosing parameters; the published count, at least 1, when an answer states its
     * expected error):
     * <ul>
     *   <li>level j with noise σ_j (grid units of the sum): {@code s_j = σ_j/(nG)}, error
     *       {@code √min(s_j², s_j·g_j/m)} (MECHANISMS.md §3, {@link ErrorBars#expectedLevelError}), levels adding
     *       up (Lemma 3.3);</li>
     *   <li>purification: discrete Laplace of scale b per coordinate (variance ≈ 2b²), shrunk by the final
     *       projection: {@code √min(2b², √2·b·g/m)};</li>
     *   <li>the mixing event (probability ω) can cost up to the whole range: {@code √ω};</li>
     *   <li>the noisy count (scale t): a relative error of {@code √2·t/n} on answers of size at most
     *       {@code max‖Q(x)‖/√m};</li>
     *   <li>the deliberate bias, added: {@code biasRms}.</li>
     * </ul>
     * The noise parts are combined as independent, times the answer factor, plus the bias.
     *
     * @param levelSigma σ_j of every level's noise, in grid units of its sum
     * @param b the purification noise scale, real units
     * @param countScale the count noise scale t (0 when the count is public)
     * @param n the report count, {@code >= 1}
     */
    static double gaussianRms(Inputs in, double[] levelSigma, double b, double omega, double countScale, double n) {
        double nG = n * in.gridScale();
        int m = in.m();
        double gauss = 0;
        for (int j = 0; j < levelSigma.length; j++) {
            double s = levelSigma[j] / nG;
            gauss += ErrorBars.expectedLevelError(s, m * s * s, in.levels().get(j).gaussianWidth()) / Math.sqrt(m);
        }
        double purif = ErrorBars.expectedLevelError(Math.sqrt(2) * b, 2 * m * b * b, in.widthK()) / Math.sqrt(m);
        double count = countError(in, countScale, n);
        return Math.sqrt(gauss * gauss + purif * purif + omega + count * count) * in.answerFactor() + in.biasRms();
    }

    /**
     * The error model of the Laplace baseline, per answer (RMS): discrete Laplace of scale {@code sumScale}
     * (grid units) on every sum, {@code s = √2·sumScale/(nG)}, projected: {@code √min(s², s·g/m)}; the count
     * as in {@link #gaussianRms}; combined as independent.
     */
    static double laplaceRms(Inputs in, double sumScale, double countScale, double n) {
        double s = Math.sqrt(2) * sumScale / (n * in.gridScale());
        int m = in.m();
        double sums = ErrorBars.expectedLevelError(s, m * s * s, in.widthK()) / Math.sqrt(m);
        double count = countError(in, countScale, n);
        return Math.sqrt(sums * sums + count * count);
    }

    private static double countError(Inputs in, double countScale, double n) {
        if (countScale == 0) {
            return 0;
        }
        return Math.sqrt(2) * countScale / n * in.maxAnswerNorm() / Math.sqrt(in.m());
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
        int m = in.m();
        double e = 0;
        for (int j = 0; j < shares.length; j++) {
            Level l = in.levels().get(j);
            double s = Math.sqrt(l.sensitivitySquared() / (2 * rho * shares[j])) / nG;
            e += ErrorBars.expectedLevelError(s, m * s * s, l.gaussianWidth()) / Math.sqrt(m);
        }
        return e;
    }

}

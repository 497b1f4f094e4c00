package io.privacygateway.mechanisms.central.worstcase;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.wide.Failures;
import io.privacygateway.mechanisms.central.wide.MwUniverse;
import io.privacygateway.mechanisms.central.wide.MwemParameters;
import io.privacygateway.mechanisms.central.wide.PrivateMultiplicativeWeights;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import java.util.ArrayList;
import java.util.List;

/**
 * The parameters of worst-case chaining ({@link WorstCaseChainingRelease}) for a declared total pure ε, chosen to
 * minimise the l∞ bound the release publishes (its theoretical part) at the planned report count.
 *
 * <p><b>ε split</b> ({@link PrivacySplit}, exact): count (0 for a public count), the max-error check
 * ({@link MwemParameters#CHECK_SHARE}), purification ε′, and ε_apx, whose
 * zCDP budget ρ ({@code Conversions.largestRho(ε_apx, δ)}) is split across the levels ({@link PrivacySplit}, exact).
 *
 * <p><b>Objective</b>: {@code Σ_j s_j·(B_j + 1/unit_j) + bias + P}, with {@code B_j} private multiplicative weights'
 * bound on level j with {@code ρ_j} and {@code T_j} rounds ({@link PrivateMultiplicativeWeights#bound}), {@code s_j}
 * the level's scale (2·radius), {@code 1/unit_j} its query grid, the decomposition's bias, and P the answer-space
 * purification's l∞ deviation {@code h·(⌈t·ln(2m/β_p)⌉ + 1)} (discrete Laplace of grid scale t, grid step h).
 * Search: grids over the count share, the purification share and ln κ ({@code ln δ = m·ln κ + ln(2ω)}); per level
 * T a power of two up to a work cap; ρ shared across levels in proportion to {@code s_j^{2/3}}, then refined by
 * pairwise exchanges.
 *
 * @param epsilonCount ε of the count (0 when public)
 * @param epsilonApprox the ε of the (ε, δ) guarantee of the levels together
 * @param epsilonPrime purification's ε′
 * @param epsilonCheck the max-error check's ε
 * @param logDelta ln δ
 * @param omega the mixing weight
 * @param rho the levels' total zCDP budget
 * @param levelRho ρ per level (exact sum at most rho)
 * @param rounds T per level
 * @param selectShare the selection's share of every round's ρ
 * @param predictedMaxError the objective at the planned count
 */
public record WorstCaseParameters(double epsilonCount, double epsilonApprox, double epsilonPrime, double epsilonCheck,
        double logDelta, double omega, double rho, double[] levelRho, int[] rounds, double selectShare,
        double predictedMaxError) {
    /** The work cap {@code Σ_j T_j·(|U_j|·m + 2^d·d)} per release. */
    public static final long WORK_BUDGET = 1L << 31;
    public static final int MAX_ROUNDS = 1024;

    private static final double[] COUNT_SHARES = {0.02, 0.05, 0.1};
    private static final double[] PURIFICATION_SHARES = {0.05, 0.1, 0.2, 0.3, 0.4, 0.5};
    private static final double SELECT_SHARE = 0.25;

    public WorstCaseParameters {
        PrivacySplit.requirePurifiedShares(epsilonCount, epsilonApprox, epsilonPrime);
        Require.finitePositive("epsilonCheck", epsilonCheck);
        PrivacySplit.requireApproximatePart(logDelta, omega, rho);
        levelRho = levelRho.clone();
        rounds = rounds.clone();
        if (levelRho.length != rounds.length || levelRho.length == 0) {
            throw new IllegalArgumentException("levelRho and rounds must have one entry per level");
        }
        for (int j = 0; j < rounds.length; j++) {
            Require.finitePositive("levelRho[" + j + "]", levelRho[j]);
            Require.inRange("rounds[" + j + "]", rounds[j], 1, MAX_ROUNDS);
        }
        Require.inOpenRange("selectShare", selectShare, 0, 1);
    }

    @Override
    public double[] levelRho() {
        return levelRho.clone();
    }

    @Override
    public int[] rounds() {
        return rounds.clone();
    }

    /** The pure guarantee: the exact sum of the four ε shares, rounded up (at most the declared ε). */
    public PrivacyCost.Pure cost() {
        return new PrivacyCost.Pure(Composition.sumEpsilon(epsilonCount, epsilonApprox, epsilonPrime, epsilonCheck));
    }

    /**
     * What the choice needs to know about one level.
     *
     * @param universe the level's universe and queries
     * @param scale {@code s_j}: answer units per query unit
     * @param gridSlack the query grid's contribution in query units ({@code 1/unit} for rescaled coordinates, 0 for
     *     exact 0/1 queries)
     * @param workPerRound elementary steps of one round
     */
    record LevelShape(MwUniverse universe, double scale, double gridSlack, long workPerRound) {}

    /**
     * The answer space's purification and failure split.
     *
     * @param dimension m, the number of answers
     * @param diameter the l∞ diameter of the box purified in
     */
    record AnswerShape(int dimension, double diameter, double bias) {}

    static WorstCaseParameters choose(List<LevelShape> levels, AnswerShape answers, WideSettings s) {
        double eps = s.epsilon().value();
        double n = s.plannedReports();
        Failures f = Failures.of(s.beta(), s.countPublic());
        double omega = f.theory() / 8;
        int k = levels.size();
        double perLevel = f.theory() / (4.0 * k);
        double[] countShares = s.countPublic() ? new double[] {0} : COUNT_SHARES;
        double[] shares = initialShares(levels);
        double best = Double.POSITIVE_INFINITY;
        double[] arg = null;
        for (double fp : PURIFICATION_SHARES) {
            for (double lnKappa = -60; lnKappa < 0; lnKappa += 0.25) {
                double purification = purificationBound(answers, eps * fp, lnKappa, f.theory() / 4);
                if (!(purification < best)) {
                    continue;
                }
                double lnDelta = answers.dimension() * lnKappa + Math.log(2 * omega);
                for (double fc : countShares) {
                    double epsApx = eps * (1 - fc - fp - MwemParameters.CHECK_SHARE);
                    if (!(epsApx > 0)) {
                        continue;
                    }
                    double rho = standardRho(epsApx, -lnDelta);
                    double r = fc == 0 ? 0 : s.contributions() / (eps * fc) * Math.log(2 / f.count()) / n;
                    double total = levelsBound(levels, s, rho, shares, n, r, perLevel, null) + answers.bias()
                            + purification;
                    if (total < best) {
                        best = total;
                        arg = new double[] {fp, lnKappa, fc};
                    }
                }
            }
        }
        if (arg == null) {
            throw new IllegalArgumentException("no worst-case chaining parameters give a finite bound at ε = " + eps);
        }
        double fp = arg[0];
        double lnKappa = arg[1];
        double fc = arg[2];
        double[] parts = PrivacySplit.split(eps, fc, fp, MwemParameters.CHECK_SHARE,
                1 - fc - fp - MwemParameters.CHECK_SHARE);
        double lnDelta = answers.dimension() * lnKappa + Math.log(2 * omega);
        double rho = Conversions.largestRho(parts[3], new LogDelta(lnDelta));
        double r = fc == 0 ? 0 : s.contributions() / parts[0] * Math.log(2 / f.count()) / n;
        refineShares(levels, s, rho, shares, n, r, perLevel);
        int[] rounds = new int[k];
        double levelsPart = levelsBound(levels, s, rho, shares, n, r, perLevel, rounds);
        double[] levelRho = PrivacySplit.split(rho, shares);
        double predicted = levelsPart + answers.bias() + purificationBound(answers, parts[1], lnKappa, f.theory() / 4);
        return new WorstCaseParameters(parts[0], parts[3], parts[1], parts[2], lnDelta, omega, rho, levelRho, rounds,
                SELECT_SHARE, predicted);
    }

    /** {@code Σ_j s_j(B_j + slack_j)} with each level's best T; fills {@code roundsOut} when given. */
    private static double levelsBound(List<LevelShape> levels, WideSettings s, double rho, double[] shares, double n,
            double r, double beta, int[] roundsOut) {
        double total = 0;
        for (int j = 0; j < levels.size(); j++) {
            LevelShape l = levels.get(j);
            double rhoJ = rho * shares[j];
            int cap = (int) Math.max(1, Math.min(MAX_ROUNDS, WORK_BUDGET / Math.max(1, l.workPerRound() * levels.size())));
            double bestJ = Double.POSITIVE_INFINITY;
            int bestT = 1;
            for (int t : roundGrid(cap)) {
                double b = levelBound(l, s, rhoJ, t, n, r, beta);
                if (b < bestJ) {
                    bestJ = b;
                    bestT = t;
                }
            }
            if (roundsOut != null) {
                roundsOut[j] = bestT;
            }
            total += l.scale() * (bestJ + l.gridSlack());
        }
        return total;
    }

    static double levelBound(LevelShape l, WideSettings s, double rho, int t, double n, double r, double beta) {
        MwUniverse u = l.universe();
        double d2 = PrivateMultiplicativeWeights.sensitivitySquared(u, s.neighbour(), s.contributions());
        double sigma = Math.sqrt(d2 / (2 * rho * (1 - SELECT_SHARE) / t));
        double epsSel = Math.sqrt(8 * rho * SELECT_SHARE / t);
        return PrivateMultiplicativeWeights.bound(u.logSize(), u.groups(), u.groupSize(), u.unit(), t, epsSel, sigma,
                s.contributions(), n, r, beta, beta);
    }

    /** Powers of two up to the cap, and the cap. */
    static int[] roundGrid(int cap) {
        List<Integer> l = new ArrayList<>();
        for (int t = 1; t <= cap; t <<= 1) {
            l.add(t);
        }
        if (l.get(l.size() - 1) != cap) {
            l.add(cap);
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    private static double[] initialShares(List<LevelShape> levels) {
        double[] w = new double[levels.size()];
        double total = 0;
        for (int j = 0; j < w.length; j++) {
            w[j] = Math.pow(levels.get(j).scale(), 2.0 / 3);
            total += w[j];
        }
        for (int j = 0; j < w.length; j++) {
            w[j] /= total;
        }
        return w;
    }

    private static void refineShares(List<LevelShape> levels, WideSettings s, double rho, double[] shares, double n,
            double r, double beta) {
        int k = shares.length;
        double step = 0.2;
        for (int round = 0; round < 100 && step > 1e-3 && k > 1; round++) {
            boolean moved = false;
            for (int a = 0; a < k; a++) {
                for (int b = 0; b < k; b++) {
                    if (a == b) {
                        continue;
                    }
                    double before = levelsBound(levels, s, rho, shares, n, r, beta, null);
                    double delta = step * shares[a];
                    shares[a] -= delta;
                    shares[b] += delta;
                    if (levelsBound(levels, s, rho, shares, n, r, beta, null) < before) {
                        moved = true;
                    } else {
                        shares[a] += delta;
                        shares[b] -= delta;
                    }
                }
            }
            if (!moved) {
                step /= 2;
            }
        }
    }

    /**
     * The answer-space purification's l∞ deviation for the default grid of {@link Purifier} on an l∞ ball of the
     * given diameter (the rule evaluated in closed form for the search; the release uses the purifier's own values).
     */
    static double purificationBound(AnswerShape a, double epsPrime, double lnKappa, double beta) {
        int m = a.dimension();
        double lnTarget = Math.log(2 * a.diameter()) + lnKappa - Math.log(Purifier.GRID_OVERHEAD_DIVISOR * 6);
        int g = (int) Math.ceil(-lnTarget / Math.log(2));
        double radius = a.diameter() / 2;
        while (Math.scalb(radius, g) < Purifier.MIN_DEFAULT_GRID_RADIUS) {
            g++;
        }
        while (Math.scalb(radius, g) > Purifier.MAX_GRID_RADIUS) {
            g--;
        }
        double gridRadius = Math.scalb(radius, g);
        double h = Math.scalb(1.0, -g);
        double kappa = Math.exp(lnKappa);
        double transport = Math.min(4 * (gridRadius + 0.5) * kappa + 4, 2 * gridRadius);
        double t = 2 * transport * m / epsPrime;
        if (t > Purifier.MAX_NOISE_SCALE_GRID_UNITS) {
            return Double.POSITIVE_INFINITY;
        }
        return h * (Math.ceil(t * Math.log(2.0 * m / beta)) + 1);
    }

    static double standardRho(double epsilon, double logInverseDelta) {
        double s = Math.sqrt(logInverseDelta + epsilon) - Math.sqrt(logInverseDelta);
        return s * s;
    }
}

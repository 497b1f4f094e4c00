package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.CentralGeometry;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The parameters of a purified MWEM release ({@link PurifiedMwemRelease}), chosen for a declared total pure ε by
 * minimising the predicted max-error bound at the planned report count ({@link #choose}).
 *
 * <p><b>ε split</b> (exact: {@link PrivacySplit}, every share rounded down, so the exact sum of the four shares is
 * at most the largest double not above the declared ε): {@code ε_count} (the noisy count; 0 for a public count),
 * {@code ε_check} ({@link MaxErrorCheck}, {@value #CHECK_SHARE} of ε), {@code ε′} (purification) and {@code ε_apx}
 * (the rest). MWEM gets ρ, the largest ρ whose zCDP guarantee is {@code (ε_apx, δ)}-DP
 * ({@code accounting.Conversions.largestRho}); purification turns the (ε_apx, δ)-DP records into pure
 * {@code ε_apx + ε′} (Theorem 1 of the purification paper).
 *
 * <p><b>Predicted error</b> (the objective): a model of the max error the release achieves at the planned count n,
 * {@code structure(T) + σ_T·√(2 ln 2^{k+1})/n + 2r + √(ln(2K)/(2m)) + F/m}: the max error of noiseless
 * multiplicative weights after T rounds on public reference data ({@link WideReference}; what noise does not
 * explain), the measurement noise of a measured marginal's worst cell ({@code σ_T} the per-round discrete Gaussian),
 * the count's relative error r, the typical max sampling error of m records over K cells, and F a binomial upper
 * quantile of the records with a flipped bit (each of the {@code m·d} bits flips with probability
 * {@link BinaryCubePurifier#flipProbability}). The exponential mechanism's selection gap is left out: with the small
 * ρ that purification leaves, selection is close to uniform over the marginals, and measuring a random marginal still
 * helps multiplicative weights (measured: charging the worst-case gap made the planner choose T = 1, i.e. the uniform
 * distribution, in some cells, with max errors 1.1–1.8× larger than with the gap left out, {@code docs/wide-domains.md}).
 * δ enters through κ: {@code ln δ = m·d·ln κ + ln(2ω)}. The worst-case MWEM bound (what
 * {@link PurifiedMwemRelease} publishes next to the measured one) is far looser (its {@code √(4d ln 2/T)} term
 * alone exceeds 0.4 for d = 20 and T = 256), so it is not the objective.
 *
 * <p><b>Search</b>: a grid over the count share, the purification share, m (powers of two), ln κ (steps of 1/4),
 * the rounds T (powers of two up to a compute cap) and the selection's share of every round's ρ, with the
 * closed-form conversion {@code ρ = (√(L+ε) − √L)²}; the winner is re-derived exactly (the tighter conversion only
 * allows a larger ρ). The cap on T keeps the release's work at {@code T·2^d·(d+8) <= }{@value #WORK_BUDGET}
 * elementary steps ({@code docs/wide-domains.md} has the measured times).
 *
 * @param epsilonCount ε of the count (0 when public)
 * @param epsilonApprox the ε of MWEM's (ε, δ) guarantee
 * @param epsilonPrime purification's ε′
 * @param epsilonCheck the max-error check's ε
 * @param logDelta ln δ
 * @param omega the mixing weight
 * @param rho MWEM's zCDP budget
 * @param rounds T
 * @param selectShare the selection's share of every round's ρ
 * @param records m, the synthetic records
 * @param predictedMaxError the predicted bound at the planned count
 */
public record MwemParameters(double epsilonCount, double epsilonApprox, double epsilonPrime, double epsilonCheck,
        double logDelta, double omega, double rho, int rounds, double selectShare, int records,
        double predictedMaxError) {
    /** The share of ε that buys the private measurement of the achieved max error. */
    public static final double CHECK_SHARE = 0.05;
    /** The work cap {@code T·2^d·(d+8)} of one release. */
    public static final long WORK_BUDGET = 1L << 31;
    /** The largest number of rounds. */
    public static final int MAX_ROUNDS = 512;

    private static final double[] COUNT_SHARES = {0.02, 0.05, 0.1};
    private static final double[] PURIFICATION_SHARES = {0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5};
    private static final double[] SELECT_SHARES = {0.1, 0.25, 0.5};

    public MwemParameters {
        PrivacySplit.requirePurifiedShares(epsilonCount, epsilonApprox, epsilonPrime);
        Require.finitePositive("epsilonCheck", epsilonCheck);
        PrivacySplit.requireApproximatePart(logDelta, omega, rho);
        Require.inRange("rounds", rounds, 1, MAX_ROUNDS);
        Require.inOpenRange("selectShare", selectShare, 0, 1);
        Require.inRange("records", records, 1, Purifier.MAX_DIMENSION);
    }

    /** The pure guarantee: the exact sum of the four shares, rounded up (at most the declared ε). */
    public PrivacyCost.Pure cost() {
        return new PrivacyCost.Pure(Composition.sumEpsilon(epsilonCount, epsilonApprox, epsilonPrime, epsilonCheck));
    }

    /** The largest number of rounds the work cap allows for d attributes. */
    public static int roundCap(int d) {
        long perRound = (1L << d) * (d + 8L);
        return (int) Math.max(1, Math.min(MAX_ROUNDS, WORK_BUDGET / perRound));
    }

    /** The parameters minimising the predicted bound at the planned count. */
    public static MwemParameters choose(MarginalWorkload w, WideSettings s) {
        return choose(w, s, OptionalInt.empty(), OptionalInt.empty());
    }

    /**
     * The parameters minimising the predicted bound, with T and/or m fixed when given (benchmarks and tests).
     */
    public static MwemParameters choose(MarginalWorkload w, WideSettings s, OptionalInt fixedRounds,
            OptionalInt fixedRecords) {
        Require.nonNull("workload", w);
        Require.nonNull("settings", s);
        int d = w.attributeCount();
        Require.inRange("attributes (dense MWEM)", d, 1, Hypercube.MAX_DENSE_ATTRIBUTES);
        double eps = s.epsilon().value();
        double n = s.plannedReports();
        Failures f = Failures.of(s.beta(), s.countPublic());
        double omega = f.theory() / 8;
        double d2 = CentralGeometry.histogramSensitivitySquared(s.neighbour(), s.contributions());
        int capT = roundCap(d);
        int[] roundsGrid = fixedRounds.isPresent() ? new int[] {check(fixedRounds.getAsInt(), 1, MAX_ROUNDS, "rounds")}
                : powersOfTwo(1, capT);
        int maxRecords = Math.min(1 << 16, Purifier.MAX_DIMENSION / d);
        int[] recordsGrid = fixedRecords.isPresent()
                ? new int[] {check(fixedRecords.getAsInt(), 1, maxRecords, "records")} : powersOfTwo(8, maxRecords);
        double[] countShares = s.countPublic() ? new double[] {0} : COUNT_SHARES;
        double[] curve = WideReference.structureCurve(w, capT);
        double noiseQuantile = Math.sqrt(2 * Math.log(2.0 * w.cellsPerSubset()));
        double best = Double.POSITIVE_INFINITY;
        double[] arg = null;
        for (int m : recordsGrid) {
            int bits = m * d;
            double sampling = Math.sqrt(Math.log(2.0 * w.queryCount()) / (2.0 * m));
            for (double fp : PURIFICATION_SHARES) {
                double epsPrime = eps * fp;
                for (double lnKappa = -60; lnKappa < 0; lnKappa += 0.25) {
                    double pBit = plannedFlipProbability(bits, epsPrime, lnKappa);
                    if (!(pBit < 0.5)) {
                        continue;
                    }
                    double pRecord = -Math.expm1(d * Math.log1p(-pBit));
                    double purification = Tails.binomialUpper(m, pRecord, f.theory() / 8) / (double) m + sampling;
                    if (purification >= best) {
                        continue;
                    }
                    double lnDelta = bits * lnKappa + Math.log(2 * omega);
                    for (double fc : countShares) {
                        double epsApx = eps * (1 - fc - fp - CHECK_SHARE);
                        if (!(epsApx > 0)) {
                            continue;
                        }
                        double rho = standardRho(epsApx, -lnDelta);
                        double r = fc == 0 ? 0 : s.contributions() / (eps * fc) * Math.log(2 / f.count()) / n;
                        for (int t : roundsGrid) {
                            double structure = structure(curve, t);
                            for (double fs : SELECT_SHARES) {
                                double sigma = Math.sqrt(d2 / (2 * rho * (1 - fs) / t));
                                double noise = sigma / n * noiseQuantile;
                                double b = structure + noise + 2 * r + purification;
                                if (b < best) {
                                    best = b;
                                    arg = new double[] {m, fp, lnKappa, fc, t, fs};
                                }
                            }
                        }
                    }
                }
            }
        }
        if (arg == null) {
            throw new IllegalArgumentException("no MWEM parameters give a finite bound for " + w + " at ε = " + eps
                    + " and n = " + s.plannedReports());
        }
        int m = (int) arg[0];
        double fp = arg[1];
        double lnKappa = arg[2];
        double fc = arg[3];
        int t = (int) arg[4];
        double fs = arg[5];
        double[] parts = PrivacySplit.split(eps, fc, fp, CHECK_SHARE, 1 - fc - fp - CHECK_SHARE);
        double lnDelta = (double) m * d * lnKappa + Math.log(2 * omega);
        double rho = Conversions.largestRho(parts[3], new LogDelta(lnDelta));
        return new MwemParameters(parts[0], parts[3], parts[1], parts[2], lnDelta, omega, rho, t, fs, m, best);
    }

    /**
     * The flip probability of one bit for the default grid of {@link Purifier} on the cube of dimension
     * {@code bits} (the same grid rule, evaluated in closed form for the search; the release uses the purifier's
     * exact value).
     */
    static double plannedFlipProbability(int bits, double epsPrime, double lnKappa) {
        // default grid: h <= 2Rκ/(64(2 + 8s)) with R = 1, s = 1/2, then N = 1/(2h) clamped into [64, 2^30]
        double lnTarget = Math.log(2) + lnKappa - Math.log(Purifier.GRID_OVERHEAD_DIVISOR * 6);
        int g = (int) Math.ceil(-lnTarget / Math.log(2));
        g = Math.max(1, Math.min(1074, g));
        while (Math.scalb(0.5, g) < Purifier.MIN_DEFAULT_GRID_RADIUS) {
            g++;
        }
        while (Math.scalb(0.5, g) > Purifier.MAX_GRID_RADIUS) {
            g--;
        }
        double gridRadius = Math.scalb(0.5, g);
        double kappa = Math.exp(lnKappa);
        double transport = Math.min(4 * (gridRadius + 0.5) * kappa + 4, 2 * gridRadius);
        double t = 2 * transport * bits / epsPrime;
        if (t > Purifier.MAX_NOISE_SCALE_GRID_UNITS) {
            return 1;
        }
        return Math.exp(-gridRadius / t) / (1 + Math.exp(-1 / t));
    }

    /** ρ with {@code ρ + 2√(ρ·L) = ε}. */
    static double standardRho(double epsilon, double logInverseDelta) {
        double s = Math.sqrt(logInverseDelta + epsilon) - Math.sqrt(logInverseDelta);
        return s * s;
    }

    /** The structure curve at T (T is a power of two or the cap, where the curve is evaluated). */
    private static double structure(double[] curve, int t) {
        if (t <= curve.length && !Double.isNaN(curve[t - 1])) {
            return curve[t - 1];
        }
        // a fixed T off the curve's grid: the value at the largest evaluated T <= t (the curve decreases)
        for (int u = Math.min(t, curve.length); u >= 1; u--) {
            if (!Double.isNaN(curve[u - 1])) {
                return curve[u - 1];
            }
        }
        return 1;
    }

    private static int[] powersOfTwo(int from, int to) {
        List<Integer> l = new ArrayList<>();
        for (long v = from; v <= to; v <<= 1) {
            l.add((int) v);
        }
        if (l.isEmpty() || l.get(l.size() - 1) != to) {
            l.add(to);
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int check(int v, int lo, int hi, String field) {
        return (int) Require.inRange(field, v, lo, hi);
    }
}

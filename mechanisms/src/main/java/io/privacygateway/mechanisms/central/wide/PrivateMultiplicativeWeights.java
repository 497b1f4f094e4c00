package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.central.CentralGeometry;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.central.sampling.Rationals;
import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * Private multiplicative weights under ρ-zCDP over a finite universe ({@link MwUniverse}): MWEM (Hardt, Ligett and
 * McSherry 2012; purification paper Algorithm 14) with exact samplers, the building block of the wide release
 * ({@link PurifiedMwemRelease}) and of worst-case chaining (instance-optimal query release paper, Lemma 2.3 and
 * §4.3).
 *
 * <h2>One run</h2>
 * {@code p_0} uniform; for {@code t = 1..T}, with {@code A = Q(p_{t−1})} (public: a function of earlier outputs):
 * <ol>
 *   <li><b>Select</b> a group by the exponential mechanism ({@link ExponentialSelection}) with score
 *       {@code s_g = max_q |R_{g,q} − S·stat_{g,q}|}, where {@code R = round(ñ·unit·S·A)} is public and
 *       {@code S = 2^16/unit} a fixed score grid. One report changes {@code stat_{g,q}} by at most {@code unit},
 *       so {@code s_g} changes by at most {@code Δ_sel = L·unit·S} (the released count ñ is fixed: it was
 *       released before, and the scores use it as a public number).</li>
 *   <li><b>Measure</b> the selected group: {@code y_q = stat_{g,q} + Z_q}, Z i.i.d. discrete Gaussian σ², whose
 *       l2 sensitivity is the histogram rule for a partition group ({@link CentralGeometry#histogramSensitivitySquared})
 *       and {@code (L·unit)²} for a single query.</li>
 *   <li><b>Update</b>: {@code m_q = clamp(y_q/(ñ·unit), 0, 1)}, {@code η_q = (m_q − A_{g,q})/2},
 *       {@code p_t ∝ p_{t−1}·exp(Σ_q η_q q)}.</li>
 * </ol>
 * The output is the average of the last half of the iterates, {@code p̄ = (1/(T − T₀))Σ_{t=T₀}^{T−1} p_t} with
 * {@code T₀ = ⌊T/2⌋}. Algorithm 14 averages all of {@code p_0..p_{T−1}}; the early iterates are close to the uniform
 * start, which real marginals are far from, and dropping them costs at most a factor {@code √(T/(T − T₀)) <= √2}
 * in the bound below (its sum over the rounds is over all T rounds either way) while the achieved error improves
 * several-fold at the small T that a purified budget affords (measured: {@code docs/wide-domains.md}).
 *
 * <h2>Privacy</h2>
 * Each round is {@code ε_sel²/8 + Δ₂²/(2σ²)}-zCDP (bounded-range selection; the discrete Gaussian, CKS 2020
 * Theorem 4), and rounds compose adaptively (Bun and Steinke 2016, Lemma 2.3): {@link Schedule#rho()} is their
 * exact sum, at most the ρ given to {@link #schedule}.
 *
 * <h2>Utility (max error, {@link #bound})</h2>
 * Let D be the reports' distribution over U, {@code a = Q(p_{t−1}) − Q(D)} and {@code e = m − Q(D)} on the
 * selected group, {@code Ψ_t = KL(D ‖ p_t)}. With {@code e^y <= 1 + y + y²} ({@code |y| <= 1/2} here) and
 * {@code ln(1+z) <= z}, a round gains {@code Ψ_{t−1} − Ψ_t >= (‖a‖₂² − ‖e‖₂²)/4} (for a partition group the
 * cells' weights are at most 1). Summing, {@code Σ_t ‖a_t‖₂² <= 4 ln|U| + Σ_t ‖e_t‖₂²}. The selection's utility
 * and the count's relative error r give {@code max_g ‖Q_g(p_{t−1}) − Q_g(D)‖∞ <= ‖a_t‖∞ + 2r + ξ}, and averaging
 * over the last {@code T − T₀} iterates (the max error of an average is at most the average of the max errors) with
 * Cauchy–Schwarz:
 * <pre>  ‖Q(p̄) − Q(D)‖∞ <= √((4 ln|U| + T·ē²)/(T − T₀)) + 2r + ξ + ν</pre>
 * with {@code ē = z̄/(ñ·unit) + r} ({@code z̄} the Hsu–Kakade–Zhang bound on ‖Z‖₂ for subgaussian vectors: the
 * discrete Gaussian is σ²-subgaussian, CKS 2020), {@code ξ = 2L·ln(C·T/β_sel)/(ε_sel·ñ)} and ν the score grid's
 * rounding plus a floating-point allowance.
 */
public final class PrivateMultiplicativeWeights {
    /** The score grid: scores are in units of {@code 2^−16} of one report's largest change of a query. */
    static final long SCORE_GRID = 1L << 16;
    /** Floating-point allowance added to every bound (answers are sums of doubles). */
    static final double FLOATING_SLACK = 1e-9;

    private PrivateMultiplicativeWeights() {}

    /**
     * The privacy parameters of a run.
     *
     * @param rounds T
     * @param epsilonSelect the selection's ε (exact dyadic)
     * @param noise the measurement's discrete Gaussian
     * @param selectSensitivity {@code Δ_sel = L·unit·S} in score units
     * @param rho the exact zCDP ρ of the run, {@code T·(ε²/8 + Δ₂²/(2σ²))}, rounded up
     */
    public record Schedule(int rounds, Rational epsilonSelect, DiscreteGaussian noise, long selectSensitivity,
            long sensitivitySquared, double rho) {
        /** σ of the measurement noise (in statistic units). */
        public double sigma() {
            return Math.sqrt(noise.sigma2().doubleValue());
        }

        /** The selection's ε as a double. */
        public double epsilonSelectValue() {
            return epsilonSelect.doubleValue();
        }
    }

    /**
     * The parameters of a run that spends at most {@code rho}: {@code ρ/T} per round (rounded down), split
     * {@code selectShare : 1 − selectShare} between selection and measurement ({@link PrivacySplit}); the selection's
     * ε is the largest dyadic with {@code ε²/8 <=} its share, σ² the smallest 31-bit dyadic with
     * {@code Δ₂²/(2σ²) <=} the measurement's share.
     */
    public static Schedule schedule(MwUniverse u, NeighbourRelation relation, int contributions, double rho,
            int rounds, double selectShare) {
        Require.nonNull("universe", u);
        Require.nonNull("relation", relation);
        Require.inRange("contributions", contributions, 1, 1 << 20);
        Require.finitePositive("rho", rho);
        Require.inRange("rounds", rounds, 1, 1 << 20);
        Require.inOpenRange("selectShare", selectShare, 0, 1);
        long unit = u.unit();
        if (Long.bitCount(unit) != 1 || unit > SCORE_GRID) {
            throw new IllegalArgumentException("unit must be a power of two <= 2^16, got " + unit);
        }
        double perRound = DirectedDoubles.floor(new BigDecimal(rho).divide(BigDecimal.valueOf(rounds),
                new MathContext(60, RoundingMode.FLOOR)));
        double[] parts = PrivacySplit.split(perRound, selectShare, 1 - selectShare);
        Rational eps = ExponentialSelection.epsilonForRho(parts[0]);
        long d2 = sensitivitySquared(u, relation, contributions);
        BigDecimal sigma2Exact = new BigDecimal(d2).divide(new BigDecimal(parts[1]).multiply(BigDecimal.valueOf(2)),
                new MathContext(60, RoundingMode.CEILING));
        Rational sigma2 = Rationals.ceilDyadic("sigma2", DirectedDoubles.ceil(sigma2Exact), 31);
        DiscreteGaussian noise = new DiscreteGaussian(sigma2);
        long selectSensitivity = Math.multiplyExact(Math.multiplyExact((long) contributions, unit), SCORE_GRID / unit);
        return new Schedule(rounds, eps, noise, selectSensitivity, d2, realisedRho(rounds, eps, d2, sigma2));
    }

    /** {@code T·(ε²/8 + Δ₂²/(2σ²))} exactly, rounded up. */
    static double realisedRho(int rounds, Rational eps, long d2, Rational sigma2) {
        BigDecimal e = new BigDecimal(eps.numerator()).divide(new BigDecimal(eps.denominator()));
        BigDecimal select = e.multiply(e).divide(BigDecimal.valueOf(8));
        BigDecimal measure = new BigDecimal(d2).multiply(new BigDecimal(sigma2.denominator()))
                .divide(new BigDecimal(sigma2.numerator()).multiply(BigDecimal.valueOf(2)),
                        new MathContext(60, RoundingMode.CEILING));
        return DirectedDoubles.ceil(select.add(measure).multiply(BigDecimal.valueOf(rounds)));
    }

    /** The squared l2 sensitivity of one group's statistics (statistic units). */
    public static long sensitivitySquared(MwUniverse u, NeighbourRelation relation, int contributions) {
        if (u.partition()) {
            return Math.multiplyExact(CentralGeometry.histogramSensitivitySquared(relation, contributions),
                    Math.multiplyExact(u.unit(), u.unit()));
        }
        long one = Math.multiplyExact((long) contributions, u.unit());
        return Math.multiplyExact(one, one);
    }

    /** The data side of a run: the exact statistics of a group, {@code Σ_reports unit·q(x)} per query. */
    @FunctionalInterface
    public interface Data {
        long[] statistic(int group);
    }

    /**
     * A run's result (never published as such: the wide release purifies what it derives from it).
     *
     * @param average p̄, the average of {@code p_{T₀}..p_{T−1}}
     * @param answers {@code Q(p̄)} per group and query
     * @param selected the group chosen in every round
     */
    public record Run(double[] average, double[][] answers, int[] selected) {}

    /**
     * One run.
     *
     * @param released the released count ñ, {@code >= 1} (the caller handles smaller counts)
     */
    public static Run run(MwUniverse u, Data data, Schedule s, long released, ReleaseDraws draws) {
        Require.inRange("released", released, 1, MarginalCounts.MAX_REPORTS * 2);
        int size = u.size();
        int groups = u.groups();
        int per = u.groupSize();
        long unit = u.unit();
        long scale = SCORE_GRID / unit;
        double[] p = new double[size];
        Arrays.fill(p, 1.0 / size);
        double[] avg = new double[size];
        double[][] a = new double[groups][per];
        long[][] scaledStat = new long[groups][];
        for (int g = 0; g < groups; g++) {
            long[] st = data.statistic(g);
            if (st.length != per) {
                throw new IllegalArgumentException("statistic of group " + g + " must have " + per + " entries");
            }
            scaledStat[g] = new long[per];
            for (int q = 0; q < per; q++) {
                scaledStat[g][q] = Math.multiplyExact(st[q], scale);
            }
        }
        double toScore = (double) released * unit * scale;
        long[] scores = new long[groups];
        int[] selected = new int[s.rounds()];
        double[] eta = new double[per];
        double norm = (double) released * unit;
        int burnIn = burnIn(s.rounds());
        for (int t = 0; t < s.rounds(); t++) {
            u.answers(p, a);
            if (t >= burnIn) {
                for (int x = 0; x < size; x++) {
                    avg[x] += p[x];
                }
            }
            for (int g = 0; g < groups; g++) {
                long worst = 0;
                for (int q = 0; q < per; q++) {
                    long r = Math.round(a[g][q] * toScore);
                    worst = Math.max(worst, Math.abs(r - scaledStat[g][q]));
                }
                scores[g] = worst;
            }
            int g = ExponentialSelection.select(scores, s.selectSensitivity(), s.epsilonSelect(), draws);
            selected[t] = g;
            long[] st = data.statistic(g);
            for (int q = 0; q < per; q++) {
                double y = (st[q] + draws.gaussian(s.noise())) / norm;
                double m = Math.max(0, Math.min(1, y));
                eta[q] = (m - a[g][q]) / 2;
            }
            u.update(p, g, eta);
        }
        double inv = 1.0 / (s.rounds() - burnIn);
        for (int x = 0; x < size; x++) {
            avg[x] *= inv;
        }
        double[][] answers = new double[groups][per];
        u.answers(avg, answers);
        return new Run(avg, answers, selected);
    }

    /**
     * The high-probability bound on {@code ‖Q(p̄) − Q(D)‖∞} (query units) of the class comment, which holds with
     * probability at least {@code 1 − betaSelect − betaMeasure} given that {@code |n − ñ| <= r·ñ}.
     *
     * @param released ñ {@code >= 1}
     * @param countRelative r, the count's relative bound (0 for a public count)
     */
    public static double bound(MwUniverse u, Schedule s, int contributions, double released, double countRelative,
            double betaSelect, double betaMeasure) {
        return bound(u.logSize(), u.groups(), u.groupSize(), u.unit(), s.rounds(), s.epsilonSelectValue(), s.sigma(),
                contributions, released, countRelative, betaSelect, betaMeasure);
    }

    /** {@link #bound} from plain numbers (planning evaluates it before a schedule exists). */
    public static double bound(double logSize, int groups, int groupSize, long unit, int rounds, double epsSelect,
            double sigma, int contributions, double released, double countRelative, double betaSelect,
            double betaMeasure) {
        if (!(released >= 1) || !(countRelative < 1)) {
            return Double.POSITIVE_INFINITY;
        }
        double lambda = Math.log(rounds / betaMeasure);
        double zBar = sigma * Math.sqrt(groupSize + 2 * Math.sqrt(groupSize * lambda) + 2 * lambda);
        double eBar = zBar / (released * unit) + countRelative;
        double xi = 2.0 * contributions * Math.log(groups * (double) rounds / betaSelect) / (epsSelect * released);
        double nu = 1.0 / (released * unit * (SCORE_GRID / unit)) + FLOATING_SLACK;
        double averaged = rounds - burnIn(rounds);
        return Math.sqrt((4 * logSize + rounds * eBar * eBar) / averaged) + 2 * countRelative + xi + nu;
    }

    /** {@code T₀ = ⌊T/2⌋}: the iterates before it are not averaged. */
    public static int burnIn(int rounds) {
        return rounds / 2;
    }
}

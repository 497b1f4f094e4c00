package io.privacygateway.mechanisms.robustness;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.gaussian.PublicGaussian;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.gaussian.GaussianLevel;
import io.privacygateway.mechanisms.param.Require;

/**
 * Closed forms for the Gaussian-sign mechanisms (projection, coarse projection, chaining).
 *
 * <p><b>Shape.</b> Level {@code j} of a report adds {@code S_j·rint(Z_j·2^32)} to the aggregate and the
 * estimate is {@code c_j·(aggregate·2^-32)/n}, {@code c_j = r_j√(π/2)/b̃_j} the level's decode scale; so a
 * report contributes {@code Σ_j S_j u_j} with {@code u_j = c_j·rint(Z_j·2^32)·2^-32}, where the public
 * direction {@code Z_j} comes from the report's coins and every sign pattern {@code S ∈ {±1}^L} is a valid
 * payload. For fixed coins the influence is therefore exactly
 * <ul>
 *   <li>ℓ∞: {@code 2·max_q Σ_j |u_{j,q}|} (each level's sign chosen for the target coordinate);
 *   <li>ℓ2: {@code 2·max_{S} ‖Σ_j S_j u_j‖₂}, enumerated over the {@code 2^{L−1}} patterns up to
 *       {@value #MAX_ENUMERATED_LEVELS} informative levels (one level: {@code 2‖u_1‖₂});
 *   <li>published ℓ2: {@code Σ_j 2‖u_j‖₂} (each level is projected on its own).
 * </ul>
 * Levels of radius 0 carry no information and contribute nothing.
 *
 * <p><b>Worst coins.</b> {@link PublicGaussian} never returns {@code |z| >= }
 * {@link PublicGaussian#MAX_ABS}{@code = 14}, and the fixed-point rounding adds at most {@code 2^-33}, which
 * the margin between its documented range (below 13.71) and 14 covers; hence for every value of the coins
 * ℓ∞ {@code <= 2·14·Σ_j c_j} and ℓ2 {@code <= 2·14·√m·Σ_j c_j}. These are proven bounds, far from attained:
 * grinding {@code G} device ids reaches roughly the {@code 1 − 1/G} quantile of {@code |Z|} (about 4.9 for
 * {@code G = 10^6}), which the sampled "ground" figures of {@link PoisoningBound} measure.
 */
final class GaussianInfluence implements MechanismInfluence {
    /** Sign patterns are enumerated exactly up to this many informative levels. */
    static final int MAX_ENUMERATED_LEVELS = 20;

    private static final double UNSCALE = 0x1.0p-32;

    private final GaussianSignProtocol protocol;
    private final int levels;
    private final int m;
    private final double[] scales;
    private final Influence worst;

    GaussianInfluence(GaussianSignProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.levels = protocol.levels().size();
        this.m = protocol.dimension();
        this.scales = new double[levels];
        double sum = 0;
        for (int j = 0; j < levels; j++) {
            scales[j] = protocol.decodeScale(j);
            sum += scales[j];
        }
        double linf = 2 * PublicGaussian.MAX_ABS * sum;
        double l2 = linf * Math.sqrt(m);
        this.worst = new Influence(linf, l2, l2, false, false);
    }

    @Override
    public GaussianSignProtocol protocol() {
        return protocol;
    }

    /** {@code a(x) = Σ_j v_j(x)}: the sum of the value's vectors over the levels. */
    @Override
    public PointSet expectedContributions() {
        int k = protocol.universeSize();
        double[] sum = new double[k * m];
        for (GaussianLevel level : protocol.levels()) {
            double[] rows = level.valueVectors().toRowMajor();
            for (int i = 0; i < sum.length; i++) {
                sum[i] += rows[i];
            }
        }
        return PointSet.ofRowMajor(k, m, sum);
    }

    @Override
    public Influence worst() {
        return worst;
    }

    @Override
    public boolean coinDependent() {
        return true;
    }

    @Override
    public boolean worstCoversAllCoins() {
        return true;
    }

    @Override
    public String basis() {
        return "proven, not attained: every public Gaussian coordinate is below " + PublicGaussian.MAX_ABS
                + " in absolute value; ground coins show what device-id grinding reaches";
    }

    /** The per-level contributions {@code u_j} of a report with these coordinates (zero for radius-0 levels). */
    double[][] directions(ReportCoordinates coordinates) {
        long base = protocol.coins().base(Require.nonNull("coordinates", coordinates));
        double[][] u = new double[levels][m];
        for (int j = 0; j < levels; j++) {
            double c = scales[j];
            if (c == 0) {
                continue;
            }
            SplitMix64 stream = PublicCoins.stream(base, j);
            for (int q = 0; q < m; q++) {
                u[j][q] = c * (PublicGaussian.toFixed(PublicGaussian.next(stream)) * UNSCALE);
            }
        }
        return u;
    }

    @Override
    public Influence atCoordinates(ReportCoordinates coordinates) {
        double[][] u = directions(coordinates);
        double linf = 0;
        double box = 0;
        for (int q = 0; q < m; q++) {
            double s = 0;
            for (int j = 0; j < levels; j++) {
                s += Math.abs(u[j][q]);
            }
            linf = Math.max(linf, s);
            box += s * s;
        }
        double projected = 0;
        int informative = 0;
        for (int j = 0; j < levels; j++) {
            double s = 0;
            for (double v : u[j]) {
                s += v * v;
            }
            projected += Math.sqrt(s);
            informative += scales[j] > 0 ? 1 : 0;
        }
        double l2;
        boolean exact = informative <= MAX_ENUMERATED_LEVELS;
        if (exact) {
            l2 = largestSignedSum(u);
        } else {
            l2 = Math.min(projected, Math.sqrt(box));
        }
        return new Influence(2 * linf, 2 * l2, 2 * Math.max(projected, l2), true, exact);
    }

    /** {@code max_S ‖Σ_j S_j u_j‖₂} over sign patterns of the informative levels (the first sign fixed). */
    private double largestSignedSum(double[][] u) {
        int[] live = new int[levels];
        int count = 0;
        for (int j = 0; j < levels; j++) {
            if (scales[j] > 0) {
                live[count++] = j;
            }
        }
        if (count == 0) {
            return 0;
        }
        double best = 0;
        double[] v = new double[m];
        for (long pattern = 0; pattern < 1L << (count - 1); pattern++) {
            System.arraycopy(u[live[0]], 0, v, 0, m);
            for (int i = 1; i < count; i++) {
                double sign = ((pattern >>> (i - 1)) & 1) == 0 ? 1 : -1;
                double[] w = u[live[i]];
                for (int q = 0; q < m; q++) {
                    v[q] += sign * w[q];
                }
            }
            double s = 0;
            for (double x : v) {
                s += x * x;
            }
            best = Math.max(best, s);
        }
        return Math.sqrt(best);
    }
}

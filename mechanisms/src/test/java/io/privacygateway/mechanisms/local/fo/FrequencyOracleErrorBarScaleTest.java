package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The error-bar scale {@code noiseScale} of {@link FrequencyOracleProtocol#estimate} against closed forms.
 * The states are built so that the plug-in frequencies are uniform, where the estimate's covariance is
 * known exactly:
 * <ul>
 *   <li>GRR: {@code Cov(p̂) = (2q − kq²)/(n(p − q)²) · (I − 11ᵀ/k)} (one-hot supports, rows summing to 1);</li>
 *   <li>Hadamard response with {@code b = 2π − 1}: {@code Cov(T(a), T(c))/n = δ_ac (1 − b²/k) + (b/k)·[a ≠ c,
 *       1 <= a XOR c <= k]} for rows {@code a, c ∈ [1, k]}, divided by {@code n b²}.</li>
 * </ul>
 * For a two-dimensional answer space the power iteration from the documented start {@code (1, 1.1)} has
 * Rayleigh quotients {@code r_t = λ₁(α² + β²ρ^{2t+1})/(α² + β²ρ^{2t})} in the eigenbasis; it stops at the first
 * {@code t >= 1} with {@code r_t − r_{t−1} <= 10⁻⁶ r_t}, or after 60 rounds, and the scale is
 * {@code 1.05·√r_t}.
 */
class FrequencyOracleErrorBarScaleTest {
    private static final Epsilon EPS = Epsilon.of(1.0);

    /** A points workload with answers {@code answer(x)} in one or more coordinates. */
    private static Workload points(int k, IntToDoubleFunction... coords) {
        List<Object> pts = new ArrayList<>();
        for (int x = 0; x < k; x++) {
            List<Double> answer = new ArrayList<>();
            for (IntToDoubleFunction c : coords) {
                answer.add(c.applyAsDouble(x));
            }
            pts.add(Map.of("label", "v" + x, "answer", answer));
        }
        return FrequencyOracleProtocolTest.workload("points", Map.of("points", pts));
    }

    /** GRR's exact covariance scale {@code (2q − kq²)/(n(p − q)²)} at uniform frequencies. */
    private static double grrScale(GeneralizedRandomizedResponse g, long n) {
        int k = g.domainSize();
        double p = g.keepProbability().value();
        double q = (1 - p) / (k - 1);
        return (2 * q - k * q * q) / (n * (p - q) * (p - q));
    }

    /** A GRR state with {@code per} reports of every value: the estimate is flat, the plug-in uniform. */
    private static long[] flat(int length, long per) {
        long[] s = new long[length];
        Arrays.fill(s, per);
        return s;
    }

    /** The Hadamard-response variance of {@code Σ c_x p̂_x} at uniform frequencies, by the double sum above. */
    private static double hadamardQueryVariance(HadamardResponse hr, long n, double[] c) {
        int k = hr.domainSize();
        double b = 2 * hr.inSetProbability().value() - 1;
        double total = 0;
        for (int x = 0; x < k; x++) {
            total += c[x] * c[x] * (1 - b * b / k);
            for (int y = 0; y < k; y++) {
                int xor = (x + 1) ^ (y + 1);
                if (x != y && xor >= 1 && xor <= k) {
                    total += c[x] * c[y] * b / k;
                }
            }
        }
        return total / (n * b * b);
    }

    private static LocalEstimate.Level level(FrequencyOracleProtocol p, long[] state, long n) {
        return LocalEstimators.of(p).estimate(state, n).levels().get(0);
    }

    /**
     * Hadamard response over 1,025 values (more than the polarization limit, no fast covariance product):
     * the scale is the trace bound √(Σ Var) exactly, here with one query equal to its standard error.
     */
    @Test
    void largeDomainsWithoutAFastProductUseTheTraceBound() {
        int k = 1025;
        Workload w = points(k, x -> x % 3 == 0 ? 1 : 0);
        HadamardResponse hr = new HadamardResponse(k, EPS);
        FrequencyOracleProtocol p = new FrequencyOracleProtocol(w, hr);
        long[] state = flat(hr.order(), 1); // every output once: T(a) = 0, p̂ = 0, plug-in uniform
        long n = hr.order();
        double[] c = new double[k];
        for (int x = 0; x < k; x++) {
            c[x] = w.points().get(x, 0);
        }
        double var = hadamardQueryVariance(hr, n, c);
        LocalEstimate.Level level = level(p, state, n);
        assertThat(level.standardErrors()[0]).isCloseTo(Math.sqrt(var), within(1e-12 * Math.sqrt(var)));
        assertThat(level.noiseScale()).isCloseTo(Math.sqrt(var), within(1e-12 * Math.sqrt(var)));
    }

    /**
     * At exactly 1,024 values Hadamard response still runs the power iteration: with one query the answer
     * covariance is the 1×1 matrix (Var), and the scale is 1.05·√Var, not the trace bound √Var.
     */
    @Test
    void thePolarizationLimitIsInclusive() {
        int k = 1024;
        Workload w = points(k, x -> x == k - 1 ? 0 : 1);
        HadamardResponse hr = new HadamardResponse(k, EPS);
        FrequencyOracleProtocol p = new FrequencyOracleProtocol(w, hr);
        long n = hr.order();
        double[] c = new double[k];
        for (int x = 0; x < k; x++) {
            c[x] = w.points().get(x, 0);
        }
        // rows 1..1023 are pairwise XOR-dependent on some value, row 1024 on none
        double b = 2 * hr.inSetProbability().value() - 1;
        double closed = (1023 * (1 - b * b / k) + 1023.0 * 1022 * b / k) / (n * b * b);
        assertThat(hadamardQueryVariance(hr, n, c)).isCloseTo(closed, within(1e-9 * closed));
        LocalEstimate.Level level = level(p, flat(hr.order(), 1), n);
        assertThat(level.standardErrors()[0]).isCloseTo(Math.sqrt(closed), within(1e-9 * Math.sqrt(closed)));
        assertThat(level.noiseScale()).isCloseTo(1.05 * Math.sqrt(closed), within(1e-9 * Math.sqrt(closed)));
    }

    /**
     * Support-count oracles have a fast covariance product and use the power iteration on any domain:
     * GRR over 1,025 values with one query, scale 1.05·√Var with Var = scale·(Σc² − (Σc)²/k).
     */
    @Test
    void supportCountOraclesIterateBeyondTheLimit() {
        int k = 1025;
        Workload w = points(k, x -> x % 4 == 1 ? 1 : 0);
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(k, EPS);
        FrequencyOracleProtocol p = new FrequencyOracleProtocol(w, g);
        long n = 2L * k;
        double s1 = 0;
        double s2 = 0;
        for (int x = 0; x < k; x++) {
            double c = w.points().get(x, 0);
            s1 += c;
            s2 += c * c;
        }
        double var = grrScale(g, n) * (s2 - s1 * s1 / k);
        LocalEstimate.Level level = level(p, flat(k, 2), n);
        assertThat(level.standardErrors()[0]).isCloseTo(Math.sqrt(var), within(1e-12 * Math.sqrt(var)));
        assertThat(level.noiseScale()).isCloseTo(1.05 * Math.sqrt(var), within(1e-9 * Math.sqrt(var)));
    }

    /** The Rayleigh quotient after {@code t} rounds of power iteration on diag(λ₁, λ₁ρ) from (α, β). */
    private static double rayleigh(double lambda1, double rho, double alpha, double beta, int t) {
        double a2 = alpha * alpha;
        double b2 = beta * beta;
        return lambda1 * (a2 + b2 * Math.pow(rho, 2 * t + 1)) / (a2 + b2 * Math.pow(rho, 2 * t));
    }

    /**
     * GRR over the four points (½ ± a, ½), (½, ½ ± b): the answer covariance is diag(2a², 2b²) times GRR's
     * scale, with eigenvalue ratio ρ = b²/a². Returns the scale and checks the iteration's stopping round.
     */
    private static void checkTwoDimensional(double a, double b, int expectedStop) {
        double[][] pts = {{0.5 + a, 0.5}, {0.5 - a, 0.5}, {0.5, 0.5 + b}, {0.5, 0.5 - b}};
        Workload w = points(4, x -> pts[x][0], x -> pts[x][1]);
        GeneralizedRandomizedResponse g = new GeneralizedRandomizedResponse(4, EPS);
        FrequencyOracleProtocol p = new FrequencyOracleProtocol(w, g);
        long n = 4 * 250;
        double scale = grrScale(g, n);
        double ax = pts[0][0] - 0.5;
        double by = pts[2][1] - 0.5;
        double lambda1 = scale * 2 * ax * ax;
        double rho = (by * by) / (ax * ax);
        double norm = Math.sqrt(1 + 1.1 * 1.1);
        double alpha = 1 / norm;
        double beta = 1.1 / norm;
        int stop = 59;
        for (int t = 1; t < 60; t++) {
            double now = rayleigh(lambda1, rho, alpha, beta, t);
            double gap = now - rayleigh(lambda1, rho, alpha, beta, t - 1);
            // not near the threshold, so rounding cannot move the stopping round
            assertThat(Math.abs(gap / (1e-6 * now) - 1)).as("t=%d", t).isGreaterThan(0.05);
            if (gap <= 1e-6 * now) {
                stop = t;
                break;
            }
        }
        assertThat(stop).isEqualTo(expectedStop);
        double expected = 1.05 * Math.sqrt(rayleigh(lambda1, rho, alpha, beta, stop));
        LocalEstimate.Level level = level(p, flat(4, 250), n);
        assertThat(level.standardErrors()).containsExactly(new double[] {Math.sqrt(lambda1), Math.sqrt(lambda1 * rho)},
                within(1e-12 * Math.sqrt(lambda1)));
        assertThat(level.noiseScale()).isCloseTo(expected, within(1e-12 * expected));
    }

    /** A small eigenvalue gap (ρ = 0.99): the iteration runs its 60 rounds and reports the last quotient. */
    @Test
    void aSmallGapRunsAllSixtyRounds() {
        checkTwoDimensional(0.5, 0.5 * Math.sqrt(0.99), 59);
    }

    /** A wide gap (ρ = 1/4): the iteration stops at the first round whose quotient moved by at most 10⁻⁶. */
    @Test
    void aWideGapStopsAtTheRelativeTolerance() {
        checkTwoDimensional(0.5, 0.25, 6);
    }

    /** The top direction second in the start vector (ρ = 1.5 > 1 swaps the roles): the same closed form. */
    @Test
    void theTopDirectionNeedNotBeTheFirstCoordinate() {
        checkTwoDimensional(0.4, 0.4 * Math.sqrt(1.5), 16);
    }

    /** All answers equal: the covariance is 0, the iteration stops on the null vector and the scale is 0. */
    @Test
    void aDegenerateWorkloadHasZeroScale() {
        Workload w = points(3, x -> 0, x -> 0);
        FrequencyOracleProtocol p = new FrequencyOracleProtocol(w, new GeneralizedRandomizedResponse(3, EPS));
        LocalEstimate.Level level = level(p, flat(3, 5), 15);
        assertThat(level.standardErrors()).containsExactly(0, 0);
        assertThat(level.noiseScale()).isZero();
    }

    /** The power iteration stops when the change is at most 10^-6 of the new value, the boundary included. */
    @Test
    void thePowerIterationStopsAtARelativeChangeOfExactlyOneMillionth() {
        assertThat(1e-6 * 1e6).isEqualTo(1.0); // so |10^6 − 999999| = 1 is exactly on the boundary
        assertThat(FrequencyOracleProtocolEstimator.settled(1e6, 999_999)).isTrue();
        assertThat(FrequencyOracleProtocolEstimator.settled(1e6, 1_000_001)).isTrue();
        assertThat(FrequencyOracleProtocolEstimator.settled(1e6, 999_998)).isFalse();
        assertThat(FrequencyOracleProtocolEstimator.settled(-1e6, -999_999)).isTrue();
        assertThat(FrequencyOracleProtocolEstimator.settled(1.0, 0.0)).isFalse();
    }
}

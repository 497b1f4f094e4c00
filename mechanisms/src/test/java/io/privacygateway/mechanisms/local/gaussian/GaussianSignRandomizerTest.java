package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.testing.ScriptedWords;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

class GaussianSignRandomizerTest {
    private static final double[] EPSILONS = {1e-3, 0.01, 0.1, 0.5, 1, 2, 2.6, 3, 5, 10, 20, 37.5, 40};
    private static final int[] DIMS = {1, 3, 16};
    private static final double R = 2.5;
    private static final BigDecimal TWO_54 = BigDecimal.valueOf(1L << 54);

    /** Inputs covering the extremes: 0, ±r·e1, ±(a random direction at radius r), r·e_m, interior, tiny. */
    static List<double[]> inputs(int m, double r) {
        List<double[]> out = new ArrayList<>();
        out.add(new double[m]);
        double[] e1 = new double[m];
        e1[0] = r;
        out.add(e1);
        out.add(scale(e1, -1));
        double[] g = new double[m];
        PublicGaussian.fill(new SplitMix64(m * 31L), g);
        double norm = Math.sqrt(dot(g, g));
        double[] onSphere = scale(g, r / norm);
        out.add(onSphere);
        out.add(scale(onSphere, -1));
        out.add(scale(onSphere, 0.5));
        out.add(scale(onSphere, 1e-300));
        double[] em = new double[m];
        em[m - 1] = r;
        out.add(em);
        return out;
    }

    /** Directions: random Gaussians, their negations, zero, and one orthogonal to e1. */
    static List<double[]> directions(int m) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            double[] z = new double[m];
            PublicGaussian.fill(PublicCoins.stream(SplitMix64.mix64(i + 1000L * m), 0), z);
            out.add(z);
            out.add(scale(z, -1));
        }
        out.add(new double[m]);
        if (m > 1) {
            double[] z = new double[m];
            z[1] = 1.3;
            out.add(z);
        }
        return out;
    }

    /**
     * Whether {@code P(S = s | z, v) ≤ bound · P(S = s | z, v')} for every direction, every ordered pair of
     * inputs and both signs, in exact integer/decimal arithmetic ({@code P(+) = T/2^54}).
     */
    static boolean allRatiosWithin(GaussianSignRandomizer rz, List<double[]> inputs, List<double[]> zs,
            BigDecimal bound) {
        for (double[] z : zs) {
            long[] t = new long[inputs.size()];
            for (int a = 0; a < t.length; a++) {
                t[a] = rz.plusThreshold(inputs.get(a), z);
                if (t[a] < 0 || t[a] > (1L << 54)) {
                    return false;
                }
            }
            for (long ta : t) {
                for (long tb : t) {
                    BigDecimal plusA = BigDecimal.valueOf(ta);
                    BigDecimal plusB = BigDecimal.valueOf(tb);
                    if (plusA.compareTo(bound.multiply(plusB)) > 0) {
                        return false;
                    }
                    BigDecimal minusA = TWO_54.subtract(plusA);
                    BigDecimal minusB = TWO_54.subtract(plusB);
                    if (minusA.compareTo(bound.multiply(minusB)) > 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    @Test
    void exactPrivacyOverTheEpsilonGrid() {
        for (double eps : EPSILONS) {
            BigDecimal bound = ExpBounds.lowerBoundExact(Epsilon.of(eps).value(), 40);
            for (int m : DIMS) {
                GaussianSignRandomizer rz = new GaussianSignRandomizer(R, Epsilon.of(eps), m);
                assertThat(allRatiosWithin(rz, inputs(m, R), directions(m), bound)).as("ε=%s m=%d", eps, m).isTrue();
                // the extreme pair (r·e1, −r·e1) attains the certified ratio exactly
                double[] z = directions(m).get(0);
                long tp = rz.plusThreshold(inputs(m, R).get(1), z);
                long tm = rz.plusThreshold(inputs(m, R).get(2), z);
                assertThat(Math.abs(tp - tm)).isEqualTo(2 * rz.biasNumerator());
            }
        }
    }

    /** Controls: the same check rejects a bias one grid step above the certified one, and the paper's ε/3. */
    @Test
    void privacyCheckHasTeeth() {
        for (double eps : EPSILONS) {
            BigDecimal bound = ExpBounds.lowerBoundExact(Epsilon.of(eps).value(), 40);
            long b = GaussianSignRandomizer.certifiedBiasNumerator(Epsilon.of(eps));
            // b + 1 is tanh(ε/2) rounded up to the 2^-53 grid: at or above (L − 1)/(L + 1)
            BigDecimal tanhLower = bound.subtract(BigDecimal.ONE).divide(bound.add(BigDecimal.ONE), MathContext.DECIMAL128);
            assertThat(BigDecimal.valueOf(b + 1).divide(BigDecimal.valueOf(1L << 53))).isGreaterThan(tanhLower);
            for (int m : DIMS) {
                GaussianSignRandomizer up = new GaussianSignRandomizer(R, Epsilon.of(eps), m, b + 1);
                assertThat(allRatiosWithin(up, inputs(m, R), directions(m), bound)).as("ε=%s m=%d", eps, m).isFalse();
            }
        }
        // the paper's bias ε/3: at ε = 3 it is 1 (P(S = −1) = 0 for some inputs), at ε = 2.9 the ratio is ≈ 59
        for (double eps : new double[] {2.9, 3.0}) {
            long paper = (long) Math.floor(eps / 3 * 0x1p53);
            GaussianSignRandomizer rz = new GaussianSignRandomizer(R, Epsilon.of(eps), 3, paper);
            assertThat(allRatiosWithin(rz, inputs(3, R), directions(3), ExpBounds.lowerBoundExact(eps, 40))).isFalse();
        }
        // and ε/3 is fine where the paper's Fact 5.8 applies (ε ≤ 1/2 there; ratio (1+ε/3)/(1−ε/3) ≤ e^ε)
        long small = (long) Math.floor(0.5 / 3 * 0x1p53);
        GaussianSignRandomizer ok = new GaussianSignRandomizer(R, Epsilon.of(0.5), 3, small);
        assertThat(allRatiosWithin(ok, inputs(3, R), directions(3), ExpBounds.lowerBoundExact(0.5, 40))).isTrue();
    }

    @Test
    void certifiedBiasIsTheLargestOnTheGrid() {
        for (double eps : EPSILONS) {
            BigDecimal bound = ExpBounds.lowerBoundExact(Epsilon.of(eps).value(), 40);
            long b = GaussianSignRandomizer.certifiedBiasNumerator(Epsilon.of(eps));
            assertThat(GaussianSignRandomizer.certified(b, bound)).isTrue();
            if (b + 1 < (1L << 53)) {
                assertThat(GaussianSignRandomizer.certified(b + 1, bound)).isFalse();
                assertThat(b * 0x1p-53).isCloseTo(Math.tanh(Epsilon.of(eps).value() / 2), within(4 * 0x1p-53));
            }
            assertThat(b * 0x1p-53).isLessThanOrEqualTo(Math.tanh(Epsilon.of(eps).value() / 2));
        }
        assertThat(GaussianSignRandomizer.certifiedBiasNumerator(Epsilon.of(40))).isEqualTo((1L << 53) - 1);
        assertThatThrownBy(() -> GaussianSignRandomizer.certifiedBiasNumerator(Epsilon.of(1e-300)))
                .hasMessageContaining("too small");
    }

    /** The merged Bernoulli equals the paper's two-step (U, then S) law: P(+|z) = (1 + b̃·||u||·sgn⟨z,u⟩)/2. */
    @Test
    void oneBernoulliMatchesTheTwoStepLaw() {
        for (double eps : new double[] {0.01, 1, 8}) {
            for (int m : DIMS) {
                GaussianSignRandomizer rz = new GaussianSignRandomizer(R, Epsilon.of(eps), m);
                for (double[] v : inputs(m, R)) {
                    double q = Math.min(1, Math.sqrt(dot(v, v)) / R);
                    for (double[] z : directions(m)) {
                        double d = dot(z, v);
                        int sgn = d >= 0 ? 1 : -1;
                        long t = rz.plusThreshold(v, z);
                        // exact two-step: 2^54 · (1 + b̃·q·sgn)/2 = 2^53 + sgn·B·q
                        BigDecimal exact = BigDecimal.valueOf(1L << 53)
                                .add(BigDecimal.valueOf(sgn * rz.biasNumerator()).multiply(new BigDecimal(q)));
                        assertThat(BigDecimal.valueOf(t).subtract(exact).abs()).isLessThan(BigDecimal.valueOf(2));
                        if (dot(v, v) == 0) {
                            assertThat(t).isEqualTo(GaussianSignRandomizer.FAIR_THRESHOLD);
                        }
                    }
                }
            }
        }
        // a tie ⟨z, v⟩ = 0 counts as +1
        GaussianSignRandomizer rz = new GaussianSignRandomizer(1, Epsilon.of(1), 2);
        assertThat(rz.plusThreshold(new double[] {1, 0}, new double[] {0, 5}))
                .isEqualTo(GaussianSignRandomizer.FAIR_THRESHOLD + rz.biasNumerator());
    }

    @Test
    void bernoulliIsExactOnThe54BitGrid() {
        long t = (1L << 53) + 12345;
        assertThat(GaussianSignRandomizer.sampleSign(t, new ScriptedWords((t - 1) << 10))).isTrue();
        assertThat(GaussianSignRandomizer.sampleSign(t, new ScriptedWords(((t - 1) << 10) | 0x3FF))).isTrue();
        assertThat(GaussianSignRandomizer.sampleSign(t, new ScriptedWords(t << 10))).isFalse();
        assertThat(GaussianSignRandomizer.sampleSign(0, new ScriptedWords(0L))).isFalse();
        assertThat(GaussianSignRandomizer.sampleSign(1L << 54, new ScriptedWords(-1L))).isTrue();
    }

    @Test
    void decodeAndAccessors() {
        GaussianSignRandomizer rz = new GaussianSignRandomizer(R, Epsilon.of(1), 3);
        double c = R * Math.sqrt(Math.PI / 2) / rz.bias();
        assertThat(rz.decodeScale()).isCloseTo(c, within(1e-12 * c));
        assertThat(rz.bias()).isCloseTo(Math.tanh(0.5), within(1e-15));
        double[] out = new double[3];
        rz.decode(true, new double[] {1, -2, 0.5}, out);
        assertThat(out).containsExactly(rz.decodeScale(), -2 * rz.decodeScale(), 0.5 * rz.decodeScale());
        rz.decode(false, new double[] {1, -2, 0.5}, out);
        assertThat(out).containsExactly(-rz.decodeScale(), 2 * rz.decodeScale(), -0.5 * rz.decodeScale());
        assertThat(rz.radius()).isEqualTo(R);
        assertThat(rz.dimension()).isEqualTo(3);
        // the ε it reports is the one its signs realise (enumerated law at fixed directions; tight)
        GaussianSignEnumerationTest.Result r = GaussianSignEnumerationTest.enumerate(rz, 3,
                ExpBounds.lowerBoundExact(rz.epsilon().value(), 40));
        assertThat(r.within()).isTrue();
        assertThat(r.worst()).isGreaterThan(Math.exp(rz.epsilon().value()) * (1 - 1e-9));
        assertThat(rz.toString()).contains("m=3");
    }

    @Test
    void validation() {
        assertThatThrownBy(() -> new GaussianSignRandomizer(0, Epsilon.of(1), 3)).hasMessageContaining("radius")
                .hasMessageContaining("got 0.0");
        assertThatThrownBy(() -> new GaussianSignRandomizer(Double.NaN, Epsilon.of(1), 3))
                .hasMessageContaining("radius");
        assertThatThrownBy(() -> new GaussianSignRandomizer(1, Epsilon.of(1), 0)).hasMessageContaining("dimension")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> new GaussianSignRandomizer(1, null, 2)).hasMessageContaining("epsilon");
        GaussianSignRandomizer rz = new GaussianSignRandomizer(1, Epsilon.of(1), 2);
        assertThatThrownBy(() -> rz.valueBias(new double[] {1, 1})).hasMessageContaining("||v|| must be <= radius");
        assertThatThrownBy(() -> rz.valueBias(new double[] {1})).hasMessageContaining("v must have length 2, got 1");
        assertThatThrownBy(() -> rz.valueBias(new double[] {Double.NaN, 0})).hasMessageContaining("finite");
        assertThatThrownBy(() -> rz.plusThreshold(new double[] {1, 0}, new double[3]))
                .hasMessageContaining("z must have length 2, got 3");
        // a rounding excess of the norm is clamped, never above B
        assertThat(rz.valueBias(new double[] {Math.nextUp(1.0), 0})).isEqualTo(rz.biasNumerator());
    }

    /**
     * E[W] = v and E||W||² = c²m by z-tests on 200,000 releases per case (9 cases, 60 coordinates + 9 norms:
     * Bonferroni at total false-failure probability 1e-6; exact per-coordinate variance c² − v_k²).
     */
    @Test
    void decodedReleaseIsUnbiased() {
        int draws = 200_000;
        double r = 1.7;
        Epsilon eps = Epsilon.of(1);
        int tests = 3 * (1 + 3 + 16) + 9;
        double zLimit = NormalDistribution.of(0, 1).inverseSurvivalProbability(1e-6 / tests / 2);
        long seed = 1;
        for (int m : DIMS) {
            GaussianSignRandomizer rz = new GaussianSignRandomizer(r, eps, m);
            double c = rz.decodeScale();
            double[] g = new double[m];
            PublicGaussian.fill(new SplitMix64(77 + m), g);
            double[] onSphere = scale(g, r / Math.sqrt(dot(g, g)) * (1 - 1e-15));
            List<double[]> cases = List.of(new double[m], onSphere, scale(onSphere, -0.37));
            for (double[] v : cases) {
                SeededRandomBits secret = new SeededRandomBits(seed++);
                double[] sum = new double[m];
                double sumSq = 0;
                double[] z = new double[m];
                double[] w = new double[m];
                for (int i = 0; i < draws; i++) {
                    PublicGaussian.fill(PublicCoins.stream(SplitMix64.mix64(seed * 1_000_003L + i), 0), z);
                    rz.decode(rz.randomize(v, z, secret), z, w);
                    for (int k = 0; k < m; k++) {
                        sum[k] += w[k];
                    }
                    sumSq += dot(w, w);
                }
                for (int k = 0; k < m; k++) {
                    double se = Math.sqrt((c * c - v[k] * v[k]) / draws);
                    double zs = (sum[k] / draws - v[k]) / se;
                    assertThat(Math.abs(zs)).as("m=%d v=%s coordinate %d", m, v[0], k).isLessThan(zLimit);
                }
                // ||W||² = c²||Z||², Var = c⁴·2m
                double zn = (sumSq / draws - c * c * m) / (c * c * Math.sqrt(2.0 * m / draws));
                assertThat(Math.abs(zn)).as("E||W||², m=%d", m).isLessThan(zLimit);
            }
        }
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double[] scale(double[] a, double f) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] * f;
        }
        return out;
    }
}

package io.privacygateway.mechanisms.local.mean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.fo.Grid;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Edge and exactness tests of the mean family: the certified numerators recomputed independently from the
 * certified lower bound of {@code e^ε}, the estimates and variances from closed forms, scripted draws through
 * every branch of the samplers, the input checks at their boundaries, and the protocol's wire, aggregate and
 * estimate arithmetic.
 */
class MeanProtocolsScriptedBranchesAndArithmeticTest {
    private static final long ONE = 1L << 53;
    private static final long HALF = 1L << 52;

    /** Answers from a script and records every call as "b:numerator:grid" or "u:n". */
    static final class Script implements SecretDraws {
        final Object[] answers;
        final List<String> calls = new ArrayList<>();
        int i;

        Script(Object... answers) {
            this.answers = answers;
        }

        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            calls.add("b:" + numerator + ":" + gridBits);
            return (Boolean) answers[i++];
        }

        @Override
        public int uniformInt(int n) {
            calls.add("u:" + n);
            return (Integer) answers[i++];
        }
    }

    /** The largest N in [0, 2^53] with N·b <= a·(2^53 − N), found by exact integer search around the quotient. */
    static long largest(BigDecimal a, BigDecimal b) {
        BigDecimal one = BigDecimal.valueOf(ONE);
        long n = one.multiply(a).divide(a.add(b), new MathContext(80, RoundingMode.HALF_EVEN))
                .setScale(0, RoundingMode.FLOOR).longValueExact();
        n = Math.min(ONE, n + 3);
        while (BigDecimal.valueOf(n).multiply(b).compareTo(a.multiply(BigDecimal.valueOf(ONE - n))) > 0) {
            n--;
        }
        return n;
    }

    static Rational dyadic(long n) {
        return Rational.of(BigInteger.valueOf(n), BigInteger.ONE.shiftLeft(53));
    }

    // ---------------------------------------------------------------- ScalarRandomizer checks

    /** Levels must be in [2, 65536]: 1 and 65537 are rejected, both ends accepted; levels are checked per call. */
    @Test
    void levelsOutsideTwoTo65536AreRefusedBothEndsAccepted() {
        Epsilon e = Epsilon.of(1);
        assertThatThrownBy(() -> new DuchiScalar(1, e)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DuchiScalar(65537, e)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new DuchiScalar(2, e).levels()).isEqualTo(2);
        assertThat(new DuchiScalar(65536, e).levels()).isEqualTo(65536);
        DuchiScalar d = new DuchiScalar(5, e);
        assertThatThrownBy(() -> d.probability(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> d.probability(5, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> d.randomize(5, new Script(true))).isInstanceOf(IllegalArgumentException.class);
        assertThat(d.probability(0, 1)).isNotNull();
        assertThat(d.probability(4, 1)).isNotNull();
        PiecewiseScalar p = new PiecewiseScalar(5, e, 8);
        assertThatThrownBy(() -> p.probability(-1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.probability(5, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> p.randomize(-1, new Script())).isInstanceOf(IllegalArgumentException.class);
        HybridScalar h = new HybridScalar(5, e, 8);
        assertThatThrownBy(() -> h.randomize(5, new Script())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.randomize(-1, new Script())).isInstanceOf(IllegalArgumentException.class);
    }

    /** t(x) = 2x/L − 1; the worst variance is the maximum over levels; the histogram average skips entries <= 0. */
    @Test
    void theInterfaceDefaultsMapLevelsAndTakeTheWorstVariance() {
        DuchiScalar d = new DuchiScalar(5, Epsilon.of(1));
        assertThat(d.t(0)).isEqualTo(-1.0);
        assertThat(d.t(1)).isEqualTo(-0.5);
        assertThat(d.t(4)).isEqualTo(1.0);
        double c = d.estimateOf(1);
        // Duchi's variance C² − t² is largest at t = 0 (level 2)
        assertThat(d.worstVariance()).isCloseTo(c * c, within(1e-12 * c * c));
        PiecewiseScalar p = new PiecewiseScalar(5, Epsilon.of(1), 8);
        double max = 0;
        for (int x = 0; x < 5; x++) {
            max = Math.max(max, p.variance(x));
        }
        assertThat(p.worstVariance()).isEqualTo(max);
        assertThat(p.variance(0)).isGreaterThan(p.variance(2)); // the worst case is at an end, not at level 0..2
        double[] hist = {0.5, 0, 0.25, -0.5, 0.25};
        double expected = 0.5 * d.variance(0) + 0.25 * d.variance(2) + 0.25 * d.variance(4);
        assertThat(d.varianceUnder(hist)).isCloseTo(expected, within(1e-12 * expected));
        assertThat(d.varianceUnder(new double[] {0, 1})).isCloseTo(d.variance(1), within(1e-12));
    }

    // ---------------------------------------------------------------- Duchi

    /**
     * Numerators recomputed from the certified bound: N₁ the largest grid numerator with N₁ <= e^ε(2^53 − N₁),
     * d = N₁ − 2^52 rounded down to a multiple of L, P(+|x) = (2^52 + (2x − L)d/L)/2^53; the estimates are
     * ±2^52/d and the variance 1/g² − t² with g = 2d/2^53.
     */
    @Test
    void duchiLawEstimatesAndVarianceFromTheCertifiedBound() {
        for (int levels : new int[] {2, 5, 7, 1025}) {
            for (double eps : new double[] {0.3, 1, 4}) {
                Epsilon e = Epsilon.of(eps);
                DuchiScalar r = new DuchiScalar(levels, e);
                long l = levels - 1;
                long n1 = largest(Grid.expLower(e), BigDecimal.ONE);
                long d = n1 - HALF;
                d -= d % l;
                for (int x = 0; x < levels; x += Math.max(1, levels / 9)) {
                    long plus = HALF + (2L * x - l) * (d / l);
                    assertThat(r.plusNumerator(x)).isEqualTo(plus);
                    assertThat(r.probability(x, 1)).isEqualTo(dyadic(plus));
                    assertThat(r.probability(x, 0)).isEqualTo(dyadic(ONE - plus));
                    assertThat(r.probability(x, 2)).isEqualTo(Rational.ZERO);
                    assertThat(r.probability(x, -1)).isEqualTo(Rational.ZERO);
                    double t = 2.0 * x / l - 1;
                    double inv = new BigDecimal(HALF).divide(new BigDecimal(d), MathContext.DECIMAL128).doubleValue();
                    assertThat(r.variance(x)).isCloseTo(inv * inv - t * t, within(1e-12 * inv * inv));
                }
                double inv = new BigDecimal(HALF).divide(new BigDecimal(d), MathContext.DECIMAL128).doubleValue();
                assertThat(r.estimateOf(1)).isCloseTo(inv, within(Math.ulp(inv)));
                assertThat(r.estimateOf(0)).isCloseTo(-inv, within(Math.ulp(inv)));
                assertThat(r.outputCount()).isEqualTo(2);
                assertThat(r.id()).isEqualTo(MechanismId.DUCHI);
                assertThat(r.epsilon()).isEqualTo(e);
            }
        }
    }

    /** One Bernoulli draw with P(+|x) on the 2^-53 grid: true gives symbol 1, false symbol 0. */
    @Test
    void duchiDrawsOneCoin() {
        DuchiScalar r = new DuchiScalar(5, Epsilon.of(1));
        Script yes = new Script(true);
        assertThat(r.randomize(3, yes)).isEqualTo(1);
        assertThat(yes.calls).containsExactly("b:" + r.plusNumerator(3) + ":53");
        Script no = new Script(false);
        assertThat(r.randomize(0, no)).isEqualTo(0);
        assertThat(no.calls).containsExactly("b:" + r.plusNumerator(0) + ":53");
    }

    /**
     * ε so small that d rounds down to exactly 0 (ε = 10⁻¹² with L = 65535: d ≈ 2251 < L) is rejected, and so is
     * ε = 10⁻¹⁷ (N₁ = 2^52: d = 0 before rounding); the smallest workable d = L is accepted.
     */
    @Test
    void duchiRejectsAnEpsilonWithNoGridStep() {
        assertThatThrownBy(() -> new DuchiScalar(65536, Epsilon.of(1e-12))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too small");
        assertThatThrownBy(() -> new DuchiScalar(2, Epsilon.of(1e-17))).isInstanceOf(IllegalArgumentException.class);
        DuchiScalar ok = new DuchiScalar(2, Epsilon.of(1e-14));
        long d = largest(Grid.expLower(Epsilon.of(1e-14)), BigDecimal.ONE) - HALF;
        assertThat(d).isPositive();
        assertThat(ok.plusNumerator(1)).isEqualTo(HALF + d);
    }

    // ---------------------------------------------------------------- piecewise

    /**
     * Window w = round(M/(e^{ε/2} + 1)) clamped to at least 1; N the largest with N(M − w) <= e^ε·w·(2^53 − N);
     * the start's up-numerator ⌊(x·R mod L)·2^53/L⌋.
     */
    @Test
    void piecewiseParametersFromTheirDefinitions() {
        for (int cells : new int[] {2, 3, 8, 16, 1024}) {
            for (double eps : new double[] {0.3, 1, 4, 12}) {
                Epsilon e = Epsilon.of(eps);
                PiecewiseScalar r = new PiecewiseScalar(9, e, cells);
                long w = Math.max(1, Math.round(cells / (Math.exp(eps / 2) + 1)));
                assertThat(r.window()).as("M=%d ε=%s", cells, eps).isEqualTo((int) w);
                long n = largest(Grid.expLower(e).multiply(BigDecimal.valueOf(w)), BigDecimal.valueOf(cells - w));
                assertThat(r.insideNumerator()).isEqualTo(n);
                assertThat(r.cells()).isEqualTo(cells);
                assertThat(r.outputCount()).isEqualTo(cells);
                for (int x = 0; x < 9; x++) {
                    long rem = (long) x * (cells - w) % 8;
                    assertThat(r.upNumerator(x)).isEqualTo(rem * ONE / 8);
                }
            }
        }
        assertThat(new PiecewiseScalar(9, Epsilon.of(12), 4).window()).isEqualTo(1); // round(4/(e^6+1)) = 0
        PiecewiseScalar odd = new PiecewiseScalar(4, Epsilon.of(1), 7); // L = 3: fractional starts
        assertThat(odd.upNumerator(1)).isEqualTo((1L * (7 - odd.window()) % 3) * ONE / 3);
        assertThat(odd.id()).isEqualTo(MechanismId.PIECEWISE);
        assertThat(odd.epsilon()).isEqualTo(Epsilon.of(1));
        assertThat(odd.levels()).isEqualTo(4);
    }

    /** Cells must be in [2, 65534]; an ε whose grid gives a = b (10⁻¹⁷, two cells) is rejected. */
    @Test
    void piecewiseRejectsBadCellsAndAFlatWindow() {
        Epsilon e = Epsilon.of(1);
        assertThatThrownBy(() -> new PiecewiseScalar(5, e, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PiecewiseScalar(5, e, 65535)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new PiecewiseScalar(5, e, 65534).cells()).isEqualTo(65534);
        assertThat(new PiecewiseScalar(5, e, 2).cells()).isEqualTo(2);
        assertThatThrownBy(() -> new PiecewiseScalar(2, Epsilon.of(1e-17), 2)).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("too small");
        assertThat(new PiecewiseScalar(2, Epsilon.of(1e-14), 2).insideNumerator()).isGreaterThan(HALF);
    }

    /**
     * t̂(j) = 2(j − A)/(D·R) − 1 with A = Σ_j j·P(j | start 0) and D = (a − b)·w, computed from the cell
     * probabilities a = N/(2^53 w), b = (1 − N/2^53)/(M − w).
     */
    @Test
    void piecewiseEstimatesFromTheLawAtStartZero() {
        for (int cells : new int[] {2, 5, 16, 1024}) {
            for (double eps : new double[] {0.5, 2}) {
                PiecewiseScalar r = new PiecewiseScalar(9, Epsilon.of(eps), cells);
                int w = r.window();
                double pin = r.insideNumerator() / (double) ONE;
                double a = pin / w;
                double b = (1 - pin) / (cells - w);
                double mean = 0;
                for (int j = 0; j < cells; j++) {
                    mean += j * (j < w ? a : b);
                }
                double slope = (a - b) * w * (cells - w);
                for (int y : new int[] {0, 1, cells / 2, cells - 1}) {
                    double expected = 2 * (y - mean) / slope - 1;
                    assertThat(r.estimateOf(y)).as("M=%d ε=%s y=%d", cells, eps, y)
                            .isCloseTo(expected, within(1e-9 * (1 + Math.abs(expected))));
                }
            }
        }
    }

    /**
     * Scripted draws through every branch: start ⌊xR/L⌋ (+1 when the first coin says up), inside → s + u,
     * outside → v below the window, v + w from the window's start on (v = s − 1 and v = s); the draws are always
     * Bernoulli(up), Bernoulli(N), uniform(w), uniform(M − w).
     */
    @Test
    void piecewiseDrawsInTheDocumentedOrderOnEveryBranch() {
        PiecewiseScalar r = new PiecewiseScalar(5, Epsilon.of(1), 16);
        int w = r.window();
        int rest = 16 - w;
        int x = 3;
        int floor = x * rest / 4;
        String[] calls = {"b:" + r.upNumerator(x) + ":53", "b:" + r.insideNumerator() + ":53", "u:" + w, "u:" + rest};
        Script in = new Script(false, true, w - 1, 0);
        assertThat(r.randomize(x, in)).isEqualTo(floor + w - 1);
        assertThat(in.calls).containsExactly(calls);
        assertThat(r.randomize(x, new Script(true, true, 0, 0))).isEqualTo(floor + 1);
        assertThat(r.randomize(x, new Script(false, false, 0, floor - 1))).isEqualTo(floor - 1);
        assertThat(r.randomize(x, new Script(false, false, 0, floor))).isEqualTo(floor + w);
        assertThat(r.randomize(x, new Script(true, false, 0, floor))).isEqualTo(floor); // start floor + 1
        assertThat(r.randomize(x, new Script(true, false, 0, floor + 1))).isEqualTo(floor + 1 + w);
        assertThat(r.randomize(0, new Script(false, false, 0, 0))).isEqualTo(w);
        assertThat(r.randomize(4, new Script(false, false, 0, rest - 1))).isEqualTo(rest - 1);
        assertThat(r.randomize(4, new Script(false, true, 0, 0))).isEqualTo(rest);
    }

    /** Outside [0, M) the law is 0; inside it is the down/up mixture of the two windows' a/b. */
    @Test
    void piecewiseStatedLawByHand() {
        PiecewiseScalar r = new PiecewiseScalar(4, Epsilon.of(1), 7);
        int w = r.window();
        Rational a = dyadic(r.insideNumerator()).divide(w);
        Rational b = dyadic(ONE - r.insideNumerator()).divide(7 - w);
        assertThat(r.probability(1, -1)).isEqualTo(Rational.ZERO);
        assertThat(r.probability(1, 7)).isEqualTo(Rational.ZERO);
        for (int x = 0; x < 4; x++) {
            int s0 = x * (7 - w) / 3;
            Rational up = dyadic(r.upNumerator(x));
            Rational down = dyadic(ONE - r.upNumerator(x));
            for (int y = 0; y < 7; y++) {
                Rational p0 = y >= s0 && y <= s0 + w - 1 ? a : b;
                Rational p1 = y >= s0 + 1 && y <= s0 + w ? a : b;
                assertThat(r.probability(x, y)).as("x=%d y=%d", x, y).isEqualTo(down.multiply(p0).add(up.multiply(p1)));
            }
        }
    }

    /**
     * The discrete variance is the law's (exact rationals, then to double) at every level of a grid with fractional
     * starts; the continuous variance is E[Y²] − t² of Wang et al.'s density (inside p, outside p/e^ε).
     */
    @Test
    void piecewiseVariancesAreThoseOfItsLaw() {
        for (int cells : new int[] {3, 7, 16}) {
            PiecewiseScalar r = new PiecewiseScalar(4, Epsilon.of(1.5), cells);
            for (int x = 0; x < 4; x++) {
                double m1 = 0;
                double m2 = 0;
                for (int y = 0; y < cells; y++) {
                    double p = r.probability(x, y).doubleValue();
                    m1 += p * r.estimateOf(y);
                    m2 += p * r.estimateOf(y) * r.estimateOf(y);
                }
                assertThat(r.variance(x)).as("M=%d x=%d", cells, x).isCloseTo(m2 - m1 * m1, within(1e-10));
            }
        }
        for (double eps : new double[] {0.5, 2}) {
            for (double t : new double[] {-1, 0, 0.3, 1}) {
                double h = Math.exp(eps / 2);
                double c = (h + 1) / (h - 1);
                double p = (Math.exp(eps) - h) / (2 * h + 2);
                double l = (c + 1) / 2 * t - (c - 1) / 2;
                double rr = l + c - 1;
                double out = p / Math.exp(eps);
                double m1 = out * 0 + (p - out) * (rr * rr - l * l) / 2;
                double m2 = out * 2 * c * c * c / 3 + (p - out) * (rr * rr * rr - l * l * l) / 3;
                assertThat(m1).isCloseTo(t, within(1e-12));
                assertThat(PiecewiseScalar.continuousVariance(Epsilon.of(eps), t)).as("ε=%s t=%s", eps, t)
                        .isCloseTo(m2 - t * t, within(1e-10));
            }
        }
    }

    // ---------------------------------------------------------------- hybrid

    /** ε* is the root of (27x + 5)³ − 1128(27x + 5) − 101648 = 0 in x = e^{ε*} (the cube roots' product is 94). */
    @Test
    void epsilonStarSolvesItsCubic() {
        double y = 27 * Math.exp(HybridScalar.EPSILON_STAR) + 5;
        assertThat(y * y * y - 1128 * y - 101648).isCloseTo(0, within(1e-6));
        assertThat(HybridScalar.EPSILON_STAR).isBetween(0.6, 0.62);
    }

    /** β = ⌊(1 − e^{−ε/2})·2^53⌋ above ε*, 0 at ε* itself and below. */
    @Test
    void betaAboveAndAtEpsilonStar() {
        HybridScalar h = new HybridScalar(5, Epsilon.of(2), 8);
        assertThat(h.betaNumerator()).isEqualTo((long) Math.floor((1 - StrictMath.exp(-1.0)) * ONE));
        assertThat(h.beta()).isEqualTo(h.betaNumerator() / (double) ONE);
        Epsilon atStar = Epsilon.exactly(new BigDecimal(HybridScalar.EPSILON_STAR)); // the double itself, exactly
        assertThat(atStar.value()).isEqualTo(HybridScalar.EPSILON_STAR);
        assertThat(new HybridScalar(5, atStar, 8).betaNumerator()).isZero();
        assertThat(new HybridScalar(5, Epsilon.of(0.3), 8).betaNumerator()).isZero();
        double above = Math.nextUp(HybridScalar.EPSILON_STAR);
        Epsilon justAbove = Epsilon.exactly(new BigDecimal(above));
        assertThat(justAbove.value()).isEqualTo(above);
        assertThat(new HybridScalar(5, justAbove, 8).betaNumerator())
                .isEqualTo((long) Math.floor((1 - StrictMath.exp(-above / 2)) * ONE)).isPositive();
        HybridScalar def = new HybridScalar(5, Epsilon.of(2));
        assertThat(def.outputCount()).isEqualTo(PiecewiseScalar.DEFAULT_CELLS + 2);
        assertThat(def.id()).isEqualTo(MechanismId.HYBRID);
        assertThat(def.epsilon()).isEqualTo(Epsilon.of(2));
        assertThat(def.levels()).isEqualTo(5);
    }

    /**
     * Draw order Bernoulli(β), Duchi's coin, the piecewise draws; the first coin picks the piecewise cell or
     * M + Duchi's symbol.
     */
    @Test
    void hybridPicksPiecewiseOrDuchiByItsFirstCoin() {
        HybridScalar h = new HybridScalar(5, Epsilon.of(2), 8);
        DuchiScalar d = new DuchiScalar(5, Epsilon.of(2));
        PiecewiseScalar p = new PiecewiseScalar(5, Epsilon.of(2), 8);
        Script pm = new Script(true, false, false, true, 1, 0);
        int cell = p.randomize(2, new Script(false, true, 1, 0));
        assertThat(h.randomize(2, pm)).isEqualTo(cell);
        assertThat(pm.calls).containsExactly("b:" + h.betaNumerator() + ":53", "b:" + d.plusNumerator(2) + ":53",
                "b:" + p.upNumerator(2) + ":53", "b:" + p.insideNumerator() + ":53", "u:" + p.window(),
                "u:" + (8 - p.window()));
        assertThat(h.randomize(2, new Script(false, true, false, true, 1, 0))).isEqualTo(9);
        assertThat(h.randomize(2, new Script(false, false, false, true, 1, 0))).isEqualTo(8);
    }

    /** Symbols below M are the piecewise cells, M and M + 1 Duchi's − and +; out-of-range symbols have law 0. */
    @Test
    void hybridEstimatesAndLawBySymbol() {
        Epsilon e = Epsilon.of(2);
        HybridScalar h = new HybridScalar(5, e, 8);
        DuchiScalar d = new DuchiScalar(5, e);
        PiecewiseScalar p = new PiecewiseScalar(5, e, 8);
        assertThat(h.estimateOf(0)).isEqualTo(p.estimateOf(0));
        assertThat(h.estimateOf(7)).isEqualTo(p.estimateOf(7));
        assertThat(h.estimateOf(8)).isEqualTo(d.estimateOf(0));
        assertThat(h.estimateOf(9)).isEqualTo(d.estimateOf(1));
        Rational beta = dyadic(h.betaNumerator());
        Rational notBeta = dyadic(ONE - h.betaNumerator());
        for (int x = 0; x < 5; x++) {
            assertThat(h.probability(x, 0)).isEqualTo(beta.multiply(p.probability(x, 0)));
            assertThat(h.probability(x, 7)).isEqualTo(beta.multiply(p.probability(x, 7)));
            assertThat(h.probability(x, 8)).isEqualTo(notBeta.multiply(d.probability(x, 0)));
            assertThat(h.probability(x, 9)).isEqualTo(notBeta.multiply(d.probability(x, 1)));
            assertThat(h.probability(x, 10).isZero()).isTrue();
            assertThat(h.probability(x, -1).isZero()).isTrue();
            double b = h.beta();
            double v = b * p.variance(x) + (1 - b) * d.variance(x);
            assertThat(h.variance(x)).isCloseTo(v, within(1e-12 * v));
        }
    }

    // ---------------------------------------------------------------- protocol

    static Workload workload(String mechanism, double eps) {
        return Workload.of(MeanProtocolTest.spec(mechanism, eps));
    }

    /** A non-mean family and a randomizer over other levels are rejected; only the three mean mechanisms exist. */
    @Test
    void protocolConstructionChecks() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "h");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b")));
        t.put("mechanism", "grr");
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        Workload hist = Workload.of(WorkloadSpecParser.parse(t));
        assertThatThrownBy(() -> new MeanProtocol(hist, new DuchiScalar(2, Epsilon.of(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("family mean");
        Workload w = workload("duchi", 1);
        assertThatThrownBy(() -> new MeanProtocol(w, new DuchiScalar(1024, Epsilon.of(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("levels");
        assertThatThrownBy(() -> MeanProtocol.randomizer(MechanismId.GRR, 5, Epsilon.of(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(MeanProtocol.randomizer(MechanismId.DUCHI, 5, Epsilon.of(1))).isInstanceOf(DuchiScalar.class);
        assertThat(MeanProtocol.randomizer(MechanismId.PIECEWISE, 5, Epsilon.of(1))).isInstanceOf(PiecewiseScalar.class);
        assertThat(MeanProtocol.randomizer(MechanismId.HYBRID, 5, Epsilon.of(1))).isInstanceOf(HybridScalar.class);
        MeanProtocol p = MeanProtocol.of(w, MechanismId.PIECEWISE, Epsilon.of(2));
        assertThat(p.id()).isEqualTo(MechanismId.PIECEWISE);
        assertThat(p.epsilon()).isEqualTo(Epsilon.of(2));
        assertThat(p.randomizer().levels()).isEqualTo(1025);
        assertThat(p.halfWidth()).isEqualTo(100.0);
        assertThat(p.stateLength()).isEqualTo(1024);
        assertThat(p.payloadBytes()).isEqualTo(2);
    }

    /** An off-zero range [−50, 150]: half-width (hi − lo)/2 = 100 and mean lo + 100(t̄ + 1). */
    @Test
    void anOffZeroRangeShiftsAndScalesTheMean() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "temp");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of("range", Map.of("lo", -50, "hi", 150)));
        t.put("mechanism", "duchi");
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        MeanProtocol p = MeanProtocol.of(Workload.of(WorkloadSpecParser.parse(t)), MechanismId.DUCHI, Epsilon.of(1));
        assertThat(p.halfWidth()).isEqualTo(100.0);
        double c = p.randomizer().estimateOf(1);
        assertThat(LocalEstimators.of(p).estimate(new long[] {1, 3}, 4).levels().get(0).mean()[0]).isCloseTo(-50 + 100 * (c / 2 + 1),
                within(1e-9));
    }

    /** The payload is the symbol big-endian: hybrid's Duchi + is M + 1 = 1025 = 0x0401. */
    @Test
    void payloadIsTheSymbolBigEndian() {
        MeanProtocol p = MeanProtocol.of(workload("hybrid", 2), MechanismId.HYBRID, Epsilon.of(2));
        ReportCoordinates c = new ReportCoordinates("d", 0, 0);
        assertThat(p.randomize(3, c, new Script(false, true, false, true, 0, 0))).containsExactly(4, 1);
        PiecewiseScalar pm = new PiecewiseScalar(1025, Epsilon.of(2));
        int expected = pm.randomize(1024, new Script(false, false, 0, pm.cells() - pm.window() - 1));
        assertThat(expected).isEqualTo(1023 - pm.window()); // the top start: below-window cells only
        assertThat(p.randomize(1024, c, new Script(true, false, false, false, 0, pm.cells() - pm.window() - 1)))
                .containsExactly((byte) (expected >>> 8), (byte) expected);
    }

    /** accumulate: null, short, long payloads, a wrong state length and symbols >= M are refused; M − 1 counts. */
    @Test
    void accumulateRefusesMalformedPayloadsAndStates() {
        MeanProtocol p = MeanProtocol.of(workload("duchi", 1), MechanismId.DUCHI, Epsilon.of(1));
        ReportCoordinates c = new ReportCoordinates("d", 0, 0);
        long[] state = new long[2];
        assertThat(p.accumulate(null, c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {0, 0, 0}, c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {0, 1}, c, new long[3])).isFalse();
        assertThat(p.accumulate(new byte[] {0, 1}, c, new long[1])).isFalse();
        assertThat(p.accumulate(new byte[] {0, 2}, c, state)).isFalse();
        assertThat(p.accumulate(new byte[] {1, 1}, c, state)).isFalse();
        assertThat(state).containsExactly(0, 0);
        assertThat(p.accumulate(new byte[] {0, 1}, c, state)).isTrue();
        assertThat(p.accumulate(new byte[] {0, 0}, c, state)).isTrue();
        assertThat(p.accumulate(new byte[] {0, 1}, c, state)).isTrue();
        assertThat(state).containsExactly(1, 2);
    }

    /**
     * The estimate: t̄ = Σ c_y t̂(y)/n, mean lo + (hi − lo)(t̄ + 1)/2, bar (hi − lo)/2·√(V_max/n) with V_max the
     * largest level variance; the level carries ε and no radius; n must be at least 1.
     */
    @Test
    void theEstimateIsTheRangeScaledMeanWithTheWorstLevelBar() {
        MeanProtocol p = MeanProtocol.of(workload("duchi", 1), MechanismId.DUCHI, Epsilon.of(1));
        DuchiScalar d = new DuchiScalar(1025, Epsilon.of(1));
        double c = d.estimateOf(1);
        LocalEstimate est = LocalEstimators.of(p).estimate(new long[] {3, 7}, 10);
        double tBar = (7 * c - 3 * c) / 10;
        double vmax = 0;
        for (int x = 0; x < 1025; x++) {
            vmax = Math.max(vmax, c * c - Math.pow(2.0 * x / 1024 - 1, 2));
        }
        double se = 100 * Math.sqrt(vmax / 10);
        LocalEstimate.Level level = est.levels().get(0);
        assertThat(est.levels()).hasSize(1);
        assertThat(level.mean()[0]).isCloseTo(100 * (tBar + 1), within(1e-9));
        assertThat(level.standardErrors()[0]).isCloseTo(se, within(1e-9 * se));
        assertThat(level.noiseScale()).isEqualTo(level.standardErrors()[0]);
        assertThat(level.epsilon()).isEqualTo(1.0);
        assertThat(level.radius()).isZero();
        assertThat(level.hull()).isNull();
        // the device's rounding to the nearest of 1025 levels of [0, 200]: half a step, (200 − 0)/2048, plus ulps
        assertThat(est.biasBound()).isEqualTo(p.roundingBound()).isCloseTo(200.0 / 2048, within(1e-12))
                .isGreaterThanOrEqualTo(200.0 / 2048);
        LocalEstimate one = LocalEstimators.of(p).estimate(new long[] {0, 1}, 1);
        assertThat(one.levels().get(0).mean()[0]).isCloseTo(100 * (c + 1), within(1e-9));
        assertThatThrownBy(() -> LocalEstimators.of(p).estimate(new long[] {0, 0}, 0)).isInstanceOf(IllegalArgumentException.class);
        double[] hist = new double[1025];
        hist[0] = 0.5;
        hist[1024] = 0.5;
        assertThat(LocalEstimators.of(p).expectedLevelMean(0, hist)).containsExactly(100.0);
    }
}

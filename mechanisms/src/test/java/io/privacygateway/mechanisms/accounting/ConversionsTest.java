package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.param.LogDelta;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConversionsTest {
    private static final LogDelta DELTA_1E6 = LogDelta.ofDelta(1e-6);

    private static final double[] RHOS = {1e-12, 1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.5, 1, 3.7, 10, 100, 800};
    private static final double[] LOG_DELTAS = {-1e-3, -0.1, -1, -5, -13.815510557964274, -23, -50, -700, -5000};

    private static BigDecimal bd(double x) {
        return new BigDecimal(x);
    }

    /** ρ + 2√(ρL) to 50 digits (reference, exact inputs). */
    private static BigDecimal standardReference(double rho, double l) {
        return bd(rho).add(BigDecimal.valueOf(2).multiply(BigMath.sqrt(bd(rho).multiply(bd(l))), BigMath.MC), BigMath.MC);
    }

    /** ε(α) = (1+β)ρ + (L − ln(1+β))/β + ln(β/(1+β)) at α = 1 + β, to 50 digits. */
    private static BigDecimal cksReference(double rho, double l, double beta) {
        BigDecimal b = bd(beta);
        BigDecimal alpha = BigDecimal.ONE.add(b);
        BigDecimal lnAlpha = BigMath.ln(alpha);
        return alpha.multiply(bd(rho), BigMath.MC)
                .add(bd(l).subtract(lnAlpha, BigMath.MC).divide(b, BigMath.MC), BigMath.MC)
                .add(BigMath.ln(b).subtract(lnAlpha, BigMath.MC), BigMath.MC);
    }

    /** Plain-double ε(α) for the brute-force search (independent of the code under test). */
    private static double cksDouble(double rho, double l, double beta) {
        // ln(1 − 1/α) without cancellation for large β.
        double lnOneMinusInverseAlpha = beta > 1 ? Math.log1p(-1 / (1 + beta)) : Math.log(beta) - Math.log1p(beta);
        return (1 + beta) * rho + (l - Math.log1p(beta)) / beta + lnOneMinusInverseAlpha;
    }

    /** Brute force: ε(α) on a grid of ln β in [−45, 45] with step 0.005, then golden-section refinement. */
    private static double bruteForceCks(double rho, double l) {
        double bestT = 0;
        double best = Double.POSITIVE_INFINITY;
        for (double t = -45; t <= 45; t += 0.005) {
            double v = cksDouble(rho, l, Math.exp(t));
            if (v < best) {
                best = v;
                bestT = t;
            }
        }
        double a = bestT - 0.005;
        double b = bestT + 0.005;
        double g = (Math.sqrt(5) - 1) / 2;
        for (int i = 0; i < 200; i++) {
            double c = b - g * (b - a);
            double d = a + g * (b - a);
            if (cksDouble(rho, l, Math.exp(c)) < cksDouble(rho, l, Math.exp(d))) {
                b = d;
            } else {
                a = c;
            }
        }
        return Math.min(best, cksDouble(rho, l, Math.exp((a + b) / 2)));
    }

    @Test
    void standardConversionHandComputed() {
        // ρ = 0.5, δ = 1e-6: L = ln(10^6) = 13.815510557964274, ρL = 6.907755278982137,
        // √(ρL) = 2.628260884878466, ε = 0.5 + 2·2.628260884878466 = 5.756521769756932.
        // (The brief quoted 5.7567…; the third decimal there is a typo: 5.7565….)
        double eps = Conversions.zcdpToEpsilonStandard(0.5, DELTA_1E6);
        assertThat(eps).isCloseTo(5.756521769756932, within(2e-15));
        // ρ = 1, δ = 1/e: L = 1, ε = 1 + 2 = 3 exactly, and exact inputs stay exact.
        assertThat(Conversions.zcdpToEpsilonStandard(1, new LogDelta(-1))).isEqualTo(3.0);
        // ρ = 0.25, L = 4: 0.25 + 2·√1 = 2.25.
        assertThat(Conversions.zcdpToEpsilonStandard(0.25, new LogDelta(-4))).isEqualTo(2.25);
        assertThat(Conversions.zcdpToEpsilonStandard(0, DELTA_1E6)).isZero();
    }

    @Test
    void standardConversionIsConservativeAndTightAgainstA50DigitReference() {
        SplittableRandom r = new SplittableRandom(7);
        List<double[]> cases = grid();
        for (int i = 0; i < 300; i++) {
            cases.add(new double[] {Math.exp(r.nextDouble(-28, 7)), -Math.exp(r.nextDouble(-7, 8.6))});
        }
        for (double[] c : cases) {
            double computed = Conversions.zcdpToEpsilonStandard(c[0], new LogDelta(c[1]));
            BigDecimal ref = standardReference(c[0], -c[1]);
            assertThat(bd(computed)).as("ρ=%s ln δ=%s", c[0], c[1]).isGreaterThanOrEqualTo(ref);
            assertThat(bd(computed)).as("ρ=%s ln δ=%s within 1e-12 relative", c[0], c[1])
                    .isLessThanOrEqualTo(ref.multiply(new BigDecimal("1.000000000001")));
        }
    }

    @Test
    void cksAtAnOrderIsConservativeAgainstA50DigitReference() {
        SplittableRandom r = new SplittableRandom(8);
        for (double[] c : grid()) {
            double rho = c[0];
            double l = -c[1];
            for (int k = 0; k < 6; k++) {
                double beta = Math.exp(r.nextDouble(-20, 25));
                double computed = Conversions.cksEpsilonAt(rho, new LogDelta(c[1]), beta);
                BigDecimal ref = cksReference(rho, l, beta);
                // Scale of the terms, for the tightness check when they cancel.
                double scale = (1 + beta) * rho + Math.abs((l - Math.log1p(beta)) / beta) + Math.abs(Math.log(beta / (1 + beta)));
                if (ref.signum() > 0) {
                    assertThat(bd(computed)).as("ρ=%s L=%s β=%s", rho, l, beta).isGreaterThanOrEqualTo(ref);
                } else {
                    assertThat(computed).isGreaterThanOrEqualTo(0.0);
                }
                assertThat(bd(computed)).as("ρ=%s L=%s β=%s tight", rho, l, beta)
                        .isLessThanOrEqualTo(ref.max(BigDecimal.ZERO).add(bd(1e-12 * scale)));
            }
        }
    }

    @Test
    void cksIsNeverLooserThanStandardAndMatchesBruteForce() {
        for (double[] c : grid()) {
            double rho = c[0];
            double l = -c[1];
            LogDelta ld = new LogDelta(c[1]);
            double standard = Conversions.zcdpToEpsilonStandard(rho, ld);
            Conversions.EpsilonBound cks = Conversions.zcdpToEpsilonCks(rho, ld);
            double brute = Math.max(0, bruteForceCks(rho, l));
            double scale = standard; // every term of ε(α*) is bounded by a small multiple of the standard ε
            assertThat(cks.epsilon()).as("ρ=%s L=%s: CKS <= standard", rho, l).isLessThanOrEqualTo(standard);
            assertThat(cks.epsilon()).as("ρ=%s L=%s: never below brute force", rho, l)
                    .isGreaterThanOrEqualTo(brute - 1e-12 * scale);
            assertThat(cks.epsilon()).as("ρ=%s L=%s: as tight as brute force", rho, l)
                    .isLessThanOrEqualTo(brute + 1e-9 * scale);
            // Soundness at the order actually used, against the 50-digit reference.
            BigDecimal ref = cksReference(rho, l, cks.alphaMinusOne());
            assertThat(bd(cks.epsilon())).isGreaterThanOrEqualTo(ref.max(BigDecimal.ZERO));
            assertThat(Conversions.zcdpToEpsilon(rho, ld)).isEqualTo(Math.min(standard, cks.epsilon()));
        }
    }

    @Test
    void cksEpsilonSatisfiesThePropositionInItsDeltaForm() {
        // CKS 2020 Prop. 12 as stated: δ = e^{(α−1)(αρ−ε)}·(1 − 1/α)^α/(α − 1). Check, in 50 digits,
        // ln δ(α*, ε) = (α−1)(αρ−ε) + α·ln(1 − 1/α) − ln(α − 1) <= ln δ_target at the returned (ε, α*).
        for (double[] c : grid()) {
            double rho = c[0];
            Conversions.EpsilonBound cks = Conversions.zcdpToEpsilonCks(rho, new LogDelta(c[1]));
            BigDecimal beta = bd(cks.alphaMinusOne());
            BigDecimal alpha = BigDecimal.ONE.add(beta);
            BigDecimal lnDelta = beta.multiply(alpha.multiply(bd(rho)).subtract(bd(cks.epsilon())), BigMath.MC)
                    .add(alpha.multiply(BigMath.ln(beta).subtract(BigMath.ln(alpha), BigMath.MC), BigMath.MC), BigMath.MC)
                    .subtract(BigMath.ln(beta), BigMath.MC);
            assertThat(lnDelta).as("ρ=%s ln δ=%s", rho, c[1]).isLessThanOrEqualTo(bd(c[1]));
        }
    }

    @Test
    void cksHandExample() {
        // ρ = 0.5, δ = 1e-6. Optimal order: h(β) = ρβ² + ln(1+β) − L = 0 ⇒ β ≈ 4.907 (α ≈ 5.907):
        // 0.5·4.907² = 12.039, ln 5.907 = 1.776, sum 13.8155 = L. Then
        // ε = αρ + (L − ln α)/(α−1) + ln(1 − 1/α) = 2.9535 + (13.8155 − 1.7761)/4.907 + ln(0.83071)
        //   = 2.9535 + 2.4535 − 0.18547 = 5.2215, about 0.535 below the standard 5.7565.
        Conversions.EpsilonBound cks = Conversions.zcdpToEpsilonCks(0.5, DELTA_1E6);
        assertThat(cks.alphaMinusOne()).isCloseTo(4.907, within(1e-3));
        assertThat(cks.epsilon()).isCloseTo(5.2215, within(1e-4));
        assertThat(Conversions.zcdpToEpsilon(0.5, DELTA_1E6)).isEqualTo(cks.epsilon());
    }

    @Test
    void tinyRhoCanGiveEpsilonZero() {
        // ρ = 1e-12 at δ = 1e-6: the Gaussian with Δ/σ = √(2ρ) = 1.41e-6 has total variation ≈ 5.6e-7 < δ,
        // so (0, δ)-DP is true, and CKS certifies it (ε(α) < 0 at α ≈ 6.5e5, reported as 0).
        assertThat(Conversions.zcdpToEpsilonCks(1e-12, DELTA_1E6).epsilon()).isZero();
        assertThat(Conversions.zcdpToEpsilonStandard(1e-12, DELTA_1E6)).isGreaterThan(7e-6);
    }

    @Test
    void pureToRhoAndGaussian() {
        assertThat(Conversions.pureToRho(1.0)).isEqualTo(0.5);   // 1²/2
        assertThat(Conversions.pureToRho(0.5)).isEqualTo(0.125); // 0.25/2
        assertThat(Conversions.pureToRho(40)).isEqualTo(800.0);
        // The double 0.1 is 0.1000000000000000055511…, so ε²/2 = 0.00500000000000000055511… which lies
        // above the double nearest 0.005 (0.005000000000000000104…): the conservative result is the next double.
        assertThat(Conversions.pureToRho(0.1)).isEqualTo(Math.nextUp(0.005));
        assertThat(Conversions.pureToRho(0)).isZero();
        assertThat(Conversions.pureToRho(Double.MIN_VALUE)).isEqualTo(Double.MIN_VALUE); // never rounds to 0
        // Gaussian: Δ²/(2σ²). Δ = 2, σ = 4: 4/32 = 0.125. Δ = 1, σ = 0.1: ≥ 1/(2·0.01) = 50.
        assertThat(Conversions.gaussianRho(2, 4)).isEqualTo(0.125);
        assertThat(bd(Conversions.gaussianRho(1, 0.1)).multiply(bd(0.1)).multiply(bd(0.1)).multiply(BigDecimal.valueOf(2)))
                .isGreaterThanOrEqualTo(BigDecimal.ONE);
        assertThat(Conversions.gaussianRho(1, 0.1)).isCloseTo(50, within(1e-12));
    }

    @Test
    void inverseStandardHandComputed() {
        // ε = 1, δ = 1e-6: ρ = (√(L+1) − √L)² = (3.849092173222703 − 3.716922188849838)² = 0.132169984372865²
        //   = 0.017468904769123378; the result is rounded down and its standard conversion is <= 1.
        double rho = Conversions.largestRhoStandard(1.0, DELTA_1E6);
        assertThat(rho).isCloseTo(0.017468904769123378, within(1e-17));
        assertThat(standardReference(rho, DELTA_1E6.logInverse())).isLessThanOrEqualTo(BigDecimal.ONE);
        // ε = 3, L = 1: (√4 − 1)² = 1 exactly.
        assertThat(Conversions.largestRhoStandard(3.0, new LogDelta(-1))).isEqualTo(1.0);
    }

    @Test
    void inverseRoundTripIsTheLargestPassingDouble() {
        for (double eps : new double[] {1e-6, 0.01, 0.1, 1, 2.5, 10, 40, 1000}) {
            for (double lnDelta : LOG_DELTAS) {
                LogDelta ld = new LogDelta(lnDelta);
                double rho = Conversions.largestRho(eps, ld);
                assertThat(rho).as("ε=%s ln δ=%s", eps, lnDelta).isPositive();
                assertThat(Conversions.zcdpToEpsilon(rho, ld)).as("ε=%s ln δ=%s", eps, lnDelta).isLessThanOrEqualTo(eps);
                assertThat(Conversions.zcdpToEpsilon(Math.nextUp(rho), ld)).isGreaterThan(eps);
                // The tighter conversion buys a larger ρ budget than the closed-form standard inverse.
                assertThat(rho).isGreaterThanOrEqualTo(Conversions.largestRhoStandard(eps, ld));
            }
        }
        // Forward then back: ρ = 0.5 at δ = 1e-6 gives ε ≈ 5.2215; the largest ρ for that ε is 0.5 to ~1e-12.
        double eps = Conversions.zcdpToEpsilon(0.5, DELTA_1E6);
        assertThat(Conversions.largestRho(eps, DELTA_1E6)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void extremeInputsGiveNoNaNAndStayOrdered() {
        double[] rhos = {Double.MIN_VALUE, 1e-300, 1e-12, 1, 1e150, 1e300, Double.MAX_VALUE};
        double[] logDeltas = {-Double.MIN_VALUE, -1e-300, -1, -5000, -1e150, -1e300, -Double.MAX_VALUE};
        for (double rho : rhos) {
            for (double lnDelta : logDeltas) {
                LogDelta ld = new LogDelta(lnDelta);
                double standard = Conversions.zcdpToEpsilonStandard(rho, ld);
                double cks = Conversions.zcdpToEpsilonCks(rho, ld).epsilon();
                assertThat(standard).as("ρ=%s ln δ=%s", rho, lnDelta).isNotNaN().isGreaterThanOrEqualTo(rho);
                assertThat(cks).as("ρ=%s ln δ=%s", rho, lnDelta).isNotNaN().isGreaterThanOrEqualTo(0.0);
                // When L/ρ overflows the optimal order is beyond the doubles and CKS alone can be looser;
                // the combined conversion is never looser than the standard one.
                assertThat(Conversions.zcdpToEpsilon(rho, ld)).isLessThanOrEqualTo(standard);
            }
        }
        assertThat(Conversions.zcdpToEpsilonStandard(Double.MAX_VALUE, new LogDelta(-5000))).isInfinite();
        assertThat(Conversions.largestRho(40, new LogDelta(-5000))).isPositive();
        assertThat(Conversions.largestRho(Double.MAX_VALUE, new LogDelta(-1))).isPositive().isFinite();
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -1e-300, -1})
    void rhoIsValidated(double bad) {
        assertThatThrownBy(() -> Conversions.zcdpToEpsilonStandard(bad, DELTA_1E6))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rho").hasMessageContaining(String.valueOf(bad));
        assertThatThrownBy(() -> Conversions.zcdpToEpsilonCks(bad, DELTA_1E6)).hasMessageContaining("rho");
        assertThatThrownBy(() -> Conversions.zcdpToEpsilon(bad, DELTA_1E6)).hasMessageContaining("rho");
        assertThatThrownBy(() -> Conversions.cksEpsilonAt(bad, DELTA_1E6, 1)).hasMessageContaining("rho");
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -1})
    void targetsAndOrdersAreValidated(double bad) {
        assertThatThrownBy(() -> Conversions.largestRho(bad, DELTA_1E6))
                .hasMessageContaining("epsilon").hasMessageContaining(String.valueOf(bad));
        assertThatThrownBy(() -> Conversions.largestRhoStandard(bad, DELTA_1E6)).hasMessageContaining("epsilon");
        assertThatThrownBy(() -> Conversions.cksEpsilonAt(0.5, DELTA_1E6, bad))
                .hasMessageContaining("alpha - 1").hasMessageContaining(String.valueOf(bad));
        assertThatThrownBy(() -> Conversions.gaussianRho(bad, 1)).hasMessageContaining("l2Sensitivity");
        assertThatThrownBy(() -> Conversions.gaussianRho(1, bad)).hasMessageContaining("sigma");
        if (!(bad >= 0)) {
            assertThatThrownBy(() -> Conversions.pureToRho(bad)).hasMessageContaining("epsilon");
        }
    }

    @Test
    void logDeltaIsRequired() {
        assertThatThrownBy(() -> Conversions.zcdpToEpsilon(0.5, null)).hasMessageContaining("logDelta");
        assertThatThrownBy(() -> Conversions.largestRho(1, null)).hasMessageContaining("logDelta");
        assertThatThrownBy(() -> Conversions.pureToRho(Double.POSITIVE_INFINITY)).hasMessageContaining("epsilon");
    }

    private static List<double[]> grid() {
        List<double[]> cases = new ArrayList<>();
        for (double rho : RHOS) {
            for (double lnDelta : LOG_DELTAS) {
                cases.add(new double[] {rho, lnDelta});
            }
        }
        return cases;
    }
}

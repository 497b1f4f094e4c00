package io.privacygateway.mechanisms.amplification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.amplification.AmplificationBound.Method;
import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;

/**
 * The amplification bounds: the published values, exact shuffled distributions of real randomizers, and the safe
 * direction of the numerics.
 */
class AmplificationBoundTest {

    /**
     * ε₀ = 4, δ = 10⁻⁶. Feldman, McMillan and Talwar report ≈ 0.17 at n = 10⁵ and ≈ 0.05 at n = 10⁶ for their
     * numerical bound, Wang et al. ≈ 0.12 and ≈ 0.035 for the variation-ratio bound. The papers print two significant
     * figures, so each value must round to the printed one (half a unit in the last printed digit); our bound is
     * certified upwards, so it may only sit at the upper end by the rounding slack.
     */
    @Test
    void reproducesThePublishedValues() {
        assertThat(eps(Method.CLONES, 100_000)).isBetween(0.165, 0.175);
        assertThat(eps(Method.CLONES, 1_000_000)).isBetween(0.045, 0.055);
        assertThat(eps(Method.VARIATION_RATIO, 100_000)).isBetween(0.115, 0.125);
        assertThat(eps(Method.VARIATION_RATIO, 1_000_000)).isBetween(0.0345 - 0.001, 0.0355);
        AmplifiedGuarantee best = AmplificationBound.amplified(Epsilon.of(4), 1_000_000, 1, 1e-6);
        assertThat(best.method()).isEqualTo("variation-ratio");
        assertThat(best.epsilon()).isEqualTo(eps(Method.VARIATION_RATIO, 1_000_000));
        assertThat(best.reports()).isEqualTo(1_000_000);
    }

    static double eps(Method m, long n) {
        return AmplificationBound.amplified(m, 4.0, n, 1, 1e-6).epsilon();
    }

    /** Only mechanisms whose aggregate reads payloads alone (no device-derived public coins) are amplified. */
    @Test
    void appliesOnlyToCoinFreeProtocols() {
        for (io.privacygateway.mechanisms.workload.MechanismId m : io.privacygateway.mechanisms.workload.MechanismId
                .values()) {
            boolean expected = switch (m.wireName()) {
                case "grr", "oue", "subset-selection", "hadamard-response", "factorization", "fourier" -> true;
                default -> false;
            };
            assertThat(AmplificationBound.appliesTo(m)).as(m.wireName()).isEqualTo(expected);
        }
    }

    /**
     * The returned ε is one where the δ bound (as the search computes it: terms below 10⁻⁹·δ bounded geometrically) was
     * at most the declared δ; {@link #doublesBoundTheExactDivergenceFromAbove} checks that bound against exact sums.
     */
    @Test
    void theReturnedEpsilonIsVerified() {
        for (Method m : Method.values()) {
            for (long n : new long[] {10, 1_000, 50_000}) {
                for (int k : new int[] {1, 3}) {
                    AmplifiedGuarantee g = AmplificationBound.amplified(m, 2.0, n, k, 1e-5);
                    double eps1 = g.epsilon() / k;
                    if (g.epsilon() < k * 2.0) {
                        assertThat(AmplificationBound.groupDelta(m, 2.0, n, k, Math.nextDown(eps1), 1e-5 * 1e-9))
                                .as("%s n=%d k=%d", m, n, k).isLessThanOrEqualTo(1e-5);
                    }
                    assertThat(g.epsilon()).isLessThanOrEqualTo(Math.nextUp(k * 2.0));
                }
            }
        }
    }

    /** More reports never give a worse guarantee; k reports never more than k·ε₀; no crowd, no amplification. */
    @Test
    void isMonotoneAndCapped() {
        double prev = Double.POSITIVE_INFINITY;
        for (long n : new long[] {1, 10, 100, 1_000, 10_000, 100_000}) {
            double e = AmplificationBound.amplified(Epsilon.of(1), n, 1, 1e-6).epsilon();
            assertThat(e).isLessThanOrEqualTo(prev);
            prev = e;
        }
        // one report alone is randomized response: (ε, 10⁻⁶) only for ε within a hair of ε₀
        assertThat(AmplificationBound.amplified(Epsilon.of(1), 1, 1, 1e-6).epsilon()).isBetween(0.999, 1.0);
        assertThat(AmplificationBound.amplified(Epsilon.of(1), 1, 4, 1e-6).epsilon()).isBetween(3.99, 4.0);
        assertThat(AmplificationBound.amplified(Epsilon.of(1), 100_000, 4, 1e-6).epsilon()).isLessThan(4.0);
        assertThat(AmplificationBound.roundDown(123_456)).isEqualTo(123_000);
        assertThat(AmplificationBound.roundDown(999)).isEqualTo(999);
        assertThatThrownBy(() -> AmplificationBound.amplified(Epsilon.of(1), 0, 1, 1e-6))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AmplificationBound.amplified(Epsilon.of(1), 10, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The double computation is an upper bound on the exact hockey-stick divergence of the reduction: recomputed with
     * 60-digit decimals from exact binomial coefficients (and the same rounded parameters), it is never smaller, and
     * within 10⁻⁵ relative.
     */
    @Test
    void doublesBoundTheExactDivergenceFromAbove() {
        for (Method m : Method.values()) {
            for (double eps : new double[] {0.05, 0.3, 0.9}) {
                long n = 150;
                double eps0 = 2.0;
                double p = Math.nextUp(Math.exp(eps0));
                double a = Math.nextUp(p / (p + 1));
                double rate = m == Method.CLONES ? Math.nextDown(Math.exp(-eps0)) : Math.nextDown(2 / (p + 1));
                double e = Math.nextDown(Math.exp(eps));
                BigDecimal exact = exactHockeyStick(n, rate, a, e);
                double bound = AmplificationBound.delta(m, eps0, n, eps);
                assertThat(new BigDecimal(bound).compareTo(exact)).as("%s ε=%s", m, eps).isGreaterThanOrEqualTo(0);
                assertThat(bound).isLessThanOrEqualTo(exact.doubleValue() * (1 + 1e-5) + 1e-300);
            }
        }
    }

    static BigDecimal exactHockeyStick(long n, double rate, double a, double e) {
        MathContext mc = new MathContext(60, RoundingMode.HALF_EVEN);
        BigDecimal r = new BigDecimal(rate);
        BigDecimal ra = new BigDecimal(a);
        BigDecimal rb = BigDecimal.ONE.subtract(ra);
        BigDecimal re = new BigDecimal(e);
        BigDecimal total = BigDecimal.ZERO;
        int others = (int) n - 1;
        for (int s = 0; s <= others; s++) {
            BigDecimal w = new BigDecimal(binomial(others, s)).multiply(r.pow(s, mc), mc)
                    .multiply(BigDecimal.ONE.subtract(r).pow(others - s, mc), mc);
            int kk = s + 1;
            BigDecimal half = BigDecimal.ONE.divide(new BigDecimal(BigInteger.TWO.pow(kk)), mc);
            BigDecimal inner = BigDecimal.ZERO;
            for (int k = 0; k <= kk; k++) {
                BigDecimal bk = new BigDecimal(binomial(kk, k)).multiply(half, mc);
                BigDecimal pk = ra.multiply(BigDecimal.valueOf(k)).add(rb.multiply(BigDecimal.valueOf(kk - k)));
                BigDecimal qk = rb.multiply(BigDecimal.valueOf(k)).add(ra.multiply(BigDecimal.valueOf(kk - k)));
                BigDecimal d = pk.subtract(re.multiply(qk, mc)).multiply(bk, mc).multiply(BigDecimal.valueOf(2))
                        .divide(BigDecimal.valueOf(kk), mc);
                if (d.signum() > 0) {
                    inner = inner.add(d, mc);
                }
            }
            total = total.add(w.multiply(inner, mc), mc);
        }
        return total;
    }

    static BigInteger binomial(int n, int k) {
        BigInteger b = BigInteger.ONE;
        for (int i = 0; i < k; i++) {
            b = b.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        return b;
    }
}

package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Gaussian-sign randomizer and protocol at the exact edges of their checks: the smallest certified
 * bias {@code B = 1}, the certification inequality at equality, an input norm exactly at the tolerated
 * excess, a value one past the universe, and the window limit derived from the fixed-point headroom.
 */
class GaussianSignCertificationLimitsTest {
    /**
     * At {@code ε = 3·10^-16} the largest certified numerator is exactly 1 (accepted, not refused):
     * {@code (2^53 + B)/(2^53 − B) ≈ 1 + B·2^-52}, so {@code B ≤ ε·2^52 ≈ 1.35} and {@code B = 1} is the
     * certified one; {@code ε = 10^-16} ({@code ≈ 0.45·2^-52}) leaves none and is refused.
     */
    @Test
    void theSmallestCertifiedBiasIsOne() {
        double eps = 3e-16;
        assertThat(eps * 0x1p52).isBetween(1.0, 2.0);
        assertThat(GaussianSignRandomizer.certifiedBiasNumerator(Epsilon.of(eps))).isEqualTo(1L);
        GaussianSignRandomizer rz = new GaussianSignRandomizer(1, Epsilon.of(eps), 1);
        assertThat(rz.biasNumerator()).isEqualTo(1L);
        assertThat(rz.bias()).isEqualTo(0x1p-53);
        assertThat(1e-16 * 0x1p52).isLessThan(1.0);
        assertThatThrownBy(() -> GaussianSignRandomizer.certifiedBiasNumerator(Epsilon.of(1e-16)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too small");
    }

    /**
     * {@code certified(b, L)} is {@code 2^53 + b ≤ L·(2^53 − b)} including equality: at {@code b = 2^52}
     * the ratio is exactly {@code 3·2^52 / 2^52 = 3}, so {@code L = 3} certifies it and
     * {@code L = 3 − 10^-40} does not; at {@code b = 0} the ratio is 1.
     */
    @Test
    void certificationIncludesEquality() {
        long half = 1L << 52;
        assertThat(GaussianSignRandomizer.certified(half, BigDecimal.valueOf(3))).isTrue();
        assertThat(GaussianSignRandomizer.certified(half, new BigDecimal("2.9999999999999999999999999999999999999999")))
                .isFalse();
        assertThat(GaussianSignRandomizer.certified(0, BigDecimal.ONE)).isTrue();
        assertThat(GaussianSignRandomizer.certified(1, BigDecimal.ONE)).isFalse();
    }

    /**
     * The norm check tolerates exactly a relative excess of {@code 10^-9}: an input of norm exactly
     * {@code r·(1 + 10^-9)} (for {@code m = 1}, {@code sqrt(t·t) = t} exactly) is accepted and clamped to
     * {@code B}; the next double above is refused.
     */
    @Test
    void normExactlyAtTheToleranceIsAccepted() {
        double r = 1.7;
        GaussianSignRandomizer rz = new GaussianSignRandomizer(r, Epsilon.of(1), 1);
        double t = r * (1 + 1e-9);
        assertThat(Math.sqrt(t * t)).isEqualTo(t);
        assertThat(rz.valueBias(new double[] {t})).isEqualTo(rz.biasNumerator());
        assertThat(rz.valueBias(new double[] {-t})).isEqualTo(rz.biasNumerator());
        assertThat(rz.plusThreshold(new double[] {t}, new double[] {-1}))
                .isEqualTo(GaussianSignRandomizer.FAIR_THRESHOLD - rz.biasNumerator());
        double above = Math.nextUp(t);
        assertThat(Math.sqrt(above * above)).isEqualTo(above);
        assertThatThrownBy(() -> rz.valueBias(new double[] {above})).hasMessageContaining("||v|| must be <= radius");
    }

    /**
     * Values are checked against the universe before anything else: one past the last value is refused by
     * {@code plusThreshold} and by {@code outputProbability} with an argument error naming the value, also
     * for a malformed payload (which for a valid value has probability 0).
     */
    @Test
    void valueOnePastTheUniverseIsRefused() {
        Workload w = GaussianSignProtocolTest.histogram("a", "b", "c", "d");
        GaussianSignProtocol p = new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(1), w.points(), null)), 0);
        long base = p.coins().base("device-1", 3, 0);
        assertThat(p.plusThreshold(0, 3, base)).isBetween(GaussianSignRandomizer.FAIR_THRESHOLD - p.biasNumerator(0),
                GaussianSignRandomizer.FAIR_THRESHOLD + p.biasNumerator(0));
        assertThatThrownBy(() -> p.plusThreshold(0, 4, base)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value must be an integer in [0, 3]");
        assertThatThrownBy(() -> p.plusThreshold(0, -1, base)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("value");
        for (byte[] payload : new byte[][] {{1}, {2}, {0, 0}, null}) {
            assertThatThrownBy(() -> p.outputProbability(4, payload, base)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("value must be an integer in [0, 3]");
        }
        assertThat(p.outputProbability(3, new byte[] {2}, base).isZero()).isTrue();
    }

    /**
     * The window limit is the largest power of two {@code n} with {@code n · 14 · 2^32 < 2^63}
     * ({@code |toFixed(z)| < 14·2^32} for every public Gaussian), computed here: {@code 2^27}; the protocol
     * reports it and accepts an estimate at exactly that {@code n}.
     */
    @Test
    void maxReportsIsTheHeadroomLimit() {
        BigDecimal twoTo63 = new BigDecimal(java.math.BigInteger.ONE.shiftLeft(63));
        BigDecimal term = BigDecimal.valueOf(PublicGaussian.MAX_ABS).multiply(BigDecimal.valueOf(1L << 32));
        long n = 1;
        while (BigDecimal.valueOf(2 * n).multiply(term).compareTo(twoTo63) < 0) {
            n *= 2;
        }
        assertThat(n).isEqualTo(1L << 27);
        Workload w = GaussianSignProtocolTest.histogram("a", "b", "c", "d");
        GaussianSignProtocol p = new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(1), w.points(), null)), 0);
        assertThat(p.maxReportsPerWindow()).isEqualTo(n);
        assertThat(LocalEstimators.of(p).estimate(new long[4], n).levels().get(0).mean()).containsOnly(0.0);
    }
}

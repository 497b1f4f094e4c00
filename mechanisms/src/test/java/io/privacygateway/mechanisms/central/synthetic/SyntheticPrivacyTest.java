package io.privacygateway.mechanisms.central.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The privacy claims of the private step, checked exactly: the noise scales follow from the declared ε, the
 * declared sensitivity is the true one (enumerating every neighbouring pair of one-report changes on small
 * layouts), and hence every pmf ratio of the released coefficients is at most {@code e^{ε_marg}}; the shares add
 * up to at most the declared ε; the basis matrices are what the docs say.
 */
class SyntheticPrivacyTest {

    static Stream<Arguments> configurations() {
        List<Arguments> out = new ArrayList<>();
        for (NoiseBasis basis : NoiseBasis.values()) {
            for (NeighbourRelation rel : NeighbourRelation.values()) {
                for (int way = 1; way <= 4; way++) {
                    for (String eps : List.of("0.1", "0.5", "1", "2", "0.3")) {
                        out.add(Arguments.of(basis, rel, way, eps, way == 2 ? 3 : 1));
                    }
                }
            }
        }
        return out.stream();
    }

    /**
     * The noise scale is exactly {@code dyadicUp(K·Δ_H·L, ε_marg)}, at least {@code K·Δ_H·L/ε_marg} as exact
     * rationals; the count noise (add/remove) at least {@code L/ε_count}; {@code ε_count + ε_marg <= ε} exactly;
     * the cost is their sum rounded up and at most the declared ε.
     */
    @ParameterizedTest
    @MethodSource("configurations")
    void noiseScalesFollowExactlyFromTheDeclaredEpsilon(NoiseBasis basis, NeighbourRelation rel, int way, String eps,
            int contributions) {
        MarginalLayout layout = MarginalLayout.of(Math.max(way, 6), way);
        Epsilon e = Epsilon.exactly(new BigDecimal(eps));
        CertifiedSyntheticData m = CertifiedSyntheticData.of(new SyntheticParameters(layout, e, rel, contributions,
                basis, io.privacygateway.mechanisms.param.ConfidenceLevel.of(0.95), 1024, 64, 5000));
        long blockSens = basis == NoiseBasis.IDENTITY
                ? (rel == NeighbourRelation.ADD_REMOVE ? 1 : 2)
                : (rel == NeighbourRelation.ADD_REMOVE ? way + 1 : 2L * way);
        long sens = layout.blocks() * blockSens * contributions;
        assertThat(m.sensitivity()).isEqualTo(sens);
        Rational t = m.coefficientNoise().scale();
        assertThat(t).isEqualTo(PrivacySplit.dyadicUp(sens, m.epsilonMarginals()));
        // t >= sens/ε_marg  ⇔  t.num · ε_marg >= sens · t.den (exact decimals)
        BigDecimal lhs = new BigDecimal(t.numerator()).multiply(new BigDecimal(m.epsilonMarginals()));
        BigDecimal rhs = new BigDecimal(BigInteger.valueOf(sens).multiply(t.denominator()));
        assertThat(lhs).isGreaterThanOrEqualTo(rhs);
        BigDecimal total = new BigDecimal(m.epsilonCount()).add(new BigDecimal(m.epsilonMarginals()));
        assertThat(total).isLessThanOrEqualTo(e.exact());
        assertThat(new BigDecimal(m.cost().epsilon())).isGreaterThanOrEqualTo(total);
        assertThat(new BigDecimal(m.cost().epsilon())).isLessThanOrEqualTo(e.exact());
        if (rel == NeighbourRelation.REPLACE_ONE) {
            assertThat(m.count()).isInstanceOf(CountRelease.Public.class);
            assertThat(m.epsilonCount()).isZero();
        } else {
            CountRelease.Noisy c = (CountRelease.Noisy) m.count();
            Rational tc = c.noise().scale();
            BigDecimal l2 = new BigDecimal(tc.numerator()).multiply(new BigDecimal(m.epsilonCount()));
            assertThat(l2).isGreaterThanOrEqualTo(new BigDecimal(BigInteger.valueOf(contributions)
                    .multiply(tc.denominator())));
        }
    }

    /**
     * The declared sensitivity is exactly the largest l1 change of all coefficients {@code (H·c_b)_b} over every
     * one-report change (add or remove one record; replace one record by another), enumerated over the whole
     * domain; so for every output w the pmf ratio {@code e^{(‖w − Hc'‖₁ − ‖w − Hc‖₁)/t}} is at most
     * {@code e^{‖Hc − Hc'‖₁/t}} ≤ {@code e^{ε_marg}}, checked as exact rationals.
     */
    @ParameterizedTest
    @MethodSource("configurations")
    void theDeclaredSensitivityIsTheTrueOneAndEveryRatioIsBounded(NoiseBasis basis, NeighbourRelation rel, int way,
            String eps, int contributions) {
        if (contributions != 1 || !eps.equals("1")) {
            return;
        }
        int d = Math.max(way, 5);
        MarginalLayout layout = MarginalLayout.of(d, way);
        CertifiedSyntheticData m = CertifiedSyntheticData.of(new SyntheticParameters(layout, Epsilon.of(1), rel, 1,
                basis, io.privacygateway.mechanisms.param.ConfidenceLevel.of(0.95), 1024, 64, 5000));
        int[][] h = basis.analysis(way);
        int w = 1 << way;
        long worst = 0;
        for (int x = 0; x < (1 << d); x++) {
            if (rel == NeighbourRelation.ADD_REMOVE) {
                worst = Math.max(worst, l1OfChange(layout, h, w, x, -1));
            } else {
                for (int y = 0; y < (1 << d); y++) {
                    worst = Math.max(worst, l1OfChange(layout, h, w, x, y));
                }
            }
        }
        assertThat(worst).isEqualTo(m.sensitivity());
        Rational t = m.coefficientNoise().scale();
        // worst / t <= ε_marg  ⇔  worst · t.den <= ε_marg · t.num
        assertThat(new BigDecimal(BigInteger.valueOf(worst).multiply(t.denominator())))
                .isLessThanOrEqualTo(new BigDecimal(m.epsilonMarginals()).multiply(new BigDecimal(t.numerator())));
    }

    /** {@code Σ_b ‖H(c_b(x) − c_b(y))‖₁} (y = −1: only x, i.e. add/remove). */
    private static long l1OfChange(MarginalLayout layout, int[][] h, int w, int x, int y) {
        long s = 0;
        for (int b = 0; b < layout.blocks(); b++) {
            int cx = layout.cellOf(x, b);
            int cy = y < 0 ? -1 : layout.cellOf(y, b);
            for (int[] row : h) {
                s += Math.abs(row[cx] - (cy < 0 ? 0 : row[cy]));
            }
        }
        return s;
    }

    /** The Haar analysis matrix: orthogonal rows, ±1/0 entries, {@code synthesis·analysis = 2^s·I} exactly. */
    @Test
    void basisMatricesInvertExactly() {
        for (NoiseBasis basis : NoiseBasis.values()) {
            for (int s = 1; s <= 4; s++) {
                int[][] h = basis.analysis(s);
                long[][] syn = basis.synthesis(s);
                int m = 1 << s;
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < m; j++) {
                        long p = 0;
                        long dot = 0;
                        for (int k = 0; k < m; k++) {
                            p += syn[i][k] * h[k][j];
                            dot += (long) h[i][k] * h[j][k];
                        }
                        assertThat(p).isEqualTo(i == j ? m : 0);
                        if (i != j) {
                            assertThat(dot).isZero();
                        }
                        assertThat(Math.abs(h[i][j])).isLessThanOrEqualTo(1);
                    }
                }
            }
        }
        // The paper's Lemma 3: ‖H‖₁ = s + 1 (add/remove) for Haar.
        assertThat(NoiseBasis.HAAR.blockSensitivity(3, NeighbourRelation.ADD_REMOVE)).isEqualTo(4);
        assertThat(NoiseBasis.HAAR.blockSensitivity(3, NeighbourRelation.REPLACE_ONE)).isEqualTo(6);
        assertThat(NoiseBasis.IDENTITY.blockSensitivity(3, NeighbourRelation.REPLACE_ONE)).isEqualTo(2);
    }

    /** The private step reads the data; nothing else does: publish takes only the private outputs. */
    @Test
    void inputIsValidated() {
        MarginalLayout layout = MarginalLayout.of(4, 2);
        CertifiedSyntheticData m = CertifiedSyntheticData.of(SyntheticParameters.of(layout, Epsilon.of(1),
                NeighbourRelation.ADD_REMOVE, 1));
        long[] ok = SyntheticFixtures.counts(layout, new int[] {1, 2, 3});
        assertThatThrownBy(() -> m.release(new long[3], 3, new SeededRandomBits(1)))
                .hasMessageContaining("marginalCounts must have 24 entries");
        assertThatThrownBy(() -> m.release(ok, 4, new SeededRandomBits(1))).hasMessageContaining("sums to 3, not n = 4");
        long[] neg = ok.clone();
        neg[0] = -1;
        neg[1] += 1;
        assertThatThrownBy(() -> m.release(neg, 3, new SeededRandomBits(1))).hasMessageContaining("must be >= 0");
        assertThatThrownBy(() -> MarginalLayout.of(25, 3)).hasMessageContaining("attributes");
        assertThatThrownBy(() -> MarginalLayout.of(8, 5)).hasMessageContaining("way");
        assertThatThrownBy(() -> SyntheticParameters.of(layout, Epsilon.of(1), NeighbourRelation.ADD_REMOVE, 0))
                .hasMessageContaining("contributions");
    }
}

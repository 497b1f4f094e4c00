package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

/**
 * The exponential mechanism's law and its privacy, exactly where finite.
 *
 * <p>The sampler is "uniform candidate, accept with exact Bernoulli(e^{−γ_i})" (BernoulliExp is exact and tested in
 * {@code central/sampling}), so its law is {@code e^{−γ_i}/Σ e^{−γ_j}}: {@link #gammasAreExactlyTheScoreGaps}
 * checks the γ it uses are exactly {@code ε(s_max − s_i)/(2Δ)} (rational arithmetic), so the law is
 * {@code ∝ e^{ε s_i/(2Δ)}}. {@link #tinyDomainEnumeration} enumerates every dataset of up to 3 reports over
 * {@code {0,1}^3} and every add/remove and replace-one neighbour, computes the selection law of the scores the
 * release would use, and checks the privacy ratio {@code <= e^ε} and the bounded-range width {@code <= ε}
 * (what the {@code ε²/8}-zCDP accounting rests on). {@link #samplerRealisesTheLaw}: chi-square of 200,000 draws
 * (false failure 10^-6).
 */
class ExponentialSelectionTest {
    @Test
    void gammasAreExactlyTheScoreGaps() {
        long[] scores = {5, -3, 1L << 50, 0, (1L << 50) - 7};
        Rational eps = Rational.of(3, 1L << 20);
        Rational[] g = ExponentialSelection.gammas(scores, 65536, eps);
        for (int i = 0; i < scores.length; i++) {
            BigInteger gap = BigInteger.valueOf(1L << 50).subtract(BigInteger.valueOf(scores[i]));
            Rational expected = Rational.of(BigInteger.valueOf(3).multiply(gap),
                    BigInteger.valueOf(1L << 20).multiply(BigInteger.valueOf(2 * 65536L)));
            assertThat(g[i]).isEqualTo(expected);
        }
        assertThat(g[2]).isEqualTo(Rational.ZERO);
    }

    @Test
    void epsilonForRhoIsTheLargestDyadicWithinTheShare() {
        for (double rho : new double[] {1e-9, 3.3e-6, 0.01, 0.5}) {
            Rational e = ExponentialSelection.epsilonForRho(rho);
            BigDecimal ed = new BigDecimal(e.numerator()).divide(new BigDecimal(e.denominator()));
            BigDecimal eightRho = new BigDecimal(rho).multiply(BigDecimal.valueOf(8));
            assertThat(ed.multiply(ed).compareTo(eightRho)).isLessThanOrEqualTo(0);
            BigDecimal next = ed.add(BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(40))));
            assertThat(next.multiply(next).compareTo(eightRho)).isGreaterThan(0);
            assertThat(ExponentialSelection.rhoOf(e)).isLessThanOrEqualTo(rho);
        }
    }

    @Test
    void tinyDomainEnumeration() {
        MarginalWorkload w = MarginalWorkload.anonymous(3, 2);
        BinaryMarginalUniverse u = new BinaryMarginalUniverse(w);
        Rational eps = Rational.of(3, 4); // the selection's ε in this check
        double[] p = {0.3, 0.05, 0.1, 0.15, 0.05, 0.2, 0.1, 0.05}; // a public MW distribution
        double[][] a = new double[w.subsetCount()][w.cellsPerSubset()];
        u.answers(p, a);
        long released = 2; // the public (released) count the scores use
        long sensitivity = PrivateMultiplicativeWeights.SCORE_GRID; // L = 1, unit 1
        List<long[]> datasets = new ArrayList<>();
        enumerate(new long[8], 0, 3, datasets);
        double worstRatio = 0;
        double worstWidth = 0;
        int pairs = 0;
        for (long[] data : datasets) {
            double[] law = law(w, a, released, data, sensitivity, eps);
            for (long[] nb : neighbours(data)) {
                double[] other = law(w, a, released, nb, sensitivity, eps);
                double lo = Double.POSITIVE_INFINITY;
                double hi = Double.NEGATIVE_INFINITY;
                for (int g = 0; g < law.length; g++) {
                    double lr = Math.log(law[g] / other[g]);
                    lo = Math.min(lo, lr);
                    hi = Math.max(hi, lr);
                    worstRatio = Math.max(worstRatio, Math.abs(lr));
                }
                worstWidth = Math.max(worstWidth, hi - lo);
                pairs++;
            }
        }
        double e = eps.doubleValue();
        assertThat(pairs).isGreaterThan(100);
        assertThat(worstRatio).isLessThanOrEqualTo(e + 1e-12);
        assertThat(worstWidth).isLessThanOrEqualTo(e + 1e-12);
        assertThat(worstWidth).as("the bound is attained closely").isGreaterThan(e / 4);
    }

    /** The selection law on one dataset (universe counts), with the release's score rule, in 40-digit arithmetic. */
    private static double[] law(MarginalWorkload w, double[][] a, long released, long[] data, long sensitivity,
            Rational eps) {
        MarginalCounts c = WideFixtures.fromUniverseCounts(w, data);
        long[] scores = new long[w.subsetCount()];
        double toScore = (double) released * PrivateMultiplicativeWeights.SCORE_GRID;
        for (int g = 0; g < scores.length; g++) {
            long[] st = c.subsetCounts(g);
            long worst = 0;
            for (int q = 0; q < st.length; q++) {
                long r = Math.round(a[g][q] * toScore);
                worst = Math.max(worst, Math.abs(r - st[q] * PrivateMultiplicativeWeights.SCORE_GRID));
            }
            scores[g] = worst;
        }
        Rational[] gamma = ExponentialSelection.gammas(scores, sensitivity, eps);
        MathContext mc = new MathContext(40);
        double[] wgt = new double[gamma.length];
        double total = 0;
        for (int g = 0; g < gamma.length; g++) {
            double x = new BigDecimal(gamma[g].numerator()).divide(new BigDecimal(gamma[g].denominator()), mc)
                    .doubleValue();
            wgt[g] = Math.exp(-x);
            total += wgt[g];
        }
        for (int g = 0; g < wgt.length; g++) {
            wgt[g] /= total;
        }
        return wgt;
    }

    private static void enumerate(long[] cur, int from, int left, List<long[]> out) {
        out.add(cur.clone());
        if (left == 0) {
            return;
        }
        for (int x = from; x < cur.length; x++) {
            cur[x]++;
            enumerate(cur, x, left - 1, out);
            cur[x]--;
        }
    }

    /** Add one report, remove one, or move one (L = 1). */
    private static List<long[]> neighbours(long[] data) {
        List<long[]> out = new ArrayList<>();
        for (int x = 0; x < data.length; x++) {
            long[] add = data.clone();
            add[x]++;
            out.add(add);
            if (data[x] > 0) {
                long[] rem = data.clone();
                rem[x]--;
                out.add(rem);
                for (int y = 0; y < data.length; y++) {
                    if (y != x) {
                        long[] mv = rem.clone();
                        mv[y]++;
                        out.add(mv);
                    }
                }
            }
        }
        return out;
    }

    @Test
    void samplerRealisesTheLaw() {
        long[] scores = {0, 40_000, 90_000, 65_536, 131_072, 10};
        Rational eps = Rational.of(1, 1);
        double[] law = ExponentialSelection.probabilities(scores, 65_536, eps);
        long[] counts = new long[scores.length];
        ReleaseDraws draws = ReleaseDraws.exact(new SeededRandomBits(77));
        int trials = 200_000;
        for (int i = 0; i < trials; i++) {
            counts[ExponentialSelection.select(scores, 65_536, eps, draws)]++;
        }
        double[] expected = new double[law.length];
        for (int i = 0; i < law.length; i++) {
            expected[i] = law[i] * trials;
        }
        assertThat(ChiSquareTest.withDefaults().test(expected, counts).getPValue()).isGreaterThan(1e-6);
    }
}

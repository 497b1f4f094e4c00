package io.privacygateway.mechanisms.amplification;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

/**
 * Evidence for the variation-ratio bound beyond extremal randomizers ({@code docs/horizons.md}, "What we proved").
 *
 * <p>An ε₀-LDP pair with total variation {@code β = (p − 1)x} (p = e^{ε₀}, {@code 0 < x <= 1/(p + 1)}) reduces, by
 * our own derivation, to three clone types: the other reports are U₀ or U₁ with probability x each and a common M
 * with probability {@code (1 − (p + 1)x)/p}; the changing report is U₀, U₁, M with probabilities
 * {@code (px, x, 1 − (p + 1)x)} under one input and {@code (x, px, …)} under the other. At {@code x = 1/(p + 1)}
 * (extremal pairs) this is exactly the reduction {@link AmplificationBound.Method#VARIATION_RATIO} computes. This test
 * computes the three-type divergence for smaller x and checks it stays below δ at the ε the bound certifies, i.e. that
 * the extremal pair is the worst case on these parameters (a check, not a proof).
 */
class VariationRatioGeneralityTest {

    @Test
    void smallerTotalVariationIsNeverWorse() {
        int n = 300;
        double delta = 1e-3;
        for (double eps0 : new double[] {1, 2, 3}) {
            double p = Math.exp(eps0);
            double eps = AmplificationBound.amplified(AmplificationBound.Method.VARIATION_RATIO, eps0, n, 1, delta)
                    .epsilon();
            double xmax = 1 / (p + 1);
            double atMax = threeTypes(n, p, xmax, eps);
            assertThat(atMax).isLessThanOrEqualTo(delta);
            for (double f = 0.05; f < 1; f += 0.05) {
                double d = threeTypes(n, p, f * xmax, eps);
                assertThat(d).as("ε₀=%s x=%s·x_max", eps0, f).isLessThanOrEqualTo(Math.max(atMax, 0) * (1 + 1e-9)
                        + 1e-15);
            }
        }
    }

    /** The three-type hockey-stick divergence at ε (doubles; a test oracle, not a certified bound). */
    static double threeTypes(int n, double p, double x, double eps) {
        double e = Math.exp(eps);
        double m = 1 - (p + 1) * x;
        double r = 2 * x + m / p;
        double piM = (m / p) / r;
        BinomialDistribution outer = BinomialDistribution.of(n - 1, Math.min(1, r));
        double total = 0;
        for (int s = 0; s < n; s++) {
            double w = outer.probability(s);
            if (w < 1e-20) {
                continue;
            }
            int kk = s + 1;
            BinomialDistribution mDist = BinomialDistribution.of(kk, Math.min(1, Math.max(0, piM)));
            double inner = 0;
            for (int km = 0; km <= kk; km++) {
                double wm = mDist.probability(km);
                if (wm < 1e-20) {
                    continue;
                }
                int c = kk - km;
                // Σ_{k0} Bin(c, 1/2)(k0)·[(p − e)k0 − (ep − 1)(c − k0) − p(e − 1)km]₊
                double slope = (p - e) + (e * p - 1);
                double off = (e * p - 1) * c + p * (e - 1) * km;
                double sum = 0;
                if (c > 0) {
                    BinomialDistribution half = BinomialDistribution.of(c, 0.5);
                    for (int k0 = 0; k0 <= c; k0++) {
                        double v = slope * k0 - off;
                        if (v > 0) {
                            sum += half.probability(k0) * v;
                        }
                    }
                }
                inner += wm * sum;
            }
            total += w * r / kk * inner;
        }
        return total;
    }
}

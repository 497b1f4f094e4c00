package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Fourier marginals oracle: its device realises its stated law and is exactly ε-LDP (whole draw tree
 * enumerated), its draws do not depend on the value, its estimate is exactly unbiased for every marginal of at most
 * {@code t} attributes, its closed-form variances equal the ones computed from the exact law, and its parameter
 * search lands where the closed forms say.
 */
class FourierMarginalsTest {
    private static final double[] EPSILONS = {0.05, 0.5, 1.0, 2.5, 5.0};

    /** Small cases: every (d, t) with d <= 4, the chosen parameters, and every block size with two weight sets. */
    static List<FourierMarginals> small(Epsilon e) {
        List<FourierMarginals> out = new ArrayList<>();
        for (int d = 1; d <= 4; d++) {
            for (int t = 1; t <= d; t++) {
                out.add(new FourierMarginals(d, t, e));
            }
        }
        out.add(new FourierMarginals(3, 2, e, new FourierMarginals.Parameters(2, 0b001)));
        out.add(new FourierMarginals(3, 2, e, new FourierMarginals.Parameters(3, 0b0010)));
        out.add(new FourierMarginals(4, 1, e, new FourierMarginals.Parameters(1, 0b01)));
        out.add(new FourierMarginals(4, 2, e, new FourierMarginals.Parameters(3, 0b1011)));
        return out;
    }

    @Test
    void theDeviceRealisesTheStatedLawAndEveryRatioIsAtMostExpEpsilonAndReachesIt() {
        int checked = 0;
        for (double eps : EPSILONS) {
            Epsilon e = Epsilon.of(eps);
            for (FourierMarginals o : small(e)) {
                FrequencyOracleEnumerationTest.Outcome r = FrequencyOracleEnumerationTest.check(o, 0L);
                String tag = "d=" + o.attributes() + " t=" + o.way() + " " + o.parameters() + " eps=" + eps;
                assertThat(r.lawMatches()).as("%s: randomize realises outputProbability", tag).isTrue();
                assertThat(r.ratioWithinBound()).as("%s: ratio <= e^eps (worst %s)", tag, r.worstRatio()).isTrue();
                assertThat(r.worstRatio()).as("%s: tight", tag).isGreaterThan(Math.exp(eps) * (1 - 1e-9));
                assertThat(o.outputs()).as("%s: outputs", tag).isEqualTo(FourierMarginals.binomial(o.attributes(),
                        o.parameters().blockSize()) << o.parameters().blockSize());
                checked++;
            }
        }
        assertThat(checked).isEqualTo(EPSILONS.length * 14);
    }

    @Test
    void theDrawsAreTheSameForEveryValueAndEveryOutcome() {
        for (double eps : new double[] {0.5, 2.5}) {
            for (FourierMarginals o : small(Epsilon.of(eps))) {
                Set<Object> first = new HashSet<>();
                assertThat(SecretDrawTraceTest.traces(o, 0L, false, first)).as("d=%d t=%d", o.attributes(), o.way())
                        .hasSize(1);
            }
        }
    }

    /** The exact expectation of {@code p̂} for one report of {@code x}: {@code Σ_o P(o | x)·(contribution(o) + 2^-d)}. */
    static double[] expectedEstimate(FourierMarginals o, int x) {
        int k = o.domainSize();
        double[] mean = new double[k];
        for (int out = 0; out < o.outputs(); out++) {
            double p = o.outputProbability(x, IndexCodec.encode(out, 2), 0L).doubleValue();
            double[] c = o.contribution(out);
            for (int v = 0; v < k; v++) {
                mean[v] += p * (c[v] + 1.0 / k);
            }
        }
        return mean;
    }

    /** The marginal of {@code p} on the attribute set {@code set}: cell {@code restrict(v, set)}. */
    static double[] marginal(double[] p, int set) {
        double[] m = new double[1 << Integer.bitCount(set)];
        for (int v = 0; v < p.length; v++) {
            m[FourierMarginals.restrict(v, set)] += p[v];
        }
        return m;
    }

    @Test
    void theEstimateIsExactlyUnbiasedForEveryMarginalOfAtMostTAttributesAndOnlyThose() {
        for (FourierMarginals o : List.of(new FourierMarginals(4, 2, Epsilon.of(1)),
                new FourierMarginals(5, 3, Epsilon.of(0.5)), new FourierMarginals(4, 2, Epsilon.of(1),
                        new FourierMarginals.Parameters(3, 0b1011)))) {
            int k = o.domainSize();
            boolean someWiderMarginalIsBiased = false;
            for (int x = 0; x < k; x++) {
                double[] mean = expectedEstimate(o, x);
                double[] point = new double[k];
                point[x] = 1;
                for (int set = 1; set < k; set++) {
                    double[] got = marginal(mean, set);
                    double[] want = marginal(point, set);
                    boolean equal = true;
                    for (int c = 0; c < got.length; c++) {
                        equal &= Math.abs(got[c] - want[c]) < 1e-9;
                    }
                    if (Integer.bitCount(set) <= o.way()) {
                        assertThat(equal).as("marginal %s of value %d", Integer.toBinaryString(set), x).isTrue();
                    } else {
                        someWiderMarginalIsBiased |= !equal;
                    }
                }
            }
            assertThat(someWiderMarginalIsBiased).as("wider marginals are not estimated (a check that can fail)")
                    .isTrue();
        }
    }

    @Test
    void estimateIsTheSumOfTheReportsContributions() {
        FourierMarginals o = new FourierMarginals(5, 2, Epsilon.of(1));
        SeededRandomBits bits = new SeededRandomBits(3);
        long[] state = new long[o.stateLength()];
        double[] sum = new double[o.domainSize()];
        int n = 500;
        for (int i = 0; i < n; i++) {
            byte[] y = o.randomize(i % o.domainSize(), 0L, bits);
            assertThat(o.accumulate(y, 0L, state)).isTrue();
            double[] c = o.contribution(IndexCodec.decode(y, 2, o.outputs()));
            for (int v = 0; v < sum.length; v++) {
                sum[v] += c[v];
            }
        }
        double[] p = FrequencyOracleEstimator.of(o).estimate(state, n);
        for (int v = 0; v < p.length; v++) {
            assertThat(p[v]).isCloseTo(sum[v] / n + 1.0 / o.domainSize(), org.assertj.core.data.Offset.offset(1e-9));
        }
        assertThat(o.accumulate(new byte[] {(byte) 0xFF, (byte) 0xFF}, 0L, state)).as("index out of range").isFalse();
        assertThat(o.accumulate(new byte[] {0}, 0L, state)).as("wrong length").isFalse();
    }

    /**
     * For a fixed dataset, the exact variance of a query's estimate computed from the stated law (each report: its
     * second moment over the outputs less its squared mean) equals the closed form, for random queries and skewed
     * data; covarianceTimes and variances agree with it.
     */
    @Test
    void closedFormVariancesEqualTheOnesComputedFromTheExactLaw() {
        FourierMarginals o = new FourierMarginals(4, 2, Epsilon.of(1.3), new FourierMarginals.Parameters(3, 0b0010));
        int k = o.domainSize();
        java.util.Random rnd = new java.util.Random(5); // public test data
        double[] f = skewedFrequencies(k, rnd, 3);
        long n = 1000;
        for (int trial = 0; trial < 5; trial++) {
            double[] c = new double[k];
            for (int x = 0; x < k; x++) {
                c[x] = rnd.nextGaussian();
            }
            double exact = exactVariance(o, f, c, n);
            assertThat(FrequencyOracleEstimator.of(o).queryVariance(n, f, c)).isCloseTo(exact, org.assertj.core.data.Offset.offset(1e-12 + 1e-9
                    * exact));
            double[] cov = FrequencyOracleEstimator.of(o).covarianceTimes(n, f, c);
            double quad = 0;
            for (int x = 0; x < k; x++) {
                quad += c[x] * cov[x];
            }
            assertThat(quad).isCloseTo(exact, org.assertj.core.data.Offset.offset(1e-9 * exact));
        }
        double[][] rows = new double[k][3];
        for (int x = 0; x < k; x++) {
            rows[x] = new double[] {x & 1, (x >> 1 & 1) * (x >> 2 & 1), rnd.nextGaussian()};
        }
        io.privacygateway.mechanisms.linalg.PointSet pts = io.privacygateway.mechanisms.linalg.PointSet.of(3, rows);
        double[] batch = FrequencyOracleEstimator.of(o).queryVariances(n, f, pts);
        for (int q = 0; q < 3; q++) {
            double[] c = new double[k];
            for (int x = 0; x < k; x++) {
                c[x] = rows[x][q];
            }
            assertThat(batch[q]).as("query %d in a batch", q).isCloseTo(FrequencyOracleEstimator.of(o).queryVariance(n, f, c),
                    org.assertj.core.data.Offset.offset(1e-15));
            assertThat(batch[q]).isPositive();
        }
        double[] vars = FrequencyOracleEstimator.of(o).variances(n, f);
        for (int x = 0; x < k; x++) {
            double[] e = new double[k];
            e[x] = 1;
            assertThat(vars[x]).isCloseTo(FrequencyOracleEstimator.of(o).queryVariance(n, f, e), org.assertj.core.data.Offset.offset(1e-12));
        }
    }

    /**
     * The search over block sizes and weight sets on 3-way marginals of 8 attributes: the predicted RMS of a cell at
     * uniform data and n = 10⁵ (an independent computation by generalised least squares over the full strategy
     * matrix gave 0.03534, 0.01765, 0.00808 and 0.00274); blocks of 4 attributes up to ε = 2, 5 at ε = 4.
     */
    @Test
    void theParameterSearchFindsTheBestBlock() {
        double[][] expected = {{0.5, 4, 0.035338}, {1, 4, 0.017646}, {2, 4, 0.0080770}, {4, 5, 0.0027372}};
        for (double[] row : expected) {
            FourierMarginals o = new FourierMarginals(8, 3, Epsilon.of(row[0]));
            assertThat(o.parameters().blockSize()).as("eps=%s", row[0]).isEqualTo((int) row[1]);
            double rms = Math.sqrt(o.cellVarianceFactor() / 64 / 1e5);
            assertThat(rms).as("eps=%s", row[0]).isCloseTo(row[2], org.assertj.core.data.Offset.offset(row[2] * 2e-4));
            // against the exact per-cell variance of the oracle itself at uniform data (which subtracts the
            // fixed-dataset mean term)
        }
        assertThat(FourierMarginals.chooseParameters(8, 3, Epsilon.of(1)))
                .isEqualTo(FourierMarginals.chooseParameters(8, 3, Epsilon.of(1)));
    }

    @Test
    void invalidParametersAreRefusedNamingTheField() {
        Epsilon e = Epsilon.of(1);
        assertThatThrownBy(() -> new FourierMarginals(13, 3, e)).hasMessageContaining("attributes");
        assertThatThrownBy(() -> new FourierMarginals(4, 5, e)).hasMessageContaining("way");
        assertThatThrownBy(() -> new FourierMarginals(4, 3, e, new FourierMarginals.Parameters(2, 1)))
                .hasMessageContaining("blockSize");
        assertThatThrownBy(() -> new FourierMarginals(4, 2, e, new FourierMarginals.Parameters(3, 0)))
                .hasMessageContaining("favouredWeights");
        assertThatThrownBy(() -> new FourierMarginals(4, 2, e, new FourierMarginals.Parameters(3, 0b1111)))
                .hasMessageContaining("favouredWeights");
        // weights {0, 1} of 3 bits: the pairs' coefficients vanish (λ_2 = 0), which 2-way marginals need
        assertThatThrownBy(() -> new FourierMarginals(4, 2, e, new FourierMarginals.Parameters(3, 0b0011)))
                .hasMessageContaining("unobservable").hasMessageContaining("weight 2");
        assertThat(new FourierMarginals(4, 1, e, new FourierMarginals.Parameters(3, 0b0011)).way()).isEqualTo(1);
        FourierMarginals o = new FourierMarginals(4, 2, e);
        assertThat(o.attributes()).isEqualTo(4);
        assertThatThrownBy(() -> o.randomize(16, 0L, new io.privacygateway.mechanisms.random.SeededRandomBits(1)))
                .hasMessageContaining("value");
        assertThatThrownBy(() -> o.outputProbability(-1, new byte[] {0, 0}, 0L)).hasMessageContaining("value");
        assertThatThrownBy(() -> o.contribution(o.outputs())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("output");
        long[] state = new long[o.stateLength()];
        state[0] = 3;
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(o).estimate(state, 4)).hasMessageContaining("n must equal");
        // weights {1, 3} of 3 bits: the single-attribute coefficients vanish (λ_1 = 0)
        assertThatThrownBy(() -> new FourierMarginals(4, 2, e, new FourierMarginals.Parameters(3, 0b1010)))
                .hasMessageContaining("unobservable");
    }

    /** Frequencies proportional to {@code u^power} for k uniform draws u of {@code rnd} (public test data). */
    static double[] skewedFrequencies(int k, java.util.Random rnd, int power) {
        double[] f = new double[k];
        double sum = 0;
        for (int x = 0; x < k; x++) {
            f[x] = Math.pow(rnd.nextDouble(), power);
            sum += f[x];
        }
        for (int x = 0; x < k; x++) {
            f[x] /= sum;
        }
        return f;
    }

    /** The exact variance of {@code c·p̂} for n reports at frequencies f, from the stated law output by output. */
    static double exactVariance(FourierMarginals o, double[] f, double[] c, long n) {
        int k = o.domainSize();
        double exact = 0;
        for (int x = 0; x < k; x++) {
            double m1 = 0;
            double m2 = 0;
            for (int out = 0; out < o.outputs(); out++) {
                double p = o.outputProbability(x, IndexCodec.encode(out, 2), 0L).doubleValue();
                double[] con = o.contribution(out);
                double v = 0;
                for (int z = 0; z < k; z++) {
                    v += c[z] * (con[z] + 1.0 / k);
                }
                m1 += p * v;
                m2 += p * v * v;
            }
            exact += f[x] * (m2 - m1 * m1);
        }
        return exact / n;
    }

    /**
     * The batch variances of a marginals workload take the per-marginal shortcut (one transform per attribute set
     * for all its cells): on every cell of every marginal of width 1 and 2 over 4 attributes, scaled by 3 and by −0.5,
     * they equal the exact variance from the stated law; cells wider than t, sums of two cells and random queries take
     * the general form and equal it too.
     */
    @Test
    void batchVariancesOfMarginalCellsEqualTheExactLaw() {
        FourierMarginals o = new FourierMarginals(4, 2, Epsilon.of(0.9), new FourierMarginals.Parameters(3, 0b0010));
        int k = o.domainSize();
        java.util.Random rnd = new java.util.Random(9); // public test data
        double[] f = skewedFrequencies(k, rnd, 4);
        List<double[]> queries = new ArrayList<>();
        for (int set = 1; set < k; set++) {
            for (int v = set; ; v = (v - 1) & set) { // every cell v of the attribute set
                for (double scale : new double[] {1, 3, -0.5}) {
                    double[] c = new double[k];
                    for (int x = 0; x < k; x++) {
                        c[x] = (x & set) == v ? scale : 0;
                    }
                    queries.add(c);
                }
                if (v == 0) {
                    break;
                }
            }
        }
        double[] two = new double[k];
        two[3] = 1;
        two[12] = 1;
        queries.add(two);
        double[] random = new double[k];
        for (int x = 0; x < k; x++) {
            random[x] = rnd.nextGaussian();
        }
        queries.add(random);
        double[][] rows = new double[k][queries.size()];
        for (int x = 0; x < k; x++) {
            for (int q = 0; q < queries.size(); q++) {
                rows[x][q] = queries.get(q)[x];
            }
        }
        long n = 500;
        double[] batch = FrequencyOracleEstimator.of(o).queryVariances(n, f, io.privacygateway.mechanisms.linalg.PointSet.of(queries.size(), rows));
        for (int q = 0; q < queries.size(); q++) {
            double exact = exactVariance(o, f, queries.get(q), n);
            assertThat(batch[q]).as("query %d", q).isCloseTo(exact, org.assertj.core.data.Offset.offset(1e-15 + 1e-9
                    * exact));
        }
    }

    /**
     * The full histogram of 12 attributes as 12-way marginals (4,096 cells, 4,095 coefficients): the batch variances
     * finish (cell by cell the quadratic forms take 6.9·10¹⁰ terms and the planner, simulate and every window's
     * estimate hung; per marginal they take 1.7·10⁷) and agree with the per-value variances. The timeout only stops a
     * hang; it is about 100 times what the shortcut needs on a slow machine.
     */
    @Test
    @org.junit.jupiter.api.Timeout(120)
    void theFullTwelveAttributeHistogramIsAnsweredWithoutHanging() {
        FourierMarginals o = new FourierMarginals(12, 12, Epsilon.of(1));
        int k = o.domainSize();
        double[] f = new double[k];
        for (int x = 0; x < k; x++) {
            f[x] = (1 + (x % 7)) / (4.0 * k);
        }
        double total = java.util.Arrays.stream(f).sum();
        for (int x = 0; x < k; x++) {
            f[x] /= total;
        }
        double[][] rows = new double[k][k];
        for (int x = 0; x < k; x++) {
            rows[x][x] = 1;
        }
        double[] batch = FrequencyOracleEstimator.of(o).queryVariances(1000, f, io.privacygateway.mechanisms.linalg.PointSet.of(k, rows));
        double[] perValue = FrequencyOracleEstimator.of(o).variances(1000, f);
        for (int x = 0; x < k; x += 97) {
            assertThat(batch[x]).as("cell %d", x).isCloseTo(perValue[x], org.assertj.core.data.Offset.offset(1e-12
                    * perValue[x]));
        }
    }
}

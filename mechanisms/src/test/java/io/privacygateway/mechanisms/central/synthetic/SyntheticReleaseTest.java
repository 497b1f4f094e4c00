package io.privacygateway.mechanisms.central.synthetic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

/**
 * The utility claims: the LP's solution is a distribution whose tables are consistent and whose objective matches
 * an independent exact simplex solver; the certificate is a deterministic function of the private outputs; it
 * holds over many seeded trials (binomial test); the noise quantile bounds are correct.
 */
class SyntheticReleaseTest {

    private static CertifiedSyntheticData mechanism(MarginalLayout layout, NeighbourRelation rel, double eps,
            double confidence, long planned) {
        return CertifiedSyntheticData.of(new SyntheticParameters(layout, Epsilon.of(eps), rel, 1, NoiseBasis.IDENTITY,
                ConfidenceLevel.of(confidence), 4096, 256, planned));
    }

    /**
     * The LP's weights are on the simplex, the released records' tables are consistent (every table sums to N and
     * every two tables agree on the marginal of the attributes they share), and the LP's optimum equals the one of
     * an exact simplex solver (commons-math3) on the same LP to 1e-6, with the certified lower bound below it.
     */
    @Test
    void theLpSolutionIsAFeasibleConsistentOptimum() {
        for (int seed = 0; seed < 4; seed++) {
            MarginalLayout layout = MarginalLayout.of(5, 2 + seed % 2);
            int[] data = SyntheticFixtures.mixture(5, 400, seed);
            long[] c = SyntheticFixtures.counts(layout, data);
            SplittableRandom r = new SplittableRandom(seed);
            double[] u = new double[c.length];
            for (int i = 0; i < u.length; i++) {
                u[i] = c[i] / 400.0 + 0.05 * (r.nextDouble() - 0.5);
            }
            int[] cand = new int[32];
            for (int x = 0; x < 32; x++) {
                cand[x] = x;
            }
            MarginalLp lp = new MarginalLp(layout, cand);
            MarginalLp.Solution sol = lp.solve(u, null, 20_000, 1e-9);
            double sum = 0;
            for (double a : sol.alpha()) {
                assertThat(a).isGreaterThanOrEqualTo(0);
                sum += a;
            }
            assertThat(sum).isCloseTo(1, within(1e-12));
            double exact = exactOptimum(layout, u, cand);
            assertThat(sol.lowerBound()).isLessThanOrEqualTo(exact + 1e-9);
            assertThat(sol.objective()).isGreaterThanOrEqualTo(exact - 1e-9).isCloseTo(exact, within(1e-6));
        }
        // Consistency of released records (rounded to integers) on a real release.
        MarginalLayout layout = MarginalLayout.of(8, 3);
        CertifiedSyntheticData m = mechanism(layout, NeighbourRelation.ADD_REMOVE, 1, 0.95, 5000);
        int[] data = SyntheticFixtures.mixture(8, 5000, 9);
        SyntheticRelease rel = m.release(SyntheticFixtures.counts(layout, data), 5000, new SeededRandomBits(3));
        assertThat(rel.recordCount()).isEqualTo(4096);
        assertThat(Arrays.stream(rel.multiplicities()).sum()).isEqualTo(4096);
        assertConsistent(layout, layout.counts(rel.rows(), rel.multiplicities()), 4096);
    }

    /** Every table sums to N, and tables sharing s−1 attributes agree on their marginal over them. */
    static void assertConsistent(MarginalLayout layout, long[] t, long n) {
        int s = layout.way();
        int w = layout.cellsPerBlock();
        for (int b = 0; b < layout.blocks(); b++) {
            assertThat(Arrays.stream(t, b * w, (b + 1) * w).sum()).isEqualTo(n);
        }
        for (int a = 0; a < layout.blocks(); a++) {
            for (int b = a + 1; b < layout.blocks(); b++) {
                int[] sa = layout.subset(a);
                int[] sb = layout.subset(b);
                int shared = 0;
                for (int x : sa) {
                    for (int y : sb) {
                        if (x == y) {
                            shared |= 1 << x;
                        }
                    }
                }
                if (Integer.bitCount(shared) != s - 1) {
                    continue;
                }
                assertThat(project(layout, t, a, shared)).isEqualTo(project(layout, t, b, shared));
            }
        }
    }

    private static long[] project(MarginalLayout layout, long[] t, int block, int shared) {
        int s = layout.way();
        int[] attrs = layout.subset(block);
        long[] out = new long[1 << Integer.bitCount(shared)];
        for (int cell = 0; cell < (1 << s); cell++) {
            int key = 0;
            for (int i = 0; i < s; i++) {
                if (((shared >>> attrs[i]) & 1) == 1) {
                    key = (key << 1) | ((cell >>> (s - 1 - i)) & 1);
                }
            }
            out[key] += t[(block << s) + cell];
        }
        return out;
    }

    /** min t s.t. ½Σ_i e_bi <= t, −e <= u − Aα <= e, Σα = 1, α, e, t >= 0, by commons-math3's simplex. */
    private static double exactOptimum(MarginalLayout layout, double[] u, int[] cand) {
        int c = cand.length;
        int m = u.length;
        int w = layout.cellsPerBlock();
        int vars = c + m + 1; // α, e, t
        List<LinearConstraint> cons = new ArrayList<>();
        double[] sumA = new double[vars];
        for (int i = 0; i < c; i++) {
            sumA[i] = 1;
        }
        cons.add(new LinearConstraint(sumA, Relationship.EQ, 1));
        for (int b = 0; b < layout.blocks(); b++) {
            for (int cell = 0; cell < w; cell++) {
                int row = b * w + cell;
                double[] plus = new double[vars];
                double[] minus = new double[vars];
                for (int i = 0; i < c; i++) {
                    if (layout.cellOf(cand[i], b) == cell) {
                        plus[i] = 1;
                        minus[i] = -1;
                    }
                }
                plus[c + row] = 1; // Aα + e >= u
                minus[c + row] = 1; // −Aα + e >= −u
                cons.add(new LinearConstraint(plus, Relationship.GEQ, u[row]));
                cons.add(new LinearConstraint(minus, Relationship.GEQ, -u[row]));
            }
            double[] tb = new double[vars];
            for (int cell = 0; cell < w; cell++) {
                tb[c + b * w + cell] = 0.5;
            }
            tb[vars - 1] = -1;
            cons.add(new LinearConstraint(tb, Relationship.LEQ, 0));
        }
        double[] obj = new double[vars];
        obj[vars - 1] = 1;
        PointValuePair p = new SimplexSolver(1e-10, 10, 1e-14).optimize(new MaxIter(100_000),
                new LinearObjectiveFunction(obj, 0), new LinearConstraintSet(cons), GoalType.MINIMIZE,
                new NonNegativeConstraint(true));
        return p.getValue();
    }

    /**
     * The certificate and the records are deterministic functions of the private outputs: publishing the release's
     * {@link NoisyMarginals} again (from a fresh mechanism) gives the same records and certificate, and the
     * certificate recomputed from the private outputs and the released rows equals the published one.
     */
    @Test
    void theCertificateIsADeterministicFunctionOfTheNoisyOutputs() {
        for (NeighbourRelation rel : NeighbourRelation.values()) {
            MarginalLayout layout = MarginalLayout.of(9, 3);
            int[] data = SyntheticFixtures.mixture(9, 3000, 4);
            SyntheticRelease a = mechanism(layout, rel, 1, 0.95, 3000).release(SyntheticFixtures.counts(layout, data),
                    3000, new SeededRandomBits(8));
            CertifiedSyntheticData fresh = mechanism(layout, rel, 1, 0.95, 3000);
            SyntheticRelease b = fresh.publish(a.noisy());
            assertThat(b.rows()).isEqualTo(a.rows());
            assertThat(b.multiplicities()).isEqualTo(a.multiplicities());
            assertThat(b.certificate()).isEqualTo(a.certificate());
            assertThat(fresh.certificate(a.noisy(), a.rows(), a.multiplicities())).isEqualTo(a.certificate());
            // Different data with the same private outputs: the same release (publish never sees the data).
            assertThat(fresh.publish(new NoisyMarginals(a.noisy().releasedCount(), a.noisy().coefficients())))
                    .usingRecursiveComparison().isEqualTo(a);
        }
    }

    /**
     * The certificate holds: over T seeded releases (fresh data and noise each), the number of trials with
     * {@code U > certificate} is at most k, where k is the smallest count with
     * {@code P(Bin(T, β) > k) <= 1e-6} under the claim (failure probability at most β = 1 − confidence): the
     * false-failure probability of this test is at most 1e-6. Power: if the true failure rate were 4β, the test
     * would fail with probability above 0.99 (checked below). The confidence is lowered to 0.8 to make the test
     * sensitive; both neighbour relations, and both fits of the same private outputs.
     */
    @Test
    void theCertificateHoldsOverManySeededTrials() {
        int trials = 300;
        double beta = 0.2;
        BinomialDistribution h0 = BinomialDistribution.of(trials, beta);
        int k = 0;
        while (h0.survivalProbability(k) > 1e-6) {
            k++;
        }
        assertThat(BinomialDistribution.of(trials, 4 * beta).cumulativeProbability(k)).isLessThan(0.01);
        for (NeighbourRelation rel : NeighbourRelation.values()) {
            MarginalLayout layout = MarginalLayout.of(6, 3);
            CertifiedSyntheticData m = mechanism(layout, rel, 1, 1 - beta, 2000);
            int failures = 0;
            int failuresLs = 0;
            double worstFactor = Double.POSITIVE_INFINITY;
            for (int t = 0; t < trials; t++) {
                int n = 1500 + 10 * t;
                int[] data = SyntheticFixtures.mixture(6, n, 1000 + t);
                long[] truth = SyntheticFixtures.counts(layout, data);
                SyntheticRelease r = m.release(truth, n, new SeededRandomBits(77 + t));
                double loss = SyntheticFixtures.utilityLoss(layout, truth, n,
                        layout.counts(r.rows(), r.multiplicities()), r.recordCount());
                if (loss > r.certificate().value()) {
                    failures++;
                }
                worstFactor = Math.min(worstFactor, r.certificate().value() / loss);
                // The same private outputs, least-squares records: certified by the same lemma.
                SyntheticRelease ls = m.publish(r.noisy(), CertifiedSyntheticData.Fit.LEAST_SQUARES);
                if (SyntheticFixtures.utilityLoss(layout, truth, n, layout.counts(ls.rows(), ls.multiplicities()),
                        ls.recordCount()) > ls.certificate().value()) {
                    failuresLs++;
                }
            }
            assertThat(failures).as("failures of %s in %d trials (allowed %d)", rel, trials, k).isLessThanOrEqualTo(k);
            assertThat(failuresLs).as("least-squares failures of %s", rel).isLessThanOrEqualTo(k);
            assertThat(worstFactor).isGreaterThanOrEqualTo(1.0);
        }
    }

    /** The identity basis' tail is exact: it matches a direct convolution of the pmf of |ξ| for small scales. */
    @Test
    void identityNoiseTailMatchesADirectConvolution() {
        for (long[] scale : new long[][] {{3, 2}, {7, 1}, {25, 4}}) {
            DiscreteLaplace noise = DiscreteLaplace.withScale(scale[0], scale[1]);
            int m = 8;
            int max = 4000;
            double[] abs = new double[max];
            abs[0] = noise.pmf(0);
            for (int x = 1; x < max; x++) {
                abs[x] = 2 * noise.pmf(x);
            }
            double[] conv = {1};
            for (int i = 0; i < m; i++) {
                double[] next = new double[Math.min(max, conv.length + max - 1)];
                for (int a = 0; a < conv.length; a++) {
                    for (int b = 0; a + b < next.length && b < max; b++) {
                        next[a + b] += conv[a] * abs[b];
                    }
                }
                conv = next;
            }
            for (long x : new long[] {0, 5, 20, 60, 150}) {
                double tail = 0;
                for (int y = (int) x + 1; y < conv.length; y++) {
                    tail += conv[y];
                }
                assertThat(NoiseQuantile.sumAbsTail(m, noise, x)).isCloseTo(tail, within(1e-9 + 1e-7 * tail));
            }
        }
    }

    /**
     * Both quantile bounds are upper bounds: over 20,000 seeded draws of K = 10 tables, the empirical frequency of
     * {@code max_b ½‖Φξ_b‖₁ > z} is below β = 0.1 (binomial: under the claim the count exceeds its limit with
     * probability below 1e-6); the identity bound is also not loose (the frequency at 0.8·z exceeds β/10).
     */
    @Test
    void tableNoiseQuantilesBoundTheEmpiricalTail() {
        int draws = 20_000;
        double beta = 0.1;
        BinomialDistribution h0 = BinomialDistribution.of(draws, beta);
        int limit = 0;
        while (h0.survivalProbability(limit) > 1e-6) {
            limit++;
        }
        for (NoiseBasis basis : NoiseBasis.values()) {
            DiscreteLaplace noise = DiscreteLaplace.withScale(30, 1);
            int s = 3;
            int tables = 10;
            double z = NoiseQuantile.tableNoise(basis, s, tables, noise, beta);
            long[][] syn = basis.synthesis(s);
            SeededRandomBits bits = new SeededRandomBits(11);
            int above = 0;
            int aboveLower = 0;
            for (int i = 0; i < draws; i++) {
                double worst = 0;
                for (int b = 0; b < tables; b++) {
                    long[] xi = new long[8];
                    for (int j = 0; j < 8; j++) {
                        xi[j] = noise.sample(bits);
                    }
                    double l1 = 0;
                    for (int r = 0; r < 8; r++) {
                        long v = 0;
                        for (int j = 0; j < 8; j++) {
                            v += syn[r][j] * xi[j];
                        }
                        l1 += Math.abs(v / 8.0);
                    }
                    worst = Math.max(worst, 0.5 * l1);
                }
                above += worst > z ? 1 : 0;
                aboveLower += worst > 0.8 * z ? 1 : 0;
            }
            assertThat(above).as(basis.name()).isLessThanOrEqualTo(limit);
            if (basis == NoiseBasis.IDENTITY) {
                assertThat(aboveLower).isGreaterThan((int) (draws * beta / 10));
            }
        }
    }

    /** Under replace-one an empty window has nothing to protect: no records, cost 0, trivial certificate. */
    @Test
    void emptyWindows() {
        MarginalLayout layout = MarginalLayout.of(5, 3);
        SyntheticRelease none = mechanism(layout, NeighbourRelation.REPLACE_ONE, 1, 0.95, 100)
                .release(new long[layout.cells()], 0, new SeededRandomBits(1));
        assertThat(none.recordCount()).isZero();
        assertThat(none.cost().epsilon()).isZero();
        assertThat(none.certificate().value()).isEqualTo(1);
        CertifiedSyntheticData ar = mechanism(layout, NeighbourRelation.ADD_REMOVE, 1, 0.95, 100);
        SyntheticRelease noise = ar.release(new long[layout.cells()], 0, new SeededRandomBits(1));
        assertThat(noise.recordCount()).isEqualTo(4096);
        assertThat(noise.cost()).isEqualTo(ar.cost());
        assertThat(noise.delta()).isZero();
    }

    /** Systematic sampling gives exactly N records and each candidate ⌊Nα⌋ or ⌈Nα⌉. */
    @Test
    void systematicSamplingRoundsEveryWeight() {
        SplittableRandom r = new SplittableRandom(5);
        for (int rep = 0; rep < 50; rep++) {
            double[] alpha = new double[1 + r.nextInt(300)];
            double s = 0;
            for (int i = 0; i < alpha.length; i++) {
                alpha[i] = r.nextDouble() < 0.3 ? 0 : r.nextDouble();
                s += alpha[i];
            }
            if (s == 0) {
                continue;
            }
            for (int i = 0; i < alpha.length; i++) {
                alpha[i] /= s;
            }
            long n = 1 + r.nextInt(100_000);
            long[] c = CertifiedSyntheticData.systematicSample(alpha, n, r.nextDouble());
            assertThat(Arrays.stream(c).sum()).isEqualTo(n);
            for (int i = 0; i < alpha.length; i++) {
                assertThat((double) c[i]).isBetween(Math.floor(n * alpha[i] - 1e-6), Math.ceil(n * alpha[i] + 1e-6));
            }
        }
    }
}

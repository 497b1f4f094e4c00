package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.testing.OracleCatalogue;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exact ε-LDP checks: for small domains every payload byte string (valid or not) is enumerated under
 * several public bases, and {@code max_x P(y|x) <= L · min_x P(y|x)} is checked in exact rational
 * arithmetic against {@code L = ExpBounds.lowerBoundExact(ε, 40) <= e^ε}; {@code Σ_y P(y|x) = 1} exactly.
 * For large domains the analytically worst output is checked. Controls show that a probability rounded
 * the wrong way by one grid step fails the same check and provably exceeds {@code e^ε}.
 */
class FrequencyOraclePrivacyTest {
    private static final double[] EPSILONS = {1e-6, 0.05, 0.5, 1.0, Math.log(3), 2.5, 5.0};
    private static final double[] LARGE_EPSILONS = {10, 25, 40};

    private static long base(int i) {
        return SplitMix64.mix64(0xB45EL + i);
    }

    private static List<FrequencyOracle> smallOracles(int k, Epsilon e) {
        List<FrequencyOracle> out = new ArrayList<>(OracleCatalogue.every(k, e));
        if (e.value() > 5.5) { // OLH only while g <= 256: one-byte payloads
            out.removeIf(o -> o instanceof OptimizedLocalHashing);
        }
        return out;
    }

    /** Bases covering every tree level at least twice (and several OLH hash functions). */
    private static List<Long> bases(FrequencyOracle o) {
        List<Long> out = new ArrayList<>();
        if (o instanceof TreeMechanism t) {
            int[] seen = new int[t.height() + 1];
            for (int i = 0; out.size() < 64; i++) {
                long b = base(i);
                int l = t.levelOf(b);
                if (seen[l] < 2) {
                    seen[l]++;
                    out.add(b);
                }
                boolean all = true;
                for (int j = 1; j <= t.height(); j++) {
                    all &= seen[j] >= 2;
                }
                if (all) {
                    break;
                }
            }
        } else if (o instanceof OptimizedLocalHashing) {
            for (int i = 0; i < 6; i++) {
                out.add(base(i));
            }
        } else {
            out.add(base(0));
        }
        return out;
    }

    @Test
    void everyPayloadOfSmallDomainsRespectsTheRatioExactlyAndProbabilitiesSumToOne() {
        int checked = 0;
        for (int k = 2; k <= 8; k++) {
            for (double eps : EPSILONS) {
                Epsilon e = Epsilon.of(eps);
                for (FrequencyOracle o : smallOracles(k, e)) {
                    double worst = 0;
                    for (long b : bases(o)) {
                        PrivacyCheck.Result r = PrivacyCheck.exhaustive(o, b);
                        assertThat(r.ratioOk()).as("%s k=%d eps=%s base=%d worst=%s", o.id(), k, eps, b, r.worstRatio())
                                .isTrue();
                        assertThat(r.sumsToOne()).as("%s k=%d eps=%s sums to 1", o.id(), k, eps).isTrue();
                        worst = Math.max(worst, r.worstRatio());
                        checked++;
                    }
                    // the budget is used: the worst ratio is e^ε up to the grid (OLH and tree levels only
                    // reach it under a hash function that separates some pair of values)
                    assertThat(worst).as("%s k=%d eps=%s tight", o.id(), k, eps).isGreaterThan(Math.exp(eps) * (1 - 1e-9));
                }
            }
        }
        assertThat(checked).isGreaterThan(300);
    }

    @Test
    void largeEpsilonsOnSmallDomains() {
        for (int k : new int[] {2, 5, 8}) {
            for (double eps : LARGE_EPSILONS) {
                Epsilon e = Epsilon.of(eps);
                List<FrequencyOracle> os = List.of(new GeneralizedRandomizedResponse(k, e),
                        new OptimizedUnaryEncoding(k, e), new SubsetSelection(k, e), new HadamardResponse(k, e),
                        new TreeMechanism(k, e, 2));
                for (FrequencyOracle o : os) {
                    for (long b : bases(o)) {
                        PrivacyCheck.Result r = PrivacyCheck.exhaustive(o, b);
                        assertThat(r.ratioOk()).as("%s k=%d eps=%s", o.id(), k, eps).isTrue();
                        assertThat(r.sumsToOne()).as("%s k=%d eps=%s", o.id(), k, eps).isTrue();
                    }
                }
            }
        }
    }

    /** OLH with a two-byte range (g = round(e^8 + 1) = 2982): every payload, three hash functions. */
    @Test
    void olhWithTwoBytePayloads() {
        OptimizedLocalHashing o = new OptimizedLocalHashing(6, Epsilon.of(8));
        assertThat(o.range()).isEqualTo(2982);
        assertThat(o.payloadBytes()).isEqualTo(2);
        for (int i = 0; i < 3; i++) {
            PrivacyCheck.Result r = PrivacyCheck.exhaustive(o, base(i));
            assertThat(r.ratioOk()).isTrue();
            assertThat(r.sumsToOne()).isTrue();
        }
    }

    // ------------------------------------------------------------------ large domains, worst outputs

    private static void assertRatio(Rational hi, Rational lo, double eps, String what) {
        BigDecimal l = ExpBounds.lowerBoundExact(eps, 40);
        assertThat(hi.ratioAtMost(lo, l)).as("%s: P(y|x)/P(y|x') <= e^eps", what).isTrue();
        assertThat(lo.ratioAtMost(hi, l)).as("%s: reverse", what).isTrue();
        // tight up to the 2^-53 grid: at eps > 10 the smaller probability has few grid steps (k·2^53/e^eps),
        // and beyond e^eps ≈ 2^53 (eps ≈ 36.7) OUE's q = 2^-53 caps the realised ratio below e^eps
        if (eps <= 25) {
            double slack = eps <= 10 ? 1e-9 : 0.05;
            assertThat(hi.doubleValue() / lo.doubleValue()).as("%s tight", what)
                    .isGreaterThan(Math.exp(eps) * (1 - slack));
        }
    }

    @Test
    void worstOutputsOfLargeDomains() {
        for (int k : new int[] {256, 1000}) {
            for (double eps : new double[] {0.1, 1, 4, 10, 40}) {
                Epsilon e = Epsilon.of(eps);
                int x = k / 3;
                int x2 = k - 1;
                String tag = "k=" + k + " eps=" + eps;

                GeneralizedRandomizedResponse grr = new GeneralizedRandomizedResponse(k, e);
                byte[] y = IndexCodec.encode(x, grr.payloadBytes());
                assertRatio(grr.outputProbability(x, y, 0), grr.outputProbability(x2, y, 0), eps, "GRR " + tag);

                OptimizedUnaryEncoding oue = new OptimizedUnaryEncoding(k, e);
                byte[] bits = new byte[oue.payloadBytes()];
                bits[x >>> 3] |= (byte) (1 << (x & 7)); // 1 at x, 0 at x' (and everywhere else)
                assertRatio(oue.outputProbability(x, bits, 0), oue.outputProbability(x2, bits, 0), eps, "OUE " + tag);
                bits[3] |= 1; // another 1 elsewhere does not change the ratio
                assertRatio(oue.outputProbability(x, bits, 0), oue.outputProbability(x2, bits, 0), eps, "OUE' " + tag);

                SubsetSelection ss = new SubsetSelection(k, e);
                byte[] set = new byte[ss.payloadBytes()];
                set[x >>> 3] |= (byte) (1 << (x & 7));
                for (int j = 0, added = 1; added < ss.subsetSize(); j++) {
                    if (j != x && j != x2) {
                        set[j >>> 3] |= (byte) (1 << (j & 7));
                        added++;
                    }
                }
                assertRatio(ss.outputProbability(x, set, 0), ss.outputProbability(x2, set, 0), eps, "SS " + tag);

                HadamardResponse hr = new HadamardResponse(k, e);
                int j = 0;
                while (!(HadamardResponse.inSet(x, j) && !HadamardResponse.inSet(x2, j))) {
                    j++;
                }
                byte[] hy = IndexCodec.encode(j, hr.payloadBytes());
                assertRatio(hr.outputProbability(x, hy, 0), hr.outputProbability(x2, hy, 0), eps, "HR " + tag);

                OptimizedLocalHashing olh = new OptimizedLocalHashing(k, e);
                int i = 0;
                long b;
                do {
                    b = base(i++);
                } while (olh.hash(olh.hashKey(b), x) == olh.hash(olh.hashKey(b), x2));
                byte[] oy = IndexCodec.encode(olh.hash(olh.hashKey(b), x), olh.payloadBytes());
                assertRatio(olh.outputProbability(x, oy, b), olh.outputProbability(x2, oy, b), eps, "OLH " + tag);

                TreeMechanism tree = new TreeMechanism(k, e, 4);
                boolean[] seen = new boolean[tree.height() + 1];
                for (int t = 0, found = 0; found < tree.height(); t++) {
                    long tb = base(1000 + t);
                    int l = tree.levelOf(tb);
                    // the ancestors of x = k/3 and x2 = k−1 differ on every level; under OLH their hashes
                    // must differ too for the pair to be distinguishable
                    int ax = tree.ancestor(x, l);
                    int ax2 = tree.ancestor(x2, l);
                    int yx = ax;
                    if (tree.levelOracle(l) instanceof OptimizedLocalHashing lo) {
                        yx = lo.hash(lo.hashKey(tb), ax);
                        if (yx == lo.hash(lo.hashKey(tb), ax2)) {
                            continue;
                        }
                    }
                    if (seen[l]) {
                        continue;
                    }
                    seen[l] = true;
                    found++;
                    byte[] ty = IndexCodec.encode(yx, tree.payloadBytes());
                    assertRatio(tree.outputProbability(x, ty, tb), tree.outputProbability(x2, ty, tb), eps,
                            "tree level " + l + " " + tree.levelMechanism(l) + " " + tag);
                }
            }
        }
    }

    // ------------------------------------------------------------------ controls

    /**
     * Control: GRR whose keep probability is one grid step above the certified one (i.e. rounded up)
     * violates e^ε, and the exhaustive check detects it; the certifying constructor refuses it.
     */
    @Test
    void controlGrrRoundedTheWrongWayFails() {
        Epsilon e = Epsilon.of(1.0);
        int k = 4;
        GeneralizedRandomizedResponse good = new GeneralizedRandomizedResponse(k, e);
        long n = good.keepProbability().numerator();
        GeneralizedRandomizedResponse bad = new GeneralizedRandomizedResponse(k, e, n + 1, false);
        PrivacyCheck.Result r = PrivacyCheck.exhaustive(bad, 0);
        assertThat(r.ratioOk()).isFalse();
        assertThat(r.sumsToOne()).isTrue();
        // and the ratio really exceeds e^1, against an exact upper bound of e
        Rational p = Rational.dyadic(n + 1);
        Rational q = Rational.dyadic(DyadicProbabilityOne() - n - 1).divide(k - 1);
        BigDecimal upper = PrivacyCheck.expUpperUnit(1.0);
        assertThat(p.ratioAtMost(q, upper)).as("mis-rounded ratio exceeds e").isFalse();
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(k, e, n + 1, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epsilon=1.0");
        // whereas the certified numerator passes and is the largest that does
        assertThat(PrivacyCheck.exhaustive(good, 0).ratioOk()).isTrue();
    }

    /** Control: OUE with q one grid step below the certified value (rounded down) violates e^ε. */
    @Test
    void controlOueRoundedTheWrongWayFails() {
        Epsilon e = Epsilon.of(1.0);
        int k = 3;
        OptimizedUnaryEncoding good = new OptimizedUnaryEncoding(k, e);
        long m = good.flipProbability().numerator();
        OptimizedUnaryEncoding bad = new OptimizedUnaryEncoding(k, e, m - 1, false);
        assertThat(PrivacyCheck.exhaustive(bad, 0).ratioOk()).isFalse();
        Rational oneMinusQ = Rational.dyadic(DyadicProbabilityOne() - m + 1);
        Rational q = Rational.dyadic(m - 1);
        assertThat(oneMinusQ.ratioAtMost(q, PrivacyCheck.expUpperUnit(1.0))).isFalse();
        assertThatThrownBy(() -> new OptimizedUnaryEncoding(k, e, m - 1, true)).hasMessageContaining("epsilon=1.0");
        assertThat(PrivacyCheck.exhaustive(good, 0).ratioOk()).isTrue();
    }

    /** Control: naive double rounding of the ideal GRR probability (to nearest) breaks the bound for some ε. */
    @Test
    void controlNaiveRoundingToNearestFailsForSomeEpsilon() {
        int failures = 0;
        for (int i = 1; i <= 200; i++) {
            double eps = i / 200.0; // in (0, 1] so that the exact upper bound of e^eps applies
            int k = 5;
            double ideal = Math.exp(eps) / (Math.exp(eps) + k - 1);
            long nearest = Math.round(ideal * DyadicProbabilityOne());
            Rational p = Rational.dyadic(nearest);
            Rational q = Rational.dyadic(DyadicProbabilityOne() - nearest).divide(k - 1);
            if (!p.ratioAtMost(q, PrivacyCheck.expUpperUnit(eps))) {
                failures++;
                GeneralizedRandomizedResponse bad = new GeneralizedRandomizedResponse(k, Epsilon.of(eps), nearest, false);
                assertThat(PrivacyCheck.exhaustive(bad, 0).ratioOk()).isFalse();
            }
            // the certified construction never fails
            assertThat(PrivacyCheck.exhaustive(new GeneralizedRandomizedResponse(k, Epsilon.of(eps)), 0).ratioOk())
                    .isTrue();
        }
        assertThat(failures).as("nearest rounding exceeds e^eps for some eps").isGreaterThan(0);
    }

    /** An ε below the grid's resolution either breaks the reverse ratio or leaves p* = q*: rejected. */
    @Test
    void epsilonBelowTheGridIsRejected() {
        Epsilon tiny = Epsilon.of(1e-17);
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(3, tiny))
                .hasMessageContaining("epsilon=" + tiny.value()).hasMessageContaining("domainSize=3");
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(4, tiny)).hasMessageContaining("epsilon=" + tiny.value());
        assertThatThrownBy(() -> new OptimizedUnaryEncoding(4, tiny)).hasMessageContaining("epsilon=" + tiny.value());
        assertThatThrownBy(() -> new OptimizedLocalHashing(4, tiny)).hasMessageContaining("epsilon=" + tiny.value());
        assertThatThrownBy(() -> new HadamardResponse(4, tiny)).hasMessageContaining("epsilon=" + tiny.value());
        assertThatThrownBy(() -> new SubsetSelection(4, tiny, 2)).hasMessageContaining("epsilon=" + tiny.value());
        assertThatThrownBy(() -> new TreeMechanism(16, tiny, 4)).hasMessageContaining("epsilon=" + tiny.value());
        // 1e-12 is fine everywhere
        for (MechanismId id : FrequencyOracles.SUPPORTED) {
            for (double v : FrequencyOracleEstimator.of(FrequencyOracles.create(id, 16, Epsilon.of(1e-12))).variances(100, FrequencyOracles.uniform(16))) {
                assertThat(v).as("%s", id).isFinite().isPositive();
            }
        }
    }

    private static long DyadicProbabilityOne() {
        return io.privacygateway.mechanisms.random.DyadicProbability.ONE;
    }
}

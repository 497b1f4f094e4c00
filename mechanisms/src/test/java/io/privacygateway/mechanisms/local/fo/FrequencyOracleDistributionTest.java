package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.random.Rational;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

/**
 * The samplers realise the distributions that the exact privacy checks are run on: for each oracle and a
 * few inputs and public bases, 20,000 seeded draws are compared with {@code outputProbability} by a
 * chi-square goodness-of-fit test. There are 23 such tests (6 oracles × 3 inputs/bases, the tree's 3
 * levels, the level choice, the hash collision rate); each fails by chance with probability {@code 1e-8},
 * so the whole class fails by chance with probability below {@code 1e-6} (seeded, so reproducible). Outputs of probability 0
 * must never occur.
 */
class FrequencyOracleDistributionTest {
    private static final double ALPHA = 1e-8;
    private static final int DRAWS = 20_000;

    private static void assertMatches(FrequencyOracle o, int value, long base, RandomBits secret) {
        byte[][] payloads = PrivacyCheck.allPayloads(o);
        int len = o.payloadBytes();
        long[] observed = new long[payloads.length];
        for (int i = 0; i < DRAWS; i++) {
            byte[] y = o.randomize(value, base, secret);
            assertThat(y).hasSize(len);
            int idx = 0;
            for (byte b : y) {
                idx = (idx << 8) | (b & 0xFF);
            }
            observed[idx]++;
        }
        List<Double> expected = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (int idx = 0; idx < payloads.length; idx++) {
            Rational p = o.outputProbability(value, payloads[idx], base);
            if (p.isZero()) {
                assertThat(observed[idx]).as("%s: impossible payload %d drawn", o.id(), idx).isZero();
            } else {
                expected.add(p.doubleValue() * DRAWS);
                counts.add(observed[idx]);
            }
        }
        if (expected.size() < 2) {
            return;
        }
        double p = ChiSquareTest.withDefaults().test(expected.stream().mapToDouble(Double::doubleValue).toArray(),
                counts.stream().mapToLong(Long::longValue).toArray()).getPValue();
        assertThat(p).as("%s value=%d base=%d", o.id(), value, base).isGreaterThan(ALPHA);
    }

    @Test
    void samplersMatchTheirExactDistributions() {
        RandomBits secret = new SeededRandomBits(11);
        Epsilon e = Epsilon.of(1.0);
        List<FrequencyOracle> oracles = List.of(new GeneralizedRandomizedResponse(6, e),
                new OptimizedUnaryEncoding(5, e), new SubsetSelection(6, e, 2), new SubsetSelection(7, Epsilon.of(0.3)),
                new HadamardResponse(6, e), new OptimizedLocalHashing(7, Epsilon.of(2.0)));
        for (FrequencyOracle o : oracles) {
            for (int t = 0; t < 3; t++) {
                int value = (t * 2 + 1) % o.domainSize();
                assertMatches(o, value, SplitMix64.mix64(77 + t), secret);
            }
        }
    }

    @Test
    void treeSamplerMatchesOnEveryLevel() {
        RandomBits secret = new SeededRandomBits(12);
        TreeMechanism tree = new TreeMechanism(20, Epsilon.of(1.5), 3);
        assertThat(tree.height()).isEqualTo(3);
        boolean[] seen = new boolean[tree.height() + 1];
        for (int i = 0; i < 100; i++) {
            long b = SplitMix64.mix64(500 + i);
            int l = tree.levelOf(b);
            if (!seen[l]) {
                seen[l] = true;
                assertMatches(tree, 13, b, secret);
            }
        }
        for (int l = 1; l <= tree.height(); l++) {
            assertThat(seen[l]).isTrue();
        }
    }

    /** The level chosen by public coins is uniform over the h levels (over report bases). */
    @Test
    void treeLevelsAreUniformOverBases() {
        TreeMechanism tree = new TreeMechanism(100, Epsilon.of(1.0), 3); // h = 5
        long[] counts = new long[tree.height()];
        RandomBits bases = new SeededRandomBits(13);
        for (int i = 0; i < 50_000; i++) {
            counts[tree.levelOf(bases.nextLong()) - 1]++;
        }
        assertThat(ChiSquareTest.withDefaults().test(counts).getPValue()).isGreaterThan(ALPHA);
    }

    /** OLH's hash is the documented one: the first uniformInt(g) of SplitMix64(streamSeed(key, x)). */
    @Test
    void olhHashIsTheSpecifiedFunction() {
        OptimizedLocalHashing o = new OptimizedLocalHashing(50, Epsilon.of(3.0));
        RandomBits keys = new SeededRandomBits(14);
        for (int i = 0; i < 200; i++) {
            long key = keys.nextLong();
            for (int x = 0; x < 50; x++) {
                int spec = ExactSampler.uniformInt(
                        new SplitMix64(io.privacygateway.mechanisms.coins.PublicCoins.streamSeed(key, x)), o.range());
                assertThat(o.hash(key, x)).isEqualTo(spec);
            }
        }
        long base = 123;
        assertThat(o.hashKey(base)).isEqualTo(io.privacygateway.mechanisms.coins.PublicCoins
                .stream(base, io.privacygateway.mechanisms.coins.PublicCoins.Stream.OLH_HASH).nextLong());
    }

    /** Pairs of distinct values collide under the hash with frequency 1/g (over keys). */
    @Test
    void olhHashCollidesWithProbabilityOneOverG() {
        OptimizedLocalHashing o = new OptimizedLocalHashing(10, Epsilon.of(1.0)); // g = 4
        RandomBits keys = new SeededRandomBits(15);
        long[] counts = new long[2];
        int trials = 40_000;
        for (int i = 0; i < trials; i++) {
            long key = keys.nextLong();
            counts[o.hash(key, 3) == o.hash(key, 7) ? 0 : 1]++;
        }
        double g = o.range();
        double p = ChiSquareTest.withDefaults().test(new double[] {trials / g, trials * (1 - 1 / g)}, counts)
                .getPValue();
        assertThat(p).isGreaterThan(ALPHA);
    }
}

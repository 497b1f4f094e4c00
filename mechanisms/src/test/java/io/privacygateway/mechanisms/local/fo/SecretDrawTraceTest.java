package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.testing.OracleCatalogue;
import io.privacygateway.mechanisms.random.RecordingDraws;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The device's secret draws do not depend on its value or on earlier secret outcomes: for every oracle,
 * every value of small domains, several public bases (every tree level, several OLH hash functions) and
 * 200 seeded secret streams, the recorded sequence of draws of {@code randomize} (each call's kind and all
 * its parameters: the Bernoulli numerator and grid, the {@code n} of {@code uniformInt}) is one and the
 * same. The streams make every coin come out both ways (checked), so a draw made only on one branch of an
 * earlier coin would show up. Deterministic (seeded); no statistics.
 */
class SecretDrawTraceTest {
    private static final int STREAMS = 200;

    static List<FrequencyOracle> oracles(int k, Epsilon e) {
        return OracleCatalogue.every(k, e);
    }

    /** Bases covering every level of a tree (and a few hash functions for OLH). */
    static List<Long> bases(FrequencyOracle o) {
        List<Long> out = new ArrayList<>();
        if (o instanceof TreeMechanism t) {
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; seen.size() < t.height() && i < 10_000; i++) {
                long b = SplitMix64.mix64(0x7EE + i);
                if (seen.add(t.levelOf(b))) {
                    out.add(b);
                }
            }
            assertThat(seen).hasSize(t.height());
        } else {
            for (int i = 0; i < 3; i++) {
                out.add(SplitMix64.mix64(0xBA5E + i));
            }
        }
        return out;
    }

    /** The distinct traces of {@code randomize} over every value and {@code STREAMS} seeded streams. */
    static Set<List<Object>> traces(FrequencyOracle o, long base, boolean costOnly, Set<Object> firstOutcomes) {
        Set<List<Object>> distinct = new LinkedHashSet<>();
        for (int seed = 0; seed < STREAMS; seed++) {
            for (int x = 0; x < o.domainSize(); x++) {
                RecordingDraws r = RecordingDraws.seeded(seed);
                o.randomize(x, base, r);
                distinct.add(costOnly ? r.costTrace() : r.trace());
                if (!r.outcomes().isEmpty()) {
                    firstOutcomes.add(r.outcomes().get(0));
                }
            }
        }
        return distinct;
    }

    @Test
    void everyOracleMakesTheSameDrawsForEveryValueAndEveryOutcome() {
        Set<String> failing = new LinkedHashSet<>();
        for (int k = 2; k <= 6; k++) {
            for (double eps : new double[] {0.5, 1.0, 2.5}) {
                for (FrequencyOracle o : oracles(k, Epsilon.of(eps))) {
                    for (long base : bases(o)) {
                        Set<Object> first = new HashSet<>();
                        Set<List<Object>> t = traces(o, base, false, first);
                        if (t.size() != 1) {
                            failing.add(o.id() + (o instanceof SubsetSelection ss ? " d=" + ss.subsetSize() : ""));
                            continue;
                        }
                        assertThat(t.iterator().next()).as("%s draws something", o.id()).isNotEmpty();
                        if (!(o instanceof HadamardResponse)) { // Hadamard draws its uniform first
                            assertThat(first).as("%s k=%d eps=%s: the first coin came out both ways", o.id(), k, eps)
                                    .containsExactlyInAnyOrder(true, false);
                        }
                    }
                }
            }
        }
        assertThat(failing).as("randomizers whose draws depend on the value or on earlier outcomes").isEmpty();
    }

    /** A large domain: GRR, OLH and subset selection at the defaults of k = 1000. */
    @Test
    void largeDomainsToo() {
        int k = 1000;
        Epsilon e = Epsilon.of(1.0);
        Set<String> failing = new LinkedHashSet<>();
        for (FrequencyOracle o : List.of(new GeneralizedRandomizedResponse(k, e), new OptimizedLocalHashing(k, e),
                new SubsetSelection(k, e), new TreeMechanism(k, e, 4), new HadamardResponse(k, e))) {
            long base = SplitMix64.mix64(k);
            Set<List<Object>> distinct = new LinkedHashSet<>();
            for (int seed = 0; seed < 50; seed++) {
                for (int x : new int[] {0, 1, 499, 998, 999}) {
                    RecordingDraws r = RecordingDraws.seeded(seed);
                    o.randomize(x, base, r);
                    distinct.add(r.trace());
                }
            }
            if (distinct.size() != 1) {
                failing.add(o.id().wireName());
            }
        }
        assertThat(failing).isEmpty();
    }
}

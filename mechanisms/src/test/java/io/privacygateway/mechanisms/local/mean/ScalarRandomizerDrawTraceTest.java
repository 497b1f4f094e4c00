package io.privacygateway.mechanisms.local.mean;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RecordingDraws;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The mean randomizers' secret draws do not depend on the value or on earlier outcomes: over every level of
 * small grids (and spread levels of the production grid) and 200 seeded streams, the sequence of calls with
 * Bernoulli numerators dropped ({@link RecordingDraws#costTrace()}: kind, grid, {@code n}) is one and the same.
 * The numerators may depend on the value ({@code SecretDraws}: a Bernoulli's cost does not depend on it); every
 * coin is checked to come out both ways, so a draw made on one branch only would show.
 */
class ScalarRandomizerDrawTraceTest {
    @Test
    void sameCallsForEveryValueAndEveryOutcome() {
        for (double eps : new double[] {0.3, 1.0, 4.0}) {
            Epsilon e = Epsilon.of(eps);
            for (int levels : new int[] {2, 9, 1025}) {
                for (ScalarRandomizer r : List.of(new DuchiScalar(levels, e), new PiecewiseScalar(levels, e, 16),
                        new PiecewiseScalar(levels, e), new HybridScalar(levels, e))) {
                    Set<List<Object>> traces = new LinkedHashSet<>();
                    java.util.Map<Integer, Set<Object>> outcomes = new java.util.HashMap<>();
                    java.util.Map<Integer, Set<Long>> numerators = new java.util.HashMap<>();
                    for (int seed = 0; seed < 200; seed++) {
                        for (int x = 0; x < levels; x += Math.max(1, levels / 20)) {
                            RecordingDraws d = RecordingDraws.seeded(seed * 7919L + x);
                            r.randomize(x, d);
                            traces.add(d.costTrace());
                            for (int i = 0; i < d.outcomes().size(); i++) {
                                outcomes.computeIfAbsent(i, k -> new HashSet<>()).add(d.outcomes().get(i));
                                if (d.trace().get(i) instanceof RecordingDraws.Draw draw && draw.kind().equals("bernoulli")) {
                                    numerators.computeIfAbsent(i, k -> new HashSet<>()).add(draw.parameter());
                                }
                            }
                        }
                    }
                    assertThat(traces).as("%s ε=%s levels=%d", r.id(), eps, levels).hasSize(1);
                    for (var en : numerators.entrySet()) { // every coin that can fall both ways did
                        boolean degenerate = en.getValue().stream().allMatch(n -> n == 0 || n == 1L << 53);
                        if (!degenerate) {
                            assertThat(outcomes.get(en.getKey())).as("%s ε=%s levels=%d coin %d both ways", r.id(),
                                    eps, levels, en.getKey()).containsExactlyInAnyOrder(true, false);
                        }
                    }
                    assertThat(numerators.values().stream().filter(v -> v.stream().anyMatch(n -> n > 0 && n < 1L << 53))
                            .count()).as("%s: some coin is random", r.id()).isPositive();
                }
            }
        }
    }
}

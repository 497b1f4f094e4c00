package io.privacygateway.mechanisms.nets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.errors.GaussianWidth;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Chaining protocol version 2's split (docs/wire-format.md §3.1): widths from the public generator, fdlibm exp/log
 * only; version 1 unchanged.
 */
class LevelEpsilonSplitVersionTest {
    @Test
    void versionTwoFunctionsAgreeWithStrictMathToRounding() {
        for (double x : new double[] {1e-6, 0.01, 0.5, 1, 2, 8, 30}) {
            assertThat(LevelEpsilonSplit.tanhHalf(x, 2)).isCloseTo(StrictMath.tanh(x / 2),
                    within(1e-9 * StrictMath.tanh(x / 2)));
            assertThat(LevelEpsilonSplit.log1p(x, 2)).isCloseTo(StrictMath.log1p(x), within(1e-9 * StrictMath.log1p(x)));
            assertThat(LevelEpsilonSplit.cbrt(x, 2)).isCloseTo(StrictMath.cbrt(x), within(1e-14 * StrictMath.cbrt(x)));
        }
        assertThat(LevelEpsilonSplit.tanhHalf(1, 1)).isEqualTo(StrictMath.tanh(0.5));
    }

    @Test
    void publicWidthIsDeterministicAndEstimatesTheSameWidth() {
        PointSet simplex = PointSet.of(4, new double[][] {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
        double w = LevelEpsilonSplit.publicWidth(simplex);
        assertThat(LevelEpsilonSplit.publicWidth(simplex)).isEqualTo(w);
        // E max of 4 standard normals = 1.0293...; both estimates have standard error about 0.04
        assertThat(w).isCloseTo(1.0294, within(0.2));
        assertThat(w).isCloseTo(GaussianWidth.of(simplex).mean(), within(0.3));
    }

    @Test
    void versionOneSplitIsUnchangedAndVersionTwoIsClose() {
        List<LevelEpsilonSplit.Level> levels = List.of(new LevelEpsilonSplit.Level(2.6, 1.27),
                new LevelEpsilonSplit.Level(1.0, 1.08), new LevelEpsilonSplit.Level(0.5, 0.9));
        Epsilon two = Epsilon.exactly(new java.math.BigDecimal("2"));
        double[] v1 = LevelEpsilonSplit.optimal(levels, 7, 10_000, two).epsilons();
        assertThat(LevelEpsilonSplit.optimal(levels, 7, 10_000, two, 1).epsilons()).containsExactly(v1);
        double[] v2 = LevelEpsilonSplit.optimal(levels, 7, 10_000, two, 2).epsilons();
        for (int j = 0; j < v1.length; j++) {
            assertThat(v2[j]).isCloseTo(v1[j], within(1e-9));
        }
    }
}

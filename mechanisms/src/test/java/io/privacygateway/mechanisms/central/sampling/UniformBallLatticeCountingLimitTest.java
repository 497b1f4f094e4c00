package io.privacygateway.mechanisms.central.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The l2 ball's counting limit exactly at its edge (an input there would take seconds to count, so the rule is tested alone). */
class UniformBallLatticeCountingLimitTest {

    /** d·M·(√M+1) = 625000·16·5 = 5·10^7 exactly is inside the limit; one more dimension is outside. */
    @Test
    void theLimitItselfIsCounted() {
        assertThat(UniformBallLattice.l2SizeWithinLimit(625_000, 16)).isTrue();
        assertThat(UniformBallLattice.l2SizeWithinLimit(625_001, 16)).isFalse();
        assertThat(UniformBallLattice.l2SizeWithinLimit(1, 1)).isTrue();
    }

    /** Beyond the limit size() refuses with the dimension and the bound in the message. */
    @Test
    void beyondTheLimitSizeIsRefusedNamingTheInput() {
        assertThatThrownBy(() -> UniformBallLattice.of(LqNorm.L2, 625_001, 16).size())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("d=625001").hasMessageContaining("M=16");
    }
}

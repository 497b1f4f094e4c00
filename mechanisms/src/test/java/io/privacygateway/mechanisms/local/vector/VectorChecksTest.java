package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The parameter-choice margin that keeps a device and the gateway on the same choice across JVMs. */
class VectorChecksTest {

    @Test
    void aLaterChoiceReplacesTheBestOnlyWhenClearlyBetter() {
        double best = 10.0;
        assertThat(VectorChecks.clearlyBelow(Math.nextDown(best), best)).as("an ulp below: a near-tie").isFalse();
        assertThat(VectorChecks.clearlyBelow(best * (1 - 0.5e-9), best)).as("within the margin").isFalse();
        assertThat(VectorChecks.clearlyBelow(best, best)).as("equal").isFalse();
        assertThat(VectorChecks.clearlyBelow(best * (1 - 2e-9), best)).as("beyond the margin").isTrue();
        assertThat(VectorChecks.clearlyBelow(9.0, Double.POSITIVE_INFINITY)).as("the first finite choice").isTrue();
    }
}

package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link Grid}'s certified rounding at its edges: the argument guards (zero terms are allowed, negative
 * ones and two zeros are not), the end points {@code 0} and {@code 2^53}, ties where {@code N·b = a(2^53 − N)}
 * holds with equality, and the largest numerator checked against {@code ⌊2^53·a/(a+b)⌋} computed here with
 * integers.
 */
class GridEndsTiesAndLargestNumeratorTest {
    private static final long ONE = 1L << 53;

    /** {@code ⌊2^53·a/(a+b)⌋} for integer {@code a, b}, in exact integer arithmetic. */
    private static long floorQuotient(long a, long b) {
        return BigInteger.valueOf(ONE).multiply(BigInteger.valueOf(a))
                .divide(BigInteger.valueOf(a).add(BigInteger.valueOf(b))).longValueExact();
    }

    /** A zero term is allowed: a = 0 gives N = 0, b = 0 gives N = 2^53 (the whole grid). */
    @Test
    void zeroTermsGiveTheEndsOfTheGrid() {
        assertThat(Grid.largestWithRatio(BigDecimal.ZERO, BigDecimal.ONE)).isZero();
        assertThat(Grid.largestWithRatio(BigDecimal.ONE, BigDecimal.ZERO)).isEqualTo(ONE);
        assertThat(Grid.largestWithRatio(new BigDecimal("0.000001"), BigDecimal.ZERO)).isEqualTo(ONE);
    }

    /** Negative terms and two zeros are refused with the offending values in the message. */
    @Test
    void negativeTermsAndTwoZerosAreRefused() {
        assertThatThrownBy(() -> Grid.largestWithRatio(BigDecimal.valueOf(-1), BigDecimal.ONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got -1, 1");
        assertThatThrownBy(() -> Grid.largestWithRatio(BigDecimal.ONE, BigDecimal.valueOf(-2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 1, -2");
        assertThatThrownBy(() -> Grid.largestWithRatio(BigDecimal.ZERO, BigDecimal.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both 0");
    }

    /**
     * a = b: N = 2^52 satisfies the inequality with equality (2^52·1 = 1·2^52) and is the answer; a = 1,
     * b = 3: 2^51 with equality; a = 3, b = 1: 3·2^51 with equality.
     */
    @Test
    void exactTiesAreIncluded() {
        assertThat(Grid.holds(ONE / 2, BigDecimal.ONE, BigDecimal.ONE)).isTrue();
        assertThat(Grid.holds(ONE / 2 + 1, BigDecimal.ONE, BigDecimal.ONE)).isFalse();
        assertThat(Grid.largestWithRatio(BigDecimal.ONE, BigDecimal.ONE)).isEqualTo(ONE / 2);
        assertThat(Grid.largestWithRatio(BigDecimal.ONE, BigDecimal.valueOf(3))).isEqualTo(ONE / 4);
        assertThat(Grid.largestWithRatio(BigDecimal.valueOf(3), BigDecimal.ONE)).isEqualTo(3 * (ONE / 4));
        assertThat(Grid.ratioAtMost(BigInteger.valueOf(6), BigInteger.valueOf(2), BigDecimal.valueOf(3))).isTrue();
        assertThat(Grid.ratioAtMost(BigInteger.valueOf(7), BigInteger.valueOf(2), BigDecimal.valueOf(3))).isFalse();
    }

    /** Non-terminating quotients: the answer is ⌊2^53·a/(a+b)⌋ exactly, and one more grid step fails. */
    @Test
    void theLargestNumeratorIsTheFloorOfTheQuotient() {
        long[][] cases = {{2, 1}, {1, 2}, {1, 6}, {7, 5}, {1, 1_000_000_007L}, {1_000_000_007L, 1}, {5, 16_777_215}};
        for (long[] c : cases) {
            BigDecimal a = BigDecimal.valueOf(c[0]);
            BigDecimal b = BigDecimal.valueOf(c[1]);
            long expected = floorQuotient(c[0], c[1]);
            assertThat(Grid.largestWithRatio(a, b)).as("a=%d b=%d", c[0], c[1]).isEqualTo(expected);
            assertThat(Grid.holds(expected, a, b)).isTrue();
            assertThat(Grid.holds(expected + 1, a, b)).isFalse();
        }
    }

    /** The helpers: bd is the exact decimal of a long; ONE is 2^53. */
    @Test
    void theUnitIsTwoToThe53AndBdIsTheExactDecimal() {
        assertThat(Grid.ONE).isEqualTo(ONE);
        assertThat(Grid.bd(Long.MAX_VALUE)).isEqualTo(new BigDecimal("9223372036854775807"));
        assertThat(Grid.ONE_BD).isEqualTo(new BigDecimal(ONE));
    }
}

package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.workload.MechanismId;
import org.junit.jupiter.api.Test;

/**
 * OLH's hash at the exact boundary of Lemire's rejection: hash keys are built by inverting SplitMix64's
 * finaliser so that the first word of the hash stream is a chosen one, and the expected index is worked
 * out by hand from that word ({@code h = ⌊w·g / 2^32⌋} of its top half {@code w}, accepted iff
 * {@code w·g mod 2^32 >= 2^32 mod g}).
 */
class OptimizedLocalHashingWordToIndexTest {
    private static final long C1 = 0xBF58476D1CE4E5B9L;
    private static final long C2 = 0x94D049BB133111EBL;

    /** The inverse of an odd number modulo 2^64 (Newton's iteration). */
    private static long inverse(long c) {
        long x = c;
        for (int i = 0; i < 6; i++) {
            x *= 2 - c * x;
        }
        return x;
    }

    /** The inverse of {@link SplitMix64#mix64}. */
    static long unmix(long z) {
        z = z ^ (z >>> 31) ^ (z >>> 62);
        z *= inverse(C2);
        z = z ^ (z >>> 27) ^ (z >>> 54);
        z *= inverse(C1);
        return z ^ (z >>> 30) ^ (z >>> 60);
    }

    /** A hash key whose stream for value {@code x} starts with the word {@code first}. */
    private static long keyWithFirstWord(int x, long first) {
        long valueMix = SplitMix64.mix64((x + 1L) * SplitMix64.GOLDEN);
        return (unmix(first) - SplitMix64.GOLDEN) ^ valueMix;
    }

    /** The second word of the same stream (the draw that follows a rejection). */
    private static long secondWord(int x, long key) {
        long valueMix = SplitMix64.mix64((x + 1L) * SplitMix64.GOLDEN);
        return SplitMix64.mix64((key ^ valueMix) + 2 * SplitMix64.GOLDEN);
    }

    private static OptimizedLocalHashing olh(int range) {
        return new OptimizedLocalHashing(6, Epsilon.of(1.0), range, PublicCoins.Stream.OLH_HASH, MechanismId.OLH);
    }

    /** The test's own inverse of the finaliser really inverts it. */
    @Test
    void unmixInvertsTheFinaliser() {
        for (long z : new long[] {0, 1, -1, 0x123456789ABCDEFL, Long.MIN_VALUE, 0xAAAAAAAB00000000L}) {
            assertThat(SplitMix64.mix64(unmix(z))).isEqualTo(z);
        }
    }

    /**
     * g = 3, threshold 2^32 mod 3 = 1: the top half w = 0xAAAAAAAB (3·w = 2·2^32 + 1, low half exactly the
     * threshold) is accepted and hashes to 2; w = 0 (low half 0 < 1) is rejected and the second word decides.
     */
    @Test
    void lowHalfEqualToTheThresholdIsAcceptedAndBelowItRejected() {
        OptimizedLocalHashing o = olh(3);
        int differs = 0;
        for (int x = 0; x < 6; x++) {
            long key = keyWithFirstWord(x, 0xAAAAAAAB_12345678L);
            assertThat(o.hash(key, x)).as("x=%d", x).isEqualTo(2);
            long next = secondWord(x, key) >>> 32;
            if ((next * 3) >>> 32 != 2) {
                differs++;
            }
        }
        assertThat(differs).as("a rejection would have changed some hashes").isPositive();
        int rejectedTo = 0;
        for (int x = 0; x < 6; x++) {
            long key = keyWithFirstWord(x, 0x00000000_FEDCBA98L);
            long next = secondWord(x, key) >>> 32;
            long product = next * 3;
            assertThat(product & 0xFFFFFFFFL).as("the second word is accepted").isGreaterThanOrEqualTo(1);
            assertThat(o.hash(key, x)).as("x=%d", x).isEqualTo((int) (product >>> 32));
            if (product >>> 32 != 0) {
                rejectedTo++;
            }
        }
        assertThat(rejectedTo).as("accepting the first word would have given 0 everywhere").isPositive();
    }

    /** g = 4 has threshold 0: every word is accepted, even one whose low half is 0 (w = 2^30 hashes to 1). */
    @Test
    void aZeroThresholdRejectsNothing() {
        OptimizedLocalHashing o = olh(4);
        int differs = 0;
        for (int x = 0; x < 6; x++) {
            long key = keyWithFirstWord(x, 0x40000000_00000000L);
            assertThat(o.hash(key, x)).as("x=%d", x).isEqualTo(1);
            long next = secondWord(x, key) >>> 32;
            if ((next * 4) >>> 32 != 1) {
                differs++;
            }
        }
        assertThat(differs).isPositive();
    }

    /** The largest word maps to the last index g − 1 (w = 2^32 − 1, g = 3: 3w = 2·2^32 + (2^32 − 3)). */
    @Test
    void theLargestWordMapsToTheLastIndex() {
        OptimizedLocalHashing o = olh(3);
        for (int x = 0; x < 6; x++) {
            assertThat(o.hash(keyWithFirstWord(x, -1L), x)).isEqualTo(2);
        }
    }
}

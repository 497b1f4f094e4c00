package io.privacygateway.mechanisms.local.heavy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.ReportAccumulator;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The contract of the heavy-hitter protocol: parameters, item validation, hostile payloads, state checks. */
class HeavyHitterProtocolTest {
    private static final Epsilon E1 = Epsilon.of(1);

    @Test
    void parametersAreValidatedAndErrorsNameTheField() {
        assertThatThrownBy(() -> new HeavyHitterParameters(null, 8, 1, 1, 8, 1)).hasMessageContaining("epsilon");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 0, 1, 1, 8, 1)).hasMessageContaining("maxBytes");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 65, 1, 1, 8, 1)).hasMessageContaining("maxBytes");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 3, 1, 8, 1)).hasMessageContaining("segmentBytes");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 0, 1, 8, 1)).hasMessageContaining("segmentBytes");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 0, 8, 1)).hasMessageContaining("rows");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 65, 8, 1)).hasMessageContaining("rows");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 1, 12, 1)).hasMessageContaining("width")
                .hasMessageContaining("power of two");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 1, 1, 1)).hasMessageContaining("width");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 1, 1 << 17, 1)).hasMessageContaining("width");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 1, 8, 0)).hasMessageContaining("candidates");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 1, 8, 1025)).hasMessageContaining("candidates");
        // 64 levels · 4 rows · (1024 + 1) = 262 400 > 2^18
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 64, 1, 4, 1024, 1)).hasMessageContaining("2621");
        // near the limit: 8 levels · 31 rows · 1025 = 254 200 <= 2^18 < 8 · 32 · 1025
        assertThat(new HeavyHitterParameters(E1, 16, 2, 31, 1024, 1).stateLength()).isEqualTo(8 * 31 * 1025);
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 16, 2, 32, 1024, 1)).hasMessageContaining("262400");
        HeavyHitterParameters p = new HeavyHitterParameters(E1, 15, 2, 3, 256, 7);
        assertThat(p.levels()).isEqualTo(8);
        assertThat(p.stateLength()).isEqualTo(8 * 3 * 257);
        assertThat(p).isEqualTo(new HeavyHitterParameters(E1, 15, 2, 3, 256, 7)).hasSameHashCodeAs(
                new HeavyHitterParameters(E1, 15, 2, 3, 256, 7)).isNotEqualTo(
                        new HeavyHitterParameters(E1, 15, 2, 3, 256, 8));
    }

    @Test
    void theDefaultRuleStaysWithinTheStateBudget() {
        for (int l = 1; l <= 64; l++) {
            for (long n : new long[] {1, 1000, 1_000_000}) {
                HeavyHitterParameters p = HeavyHitterParameters.defaults(E1, l, n);
                assertThat(p.stateLength()).as("L=%d", l).isLessThanOrEqualTo(HeavyHitterParameters.DEFAULT_STATE_BUDGET);
                assertThat(p.segmentBytes()).isEqualTo(l >= 2 ? 2 : 1);
                assertThat(p.maxBytes()).isEqualTo(l);
            }
        }
        HeavyHitterParameters p16 = HeavyHitterParameters.defaults(E1, 16, 1_000_000);
        assertThat(p16.levels()).isEqualTo(8);
        assertThat(p16.width()).isEqualTo(1024);
        assertThat(p16.rows()).isEqualTo(3);
        assertThat(p16.candidates()).isEqualTo(32);
        HeavyHitterParameters p64 = HeavyHitterParameters.defaults(E1, 64, 1_000_000);
        assertThat(p64.levels()).isEqualTo(32);
        assertThat(p64.rows()).isEqualTo(3);
        assertThat(p64.width()).isEqualTo(256);
        // G = 10: R = ⌊32768/10250⌋ = 3 at W = 1024; G = 11: R = 2 stays at W = 1024; G = 16: R = 1, so W = 512, R = 3
        assertThat(HeavyHitterParameters.defaults(E1, 20, 1).rows()).isEqualTo(3);
        assertThat(HeavyHitterParameters.defaults(E1, 22, 1).rows()).isEqualTo(2);
        assertThat(HeavyHitterParameters.defaults(E1, 22, 1).width()).isEqualTo(1024);
        assertThat(HeavyHitterParameters.defaults(E1, 32, 1).rows()).isEqualTo(3);
        assertThat(HeavyHitterParameters.defaults(E1, 32, 1).width()).isEqualTo(512);
        HeavyHitterParameters p1 = HeavyHitterParameters.defaults(E1, 1, 10);
        assertThat(p1.candidates()).isEqualTo(32);
        assertThat(p1.rows()).isEqualTo(8);
        assertThat(p1.payloadBits()).isEqualTo(2);
        assertThat(HeavyHitterParameters.optimalPayloadBits(Epsilon.of(0.5))).isEqualTo(1);
        assertThat(HeavyHitterParameters.optimalPayloadBits(Epsilon.of(1))).isEqualTo(2);
        assertThat(HeavyHitterParameters.optimalPayloadBits(Epsilon.of(4))).isEqualTo(6);
        assertThat(HeavyHitterParameters.optimalPayloadBits(Epsilon.of(40))).isEqualTo(8);
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 1, 8, 1, 0)).hasMessageContaining("payloadBits");
        assertThatThrownBy(() -> new HeavyHitterParameters(E1, 8, 1, 1, 8, 1, 9)).hasMessageContaining("payloadBits");
        assertThatThrownBy(() -> HeavyHitterParameters.defaults(E1, 8, 0)).hasMessageContaining("expectedReports");
    }

    @Test
    void invalidItemsAreRejectedWithoutEchoingThem() {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1, 8, 2, 1, 8, 1);
        ReportCoordinates c = new ReportCoordinates("d", 0, 0);
        String secretLike = "secret-value-123";
        for (String bad : new String[] {null, "", secretLike, "ab\u0000c", "\uD800x", "ééééé"}) {
            assertThatThrownBy(() -> p.randomize(bad, c, new SeededRandomBits(1)))
                    .isInstanceOf(InvalidValueException.class)
                    .satisfies(e -> {
                        if (bad != null && !bad.isEmpty()) {
                            assertThat(e.getMessage()).doesNotContain(bad).doesNotContain("secret");
                        }
                    });
        }
        assertThatThrownBy(() -> p.paddedItem(secretLike)).hasMessageContaining("16 UTF-8 bytes");
        assertThatThrownBy(() -> p.paddedItem("a\u0000")).hasMessageContaining("U+0000");
        assertThatThrownBy(() -> p.paddedItem("\uDC00")).hasMessageContaining("surrogate");
    }

    @Test
    void itemsArePaddedToWholeSegments() throws Exception {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1, 7, 2, 1, 8, 1);
        assertThat(p.paddedItem("abcdefg")).containsExactly('a', 'b', 'c', 'd', 'e', 'f', 'g', 0);
        assertThat(p.paddedItem("é")).containsExactly(0xC3 - 256, 0xA9 - 256, 0, 0, 0, 0, 0, 0);
        assertThat(p.id()).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
        assertThat(MechanismId.fromWireName("prefix-tree-sketch")).isEqualTo(MechanismId.PREFIX_TREE_SKETCH);
        assertThat(p.payloadBytes()).isEqualTo(1);
        assertThat(p.maxReportsPerWindow()).isEqualTo(1L << 54);
        assertThat(p.stateLength()).isEqualTo(4 * 1 * 9);
    }

    /** Wrong lengths and stray bits are refused (false), never thrown on, and leave the state as it was. */
    @Test
    void hostilePayloadsAreRefusedAndLeaveTheStateUnchanged() {
        for (int t = 1; t <= 8; t++) {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1, 8, 2, 2, 8, 1, t);
        ReportAccumulator acc = p;
        long[] state = new long[p.stateLength()];
        ReportCoordinates c = new ReportCoordinates("dev", 1, 2);
        assertThat(acc.accumulate(new byte[] {1}, c, state)).isTrue();
        long[] before = state.clone();
        byte[][] bad = {null, {}, {0, 0}, {1, 0}, new byte[64]};
        for (byte[] y : bad) {
            assertThat(acc.accumulate(y, c, state)).as(Arrays.toString(y)).isFalse();
            assertThat(acc.accumulate(y, "dev", 1, 2, state)).as(Arrays.toString(y)).isFalse();
            assertThat(state).isEqualTo(before);
        }
        for (int v = 1 << t; v < 256; v++) { // stray bits above the t symbol bits
            assertThat(acc.accumulate(new byte[] {(byte) v}, c, state)).as("t=%d y=%d", t, v).isFalse();
            assertThat(acc.accumulate(new byte[] {(byte) v}, "dev", 1, 2, state)).isFalse();
        }
        assertThat(state).isEqualTo(before);
        for (int v = 0; v < 1 << t; v++) {
            assertThat(acc.accumulate(new byte[] {(byte) v}, c, state.clone())).isTrue();
        }
        assertThatThrownBy(() -> acc.accumulate(new byte[] {0}, c, new long[3])).hasMessageContaining("length");
        long[] tooLong = new long[p.stateLength() + 1];
        assertThatThrownBy(() -> acc.accumulate(new byte[] {0}, c, tooLong))
                .hasMessageContaining("state must have length " + p.stateLength());
        assertThatThrownBy(() -> acc.accumulate(new byte[] {0}, "dev", 1, 2, tooLong))
                .hasMessageContaining("state must have length " + p.stateLength());
        assertThat(tooLong).containsOnly(0L);
        assertThatThrownBy(() -> acc.accumulate(new byte[] {0}, "", 1, 2, state)).hasMessageContaining("deviceId");
        }
    }

    /** Both accumulate forms do the same: with t = 1, one ±1 in the report's cell and one in its row count. */
    @Test
    void accumulateAddsTheSignAndTheCountOfTheReportsCoins() {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1, 8, 2, 2, 8, 1, 1);
        int cells = 4 * 2 * 8;
        Set<Integer> seenLevels = new HashSet<>();
        for (int s = 0; s < 50; s++) {
            ReportCoordinates c = new ReportCoordinates("dev" + s, 7, s);
            HeavyHitterProtocol.Coins k = p.coins(c);
            seenLevels.add(k.level());
            for (byte y = 0; y <= 1; y++) {
                long[] a = new long[p.stateLength()];
                long[] b = new long[p.stateLength()];
                assertThat(p.accumulate(new byte[] {y}, c, a)).isTrue();
                assertThat(p.accumulate(new byte[] {y}, c.deviceId(), c.period(), c.sequence(), b)).isTrue();
                assertThat(a).isEqualTo(b);
                long[] expect = new long[p.stateLength()];
                expect[(k.level() * 2 + k.row()) * 8 + k.indices()[0]] = y == 0 ? 1 : -1;
                expect[cells + k.level() * 2 + k.row()] = 1;
                assertThat(a).isEqualTo(expect);
            }
        }
        assertThat(seenLevels).hasSize(4);
    }

    /**
     * With t bits, a report adds {@code (−1)^{popcount(y & m)}} at {@code XOR_{s ∈ m} j_s} for every non-empty
     * {@code m}, and one to its row count (recomputed here from the coins).
     */
    @Test
    void accumulateWithSeveralBitsAddsEveryCharacter() {
        for (int t = 2; t <= 4; t++) {
            HeavyHitterProtocol p = HeavyHitterFixtures.protocol(2, 8, 2, 2, 16, 1, t);
            for (int s = 0; s < 20; s++) {
                ReportCoordinates c = new ReportCoordinates("dev" + s, 7, s);
                HeavyHitterProtocol.Coins k = p.coins(c);
                assertThat(k.indices()).hasSize(t);
                int y = s % (1 << t);
                long[] a = new long[p.stateLength()];
                assertThat(p.accumulate(new byte[] {(byte) y}, c, a)).isTrue();
                long[] expect = new long[p.stateLength()];
                int base = (k.level() * 2 + k.row()) * 16;
                for (int m = 1; m < 1 << t; m++) {
                    int j = 0;
                    for (int b = 0; b < t; b++) {
                        if ((m >> b & 1) == 1) {
                            j ^= k.indices()[b];
                        }
                    }
                    expect[base + j] += Integer.bitCount(y & m) % 2 == 0 ? 1 : -1;
                }
                expect[4 * 2 * 16 + k.level() * 2 + k.row()] = 1;
                assertThat(a).as("t=%d s=%d", t, s).isEqualTo(expect);
            }
        }
    }

    @Test
    void coinsAndParametersAreValues() {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(2, 8, 2, 2, 1024, 1, 3);
        HeavyHitterProtocol.Coins a = p.coins(new ReportCoordinates("a", 1, 1));
        HeavyHitterProtocol.Coins a2 = p.coins(new ReportCoordinates("a", 1, 1));
        HeavyHitterProtocol.Coins b = p.coins(new ReportCoordinates("b", 1, 1));
        assertThat(a).isEqualTo(a2).hasSameHashCodeAs(a2).isNotEqualTo(b).isNotEqualTo("a");
        assertThat(a.hashCode()).isNotEqualTo(b.hashCode());
        assertThat(new HeavyHitterProtocol.Coins(1, 2, new int[] {3, 4}))
                .isNotEqualTo(new HeavyHitterProtocol.Coins(1, 2, new int[] {3, 5}))
                .isNotEqualTo(new HeavyHitterProtocol.Coins(1, 3, new int[] {3, 4}))
                .isNotEqualTo(new HeavyHitterProtocol.Coins(0, 2, new int[] {3, 4}))
                .hasToString("Coins[level=1, row=2, indices=[3, 4]]");
        int[] idx = {7};
        HeavyHitterProtocol.Coins k = new HeavyHitterProtocol.Coins(0, 0, idx);
        idx[0] = 8;
        assertThat(k.indices()).containsExactly(7);
        k.indices()[0] = 9;
        assertThat(k.indices()).containsExactly(7);
        HeavyHitterParameters hp = new HeavyHitterParameters(E1, 15, 2, 3, 256, 7, 2);
        assertThat(hp).hasToString("HeavyHitterParameters[epsilon=1.0, L=15, b=2, R=3, W=256, T=7, t=2]");
        assertThat(hp.hashCode()).isNotEqualTo(new HeavyHitterParameters(E1, 15, 2, 3, 256, 7, 3).hashCode());
        assertThat(hp).isNotEqualTo(new HeavyHitterParameters(E1, 15, 2, 3, 256, 7, 3))
                .isNotEqualTo(new HeavyHitterParameters(E1, 14, 2, 3, 256, 7, 2))
                .isNotEqualTo(new HeavyHitterParameters(E1, 15, 1, 3, 256, 7, 2))
                .isNotEqualTo(new HeavyHitterParameters(E1, 15, 2, 2, 256, 7, 2))
                .isNotEqualTo(new HeavyHitterParameters(E1, 15, 2, 3, 512, 7, 2))
                .isNotEqualTo(new HeavyHitterParameters(Epsilon.of(2), 15, 2, 3, 256, 7, 2));
    }

    @Test
    void inconsistentStatesAreRefusedByTheEstimate() {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1, 2, 1, 1, 4, 1, 1);
        // layout: 2 levels · 1 row · 4 cells, then 2 counts
        long[] s = new long[p.stateLength()];
        s[0] = 1;
        s[8] = 1;
        s[9] = 1;
        s[4] = -1;
        assertThat(new HeavyHitterEstimator(p).estimate(s, 2).n()).isEqualTo(2);
        assertThatThrownBy(() -> new HeavyHitterEstimator(p).estimate(s, 3)).hasMessageContaining("not n = 3");
        assertThatThrownBy(() -> new HeavyHitterEstimator(p).estimate(s, 0)).hasMessageContaining("n must be");
        assertThatThrownBy(() -> new HeavyHitterEstimator(p).estimate(new long[4], 1)).hasMessageContaining("length");
        long[] big = s.clone();
        big[1] = 1; // two signs for one report
        big[8] = 1;
        assertThatThrownBy(() -> new HeavyHitterEstimator(p).estimate(big, 2)).hasMessageContaining("exceed");
        long[] parity = s.clone();
        parity[8] = 2;
        assertThatThrownBy(() -> new HeavyHitterEstimator(p).estimate(parity, 3)).hasMessageContaining("does not match");
        long[] negative = s.clone();
        negative[8] = -1;
        negative[0] = 0;
        assertThatThrownBy(() -> new HeavyHitterEstimator(p).estimate(negative, 0 + 1)).hasMessageContaining("n");
        long[] empty = new long[p.stateLength()];
        empty[0] = 1;
        empty[8] = 1;
        HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(empty, 1);
        assertThat(e.items()).isEmpty();
        assertThat(e.thresholdShare()).isEqualTo(1.0);
    }
}

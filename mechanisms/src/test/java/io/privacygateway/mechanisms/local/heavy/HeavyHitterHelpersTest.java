package io.privacygateway.mechanisms.local.heavy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import io.privacygateway.mechanisms.linalg.WalshHadamard;

/** The decoder's helpers: the normal quantile, prefix validity, UTF-8 decoding, the transform and the symbol. */
class HeavyHitterHelpersTest {
    @Test
    void normalQuantilesMatchTables() {
        assertThat(NormalQuantile.upper(0.5)).isCloseTo(0, within(1e-9));
        assertThat(NormalQuantile.upper(0.05)).isCloseTo(1.6448536269514722, within(1e-8));
        assertThat(NormalQuantile.upper(0.025)).isCloseTo(1.959963984540054, within(1e-8));
        assertThat(NormalQuantile.upper(0.02)).isCloseTo(2.053748910631823, within(1e-8));
        assertThat(NormalQuantile.upper(1e-3)).isCloseTo(3.090232306167813, within(1e-8));
        assertThat(NormalQuantile.upper(1e-6)).isCloseTo(4.753424308822899, within(1e-7));
        assertThat(NormalQuantile.upper(1e-12)).isCloseTo(7.034483825330, within(1e-6));
        assertThat(NormalQuantile.upper(0.3)).isCloseTo(0.5244005127080407, within(1e-8));
        for (double bad : new double[] {0, -1, 0.5000001, 1, Double.NaN}) {
            assertThatThrownBy(() -> NormalQuantile.upper(bad)).hasMessageContaining("tail");
        }
    }

    static byte[] b(int... v) {
        byte[] out = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (byte) v[i];
        }
        return out;
    }

    @Test
    void prefixValidityFollowsThePaddingAndUtf8Rules() {
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 'b'), 0, 4)).isTrue();
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 0), 0, 4)).isTrue();
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 0, 0, 0), 2, 4)).isTrue();
        assertThat(HeavyHitterEstimator.validPrefix(b(0, 'a'), 0, 4)).as("first byte padding").isFalse();
        assertThat(HeavyHitterEstimator.validPrefix(b(0), 0, 4)).isFalse();
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 0, 'b'), 2, 4)).as("byte after padding").isFalse();
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 'b', 'c', 'd'), 2, 3)).as("beyond L").isFalse();
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 'b', 'c', 0), 2, 3)).as("padding beyond L").isTrue();
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 'b', 'c'), 2, 3)).isTrue();
        for (int v : new int[] {0xC0, 0xC1, 0xF5, 0xFF}) {
            assertThat(HeavyHitterEstimator.validPrefix(b('a', v), 1, 4)).as("byte %x", v).isFalse();
        }
        assertThat(HeavyHitterEstimator.validPrefix(b(0xC3, 0xA9), 0, 4)).isTrue();
        assertThat(HeavyHitterEstimator.validPrefix(b(0xF4), 0, 4)).isTrue();
        assertThat(HeavyHitterEstimator.validPrefix(b(0xA9), 0, 4)).as("continuation byte first").isFalse();
        assertThat(HeavyHitterEstimator.validPrefix(b(0x80), 0, 4)).isFalse();
        assertThat(HeavyHitterEstimator.validPrefix(b(0xBF), 0, 4)).isFalse();
        assertThat(HeavyHitterEstimator.validPrefix(b('a', 0x80), 1, 4)).as("continuation later is fine").isTrue();
        // bytes before `from` are not re-checked
        assertThat(HeavyHitterEstimator.validPrefix(b(0xFF, 'a'), 1, 4)).isTrue();
    }

    @Test
    void utf8DecodingRefusesMalformedAndEmpty() {
        assertThat(HeavyHitterEstimator.decodeUtf8("héllo".getBytes(StandardCharsets.UTF_8), 6)).isEqualTo("héllo");
        assertThat(HeavyHitterEstimator.decodeUtf8(b('a', 'b', 0), 2)).isEqualTo("ab");
        assertThat(HeavyHitterEstimator.decodeUtf8(b('a'), 0)).isNull();
        assertThat(HeavyHitterEstimator.decodeUtf8(b(0xC3), 1)).isNull();
        assertThat(HeavyHitterEstimator.decodeUtf8(b(0xC3, 0x28), 2)).isNull();
        assertThat(HeavyHitterEstimator.decodeUtf8(b(0xED, 0xA0, 0x80), 3)).as("encoded surrogate").isNull();
    }

    @Test
    void theTransformIsTheUnnormalisedWalshHadamard() {
        long[] a = {3, -1, 4, 1, -5, 9, 2, -6};
        long[] t = a.clone();
        WalshHadamard.transform(t);
        for (int c = 0; c < a.length; c++) {
            long expect = 0;
            for (int j = 0; j < a.length; j++) {
                expect += (Integer.bitCount(j & c) % 2 == 0 ? 1 : -1) * a[j];
            }
            assertThat(t[c]).as("c=%d", c).isEqualTo(expect);
        }
    }

    @Test
    void theSymbolCollectsOneParityPerIndex() {
        assertThat(HeavyHitterProtocol.symbol(new int[] {0b101}, 0b001)).isEqualTo(1);
        assertThat(HeavyHitterProtocol.symbol(new int[] {0b101}, 0b101)).isEqualTo(0);
        assertThat(HeavyHitterProtocol.symbol(new int[] {0b1, 0b10, 0b11}, 0b01)).isEqualTo(0b101);
        assertThat(HeavyHitterProtocol.symbol(new int[] {0b1, 0b10, 0b11}, 0b11)).isEqualTo(0b011);
        assertThat(HeavyHitterProtocol.parity(0b110, 0b011)).isEqualTo(1);
        assertThat(HeavyHitterProtocol.parity(0b110, 0b111)).isEqualTo(0);
    }

    @Test
    void cellKeysAreDistinctAcrossLevelsRowsAndBuckets() {
        java.util.Set<Long> keys = new java.util.HashSet<>();
        for (int g = 0; g < 64; g += 7) {
            for (int r = 0; r < 64; r += 5) {
                for (int c : new int[] {0, 1, 1023, 65535}) {
                    assertThat(keys.add(HeavyHitterEstimator.cellKey(g, r, c))).isTrue();
                }
            }
        }
    }

    @Test
    void theBucketHashDependsOnLevelRowAndExactlyThePrefix() throws Exception {
        HeavyHitterProtocol p = HeavyHitterFixtures.protocol(1, 8, 2, 3, 1 << 14, 4, 1);
        byte[] x = p.paddedItem("abcdefg");
        byte[] y = p.paddedItem("abcdXYZ");
        assertThat(p.bucket(1, 0, x)).as("same first 4 bytes").isEqualTo(p.bucket(1, 0, y));
        assertThat(p.bucket(2, 0, x)).isNotEqualTo(p.bucket(2, 0, y));
        assertThat(p.bucket(1, 0, x)).isNotEqualTo(p.bucket(1, 1, x));
        assertThat(p.bucket(1, 0, x)).isNotEqualTo(p.bucket(2, 0, x));
        assertThat(p.bucket(3, 2, x)).isBetween(0, (1 << 14) - 1);
        assertThat(new HeavyHitterEstimator(p).firstWholeLevel(7)).isEqualTo(3);
        assertThat(new HeavyHitterEstimator(p).firstWholeLevel(8)).isEqualTo(3);
        assertThat(new HeavyHitterEstimator(p).firstWholeLevel(6)).isEqualTo(3);
        assertThat(new HeavyHitterEstimator(p).firstWholeLevel(5)).isEqualTo(2);
        assertThat(new HeavyHitterEstimator(p).firstWholeLevel(1)).isEqualTo(0);
    }
}

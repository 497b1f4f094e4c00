package io.privacygateway.mechanisms.linalg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The one Walsh–Hadamard transform against its definition, on longs (exact) and doubles (bit for bit). */
class WalshHadamardTest {
    @Test
    void longsAreTheDefinitionExactly() {
        SplittableRandom r = new SplittableRandom(3);
        for (int n = 1; n <= 64; n <<= 1) {
            long[] a = new long[n];
            for (int i = 0; i < n; i++) {
                a[i] = r.nextLong(-1_000_000, 1_000_000);
            }
            long[] t = a.clone();
            WalshHadamard.transform(t);
            for (int j = 0; j < n; j++) {
                long s = 0;
                for (int i = 0; i < n; i++) {
                    s += (Integer.bitCount(i & j) & 1) == 0 ? a[i] : -a[i];
                }
                assertThat(t[j]).as("n=%d j=%d", n, j).isEqualTo(s);
            }
        }
    }

    /** Above the cache block, the blocked and two-stage passes give the textbook loop's bits. */
    @Test
    void doublesAreTheTextbookLoopBitForBit() {
        SplittableRandom r = new SplittableRandom(5);
        for (int n : new int[] {1, 2, 8, 1 << 12, 1 << 13, 1 << 14, 1 << 15}) {
            double[] a = new double[n];
            for (int i = 0; i < n; i++) {
                a[i] = r.nextDouble(-1, 1) * Math.scalb(1.0, r.nextInt(-20, 20));
            }
            double[] textbook = a.clone();
            for (int h = 1; h < n; h <<= 1) {
                for (int i = 0; i < n; i += h << 1) {
                    for (int j = i; j < i + h; j++) {
                        double u = textbook[j];
                        double v = textbook[j + h];
                        textbook[j] = u + v;
                        textbook[j + h] = u - v;
                    }
                }
            }
            WalshHadamard.transform(a);
            assertThat(a).as("n=%d", n).isEqualTo(textbook);
        }
    }

    @Test
    void onlyPowersOfTwo() {
        assertThatThrownBy(() -> WalshHadamard.transform(new long[3])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
        assertThatThrownBy(() -> WalshHadamard.transform(new double[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WalshHadamard.transform(new double[12])).isInstanceOf(IllegalArgumentException.class);
    }
}

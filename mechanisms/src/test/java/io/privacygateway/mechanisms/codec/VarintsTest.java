package io.privacygateway.mechanisms.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Varints round-trip every 64-bit value in exactly one (minimal) encoding, and the reader never over-reads. */
class VarintsTest {
    private static byte[] encode(long... values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (long v : values) {
            Varints.put(out, v);
        }
        return out.toByteArray();
    }

    @Test
    void everyValueRoundTripsAndSignedValuesThroughZigzag() {
        SplittableRandom r = new SplittableRandom(1);
        long[] edge = {0, 1, 127, 128, 16_383, 16_384, Long.MAX_VALUE, Long.MIN_VALUE, -1};
        for (int t = 0; t < 10_000; t++) {
            long v = t < edge.length ? edge[t] : r.nextLong() >> r.nextInt(64);
            Varints.Reader reader = new Varints.Reader(encode(v, Varints.zigzag(v)), "test");
            assertThat(reader.varint(Varints.MAX_BYTES)).isEqualTo(v);
            assertThat(Varints.unzigzag(reader.varint(Varints.MAX_BYTES))).isEqualTo(v);
            reader.requireEnd();
        }
        assertThat(encode(Long.MAX_VALUE)).hasSize(9);
        assertThat(encode(-1)).hasSize(10);
        assertThat(encode(Varints.zigzag(-1))).hasSize(1);
    }

    @Test
    void malformedInputIsRefusedNamingTheFormat() {
        assertThatThrownBy(() -> new Varints.Reader(new byte[] {(byte) 0x80}, "fmt").varint(10))
                .hasMessage("fmt: truncated at byte 1");
        assertThatThrownBy(() -> new Varints.Reader(new byte[] {(byte) 0x81, 0x00}, "fmt").varint(10))
                .hasMessageContaining("non-minimal");
        assertThatThrownBy(() -> new Varints.Reader(encode(-1), "fmt").varint(9))
                .as("a 63-bit field refuses a 64-bit value").hasMessageContaining("longer than 9 bytes");
        byte[] over = encode(-1);
        over[9] = 0x02; // an 11th group's bit
        assertThatThrownBy(() -> new Varints.Reader(over, "fmt").varint(10)).hasMessageContaining("beyond 64 bits");
        Varints.Reader trailing = new Varints.Reader(encode(5, 6), "fmt");
        trailing.varint(10);
        assertThatThrownBy(trailing::requireEnd).hasMessage("fmt: 1 trailing bytes");
    }
}

package io.privacygateway.benchmarks.wide;

import static io.privacygateway.mechanisms.testing.MarginalCountsFixtures.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import org.junit.jupiter.api.Test;

/** The bounded codec the wide benchmark measures aggregate sizes with: round trips, refuses malformed input. */
class MarginalCountsCodecTest {

    @Test
    void codecRoundTripsAndRefusesMalformedInput() {
        MarginalWorkload w = MarginalWorkload.anonymous(6, 3);
        MarginalCountsCodec codec = new MarginalCountsCodec(w);
        MarginalCounts c = random(w, 1000, 5);
        byte[] bytes = codec.encode(c);
        assertThat(codec.decode(bytes)).isEqualTo(c);
        assertThat(bytes.length).isLessThanOrEqualTo(codec.maxBytes());
        assertThat(codec.decode(codec.encode(MarginalCounts.empty(w)))).isEqualTo(MarginalCounts.empty(w));

        assertThatThrownBy(() -> codec.decode(new byte[0])).hasMessageContaining("truncated");
        assertThatThrownBy(() -> codec.decode(java.util.Arrays.copyOf(bytes, bytes.length - 1)))
                .hasMessageContaining("truncated");
        byte[] trailing = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> codec.decode(trailing)).hasMessageContaining("trailing");
        byte[] version = bytes.clone();
        version[0] = 2;
        assertThatThrownBy(() -> codec.decode(version)).hasMessageContaining("version");
        byte[] shape = bytes.clone();
        shape[1] = 7;
        assertThatThrownBy(() -> codec.decode(shape)).hasMessageContaining("shape");
        assertThatThrownBy(() -> new MarginalCountsCodec(MarginalWorkload.anonymous(6, 2)).decode(bytes))
                .hasMessageContaining("shape");
        // a non-minimal varint for n: 0x80 0x00 means 0 in two bytes
        byte[] overlong = {1, 6, 3, (byte) 0x80, 0};
        assertThatThrownBy(() -> codec.decode(overlong)).hasMessageContaining("non-minimal");
        byte[] huge = new byte[codec.maxBytes() + 1];
        assertThatThrownBy(() -> codec.decode(huge)).hasMessageContaining("more than");
        // a well-formed encoding of inconsistent counts is refused by the invariants
        long[] cells = c.cells();
        cells[0]++;
        cells[1]--;
        byte[] bad = encodeRaw(w, c.n(), cells);
        assertThatThrownBy(() -> codec.decode(bad)).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] encodeRaw(MarginalWorkload w, long n, long[] cells) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(1);
        for (long v : new long[] {w.attributeCount(), w.way(), n}) {
            put(out, v);
        }
        for (long v : cells) {
            put(out, v);
        }
        return out.toByteArray();
    }

    private static void put(java.io.ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }
}

package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The wide aggregate: aggregation, merge, invariants, labels in the workload's order, and the bounded codec. */
class MarginalCountsTest {
    static MarginalCounts random(MarginalWorkload w, int n, long seed) {
        Random r = new Random(seed);
        MarginalCounts c = MarginalCounts.empty(w);
        for (int i = 0; i < n; i++) {
            c.add(r.nextLong() & ((1L << w.attributeCount()) - 1));
        }
        return c;
    }

    @Test
    void aggregationMatchesBruteForceAndTheWorkloadsLabels() {
        MarginalWorkload w = MarginalWorkload.of(List.of("p", "q", "r", "s", "t"), 3);
        MarginalCounts c = MarginalCounts.empty(w);
        long[] values = {0b10110, 0b00001, 0b11111, 0b10110, 0};
        for (long v : values) {
            c.add(v);
        }
        // the materialised workload's answer vectors are the reference
        Workload ref = WideFixtures.centralMarginals(5, 3, "central-projection", 1.0, "add-remove", 1, 100);
        assertThat(w.labels()).isEqualTo(ref.queryLabels().stream().map(l -> l.replace("a0", "p").replace("a1", "q")
                .replace("a2", "r").replace("a3", "s").replace("a4", "t")).toList());
        for (int q = 0; q < w.queryCount(); q++) {
            long expected = 0;
            for (long v : values) {
                expected += (long) ref.points().get((int) v, q);
            }
            assertThat(c.count(q)).as("query %s", w.label(q)).isEqualTo(expected);
        }
        assertThat(c.n()).isEqualTo(5);
    }

    @Test
    void mergeIsExactAndOrderIndependent() {
        MarginalWorkload w = MarginalWorkload.anonymous(7, 2);
        MarginalCounts a = random(w, 300, 1);
        MarginalCounts b = random(w, 200, 2);
        MarginalCounts ab = a.copy().merge(b);
        MarginalCounts ba = b.copy().merge(a);
        assertThat(ab).isEqualTo(ba);
        assertThat(ab.n()).isEqualTo(500);
        assertThatThrownBy(() -> a.copy().merge(MarginalCounts.empty(MarginalWorkload.anonymous(7, 3))))
                .hasMessageContaining("different workloads");
    }

    @Test
    void refusedReportsLeaveTheStateUntouched() {
        MarginalWorkload w = MarginalWorkload.anonymous(5, 2);
        MarginalCounts c = random(w, 10, 3);
        MarginalCounts before = c.copy();
        assertThatThrownBy(() -> c.add(1L << 5)).hasMessageContaining("beyond attribute 4");
        assertThatThrownBy(() -> c.add(new long[] {1, 0})).hasMessageContaining("1 words");
        assertThat(c).isEqualTo(before);
    }

    @Test
    void multiWordValues() {
        MarginalWorkload w = MarginalWorkload.anonymous(70, 1);
        MarginalCounts c = MarginalCounts.empty(w);
        c.add(new long[] {1L << 63, 1L << 5});
        assertThat(c.count(63 * 2 + 1)).isEqualTo(1);
        assertThat(c.count(69 * 2 + 1)).isEqualTo(1);
        assertThat(c.count(0)).isEqualTo(1); // attribute 0 = 0
    }

    @Test
    void invariantsOfDecodedOrBuiltCounts() {
        MarginalWorkload w = MarginalWorkload.anonymous(4, 2);
        MarginalCounts c = random(w, 50, 4);
        long[] cells = c.cells();
        assertThat(MarginalCounts.of(w, 50, cells)).isEqualTo(c);
        long[] negative = cells.clone();
        negative[0] = -1;
        assertThatThrownBy(() -> MarginalCounts.of(w, 50, negative)).hasMessageContaining("cells[0]");
        long[] unbalanced = cells.clone();
        unbalanced[0]++;
        assertThatThrownBy(() -> MarginalCounts.of(w, 50, unbalanced)).hasMessageContaining("subset 0");
        // move one count between cells of subset 0 keeping its sum: its 1-way margins now disagree with others'
        long[] inconsistent = cells.clone();
        int from = inconsistent[0] > 0 ? 0 : 1;
        inconsistent[from]--;
        inconsistent[3]++;
        if (from != 3) {
            assertThatThrownBy(() -> MarginalCounts.of(w, 50, inconsistent)).hasMessageContaining("disagrees");
        }
        assertThatThrownBy(() -> MarginalCounts.of(w, 50, new long[3])).hasMessageContaining("entries");
    }

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

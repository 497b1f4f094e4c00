package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Server-side robustness: malformed payloads, order independence, parameter validation. */
class FrequencyOracleAccumulateTest {
    private static final Epsilon EPS = Epsilon.of(1.0);

    private static void assertRejected(FrequencyOracle o, byte[] payload, long base, String what) {
        long[] state = new long[o.stateLength()];
        Arrays.fill(state, 7);
        long[] before = state.clone();
        assertThat(o.accumulate(payload, base, state)).as("%s: %s accepted", o.id(), what).isFalse();
        assertThat(state).as("%s: %s changed the state", o.id(), what).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(value = MechanismId.class, names = {"GRR", "OUE", "OLH", "SUBSET_SELECTION", "HADAMARD_RESPONSE", "TREE"})
    void wrongLengthsAreRejected(MechanismId id) {
        FrequencyOracle o = FrequencyOracles.create(id, 13, EPS);
        assertRejected(o, null, 1, "null");
        assertRejected(o, new byte[0], 1, "empty");
        assertRejected(o, new byte[o.payloadBytes() + 1], 1, "one byte too long");
        if (o.payloadBytes() > 1) {
            assertRejected(o, new byte[o.payloadBytes() - 1], 1, "one byte too short");
        }
    }

    @Test
    void outOfRangeIndicesAreRejected() {
        GeneralizedRandomizedResponse grr = new GeneralizedRandomizedResponse(13, EPS);
        for (int y = 13; y < 256; y++) {
            assertRejected(grr, new byte[] {(byte) y}, 1, "GRR index " + y);
        }
        OptimizedLocalHashing olh = new OptimizedLocalHashing(13, EPS); // g = 4
        for (int y = olh.range(); y < 256; y++) {
            assertRejected(olh, new byte[] {(byte) y}, 1, "OLH index " + y);
        }
        HadamardResponse hr = new HadamardResponse(13, EPS); // K = 16
        for (int y = hr.order(); y < 256; y++) {
            assertRejected(hr, new byte[] {(byte) y}, 1, "HR index " + y);
        }
        GeneralizedRandomizedResponse wide = new GeneralizedRandomizedResponse(300, EPS);
        assertRejected(wide, new byte[] {1, 44}, 1, "GRR index 300");
        assertRejected(wide, new byte[] {(byte) 0xFF, (byte) 0xFF}, 1, "GRR index 65535");
        TreeMechanism tree = new TreeMechanism(13, EPS, 2); // levels of 2, 4, 7, 13 nodes
        for (long b = 0; b < 40; b++) {
            int range = tree.levelOracle(tree.levelOf(b)) instanceof IndexOracle io ? io.indexRange() : 0;
            for (int y = range; y < 256; y++) {
                assertRejected(tree, new byte[] {(byte) y}, b, "tree index " + y);
            }
        }
    }

    @Test
    void impossibleBitmapsAreRejected() {
        OptimizedUnaryEncoding oue = new OptimizedUnaryEncoding(13, EPS); // 2 bytes, 3 padding bits
        assertRejected(oue, new byte[] {0, (byte) 0x20}, 1, "OUE padding bit 13");
        assertRejected(oue, new byte[] {0, (byte) 0x80}, 1, "OUE padding bit 15");
        long[] s = new long[13];
        assertThat(oue.accumulate(new byte[] {(byte) 0xFF, 0x1F}, 1, s)).isTrue(); // all 13 bits: possible
        assertThat(s).containsOnly(1L);
        SubsetSelection ss = new SubsetSelection(13, EPS, 3);
        assertRejected(ss, new byte[] {0x03, 0}, 1, "SS two elements");
        assertRejected(ss, new byte[] {0x0F, 0}, 1, "SS four elements");
        assertRejected(ss, new byte[] {0x03, 0x20}, 1, "SS padding element");
        assertRejected(ss, new byte[] {0, 0}, 1, "SS empty subset");
        long[] t = new long[13];
        assertThat(ss.accumulate(new byte[] {0x01, 0x18}, 1, t)).isTrue(); // {0, 11, 12}
        assertThat(t).containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1);
        for (byte[] y : PrivacyCheck.allPayloads(new SubsetSelection(7, EPS, 3))) {
            int bits = Integer.bitCount(y[0] & 0xFF);
            long[] u = new long[7];
            boolean ok = new SubsetSelection(7, EPS, 3).accumulate(y, 0, u);
            assertThat(ok).isEqualTo(bits == 3 && (y[0] & 0x80) == 0);
        }
    }

    @ParameterizedTest
    @EnumSource(value = MechanismId.class, names = {"GRR", "OUE", "OLH", "SUBSET_SELECTION", "HADAMARD_RESPONSE", "TREE"})
    void accumulationIsOrderIndependentAndMergeable(MechanismId id) {
        FrequencyOracle o = FrequencyOracles.create(id, 21, EPS);
        RandomBits secret = new SeededRandomBits(5);
        RandomBits bases = new SeededRandomBits(6);
        List<byte[]> payloads = new ArrayList<>();
        List<Long> bs = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            long b = bases.nextLong();
            bs.add(b);
            payloads.add(o.randomize((i * 7) % 21, b, secret));
        }
        long[] whole = new long[o.stateLength()];
        long[] first = new long[o.stateLength()];
        long[] second = new long[o.stateLength()];
        for (int i = 0; i < payloads.size(); i++) {
            assertThat(o.accumulate(payloads.get(i), bs.get(i), whole)).isTrue();
            assertThat(o.accumulate(payloads.get(i), bs.get(i), i % 3 == 0 ? first : second)).isTrue();
        }
        long[] merged = new long[o.stateLength()];
        for (int j = 0; j < merged.length; j++) {
            merged[j] = first[j] + second[j];
        }
        assertThat(merged).isEqualTo(whole);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(3));
        long[] shuffled = new long[o.stateLength()];
        for (int i : order) {
            o.accumulate(payloads.get(i), bs.get(i), shuffled);
        }
        assertThat(shuffled).isEqualTo(whole);
        assertThat(FrequencyOracleEstimator.of(o).estimate(shuffled, payloads.size())).containsExactly(FrequencyOracleEstimator.of(o).estimate(whole, payloads.size()));
    }

    @Test
    void parametersAreValidatedWithNamedMessages() {
        assertThatThrownBy(() -> new GeneralizedRandomizedResponse(1, EPS)).hasMessageContaining("domainSize")
                .hasMessageContaining("got 1");
        assertThatThrownBy(() -> new OptimizedUnaryEncoding((1 << 24) + 1, EPS)).hasMessageContaining("domainSize");
        assertThatThrownBy(() -> new HadamardResponse(4, null)).hasMessageContaining("epsilon");
        assertThatThrownBy(() -> new SubsetSelection(5, EPS, 0)).hasMessageContaining("subsetSize").hasMessageContaining("got 0");
        assertThatThrownBy(() -> new SubsetSelection(5, EPS, 5)).hasMessageContaining("subsetSize").hasMessageContaining("got 5");
        assertThatThrownBy(() -> new TreeMechanism(10, EPS, 1)).hasMessageContaining("branching").hasMessageContaining("got 1");
        assertThatThrownBy(() -> new TreeMechanism(10, EPS, 11)).hasMessageContaining("branching");
        assertThatThrownBy(() -> new OptimizedLocalHashing(5, EPS, 1, 0, MechanismId.OLH)).hasMessageContaining("range");
        GeneralizedRandomizedResponse grr = new GeneralizedRandomizedResponse(5, EPS);
        assertThatThrownBy(() -> grr.randomize(5, 0, new SeededRandomBits(1))).hasMessageContaining("value")
                .hasMessageContaining("got 5");
        assertThatThrownBy(() -> grr.randomize(-1, 0, new SeededRandomBits(1))).hasMessageContaining("value");
        assertThatThrownBy(() -> grr.accumulate(new byte[1], 0, new long[4])).hasMessageContaining("state")
                .hasMessageContaining("got 4");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(grr).estimate(new long[5], 0)).hasMessageContaining("n");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(grr).variances(10, new double[4])).hasMessageContaining("frequencies");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(grr).variances(10, new double[] {0, 0, 0, 0, 1.5})).hasMessageContaining("frequencies[4]");
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(grr).queryVariance(10, new double[5], new double[] {0, 0, Double.NaN, 0, 0}))
                .hasMessageContaining("coefficients[2]");
        HadamardResponse hr = new HadamardResponse(5, EPS);
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(hr).estimate(new long[8], 3)).hasMessageContaining("accumulated reports");
        TreeMechanism tree = new TreeMechanism(5, EPS, 2);
        assertThatThrownBy(() -> FrequencyOracleEstimator.of(tree).estimate(new long[tree.stateLength()], 3)).hasMessageContaining("accumulated reports");
        assertThatThrownBy(() -> FrequencyOracles.create(MechanismId.LOCAL_PROJECTION, 5, EPS))
                .hasMessageContaining("mechanism").hasMessageContaining("projection").hasMessageContaining("grr");
    }
}

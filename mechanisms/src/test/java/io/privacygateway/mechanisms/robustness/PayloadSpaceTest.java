package io.privacygateway.mechanisms.robustness;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FrequencyOracle;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.fo.HadamardResponse;
import io.privacygateway.mechanisms.local.fo.OptimizedLocalHashing;
import io.privacygateway.mechanisms.local.fo.SubsetSelection;
import io.privacygateway.mechanisms.local.fo.TreeMechanism;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignProtocol;
import io.privacygateway.mechanisms.local.gaussian.GaussianSignRandomizer;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the bound ranges over. (1) The accepted payloads are exactly the payload space the closed forms
 * assume (counted by enumerating every byte string), and everything else (wrong length, stray bits, out-of-range
 * indices, null) is refused by {@code accumulate} without touching the state, so it never counts in a window.
 * (2) Every accepted payload is a possible output of the honest randomizer for every value: the honest worst
 * case equals the malicious one for the same coins, and a single report cannot be recognised as malicious.
 */
class PayloadSpaceTest {
    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (WorkloadSpec s : List.of(PoisoningWorkloads.histogram(6, 1.0), PoisoningWorkloads.cdf(16, 0.5),
                PoisoningWorkloads.marginals(3, 2, 4.0))) {
            for (MechanismId id : PoisoningWorkloads.local(s)) {
                out.add(Arguments.of(s.id() + "/" + id.wireName(), s, id));
            }
        }
        return out.stream();
    }

    /** The number of valid payloads the closed form assumes, for a report with this public base word. */
    static long expectedAccepted(LocalProtocol protocol, long base) {
        if (protocol instanceof GaussianSignProtocol g) {
            return 1L << g.levels().size();
        }
        FrequencyOracle o = ((FrequencyOracleProtocol) protocol).oracle();
        int k = o.domainSize();
        return switch (o.id()) {
            case GRR -> k;
            case OUE -> 1L << k;
            case OLH -> ((OptimizedLocalHashing) o).range();
            case SUBSET_SELECTION -> binomial(k, ((SubsetSelection) o).subsetSize()).longValueExact();
            case HADAMARD_RESPONSE -> ((HadamardResponse) o).order();
            case TREE -> {
                TreeMechanism t = (TreeMechanism) o;
                int l = t.levelOf(base);
                yield t.levelMechanism(l) == MechanismId.OLH ? OptimizedLocalHashing.optimalRange(t.epsilon()) : t.levelSize(l);
            }
            case FACTORIZATION -> ((io.privacygateway.mechanisms.local.fo.FactorizationOracle) o).outputs();
            case FOURIER -> ((io.privacygateway.mechanisms.local.fo.FourierMarginals) o).outputs();
            default -> throw new IllegalArgumentException(o.id().wireName());
        };
    }

    static BigInteger binomial(int n, int r) {
        BigInteger c = BigInteger.ONE;
        for (int i = 1; i <= r; i++) {
            c = c.multiply(BigInteger.valueOf(n - r + i)).divide(BigInteger.valueOf(i));
        }
        return c;
    }

    static long base(LocalProtocol protocol, ReportCoordinates c) {
        return protocol instanceof GaussianSignProtocol g ? g.coins().base(c) : ((FrequencyOracleProtocol) protocol).publicBase(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void acceptedPayloadsAreExactlyTheAssumedSpaceAndTheRestIsRefusedWithoutEffect(String name, WorkloadSpec s,
            MechanismId id) {
        LocalPipeline p = PoisoningWorkloads.pipeline(s, id);
        LocalProtocol protocol = p.protocol();
        int bytes = protocol.payloadBytes();
        long[] state = new long[protocol.stateLength()];
        Arrays.fill(state, 3);
        long[] before = state.clone();
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 4; i++) {
            ReportCoordinates c = MechanismInfluence.probe(i);
            long accepted = 0;
            for (int v = 0; v < 1 << (8 * bytes); v++) {
                byte[] payload = OracleInfluence.index(v, bytes);
                long[] copy = state.clone();
                if (protocol.accumulate(payload, c, copy)) {
                    accepted++;
                } else {
                    assertThat(copy).isEqualTo(before);
                }
            }
            assertThat(accepted).isEqualTo(expectedAccepted(protocol, base(protocol, c)));
            // wrong lengths (every byte string of up to 2 bytes, random longer ones) and null
            List<byte[]> wrong = new ArrayList<>();
            wrong.add(new byte[0]);
            wrong.add(null);
            for (int len : new int[] {bytes - 1, bytes + 1}) {
                if (len <= 0) {
                    continue;
                }
                int count = len <= 2 ? 1 << (8 * len) : 2000;
                for (int v = 0; v < count; v++) {
                    byte[] w = new byte[len];
                    if (len <= 2) {
                        w = OracleInfluence.index(v, len);
                    } else {
                        rnd.nextBytes(w);
                    }
                    wrong.add(w);
                }
            }
            for (byte[] w : wrong) {
                long[] copy = state.clone();
                assertThat(protocol.accumulate(w, c, copy)).isFalse();
                assertThat(copy).isEqualTo(before);
            }
        }
    }

    static List<byte[]> accepted(LocalProtocol protocol, ReportCoordinates c) {
        List<byte[]> out = new ArrayList<>();
        long[] state = new long[protocol.stateLength()];
        for (byte[] payload : new ProtocolInfluence(protocol).allPayloads()) {
            if (protocol.accumulate(payload, c, state)) {
                out.add(payload);
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyAcceptedPayloadIsAPossibleHonestOutputOfEveryValue(String name, WorkloadSpec s, MechanismId id) {
        LocalPipeline p = PoisoningWorkloads.pipeline(s, id);
        LocalProtocol protocol = p.protocol();
        int k = p.workload().universeSize();
        for (int i = 0; i < 4; i++) {
            ReportCoordinates c = MechanismInfluence.probe(i);
            long base = base(protocol, c);
            if (protocol instanceof GaussianSignProtocol gs) {
                // each level's sign is +1 with probability T/2^54, T strictly inside (0, 2^54): both signs, hence
                // every sign pattern (independent levels given the coins), have positive probability
                for (int l = 0; l < gs.levels().size(); l++) {
                    for (int x = 0; x < k; x++) {
                        long t = gs.plusThreshold(l, x, base);
                        assertThat(t).isGreaterThan(0).isLessThan(2 * GaussianSignRandomizer.FAIR_THRESHOLD);
                    }
                }
                continue;
            }
            FrequencyOracle o = ((FrequencyOracleProtocol) protocol).oracle();
            List<byte[]> all = accepted(protocol, c);
            int stride = Math.max(1, all.size() / 1024); // OUE over 16 values has 65,536: every 64th (exact for OUE over 6)
            for (int j = 0; j < all.size(); j += stride) {
                byte[] payload = all.get(j);
                for (int x = 0; x < k; x++) {
                    assertThat(o.outputProbability(x, payload, base).numerator().signum()).as("P(payload | %d)", x).isPositive();
                }
            }
        }
    }
}

package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.RecordingDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Gaussian-sign device's work does not depend on its value: for every value (including values whose
 * level vector is 0, whose bit is fair) and many reports and secret streams, the trace of
 * {@code randomize} is the same. The trace interleaves the public work (which level's public stream was
 * requested and how many words of it were consumed to build {@code Z}) with the secret draws (kind and
 * grid; the sign's threshold {@code T} is how the value enters the draw and is deliberately not part of
 * the trace: a Bernoulli draw costs one word and one comparison whatever its threshold). Deterministic.
 */
class GaussianSignDrawTraceTest {
    /** A public-stream request of a level and the number of its words the device consumed. */
    record PublicWork(int level, int words) {}

    /** Three levels: level 0 has a zero vector for value 3; level 1 has radius 0; level 2 is Q(x). */
    static GaussianSignProtocol protocol() {
        Workload w = GaussianSignProtocolTest.histogram("a", "b", "c", "d");
        double[][] rows = {{0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, -0.5, 0}, {0, 0, 0, 0}};
        List<GaussianLevel> levels = List.of(new GaussianLevel(Epsilon.of(0.5), PointSet.of(4, rows), null),
                new GaussianLevel(Epsilon.of(0.25), PointSet.of(4, new double[4][4]), null),
                new GaussianLevel(Epsilon.of(1), w.points(), null));
        return new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING, levels, 0);
    }

    /** The number of words consumed from {@code used}, a stream handed out for (base, level). */
    static int wordsConsumed(SplitMix64 used, long base, int level) {
        long next = used.nextLong();
        SplitMix64 fresh = PublicCoins.stream(base, level);
        for (int c = 0; c < 100_000; c++) {
            if (fresh.nextLong() == next) {
                return c;
            }
        }
        throw new AssertionError("stream position not found");
    }

    static List<Object> trace(GaussianSignProtocol p, int value, long base, long seed) {
        RecordingDraws r = RecordingDraws.seeded(seed);
        List<long[]> handed = new ArrayList<>();
        List<SplitMix64> streams = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        GaussianSignProtocol.StreamSource recorder = (b, level) -> {
            SplitMix64 s = PublicCoins.stream(b, level);
            handed.add(new long[] {b, level});
            streams.add(s);
            positions.add(r.trace().size());
            return s;
        };
        p.randomize(value, base, r, recorder);
        List<Object> events = new ArrayList<>(r.costTrace());
        // insert the public work where it happened (from the end, so positions stay valid)
        for (int i = streams.size() - 1; i >= 0; i--) {
            int level = (int) handed.get(i)[1];
            events.add(positions.get(i), new PublicWork(level, wordsConsumed(streams.get(i), base, level)));
        }
        return events;
    }

    @Test
    void publicWorkAndSecretDrawsDoNotDependOnTheValue() {
        GaussianSignProtocol p = protocol();
        Set<Integer> words = new HashSet<>();
        int differing = 0;
        for (int rep = 0; rep < 300; rep++) {
            long base = p.coins().base("device-" + rep, 3, rep % 4);
            Set<List<Object>> perValue = new LinkedHashSet<>();
            for (int x = 0; x < 4; x++) {
                perValue.add(trace(p, x, base, rep));
            }
            if (perValue.size() != 1) {
                differing++;
                continue;
            }
            List<Object> t = perValue.iterator().next();
            // level 0: its stream (m = 4 Gaussians, >= 4 words) and one sign; level 1 (radius 0, public):
            // a sign only; level 2: stream and sign
            assertThat(t).hasSize(5);
            assertThat(t.get(0)).isInstanceOf(PublicWork.class);
            assertThat(((PublicWork) t.get(0)).words()).isGreaterThanOrEqualTo(4);
            assertThat(t.get(1)).isEqualTo(new RecordingDraws.Draw("bernoulli", -1, 54));
            assertThat(t.get(2)).isEqualTo(new RecordingDraws.Draw("bernoulli", -1, 54));
            assertThat(t.get(3)).isInstanceOf(PublicWork.class);
            assertThat(t.get(4)).isEqualTo(new RecordingDraws.Draw("bernoulli", -1, 54));
            words.add(((PublicWork) t.get(0)).words());
        }
        assertThat(differing).as("reports whose device trace depends on the value (of 300)").isZero();
        // the words consumed for Z vary with the report (ziggurat rejections), never with the value
        assertThat(words).as("the test sees directions of different costs").hasSizeGreaterThan(1);
    }

    /** The single-level randomizer: one 2^-54 Bernoulli for every input, including 0. */
    @Test
    void singleRandomizerDrawsOnceForEveryInput() {
        GaussianSignRandomizer rz = new GaussianSignRandomizer(2.5, Epsilon.of(1), 3);
        for (double[] v : GaussianSignRandomizerTest.inputs(3, 2.5)) {
            for (double[] z : GaussianSignRandomizerTest.directions(3)) {
                RecordingDraws r = RecordingDraws.seeded(3);
                rz.randomize(v, z, r);
                assertThat(r.costTrace()).containsExactly(new RecordingDraws.Draw("bernoulli", -1, 54));
            }
        }
    }
}

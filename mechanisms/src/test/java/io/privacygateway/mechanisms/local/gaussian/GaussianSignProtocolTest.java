package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * End-to-end tests of {@link GaussianSignProtocol}. Seeds are fixed (deterministic); the accuracy checks
 * use 4 standard errors per coordinate, which a correct implementation would exceed for a random seed
 * with probability about {@code 6.3e-5} per coordinate (at most {@code 2.6e-4} per test here).
 */
class GaussianSignProtocolTest {
    static final double[] WEIGHTS = {0.3, 0.2, 0, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05};
    static final long[] COUNTS = {8000, 6000, 4000, 2000}; // n = 20,000

    static Workload histogram(String... labels) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "gauss-test");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of(labels)));
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return Workload.of(WorkloadSpecParser.parse(t));
    }

    static PointSet scaled(PointSet p, double a) {
        double[] d = p.toRowMajor();
        for (int i = 0; i < d.length; i++) {
            d[i] *= a;
        }
        return PointSet.ofRowMajor(p.size(), p.dim(), d);
    }

    /** Ten chaining-like levels: level j randomizes WEIGHTS[j]·Q(x); level 2 has radius 0. */
    static GaussianSignProtocol chaining(Workload w) {
        List<GaussianLevel> levels = new ArrayList<>();
        for (int j = 0; j < WEIGHTS.length; j++) {
            PointSet v = scaled(w.points(), WEIGHTS[j]);
            levels.add(new GaussianLevel(Epsilon.of(j == 2 ? 0.1 : 0.5), v, v));
        }
        return new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING, levels, 0.0625);
    }

    record Report(byte[] payload, ReportCoordinates coordinates) {}

    static List<Report> reports(GaussianSignProtocol p, long[] counts, long seed) {
        SeededRandomBits secret = new SeededRandomBits(seed);
        List<Report> out = new ArrayList<>();
        int i = 0;
        for (int x = 0; x < counts.length; x++) {
            for (long c = 0; c < counts[x]; c++, i++) {
                ReportCoordinates rc = new ReportCoordinates("device-" + i, 19_000 + (i % 5), i % 3);
                out.add(new Report(p.randomize(x, rc, secret), rc));
            }
        }
        return out;
    }

    /**
     * The declared ε of a one-level protocol is what its device realises: the enumerated law of
     * {@code randomize} (every value, 40 reports) has worst ratio at most {@code e^ε} exactly and within
     * {@code 1e-9} of it.
     */
    static void assertDeclaredEpsilonIsRealised(GaussianSignProtocol p) {
        BigDecimal l = ExpBounds.lowerBoundExact(p.epsilon().value(), 40);
        double worst = 0;
        for (int rep = 0; rep < 40; rep++) {
            long base = p.coins().base("device-" + rep, 5, 0);
            List<java.util.Map<Integer, io.privacygateway.mechanisms.random.Rational>> laws = new ArrayList<>();
            for (int x = 0; x < p.universeSize(); x++) {
                laws.add(GaussianSignEnumerationTest.law(p, x, base));
            }
            for (int y = 0; y < 2; y++) {
                for (var a : laws) {
                    for (var b : laws) {
                        var pa = a.getOrDefault(y, io.privacygateway.mechanisms.random.Rational.ZERO);
                        var pb = b.getOrDefault(y, io.privacygateway.mechanisms.random.Rational.ZERO);
                        assertThat(pa.ratioAtMost(pb, l)).isTrue();
                        worst = Math.max(worst, pa.doubleValue() / pb.doubleValue());
                    }
                }
            }
        }
        assertThat(worst).isGreaterThan(Math.exp(p.epsilon().value()) * (1 - 1e-9));
    }

    static long[] aggregate(GaussianSignProtocol p, List<Report> reports) {
        long[] state = new long[p.stateLength()];
        for (Report r : reports) {
            assertThat(p.accumulate(r.payload(), r.coordinates(), state)).isTrue();
        }
        return state;
    }

    @Test
    void singleLevelRecoversTheMeanAnswer() {
        Workload w = histogram("a", "b", "c", "d");
        GaussianSignProtocol p = new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(2), w.points(), null)), 0);
        assertThat(p.payloadBytes()).isEqualTo(1);
        assertThat(p.stateLength()).isEqualTo(4);
        assertDeclaredEpsilonIsRealised(p);
        assertThat(p.id()).isEqualTo(MechanismId.LOCAL_PROJECTION);
        List<Report> rs = reports(p, COUNTS, 11);
        for (Report r : rs) {
            assertThat(r.payload()[0] & 0xFE).isZero();
        }
        long n = rs.size();
        LocalEstimate est = LocalEstimators.of(p).estimate(aggregate(p, rs), n);
        double[] truth = w.meanAnswer(COUNTS);
        assertThat(est.levels()).hasSize(1);
        assertThat(est.biasBound()).isZero();
        LocalEstimate.Level lv = est.levels().get(0);
        double c = p.decodeScale(0);
        assertThat(c).isCloseTo(Math.sqrt(Math.PI / 2) / Math.tanh(1), within(1e-12));
        assertThat(lv.noiseScale()).isCloseTo(c / Math.sqrt(n), within(1e-15));
        assertThat(lv.epsilon()).isEqualTo(p.epsilon().value()); // checked on the distribution above
        assertThat(lv.radius()).isEqualTo(1.0);
        assertThat(lv.hull()).isNull();
        for (int k = 0; k < 4; k++) {
            assertThat(lv.standardErrors()[k]).isEqualTo(lv.noiseScale());
            assertThat(Math.abs(lv.mean()[k] - truth[k])).as("coordinate %d", k)
                    .isLessThan(4 * lv.standardErrors()[k]);
        }
    }

    @Test
    void chainingLevelsSumToTheMeanAnswer() {
        Workload w = histogram("a", "b", "c", "d");
        GaussianSignProtocol p = chaining(w);
        assertThat(p.payloadBytes()).isEqualTo(2);
        assertThat(p.stateLength()).isEqualTo(40);
        assertThat(p.epsilon().exact()).isEqualByComparingTo("4.6"); // the exact sum 9 × 0.5 + 0.1
        List<Report> rs = reports(p, COUNTS, 12);
        for (Report r : rs) {
            assertThat(r.payload()[1] & 0xFC).isZero(); // levels 8, 9 only
        }
        long[] state = aggregate(p, rs);
        for (int k = 0; k < 4; k++) {
            assertThat(state[2 * 4 + k]).as("radius-0 level is not accumulated").isZero();
        }
        LocalEstimate est = LocalEstimators.of(p).estimate(state, rs.size());
        assertThat(est.biasBound()).isEqualTo(0.0625);
        assertThat(est.levels()).hasSize(10);
        double[] sum = new double[4];
        double var = 0;
        for (int j = 0; j < 10; j++) {
            LocalEstimate.Level lv = est.levels().get(j);
            assertThat(lv.radius()).isEqualTo(WEIGHTS[j]);
            assertThat(lv.hull()).isSameAs(p.levels().get(j).hull());
            for (int k = 0; k < 4; k++) {
                sum[k] += lv.mean()[k];
            }
            var += lv.noiseScale() * lv.noiseScale();
        }
        assertThat(est.levels().get(2).mean()).containsOnly(0.0);
        assertThat(est.levels().get(2).noiseScale()).isZero();
        double[] truth = w.meanAnswer(COUNTS);
        for (int k = 0; k < 4; k++) {
            assertThat(Math.abs(sum[k] - truth[k])).as("coordinate %d", k).isLessThan(4 * Math.sqrt(var));
        }
    }

    @Test
    void aggregationIsIndependentOfOrderAndPartition() {
        Workload w = histogram("a", "b", "c", "d");
        GaussianSignProtocol p = chaining(w);
        List<Report> rs = reports(p, new long[] {300, 200, 100, 50}, 13);
        long[] inOrder = aggregate(p, rs);
        List<Report> shuffled = new ArrayList<>(rs);
        Collections.shuffle(shuffled, new Random(5));
        assertThat(aggregate(p, shuffled)).isEqualTo(inOrder);
        long[] merged = new long[p.stateLength()];
        for (List<Report> part : List.of(shuffled.subList(0, 100), shuffled.subList(100, 420),
                shuffled.subList(420, shuffled.size()))) {
            long[] s = aggregate(p, part);
            for (int i = 0; i < s.length; i++) {
                merged[i] += s[i];
            }
        }
        assertThat(merged).isEqualTo(inOrder);
    }

    @Test
    void malformedPayloadsAreRejectedWithoutTouchingTheState() {
        Workload w = histogram("a", "b", "c", "d");
        GaussianSignProtocol p = chaining(w);
        ReportCoordinates rc = new ReportCoordinates("d1", 3, 0);
        long[] state = aggregate(p, reports(p, new long[] {5, 5, 5, 5}, 14));
        long[] before = state.clone();
        for (byte[] bad : new byte[][] {null, {}, {0}, {0, 0, 0}, {0, 0x04}, {0, (byte) 0x80}, {-1, -1}}) {
            assertThat(p.accumulate(bad, rc, state)).as(Arrays.toString(bad)).isFalse();
            assertThat(state).isEqualTo(before);
            assertThat(p.isWellFormed(bad)).isFalse();
        }
        assertThat(p.accumulate(new byte[] {-1, 0x03}, rc, state)).isTrue();
        assertThat(state).isNotEqualTo(before);

        GaussianSignProtocol one = new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(1), w.points(), null)), 0);
        long[] s1 = new long[4];
        assertThat(one.accumulate(new byte[] {0x02}, rc, s1)).isFalse();
        assertThat(one.accumulate(new byte[] {0x00, 0x00}, rc, s1)).isFalse();
        assertThat(s1).containsOnly(0L);
        assertThat(one.accumulate(new byte[] {0x01}, rc, s1)).isTrue();
        assertThatThrownBy(() -> one.accumulate(new byte[] {1}, rc, new long[3])).hasMessageContaining("state");
        assertThatThrownBy(() -> one.accumulate(new byte[] {1}, null, s1)).hasMessageContaining("coordinates");
    }

    @Test
    void publicDirectionsAreDeterministicAcrossInstances() {
        Workload w = histogram("a", "b", "c", "d");
        GaussianSignProtocol p1 = chaining(w);
        GaussianSignProtocol p2 = chaining(histogram("a", "b", "c", "d"));
        List<GaussianLevel> levels = p1.levels();
        GaussianSignProtocol p3 = new GaussianSignProtocol(w.contentHash(), MechanismId.LOCAL_CHAINING, levels, 0.0625);
        List<Report> r1 = reports(p1, new long[] {20, 10, 10, 5}, 15);
        List<Report> r2 = reports(p2, new long[] {20, 10, 10, 5}, 15);
        for (int i = 0; i < r1.size(); i++) {
            assertThat(r2.get(i).payload()).isEqualTo(r1.get(i).payload());
        }
        assertThat(aggregate(p2, r1)).isEqualTo(aggregate(p1, r1)).isEqualTo(aggregate(p3, r1));
        long base = p1.coins().base("device-7", 19_002, 1);
        for (int j = 0; j < 10; j++) {
            for (int x = 0; x < 4; x++) {
                assertThat(p2.plusThreshold(j, x, base)).isEqualTo(p1.plusThreshold(j, x, base));
            }
        }
        // a different workload hash gives different directions
        GaussianSignProtocol other = chaining(histogram("a", "b", "c", "e"));
        assertThat(aggregate(other, r1)).isNotEqualTo(aggregate(p1, r1));
    }

    /** Exact per-level privacy over all value pairs and many reports, and fair bits for radius 0 and v = 0. */
    @Test
    void everyLevelIsExactlyPrivateAndZeroLevelsAreFair() {
        Workload w = histogram("a", "b", "c", "d");
        // level 0 has a zero vector for value 3 (as a chaining increment can be)
        double[][] rows = {{0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, -0.5, 0}, {0, 0, 0, 0}};
        List<GaussianLevel> levels = new ArrayList<>(chaining(w).levels());
        levels.set(0, new GaussianLevel(Epsilon.of(0.5), PointSet.of(4, rows), null));
        GaussianSignProtocol p = new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING, levels, 0);
        BigDecimal two54 = BigDecimal.valueOf(1L << 54);
        BigDecimal[] bounds = new BigDecimal[10];
        for (int j = 0; j < 10; j++) {
            bounds[j] = ExpBounds.lowerBoundExact(levels.get(j).epsilon().value(), 40);
        }
        for (int rep = 0; rep < 200; rep++) {
            long base = p.coins().base("device-" + rep, 7, rep % 4);
            assertThat(p.plusThreshold(2, rep % 4, base)).isEqualTo(GaussianSignRandomizer.FAIR_THRESHOLD);
            assertThat(p.plusThreshold(0, 3, base)).isEqualTo(GaussianSignRandomizer.FAIR_THRESHOLD);
            for (int j = 0; j < 10; j++) {
                BigDecimal bound = bounds[j];
                for (int x = 0; x < 4; x++) {
                    for (int y = 0; y < 4; y++) {
                        BigDecimal tx = BigDecimal.valueOf(p.plusThreshold(j, x, base));
                        BigDecimal ty = BigDecimal.valueOf(p.plusThreshold(j, y, base));
                        assertThat(tx).isLessThanOrEqualTo(bound.multiply(ty));
                        assertThat(two54.subtract(tx)).isLessThanOrEqualTo(bound.multiply(two54.subtract(ty)));
                    }
                }
            }
        }
        // randomize consumes exactly one secret word per level
        CountingBits bits = new CountingBits();
        p.randomize(1, new ReportCoordinates("x", 1, 1), bits);
        assertThat(bits.count).isEqualTo(10);
    }

    @Test
    void concurrentAccumulationMatchesSequential() throws Exception {
        Workload w = histogram("a", "b", "c", "d");
        GaussianSignProtocol p = chaining(w);
        List<Report> rs = reports(p, new long[] {400, 300, 200, 100}, 16);
        long[] expected = aggregate(p, rs);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<long[]>> parts = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                List<Report> part = rs.subList(t * 250, (t + 1) * 250);
                parts.add(pool.submit(() -> aggregate(p, part)));
            }
            long[] merged = new long[p.stateLength()];
            for (Future<long[]> f : parts) {
                long[] s = f.get();
                for (int i = 0; i < s.length; i++) {
                    merged[i] += s[i];
                }
            }
            assertThat(merged).isEqualTo(expected);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void validation() {
        Workload w = histogram("a", "b", "c", "d");
        GaussianLevel ok = new GaussianLevel(Epsilon.of(1), w.points(), null);
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.GRR, List.of(ok), 0))
                .hasMessageContaining("id must be one of").hasMessageContaining("grr");
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION, List.of(ok, ok), 0))
                .hasMessageContaining("levels.size must be 1");
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING, List.of(), 0))
                .hasMessageContaining("levels.size");
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING,
                Collections.nCopies(257, ok), 0)).hasMessageContaining("levels.size").hasMessageContaining("257");
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION, List.of(ok), Double.NaN))
                .hasMessageContaining("biasBound");
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION, List.of(ok), -1))
                .hasMessageContaining("biasBound");
        PointSet three = PointSet.of(4, new double[][] {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}});
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(1), three, null)), 0))
                .hasMessageContaining("levels[0].valueVectors must have 4 rows").hasMessageContaining("got 3");
        PointSet wide = PointSet.of(5, new double[4][5]);
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(1), wide, null)), 0))
                .hasMessageContaining("dimension 4, got 5");
        GaussianLevel big = new GaussianLevel(Epsilon.of(30), w.points(), null);
        assertThatThrownBy(() -> new GaussianSignProtocol(w, MechanismId.LOCAL_CHAINING, List.of(big, big), 0))
                .hasMessageContaining("sum of level epsilons");
        assertThatThrownBy(() -> new GaussianLevel(Epsilon.of(1), w.points(), PointSet.of(3, new double[1][3])))
                .hasMessageContaining("hull must have dimension 4").hasMessageContaining("got 3");
        assertThatThrownBy(() -> new GaussianLevel(null, w.points(), null)).hasMessageContaining("epsilon");

        GaussianSignProtocol p = new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION, List.of(ok), 0);
        assertThatThrownBy(() -> LocalEstimators.of(p).estimate(new long[4], 0)).hasMessageContaining("n must be");
        assertThatThrownBy(() -> LocalEstimators.of(p).estimate(new long[4], GaussianSignProtocol.MAX_REPORTS + 1))
                .hasMessageContaining("n must be").hasMessageContaining("134217728");
        assertThatThrownBy(() -> LocalEstimators.of(p).estimate(new long[5], 10)).hasMessageContaining("state must have length 4");
        ReportCoordinates rc = new ReportCoordinates("d", 0, 0);
        SeededRandomBits s = new SeededRandomBits(1);
        assertThatThrownBy(() -> p.randomize(4, rc, s)).hasMessageContaining("value must be an integer in [0, 3]");
        assertThatThrownBy(() -> p.randomize(-1, rc, s)).hasMessageContaining("value");
        assertThatThrownBy(() -> p.randomize(0, null, s)).hasMessageContaining("coordinates");
        assertThatThrownBy(() -> p.randomize(0, rc, (io.privacygateway.mechanisms.random.RandomBits) null))
                .hasMessageContaining("secret");
        assertThatThrownBy(() -> p.randomize(0, rc, (io.privacygateway.mechanisms.random.SecretDraws) null))
                .hasMessageContaining("secret");
        assertThatThrownBy(() -> p.decodeScale(1)).hasMessageContaining("level");
        assertThat(p.toString()).contains("pgw-gauss-v1").contains("gauss-test");
    }

    @Test
    void headroomCoversTheLargestWindow() {
        // |toFixed(z)| < 14·2^32 for every output, so 2^27 reports sum below 2^63
        assertThat(Math.log(GaussianSignProtocol.MAX_REPORTS * PublicGaussian.MAX_ABS * 0x1p32) / Math.log(2))
                .isLessThan(63);
        assertThat(GaussianSignProtocol.FIXED_POINT_BITS).isEqualTo(32);
    }

    static final class CountingBits implements io.privacygateway.mechanisms.random.RandomBits {
        int count;
        final SeededRandomBits inner = new SeededRandomBits(3);

        @Override
        public long nextLong() {
            count++;
            return inner.nextLong();
        }
    }
}

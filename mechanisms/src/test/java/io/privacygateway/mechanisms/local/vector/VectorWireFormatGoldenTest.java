package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.local.gaussian.PublicGaussian;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The golden vectors of {@code docs/wire-format.md} §10 (vector-mean reports): for fixed (content hash, coordinates,
 * value, scripted secret draws) the certified π numerators, the candidates' first Gaussians, the top set, the
 * payload and the gateway's fixed-point aggregate (ball); the sampled coordinates, the levels and the payload (box).
 * Every row computed here must appear verbatim in the document; the sampled coordinates are recomputed by a second,
 * independent transcription of Floyd's algorithm from the document.
 */
class VectorWireFormatGoldenTest {
    static final Path DOC = Path.of("..", "docs", "wire-format.md");
    static final String HASH = sha256("vector-golden");

    static String sha256(String label) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(label.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** Scripted outcomes of the secret draws, in call order: Booleans for Bernoulli draws, Integers for uniforms. */
    static final class Scripted implements SecretDraws {
        final Deque<Object> outcomes;

        Scripted(Object... outcomes) {
            this.outcomes = new ArrayDeque<>(Arrays.asList(outcomes));
        }

        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            return (Boolean) outcomes.removeFirst();
        }

        @Override
        public int uniformInt(int n) {
            int u = (Integer) outcomes.removeFirst();
            if (u >= n) {
                throw new AssertionError("scripted " + u + " not below " + n);
            }
            return u;
        }
    }

    static final String[][] COORDINATES = {{"device-42", "19876", "3"}, {"phone-7", "0", "0"}};

    static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    static String vector(double[] v) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ", ").append(plain(v[i]));
        }
        return b.append(")").toString();
    }

    static String ints(int[] v) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : " ").append(v[i]);
        }
        return b.append(")").toString();
    }

    static String draws(Object[] d) {
        StringBuilder b = new StringBuilder();
        for (Object o : d) {
            b.append(b.length() == 0 ? "" : ", ").append(o);
        }
        return b.toString();
    }

    static List<String> ballRows() {
        List<String> out = new ArrayList<>();
        for (double e : new double[] {0.5, 1, 2, 4}) {
            for (int d : new int[] {8, 32}) {
                int[] ts = BallCandidates.optimalParameters(d, Epsilon.of(e));
                for (int[] p : new int[][] {{1, 1}, ts}) {
                    BallCandidates b = BallCandidates.of(d, 1, Epsilon.of(e), HASH, p[0], p[1]);
                    long num = b.topProbability().numerator();
                    out.add("| " + plain(e) + " | " + d + " | " + b.candidateCount() + " | " + b.topSize() + " | " + num
                            + " | " + (DyadicProbability.ONE - num) + " |");
                }
            }
        }
        BallCandidates[] protocols = {
            BallCandidates.of(3, 2, Epsilon.of(1), HASH, 3, 2),
            BallCandidates.of(3, 2, Epsilon.of(4), HASH, 5, 1),
        };
        double[][] values = {{1, -0.5, 0.25}, {0, 0, 0}, {0, 2, 0}};
        Object[][] scripts = {{true, true, 0, 0}, {false, false, 0, 2}};
        PublicCoins coins = new PublicCoins(HASH);
        for (BallCandidates p : protocols) {
            for (String[] c : COORDINATES) {
                ReportCoordinates rc = new ReportCoordinates(c[0], Long.parseLong(c[1]), Integer.parseInt(c[2]));
                long base = coins.base(rc);
                double[] c0 = p.candidate(base, 0);
                out.add("| `" + c[0] + "`, " + c[1] + ", " + c[2] + " | c_0 = ("
                        + Double.toHexString(c0[0]) + ", " + Double.toHexString(c0[1]) + ", "
                        + Double.toHexString(c0[2]) + ") |");
                for (double[] x : values) {
                    for (Object[] s : scripts) {
                        byte[] y = p.randomize(x, rc, new Scripted(s));
                        double[] u = x.clone();
                        for (int k = 0; k < u.length; k++) {
                            u[k] /= p.radius();
                        }
                        double rho = Math.min(1, BallCandidates.norm(u));
                        double[] unit = new double[3];
                        boolean plus = (Boolean) s[0];
                        if (rho == 0) {
                            unit[0] = plus ? 1 : -1;
                        } else {
                            for (int k = 0; k < 3; k++) {
                                unit[k] = (plus ? 1 : -1) * u[k] / rho;
                            }
                        }
                        int[] top = Arrays.copyOf(p.ranking(unit, base), p.topSize());
                        long[] state = new long[3];
                        assertThat(p.accumulate(y, rc, state)).isTrue();
                        out.add("| ε=" + plain(p.epsilon().value()) + " N=" + p.candidateCount() + " s=" + p.topSize()
                                + " | `" + c[0] + "`, " + c[1] + ", " + c[2] + " | " + vector(x) + " | "
                                + BallCandidates.normNumerator(rho) + " | " + draws(s) + " | " + ints(top) + " | `"
                                + HexFormat.of().formatHex(y) + "` | " + state[0] + ", " + state[1] + ", " + state[2]
                                + " |");
                    }
                }
            }
        }
        return out;
    }

    /** Floyd's algorithm transcribed from §10.3, independently of {@link BoxCoordinates#sample}. */
    static int[] floyd(long base, int d, int k) {
        SplitMix64 s = PublicCoins.stream(base, 0x500);
        List<Integer> picks = new ArrayList<>();
        for (int j = d - k; j < d; j++) {
            int u = ExactSampler.uniformInt(s, j + 1);
            picks.add(picks.contains(u) ? j : u);
        }
        return picks.stream().sorted().mapToInt(Integer::intValue).toArray();
    }

    static List<String> boxRows() {
        List<String> out = new ArrayList<>();
        Object[][] cases = {
            {MechanismId.DUCHI, 2.0, 2, new Object[] {true, false}},
            {MechanismId.PIECEWISE, 4.0, 3, new Object[] {false, true, 3, 100, true, false, 0, 0, false, true, 17, 5}},
            {MechanismId.HYBRID, 6.0, 1, new Object[] {false, true, false, false, 0, 0}},
        };
        double[][] values = {{0, 2.5, 10, 7.04, 5.05}, {10, 10, 10, 10, 10}};
        PublicCoins coins = new PublicCoins(HASH);
        for (Object[] cs : cases) {
            MechanismId id = (MechanismId) cs[0];
            double eps = (Double) cs[1];
            int k = (Integer) cs[2];
            BoxCoordinates p = BoxCoordinates.of(5, 0, 10, 11, id, Epsilon.of(eps), HASH, k);
            for (String[] c : COORDINATES) {
                ReportCoordinates rc = new ReportCoordinates(c[0], Long.parseLong(c[1]), Integer.parseInt(c[2]));
                int[] sampled = p.sampledCoordinates(rc);
                assertThat(sampled).containsExactly(floyd(coins.base(rc), 5, k));
                for (double[] x : values) {
                    byte[] y = p.randomize(x, rc, new Scripted((Object[]) cs[3]));
                    int[] levels = new int[k];
                    for (int i = 0; i < k; i++) {
                        levels[i] = p.range().levelOf(x[sampled[i]]);
                    }
                    out.add("| " + id.wireName() + " ε=" + plain(eps) + " k=" + k + " ε_k=" + p.scalar().epsilon().exact()
                            .toPlainString() + " | `" + c[0] + "`, " + c[1] + ", " + c[2] + " | " + ints(sampled) + " | "
                            + vector(x) + " | " + ints(levels) + " | " + draws((Object[]) cs[3]) + " | `"
                            + HexFormat.of().formatHex(y) + "` |");
                }
            }
        }
        return out;
    }

    @Test
    void everyGoldenRowIsInTheDocument() throws Exception {
        List<String> rows = new ArrayList<>(ballRows());
        rows.addAll(boxRows());
        if (Boolean.getBoolean("golden.print")) {
            System.out.println("HASH " + HASH);
            rows.forEach(System.out::println);
            return;
        }
        String doc = Files.readString(DOC);
        assertThat(doc).contains(HASH);
        for (String r : rows) {
            assertThat(doc).as("docs/wire-format.md §10").contains(r);
        }
    }

    /** The first Gaussian of candidate 0 is the first output of PublicGaussian on stream 0x400 (§10.2). */
    @Test
    void candidatesAreThePublicGaussiansOfTheirStreams() {
        BallCandidates p = BallCandidates.of(4, 1, Epsilon.of(1), HASH, 4, 2);
        long base = new PublicCoins(HASH).base(new ReportCoordinates("device-42", 19876, 3));
        for (int j = 0; j < 8; j++) {
            SplitMix64 s = new SplitMix64(PublicCoins.streamSeed(base, 0x400 + j));
            double[] expected = new double[4];
            for (int k = 0; k < 4; k++) {
                expected[k] = PublicGaussian.next(s);
            }
            assertThat(p.candidate(base, j)).containsExactly(expected);
        }
    }
}

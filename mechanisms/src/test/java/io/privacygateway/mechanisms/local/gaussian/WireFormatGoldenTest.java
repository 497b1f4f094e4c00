package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.testing.ScriptedWords;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The golden vectors of {@code docs/wire-format.md} §6 ({@code pgw-gauss-v1}). The constants below mirror
 * the document; {@link #theDocumentStatesTheseVectors} checks that every one of them appears in it
 * verbatim and that its Appendix A equals the generator's tables, so the two cannot drift apart.
 */
class WireFormatGoldenTest {
    static final String H = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    /** deviceId, period, sequence, message hex, base, seed 0, seed 1. */
    static final String[][] BASES = {
        {"device-42", "19876", "3", "6465766963652d3432a44d00000000000003000000", "0xf0d784ad51dac908",
            "0x12f72c942ac704a7", "0x9eaf1ac7f063acfc"},
        {"dévice-ü", "0", "0", "64c3a9766963652dc3bc000000000000000000000000", "0x3373fc6136528d68",
            "0xd15354584d4f40c7", "0x5d0b620b97ebe89c"},
        {"0123456789abcdef-sensor", "1", "2147483647",
            "303132333435363738396162636465662d73656e736f720100000000000000ffffff7f", "0x23b575fe509be47a",
            "0xc195ddc72b8629d5", "0x4dcdeb94f122818e"},
    };

    static final String[][] WORDS = {
        {"0xa1a624bf02a6bc97", "0x82efe4b22839715f", "0xe7de92ab2e7240e1"},
        {"0xef9f94a55c1376e9", "0xdc581059fac2c115", "0x535b7cdb4509c81d"},
    };

    static final String[][] GAUSSIANS = {
        {"-0x1.73c37bfd254dbp-2", "-0x1.4c831ac07c0dep-5", "-0x1.525386096120ep-1", "0x1.07e2674fae2fdp0",
            "-0x1.5c4c727548641p-2", "-0x1.06732538293p-3", "-0x1.8c8497ecb5e64p-3", "0x1.e210c3c2bce8ep-1"},
        {"-0x1.43e82dc746b25p-1", "-0x1.de437bc3ff4fcp0", "0x1.973d038cb8d83p0", "0x1.bbac5ff296fa7p-2",
            "0x1.80e98a096da9ep-2", "0x1.c59f06228ef37p-1", "-0x1.c66e8c9632db6p-3", "0x1.8f42f02cd631ap-4"},
    };

    static final String FINGERPRINT_SUM = "0xf1bf0c9f60c01e11";
    static final String FINGERPRINT_WORDS = "1,021,978";
    static final String FINGERPRINT_NEXT = "0xbad85fc2ca01b429";
    static final String TABLES_SHA256 = "aed1fe945a6a5d4c99a667d4a49aee827d8ca49ce2136b95c00734d6513a85ef";

    /** ε, B hex, B decimal. */
    static final String[][] BIASES = {
        {"0.001", "0x00000418936f0266", "4503599252070"},
        {"0.5", "0x0007d65fa9a68721", "2206031193474849"},
        {"1", "0x000ec9a9ebab4579", "4162381314475385"},
        {"2", "0x00185efab514f394", "6859830313939860"},
        {"20", "0x001ffffffdc96f35", "9007199217610549"},
        {"40", "0x001fffffffffffff", "9007199254740991"},
    };

    static final String C0 = "0x1.5b268836c209cp1";
    static final String C1 = "0x1.89018f141a109p0";
    static final String[] T_VALUE0 = {"0x002ec9a9ebab4579", "0x001829a0565978df"};
    static final String[] T_VALUE1 = {"0x001136561454ba87", "0x0020000000000000"};
    static final String[] SECRET_WORDS = {"0xbb26a7aead15e000", "0x60a6815965e37c00"};
    static final String PAYLOAD_VALUE0 = "01";
    static final String PAYLOAD_VALUE1 = "02";
    static final String STATE = "[-1559289599, -174332118, -2838086405, 2717128420, 8023931844, -6832325517]";
    static final String[][] MEANS = {
        {"-0x1.f821ede25a4a5p-1", "-0x1.c2e7c1a4fe65bp-4", "-0x1.caca231a30bfcp0"},
        {"0x1.f14167385678dp-1", "0x1.6f1c41484fefp1", "-0x1.389792a5c3e1dp1"},
    };
    static final String BIT_ORDER_EXAMPLE = "`0d 01`";

    static long hex(String s) {
        return Long.parseUnsignedLong(s.substring(2), 16);
    }

    static String hex(long x) {
        return String.format("0x%016x", x);
    }

    @Test
    void baseWordsAndStreamSeeds() {
        PublicCoins coins = new PublicCoins(H);
        for (String[] v : BASES) {
            long period = Long.parseLong(v[1]);
            int sequence = Integer.parseInt(v[2]);
            ByteBuffer tail = ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(period)
                    .putInt(sequence);
            byte[] id = v[0].getBytes(StandardCharsets.UTF_8);
            byte[] msg = new byte[id.length + 12];
            System.arraycopy(id, 0, msg, 0, id.length);
            System.arraycopy(tail.array(), 0, msg, id.length, 12);
            assertThat(HexFormat.of().formatHex(msg)).isEqualTo(v[3]);
            long base = coins.base(new ReportCoordinates(v[0], period, sequence));
            assertThat(hex(base)).as(v[0]).isEqualTo(v[4]);
            assertThat(hex(PublicCoins.streamSeed(base, 0))).isEqualTo(v[5]);
            assertThat(hex(PublicCoins.streamSeed(base, 1))).isEqualTo(v[6]);
        }
    }

    @Test
    void streamWordsAndFirstGaussians() {
        long base = new PublicCoins(H).base("device-42", 19876, 3);
        for (int s = 0; s < 2; s++) {
            SplitMix64 words = PublicCoins.stream(base, s);
            for (String w : WORDS[s]) {
                assertThat(hex(words.nextLong())).isEqualTo(w);
            }
            SplitMix64 g = PublicCoins.stream(base, s);
            for (int k = 0; k < 8; k++) {
                assertThat(Double.toHexString(PublicGaussian.next(g))).as("stream %d, k=%d", s, k)
                        .isEqualTo(GAUSSIANS[s][k]);
            }
        }
    }

    @Test
    void longRunFingerprint() {
        SplitMix64 g = new SplitMix64(0);
        long sum = 0;
        for (int i = 0; i < 1_000_000; i++) {
            sum += Double.doubleToRawLongBits(PublicGaussian.next(g));
        }
        assertThat(hex(sum)).isEqualTo(FINGERPRINT_SUM);
        long next = g.nextLong();
        assertThat(hex(next)).isEqualTo(FINGERPRINT_NEXT);
        // the next word of SplitMix64(0) after k words is mix64((k + 1)·GOLDEN)
        long consumed = Long.parseLong(FINGERPRINT_WORDS.replace(",", ""));
        assertThat(SplitMix64.mix64((consumed + 1) * SplitMix64.GOLDEN)).isEqualTo(next);
    }

    @Test
    void tablesHash() throws Exception {
        assertThat(tablesSha256()).isEqualTo(TABLES_SHA256);
    }

    static String tablesSha256() throws Exception {
        ByteBuffer b = ByteBuffer.allocate(8 * (257 + 257 + 256));
        for (double x : PublicGaussian.abscissae()) {
            b.putLong(Double.doubleToRawLongBits(x));
        }
        for (double x : PublicGaussian.densities()) {
            b.putLong(Double.doubleToRawLongBits(x));
        }
        for (long k : PublicGaussian.thresholds()) {
            b.putLong(k);
        }
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b.array()));
    }

    @Test
    void certifiedBiasNumerators() {
        for (String[] v : BIASES) {
            long b = GaussianSignRandomizer.certifiedBiasNumerator(Epsilon.of(Double.parseDouble(v[0])));
            assertThat(hex(b)).as("ε=%s", v[0]).isEqualTo(v[1]);
            assertThat(Long.toString(b)).isEqualTo(v[2]);
        }
    }

    static GaussianSignProtocol twoLevelProtocol() {
        PointSet l0 = PointSet.of(3, new double[][] {{-0.6, 0.8, 0.0}, {0, 0, 1}});
        PointSet l1 = PointSet.of(3, new double[][] {{0.1, 0.2, -0.2}, {0, 0, 0}});
        return new GaussianSignProtocol(H, MechanismId.LOCAL_CHAINING,
                List.of(new GaussianLevel(Epsilon.of(1), l0, null), new GaussianLevel(Epsilon.of(0.5), l1, null)), 0);
    }

    @Test
    void twoLevelReportEndToEnd() {
        GaussianSignProtocol p = twoLevelProtocol();
        ReportCoordinates rc = new ReportCoordinates("device-42", 19876, 3);
        long base = p.coins().base(rc);
        assertThat(p.levels().get(0).radius()).isEqualTo(1.0);
        assertThat(p.levels().get(1).radius()).isEqualTo(0.30000000000000004);
        assertThat(hex(p.biasNumerator(0))).isEqualTo(BIASES[2][1]);
        assertThat(hex(p.biasNumerator(1))).isEqualTo(BIASES[1][1]);
        assertThat(Double.toHexString(p.decodeScale(0))).isEqualTo(C0);
        assertThat(Double.toHexString(p.decodeScale(1))).isEqualTo(C1);
        for (int j = 0; j < 2; j++) {
            assertThat(hex(p.plusThreshold(j, 0, base))).isEqualTo(T_VALUE0[j]);
            assertThat(hex(p.plusThreshold(j, 1, base))).isEqualTo(T_VALUE1[j]);
        }
        assertThat(hex((p.plusThreshold(0, 0, base) - 1) << 10)).isEqualTo(SECRET_WORDS[0]);
        assertThat(hex(p.plusThreshold(1, 0, base) << 10)).isEqualTo(SECRET_WORDS[1]);
        byte[] payload = p.randomize(0, rc, new ScriptedWords(hex(SECRET_WORDS[0]), hex(SECRET_WORDS[1])));
        assertThat(HexFormat.of().formatHex(payload)).isEqualTo(PAYLOAD_VALUE0);
        assertThat(HexFormat.of().formatHex(p.randomize(1, rc, new ScriptedWords(hex(SECRET_WORDS[0]), hex(SECRET_WORDS[1])))))
                .isEqualTo(PAYLOAD_VALUE1);
        long[] state = new long[p.stateLength()];
        assertThat(p.accumulate(payload, rc, state)).isTrue();
        assertThat(java.util.Arrays.toString(state)).isEqualTo(STATE);
        LocalEstimate est = LocalEstimators.of(p).estimate(state, 1);
        for (int j = 0; j < 2; j++) {
            for (int k = 0; k < 3; k++) {
                assertThat(Double.toHexString(est.levels().get(j).mean()[k])).isEqualTo(MEANS[j][k]);
            }
        }
    }

    @Test
    void payloadBitOrderExample() {
        // L = 10, signs + − + + − − − − + −  →  bytes 0d 01
        boolean[] signs = {true, false, true, true, false, false, false, false, true, false};
        byte[] payload = HexFormat.of().parseHex(BIT_ORDER_EXAMPLE.replace("`", "").replace(" ", ""));
        for (int j = 0; j < 10; j++) {
            assertThat(GaussianSignProtocol.signBit(payload, j)).as("level %d", j).isEqualTo(signs[j]);
        }
    }

    /** Every vector above appears verbatim in docs/wire-format.md, and Appendix A is the generator's tables. */
    @Test
    void theDocumentStatesTheseVectors() throws Exception {
        String doc = Files.readString(docPath(), StandardCharsets.UTF_8);
        List<String> expected = new ArrayList<>(List.of(H, FINGERPRINT_SUM, FINGERPRINT_WORDS, FINGERPRINT_NEXT,
                TABLES_SHA256, C0, C1, PAYLOAD_VALUE0, STATE, BIT_ORDER_EXAMPLE, "pgw-gauss-v1",
                "`" + Double.toHexString(PublicGaussian.R) + "`", "`" + Double.toHexString(PublicGaussian.V) + "`"));
        for (String[] v : BASES) {
            expected.add("| `" + v[0] + "` | " + v[1] + " | " + v[2] + " | `" + v[3] + "` | `" + v[4] + "` | `" + v[5]
                    + "` | `" + v[6] + "` |");
        }
        for (int s = 0; s < 2; s++) {
            expected.add("| " + s + " | `" + String.join("` | `", WORDS[s]) + "` |");
        }
        for (int k = 0; k < 8; k++) {
            expected.add("| " + k + " | `" + GAUSSIANS[0][k] + "` | `" + GAUSSIANS[1][k] + "` |");
        }
        for (String[] v : BIASES) {
            expected.add("| " + v[0] + " | `" + v[1] + "` | " + v[2] + " |");
        }
        expected.add("level 0 `" + T_VALUE0[0] + "`");
        expected.add("`" + T_VALUE0[1] + "`");
        expected.add("level 0 `" + T_VALUE1[0] + "`");
        expected.add("level 1 `" + T_VALUE1[1] + "`");
        expected.add("`" + SECRET_WORDS[0] + "`");
        expected.add("`" + SECRET_WORDS[1] + "`");
        expected.add("**Payload: `" + PAYLOAD_VALUE0 + "`.**");
        expected.add("payload `" + PAYLOAD_VALUE1 + "`");
        for (int j = 0; j < 2; j++) {
            expected.add("level " + j + " mean `(" + String.join(", ", MEANS[j]) + ")`");
        }
        for (String e : expected) {
            assertThat(doc).as("docs/wire-format.md states %s", e).contains(e);
        }

        // Appendix A: "i X[i] F[i] K[i]" rows equal to the generated tables
        String appendix = doc.substring(doc.indexOf("## Appendix A"));
        Matcher m = Pattern.compile("(?m)^\\s*(\\d+) (\\S+)\\s+(\\S+)\\s+(\\S+)$").matcher(appendix);
        double[] x = PublicGaussian.abscissae();
        double[] f = PublicGaussian.densities();
        long[] k = PublicGaussian.thresholds();
        int rows = 0;
        while (m.find()) {
            int i = Integer.parseInt(m.group(1));
            assertThat(i).isEqualTo(rows);
            assertThat(Double.parseDouble(m.group(2))).as("X[%d]", i).isEqualTo(x[i]);
            assertThat(Double.parseDouble(m.group(3))).as("F[%d]", i).isEqualTo(f[i]);
            if (i < 256) {
                assertThat(hex(k[i])).as("K[%d]", i).isEqualTo(m.group(4));
            }
            rows++;
        }
        assertThat(rows).isEqualTo(257);
    }

    static Path docPath() {
        for (String candidate : new String[] {"../docs/wire-format.md", "docs/wire-format.md"}) {
            Path p = Path.of(candidate);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new AssertionError("docs/wire-format.md not found from " + Path.of("").toAbsolutePath());
    }

}

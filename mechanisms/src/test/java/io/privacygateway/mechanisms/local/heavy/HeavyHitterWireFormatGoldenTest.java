package io.privacygateway.mechanisms.local.heavy;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.DyadicProbability;
import io.privacygateway.mechanisms.random.SecretDraws;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The golden vectors of {@code docs/wire-format.md} §9 (open-domain heavy-hitter reports): the certified keep
 * numerators, and for fixed (content hash, coordinates, item, scripted secret draw) the public coins (level, row,
 * Hadamard index), the bucket and the payload. Every row computed here must appear verbatim in the document.
 */
class HeavyHitterWireFormatGoldenTest {
    static final Path DOC = Path.of("..", "docs", "wire-format.md");
    static final String HASH = HeavyHitterFixtures.contentHash("heavy-hitter-golden");

    /** Scripted outcomes of the device's two secret draws: the Bernoulli, then the uniform one. */
    record Scripted(boolean keep, int u) implements SecretDraws {
        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            return keep;
        }

        @Override
        public int uniformInt(int n) {
            if (u >= n) {
                throw new AssertionError("scripted u = " + u + " not below " + n);
            }
            return u;
        }
    }

    /** The bucket as §9 derives it, from the bytes of the message, without the protocol's code path. */
    static int independentBucket(HeavyHitterParameters hp, HeavyHitterProtocol.Coins k, String item) {
        byte[] h = HexFormat.of().parseHex(HASH);
        byte[] utf8 = item.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int prefix = (k.level() + 1) * hp.segmentBytes();
        java.nio.ByteBuffer m = java.nio.ByteBuffer.allocate(8 + prefix).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        m.putInt(k.level()).putInt(k.row());
        for (int i = 0; i < prefix; i++) {
            m.put(i < utf8.length ? utf8[i] : 0);
        }
        long sip = io.privacygateway.mechanisms.coins.SipHash24.ofKeyBytes(java.util.Arrays.copyOfRange(h, 16, 32))
                .hash(m.array());
        return (int) (sip & (hp.width() - 1));
    }

    static List<String> rows() throws Exception {
        List<String> out = new ArrayList<>();
        for (double e : new double[] {0.5, 1, 2, 4}) {
            for (int t = 1; t <= 8; t++) {
                HeavyHitterParameters hp = new HeavyHitterParameters(Epsilon.of(e), 16, 2, 3, 1024, 32, t);
                if (t != 1 && t != HeavyHitterParameters.optimalPayloadBits(Epsilon.of(e))) {
                    continue;
                }
                HeavyHitterProtocol p = new HeavyHitterProtocol(hp, HASH);
                long num = p.keepProbability().numerator();
                out.add("| " + java.math.BigDecimal.valueOf(e).stripTrailingZeros().toPlainString() + " | " + t + " | "
                        + num + " | " + (DyadicProbability.ONE - num) + " |");
            }
        }
        HeavyHitterParameters[] ps = {
            HeavyHitterParameters.defaults(Epsilon.of(1), 16, 1), // b = 2, R = 3, W = 1024, t = 2
            new HeavyHitterParameters(Epsilon.of(1), 5, 1, 2, 8, 4, 1),
            new HeavyHitterParameters(Epsilon.of(4), 16, 2, 3, 1024, 32, 6),
        };
        String[][] cases = {{"device-42", "19876", "3", "a"}, {"device-42", "19876", "4", "example.org/x"},
            {"phone-7", "0", "0", "crash:E42"}, {"phone-7", "1", "2", "é"}};
        for (HeavyHitterParameters hp : ps) {
            HeavyHitterProtocol p = new HeavyHitterProtocol(hp, HASH);
            for (String[] c : cases) {
                String item = c[3];
                if (item.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > hp.maxBytes()) {
                    item = item.substring(0, 2);
                }
                ReportCoordinates rc = new ReportCoordinates(c[0], Long.parseLong(c[1]), Integer.parseInt(c[2]));
                HeavyHitterProtocol.Coins k = p.coins(rc);
                int bucket = p.bucket(k.level(), k.row(), p.paddedItem(item));
                assertThat(bucket).isEqualTo(independentBucket(hp, k, item));
                int others = (1 << hp.payloadBits()) - 1;
                for (int[] draw : others == 1 ? new int[][] {{1, 0}, {0, 0}} : new int[][] {{1, 0}, {0, 0}, {0, others - 1}}) {
                    byte[] y = p.randomize(item, rc, new Scripted(draw[0] == 1, draw[1]));
                    StringBuilder js = new StringBuilder();
                    for (int j : k.indices()) {
                        js.append(js.length() == 0 ? "" : " ").append(j);
                    }
                    out.add("| ε=" + hp.epsilon().value() + " L=" + hp.maxBytes() + " b=" + hp.segmentBytes() + " R="
                            + hp.rows() + " W=" + hp.width() + " t=" + hp.payloadBits() + " | `" + c[0] + "`, " + c[1]
                            + ", " + c[2] + " | `" + item + "` | " + k.level() + ", " + k.row() + ", (" + js + ") | "
                            + bucket + " | " + (draw[0] == 1) + ", " + draw[1] + " | `" + HexFormat.of().formatHex(y)
                            + "` |");
                }
            }
        }
        return out;
    }

    @Test
    void everyGoldenRowIsInTheDocument() throws Exception {
        String doc = Files.readString(DOC);
        if (Boolean.getBoolean("golden.print")) {
            System.out.println("HASH " + HASH);
            rows().forEach(System.out::println);
            return;
        }
        assertThat(doc).contains(HASH);
        for (String r : rows()) {
            assertThat(doc).as("docs/wire-format.md §9").contains(r);
        }
    }
}

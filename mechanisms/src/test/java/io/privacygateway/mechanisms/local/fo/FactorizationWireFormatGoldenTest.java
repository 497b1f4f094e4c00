package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.local.factorization.FactorizationMechanism;
import io.privacygateway.mechanisms.param.Epsilon;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The golden vectors of {@code docs/wire-format.md} §8 (workload-factorization reports): the fingerprint of the
 * strategy's integer weights that a second implementation must reproduce bit for bit, and the payloads of scripted
 * draws. Every row computed here must appear verbatim in the document.
 */
class FactorizationWireFormatGoldenTest {
    /** SHA-256 of the weights {@code w[o][x]}, o-major, each as 8 bytes big-endian. */
    static String fingerprint(FactorizationMechanism m) throws NoSuchAlgorithmException {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        ByteBuffer b = ByteBuffer.allocate(8);
        for (int o = 0; o < m.outputs(); o++) {
            for (int x = 0; x < m.values(); x++) {
                b.clear();
                b.putLong(m.weight(x, o));
                d.update(b.array());
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    static List<String> rows() throws NoSuchAlgorithmException {
        List<String> out = new ArrayList<>();
        for (int k : new int[] {4, 16}) {
            for (double e : new double[] {0.5, 1, 4}) {
                FactorizationMechanism m = new FactorizationOracle(FactorizationOracleTest.cdf(k), Epsilon.of(e))
                        .mechanism();
                StringBuilder first = new StringBuilder();
                for (int x = 0; x < k && x < 4; x++) {
                    first.append(x == 0 ? "" : ", ").append(m.weight(x, 0));
                }
                String lambda = m.mixing() == 0 ? "0" : "2^" + Math.getExponent(m.mixing());
                out.add("| cdf, k = " + k + " | " + java.math.BigDecimal.valueOf(e).stripTrailingZeros().toPlainString()
                        + " | " + m.outputs() + " | " + lambda + " | `" + first
                        + "` | `" + fingerprint(m) + "` |");
            }
        }
        FactorizationOracle o = new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(1));
        for (int u : new int[] {0, 1 << 27, 1 << 29, (1 << 30) - 1}) {
            for (int x : new int[] {0, 3}) {
                byte[] payload = o.randomize(x, 0, new FactorizationOracleTest.Scripted(u));
                out.add("| " + x + " | " + u + " | `" + HexFormat.of().formatHex(payload) + "` |");
            }
        }
        return out;
    }

    @Test
    void everyGoldenRowIsInTheDocument() throws Exception {
        io.privacygateway.mechanisms.testing.WireFormatDocument.assertContainsAll("§8", rows());
    }
}

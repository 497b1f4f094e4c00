package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SecretDraws;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The golden vectors of {@code docs/wire-format.md} §11 (Fourier marginal reports): the parameters a second
 * implementation must derive from (d, t, ε), and the payloads of scripted draws. Every row computed here must appear
 * verbatim in the document.
 */
class FourierWireFormatGoldenTest {
    /** Draws answered from a script: the uniform integers in order, and the one Bernoulli. */
    static final class Scripted implements SecretDraws {
        private final int[] ints;
        private final boolean coin;
        private int next;

        Scripted(boolean coin, int... ints) {
            this.coin = coin;
            this.ints = ints;
        }

        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            return coin;
        }

        @Override
        public int uniformInt(int n) {
            int v = ints[next] % n; // the script's integer reduced to the range asked for
            ints[next++] = v;
            return v;
        }
    }

    static String weights(int mask, int r) {
        StringBuilder b = new StringBuilder("{");
        for (int j = 0; j <= r; j++) {
            if ((mask >>> j & 1) != 0) {
                b.append(b.length() > 1 ? ", " : "").append(j);
            }
        }
        return b.append('}').toString();
    }

    static List<String> rows() {
        List<String> out = new ArrayList<>();
        int[][] cases = {{8, 3}, {4, 2}, {12, 2}};
        for (int[] c : cases) {
            for (double e : new double[] {0.5, 1, 4}) {
                FourierMarginals o = new FourierMarginals(c[0], c[1], Epsilon.of(e));
                FourierMarginals.Parameters p = o.parameters();
                out.add("| " + c[0] + " | " + c[1] + " | " + java.math.BigDecimal.valueOf(e).stripTrailingZeros()
                        .toPlainString() + " | " + p.blockSize() + " | `" + weights(p.favouredWeights(), p.blockSize())
                        + "` | " + o.outputs() + " | " + o.favouredProbability().numerator() + " |");
            }
        }
        FourierMarginals o = new FourierMarginals(4, 2, Epsilon.of(1));
        for (int x : new int[] {0, 0b1011}) {
            for (Scripted s : List.of(new Scripted(true, 0, 0, 0), new Scripted(false, 0, 0, 0),
                    new Scripted(true, 3, 1, 2), new Scripted(false, 3, 1, 2))) {
                String payload = HexFormat.of().formatHex(o.randomize(x, 0, s));
                String script = s.ints[0] + ", " + s.coin + ", " + s.ints[1] + ", " + s.ints[2];
                out.add("| " + x + " | " + script + " | `" + payload + "` |");
            }
        }
        return out;
    }

    @Test
    void everyGoldenRowIsInTheDocument() throws Exception {
        io.privacygateway.mechanisms.testing.WireFormatDocument.assertContainsAll("§11", rows());
    }
}

package io.privacygateway.mechanisms.local.mean;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SecretDraws;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The golden vectors of {@code docs/wire-format.md} §7 (mean reports): the certified numerators that fix each
 * randomizer's law at the default grids (1025 levels, 1024 cells), the estimates carried by a few symbols, and
 * the payloads of scripted draws. Every row computed here must appear verbatim in the document.
 */
class MeanWireFormatGoldenTest {
    /** Draws answering from a script: Bernoulli outcomes and uniform integers, in call order. */
    static final class Scripted implements SecretDraws {
        final Object[] script;
        int i;

        Scripted(Object... script) {
            this.script = script;
        }

        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            return (Boolean) script[i++];
        }

        @Override
        public int uniformInt(int n) {
            return (Integer) script[i++];
        }
    }

    static String hex(double v) {
        return Double.toHexString(v);
    }

    static List<String> rows() {
        List<String> out = new ArrayList<>();
        for (String e : new String[] {"0.5", "0.75", "1", "4"}) {
            Epsilon eps = Epsilon.of(Double.parseDouble(e));
            DuchiScalar d = new DuchiScalar(1025, eps);
            out.add("| duchi | " + e + " | `P(+|0) = " + d.plusNumerator(0) + "`, `P(+|1024) = " + d.plusNumerator(1024)
                    + "` | `t̂(−) = " + hex(d.estimateOf(0)) + "`, `t̂(+) = " + hex(d.estimateOf(1)) + "` |");
            PiecewiseScalar p = new PiecewiseScalar(1025, eps);
            out.add("| piecewise | " + e + " | `w = " + p.window() + "`, `N = " + p.insideNumerator() + "`, `up(1) = "
                    + p.upNumerator(1) + "` | `t̂(0) = " + hex(p.estimateOf(0)) + "`, `t̂(512) = " + hex(p.estimateOf(512))
                    + "`, `t̂(1023) = " + hex(p.estimateOf(1023)) + "` |");
            HybridScalar h = new HybridScalar(1025, eps);
            out.add("| hybrid | " + e + " | `β = " + h.betaNumerator() + "` | `t̂(1024) = " + hex(h.estimateOf(1024))
                    + "`, `t̂(1025) = " + hex(h.estimateOf(1025)) + "` |");
        }
        return out;
    }

    static List<String> payloads() {
        Epsilon eps = Epsilon.of(1);
        List<String> out = new ArrayList<>();
        MeanProtocolPayload duchi = new MeanProtocolPayload(new DuchiScalar(1025, eps));
        MeanProtocolPayload pm = new MeanProtocolPayload(new PiecewiseScalar(1025, eps));
        MeanProtocolPayload hy = new MeanProtocolPayload(new HybridScalar(1025, eps));
        out.add("| duchi | 700 | true | `" + duchi.of(700, new Scripted(true)) + "` |");
        out.add("| piecewise | 700 | true, true, 17, 5 | `" + pm.of(700, new Scripted(true, true, 17, 5)) + "` |");
        out.add("| piecewise | 700 | false, false, 17, 500 | `" + pm.of(700, new Scripted(false, false, 17, 500)) + "` |");
        out.add("| hybrid | 3 | false, true, true, false, 0, 0 | `" + hy.of(3, new Scripted(false, true, true, false, 0, 0))
                + "` |");
        return out;
    }

    /** The payload of a randomizer (2 bytes, big-endian symbol), as hex. */
    record MeanProtocolPayload(ScalarRandomizer r) {
        String of(int x, SecretDraws d) {
            int y = r.randomize(x, d);
            return HexFormat.of().formatHex(new byte[] {(byte) (y >>> 8), (byte) y});
        }
    }

    @Test
    void theDocumentStatesTheseVectors() throws Exception {
        Path doc = Path.of("..", "docs", "wire-format.md");
        String text = Files.readString(doc);
        List<String> missing = new ArrayList<>();
        for (String row : rows()) {
            if (!text.contains(row)) {
                missing.add(row);
            }
        }
        for (String row : payloads()) {
            if (!text.contains(row)) {
                missing.add(row);
            }
        }
        assertThat(missing).as("rows of docs/wire-format.md §7 that differ from the code:\n" + String.join("\n", missing))
                .isEmpty();
    }
}

package io.privacygateway.mechanisms.central.synthetic;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.codec.Hex;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MarginalLp#solve} returns bit for bit what it returned before it was split into named steps: the weights,
 * objective, lower bound and iteration count of four LPs (with and without a start, stopped by the gap and by the
 * iteration cap), pinned by a SHA-256 recorded from the code before the split.
 */
class MarginalLpPinnedTest {
    private static final List<String> PINNED = List.of(
            "f44329a3d407af0d21d15f8ccfc0b0cf8c32a9c068ebb308e25158b43e46867d",
            "8928ce18b2c81b0dcc8a241ab752aacea9ca8c538502c95fbcb6f5380228ddc7",
            "f7d3dd8ac2cb5c26462e5ba2646ed178b45a779e539c33c2fc9e6f475f930cda",
            "039fa07ca56810a0a2b363fff2e941f734b8c84fb251b32d8db6d790721b0c43");

    @Test
    void theSolverIsBitForBitUnchanged() throws Exception {
        List<String> digests = new ArrayList<>();
        for (int seed = 0; seed < 4; seed++) {
            MarginalLayout layout = MarginalLayout.of(5, 2 + seed % 2);
            SplittableRandom r = new SplittableRandom(seed);
            double[] u = new double[layout.cells()];
            for (int i = 0; i < u.length; i++) {
                u[i] = r.nextDouble();
            }
            int[] cand = new int[32];
            for (int x = 0; x < 32; x++) {
                cand[x] = x;
            }
            double[] start = seed % 2 == 0 ? null : r.doubles(32).toArray();
            MarginalLp.Solution sol = new MarginalLp(layout, cand).solve(u, start, seed < 2 ? 20_000 : 37, 1e-9);
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            ByteBuffer b = ByteBuffer.allocate(8 * (sol.alpha().length + 3));
            for (double a : sol.alpha()) {
                b.putDouble(a);
            }
            b.putDouble(sol.objective()).putDouble(sol.lowerBound()).putDouble(sol.iterations());
            digests.add(Hex.format(md.digest(b.array())));
        }
        assertThat(digests).containsExactlyElementsOf(PINNED);
    }
}

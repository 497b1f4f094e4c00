package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.central.CentralGeometry;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.WireNames;
import java.util.Arrays;

/**
 * The basis in which a marginal table is noised (certified private data release paper, eq. (7) and Lemma 2).
 * For a table's exact cell counts {@code c ∈ ℤ^{2^s}} the mechanism releases the integer coefficients
 * {@code w = H·c + ξ}, with {@code H} an integer matrix ({@link #analysis}) and {@code ξ} i.i.d. discrete
 * Laplace; the noisy table is {@code v = H^{-1}·w = c + H^{-1}·ξ}, i.e. the paper's {@code v + Φξ} with
 * {@code Φ = H^{-1}}. Since {@code 2^s·H^{-1}} is an integer matrix ({@link #synthesis}) everything after the
 * noise is exact integer arithmetic on {@code 2^s·v}.
 *
 * <ul>
 *   <li>{@link #HAAR}: the paper's choice (§3, Appendix B): the rows of {@code H} are the unnormalised Haar
 *       functions (row 0 all ones; at level l = 1..s, 2^(l−1) rows that are +1 on the first and −1 on the
 *       second half of a dyadic interval of length 2^(s−l+1)); {@code H^{-1}} is the paper's transposed Haar
 *       matrix {@code M_s}, and {@code ‖H‖₁ = s + 1} (Lemma 3 with {@code Φ = (s+1)·M_s}).</li>
 *   <li>{@link #IDENTITY}: {@code H = I}, Lemma 2 with {@code Φ = I} (the paper's Appendix D uses it). For binary
 *       attributes (k = 2 cells per axis) the total-variation loss does not benefit from Haar's small prefix sums,
 *       and the identity needs (s+1) times less noise per coefficient under add/remove; the benchmark measures
 *       both.</li>
 * </ul>
 *
 * <p>Sensitivity ({@link #blockSensitivity}): one report moves one count of every table by one (add/remove) or
 * moves one unit between two cells (replace-one); the l1 change of {@code H·c} is at most the largest column l1
 * norm of H, or the largest l1 distance between two columns ({@link CentralGeometry#worstChange}, the
 * project's one neighbour rule), computed exactly from the matrix.
 */
public enum NoiseBasis {
    IDENTITY("identity"),
    HAAR("haar");

    private final String wireName;

    NoiseBasis(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static NoiseBasis fromWireName(String name) {
        return WireNames.lookup(values(), NoiseBasis::wireName, name, "noise basis");
    }

    /** The analysis matrix H for tables of {@code 2^s} cells (rows: released coefficients; columns: cells). */
    public int[][] analysis(int s) {
        int m = 1 << s;
        int[][] h = new int[m][m];
        if (this == IDENTITY) {
            for (int i = 0; i < m; i++) {
                h[i][i] = 1;
            }
            return h;
        }
        Arrays.fill(h[0], 1);
        int row = 1;
        for (int level = 1; level <= s; level++) {
            int len = 1 << (s - level + 1);
            for (int start = 0; start < m; start += len) {
                for (int j = 0; j < len; j++) {
                    h[row][start + j] = j < len / 2 ? 1 : -1;
                }
                row++;
            }
        }
        return h;
    }

    /**
     * {@code 2^s·H^{-1}}, an integer matrix: {@code 2^s·v = synthesis·w}. For Haar it is {@code H^T·D} with
     * {@code D = 2^s·diag(1/‖row‖²)} (the rows of H are orthogonal).
     */
    public long[][] synthesis(int s) {
        int m = 1 << s;
        int[][] h = analysis(s);
        long[][] out = new long[m][m];
        for (int j = 0; j < m; j++) {
            long norm2 = 0;
            for (int i = 0; i < m; i++) {
                norm2 += (long) h[j][i] * h[j][i];
            }
            long factor = m / norm2; // norm2 is a power of two dividing 2^s
            for (int i = 0; i < m; i++) {
                out[i][j] = h[j][i] * factor;
            }
        }
        return out;
    }

    /**
     * The l1 sensitivity of {@code H·c} for one table when one report is added or removed (the largest column
     * l1 norm of H) or replaced (the largest l1 distance between two columns), exact.
     */
    public long blockSensitivity(int s, NeighbourRelation relation) {
        int[][] h = analysis(s);
        int m = 1 << s;
        return CentralGeometry.worstChange(relation, () -> {
            long worst = 0;
            for (int c = 0; c < m; c++) {
                long sum = 0;
                for (int[] row : h) {
                    sum += Math.abs(row[c]);
                }
                worst = Math.max(worst, sum);
            }
            return worst;
        }, () -> {
            long worst = 0;
            for (int a = 0; a < m; a++) {
                for (int b = a + 1; b < m; b++) {
                    long sum = 0;
                    for (int[] row : h) {
                        sum += Math.abs(row[a] - row[b]);
                    }
                    worst = Math.max(worst, sum);
                }
            }
            return worst;
        });
    }
}

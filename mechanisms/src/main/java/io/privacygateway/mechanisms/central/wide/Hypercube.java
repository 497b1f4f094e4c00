package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.linalg.WalshHadamard;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.WorkloadLimits;
import java.util.Arrays;

/**
 * Dense functions on {@code {0,1}^d} (index {@code x}, bit {@code j} attribute {@code j}) and their
 * {@code k}-way marginals, through the Walsh–Hadamard transform.
 *
 * <p>With {@code F(u) = Σ_x f(x)(−1)^{|u ∧ x|}} (one in-place transform, {@code d·2^d} additions), the marginal
 * of f on subset S at assignment a is {@code Σ_{x: x_S = a} f(x) = 2^{−|S|} Σ_{u ⊆ S} (−1)^{|u ∧ a|} F(u)}, so all
 * {@code C(d,k)·2^k} marginals cost one transform plus {@code C(d,k)·4^k}. The adjoint (a function
 * {@code x ↦ Σ_S r_S(x_S)} of marginal-cell values r) is formed the same way in the other direction. These are
 * exact identities; the floating-point error of a transform is about {@code d·2^{−53}} relative to
 * {@code Σ|f|}.
 */
public final class Hypercube {
    /** Largest dimension of a dense array ({@code 2^26} doubles, 512 MiB). */
    public static final int MAX_DENSE_ATTRIBUTES = WorkloadLimits.MAX_DENSE_ATTRIBUTES;

    private final MarginalWorkload workload;
    private final int d;
    private final int k;
    /** For every subset and every local sub-mask u of its k positions: the global mask of u. */
    private final int[][] subMasks;
    /** sign[u][c] = (−1)^{|u ∧ c|} with u local (bit i ↔ s[i]) and c a cell index (s[0] most significant). */
    private final double[][] sign;

    public Hypercube(MarginalWorkload workload) {
        this.workload = Require.nonNull("workload", workload);
        this.d = workload.attributeCount();
        Require.inRange("attributes (dense hypercube)", d, 1, MAX_DENSE_ATTRIBUTES);
        this.k = workload.way();
        int per = 1 << k;
        int[][] subsets = workload.subsetsView();
        this.subMasks = new int[subsets.length][per];
        for (int s = 0; s < subsets.length; s++) {
            for (int u = 0; u < per; u++) {
                int mask = 0;
                for (int i = 0; i < k; i++) {
                    if (((u >>> i) & 1) != 0) {
                        mask |= 1 << subsets[s][i];
                    }
                }
                subMasks[s][u] = mask;
            }
        }
        this.sign = new double[per][per];
        for (int u = 0; u < per; u++) {
            for (int c = 0; c < per; c++) {
                int parity = 0;
                for (int i = 0; i < k; i++) {
                    int ui = (u >>> i) & 1;
                    int ci = (c >>> (k - 1 - i)) & 1;
                    parity ^= ui & ci;
                }
                sign[u][c] = parity == 0 ? 1 : -1;
            }
        }
    }

    public MarginalWorkload workload() {
        return workload;
    }

    /** {@code 2^d}. */
    public int size() {
        return 1 << d;
    }

    /** The unnormalised Walsh–Hadamard transform, in place ({@link WalshHadamard#transform(double[])}). */
    public static void transform(double[] a) {
        WalshHadamard.transform(a);
    }

    /**
     * All marginals of f: {@code out[s][c] = Σ_{x: x_S = c} f(x)} in query order.
     *
     * @param f the function (length {@code 2^d}; not modified)
     * @param scratch a work array of the same length (overwritten)
     */
    public void marginals(double[] f, double[] scratch, double[][] out) {
        System.arraycopy(f, 0, scratch, 0, f.length);
        transform(scratch);
        marginalsOfTransform(scratch, out);
    }

    /** {@link #marginals} from an already transformed array. */
    public void marginalsOfTransform(double[] transformed, double[][] out) {
        int per = 1 << k;
        double scale = Math.scalb(1.0, -k);
        double[] g = new double[per];
        for (int s = 0; s < subMasks.length; s++) {
            for (int u = 0; u < per; u++) {
                g[u] = transformed[subMasks[s][u]];
            }
            double[] o = out[s];
            for (int c = 0; c < per; c++) {
                double acc = 0;
                for (int u = 0; u < per; u++) {
                    acc += sign[u][c] * g[u];
                }
                o[c] = acc * scale;
            }
        }
    }

    /**
     * The adjoint of the marginal map: {@code out(x) = Σ_S r[S][x_S]} for all x (length {@code 2^d}, overwritten).
     */
    public void adjoint(double[][] r, double[] out) {
        Arrays.fill(out, 0);
        int per = 1 << k;
        // Fourier coefficients of x ↦ r_S(x_S): at u ⊆ S, Σ_c r_S(c)(−1)^{|u ∧ c|} (the 2^{d−k} copies of each cell
        // and the inverse transform's 2^{−d} leave 2^{−k}).
        double scale = Math.scalb(1.0, -k);
        for (int s = 0; s < subMasks.length; s++) {
            for (int u = 0; u < per; u++) {
                double acc = 0;
                for (int c = 0; c < per; c++) {
                    acc += sign[u][c] * r[s][c];
                }
                out[subMasks[s][u]] += acc * scale;
            }
        }
        transform(out); // the inverse transform without its 2^{−d}, which the scale above already absorbed
    }

    /** The cell of subset s that value x falls in. */
    public int cellOf(int s, int x) {
        return workload.cellOf(s, x);
    }
}

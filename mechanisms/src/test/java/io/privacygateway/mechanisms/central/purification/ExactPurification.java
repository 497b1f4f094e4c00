package io.privacygateway.mechanisms.central.purification;

/**
 * The exact output distribution of the purification kernel on a box {@code [−n, n]^d} (d = 1 or 2), in
 * doubles: mixing with the uniform distribution over the lattice ball L, then convolution with the product
 * discrete Laplace of grid scale t.
 *
 * <p>The convolution along each axis uses the two-sided exponential recursion
 * {@code F_i = p_i + βF_{i−1}}, {@code G_i = p_i + βG_{i+1}}, {@code out_i = tanh(1/(2t))(F_i + G_i − p_i)}, which
 * is the exact kernel sum {@code Σ_j tanh(1/(2t)) β^{|i−j|} p_j}; all terms are non-negative, so the relative
 * floating-point error is at most about {@code 4·(2n+1)·2^−53} per axis (below {@code 1e−11} for
 * {@code n <= 2^15}). The ratio checks use a relative slack of {@code 1e−9} for it.
 *
 * <p>Only the box needs checking: for y outside the box, with b the coordinatewise clamp of y to the box,
 * {@code β^{|y_i − z_i|} = β^{|y_i − b_i|}·β^{|b_i − z_i|}} for every z in the box, so both output
 * probabilities at y are those at b times the same factor and the ratio is the ratio at b.
 */
final class ExactPurification {
    /** Relative slack for floating-point summation error in the ratio checks. */
    static final double SLACK = 1e-9;

    private ExactPurification() {}

    /**
     * The purified pmf on the box.
     *
     * @param p the input pmf on the box (zero outside L), index {@code Σ (z_i + n)·(2n+1)^i}
     * @param inL membership of each box point in L
     * @param d dimension (1 or 2)
     * @param n box half-width
     * @param omega mixing weight (0 for the "no mixing" control)
     * @param t grid noise scale
     */
    static double[] purified(double[] p, boolean[] inL, int d, int n, double omega, double t) {
        int size = p.length;
        int lSize = 0;
        for (boolean b : inL) {
            lSize += b ? 1 : 0;
        }
        double[] q = new double[size];
        for (int i = 0; i < size; i++) {
            q[i] = (1 - omega) * p[i] + (inL[i] ? omega / lSize : 0.0);
        }
        double beta = Math.exp(-1.0 / t);
        double c = Math.tanh(0.5 / t);
        int w = 2 * n + 1;
        for (int axis = 0; axis < d; axis++) {
            int stride = axis == 0 ? 1 : w;
            int lines = size / w;
            for (int line = 0; line < lines; line++) {
                int base = axis == 0 ? line * w : line; // d <= 2
                filter(q, base, stride, w, beta, c);
            }
        }
        return q;
    }

    private static void filter(double[] q, int base, int stride, int w, double beta, double c) {
        double[] f = new double[w];
        double[] g = new double[w];
        double[] x = new double[w];
        for (int i = 0; i < w; i++) {
            x[i] = q[base + i * stride];
        }
        f[0] = x[0];
        for (int i = 1; i < w; i++) {
            f[i] = x[i] + beta * f[i - 1];
        }
        g[w - 1] = x[w - 1];
        for (int i = w - 2; i >= 0; i--) {
            g[i] = x[i] + beta * g[i + 1];
        }
        for (int i = 0; i < w; i++) {
            q[base + i * stride] = c * (f[i] + g[i] - x[i]);
        }
    }

    /** {@code max_y max(ln(a/b), ln(b/a))}; fails loudly on zeros (underflow would make the check meaningless). */
    static double maxLogRatio(double[] a, double[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            if (!(a[i] > 0 && b[i] > 0 && Double.isFinite(a[i]) && Double.isFinite(b[i]))) {
                throw new AssertionError("output probability underflowed at index " + i + ": " + a[i] + ", " + b[i]);
            }
            worst = Math.max(worst, Math.abs(Math.log(a[i] / b[i])));
        }
        return worst;
    }

    /** The exact hockey-stick divergence {@code max(Σ(P − e^ε P′)₊, Σ(P′ − e^ε P)₊)}: the least δ at this ε. */
    static double hockeyStick(double[] p, double[] q, double eps) {
        double e = Math.exp(eps);
        double a = 0;
        double b = 0;
        for (int i = 0; i < p.length; i++) {
            a += Math.max(0, p[i] - e * q[i]);
            b += Math.max(0, q[i] - e * p[i]);
        }
        return Math.max(a, b);
    }

    /** Whether {@code max ln-ratio <= ε_total} up to the stated floating-point slack. */
    static boolean passes(double maxLogRatio, double epsilonTotal) {
        return maxLogRatio <= epsilonTotal + SLACK;
    }

    static void normalise(double[] p) {
        double s = 0;
        for (double v : p) {
            s += v;
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= s;
        }
    }
}

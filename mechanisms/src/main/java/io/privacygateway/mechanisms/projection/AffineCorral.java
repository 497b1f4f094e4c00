package io.privacygateway.mechanisms.projection;

/**
 * The "corral" of Wolfe's minimum-norm-point algorithm: an affinely independent set {@code S} of atoms
 * with positive convex weights {@code λ}, and a Cholesky factor of the matrix
 * {@code M = s²·eeᵀ + BᵀB}, {@code B = [a_j − y]_{j∈S}}, so that the minimiser of {@code ‖Σ α_j (a_j − y)‖}
 * over the affine hull ({@code Σα = 1}) is {@code α ∝ M⁻¹e} (Wolfe, "Finding the nearest point in a
 * polytope", Math. Programming 11, 1976, §4). {@code M} is positive definite exactly when the atoms are
 * affinely independent, whether or not {@code y} lies in their affine hull; {@code s > 0} only balances
 * the conditioning.
 *
 * <p>The factor is kept as {@code L = Rᵀ} (lower triangular, rows contiguous), updated in
 * {@code O(k·m + k²)} when an atom is added and {@code O(k²)} (Givens rotations) when one is removed.
 * Not thread-safe: one instance per projection call.
 */
final class AffineCorral {
    /** An atom is rejected as affinely dependent when its new pivot² is below this fraction of its diagonal. */
    static final double PIVOT_TOLERANCE = 1e-12;

    private final double[] atoms;
    private final int m;
    private final double[] y;
    private final double s2;

    private int k;
    private int cap;
    private int[] index;
    private double[] lambda;
    private double[] b; // rows a_j − y, stride m
    private double[] lower; // L, stride cap
    private final boolean[] member;
    private final int maxSize;

    AffineCorral(double[] atoms, int atomCount, int m, double[] y, double s2, int maxSize) {
        this.atoms = atoms;
        this.m = m;
        this.y = y;
        this.s2 = s2;
        this.cap = Math.max(1, Math.min(maxSize, 64));
        this.index = new int[cap];
        this.lambda = new double[cap];
        this.b = new double[cap * m];
        this.lower = new double[cap * cap];
        this.member = new boolean[atomCount];
        this.maxSize = maxSize;
    }

    int size() {
        return k;
    }

    int atom(int q) {
        return index[q];
    }

    double weight(int q) {
        return lambda[q];
    }

    boolean contains(int atom) {
        return member[atom];
    }

    /**
     * Appends {@code atom} with weight {@code weight} (not yet normalised) if it is numerically affinely
     * independent of the current members; returns whether it was added.
     */
    boolean add(int atom, double weight) {
        if (member[atom] || k == maxSize) {
            return false;
        }
        if (k == cap) {
            grow();
        }
        int row = k * m;
        int aOff = atom * m;
        for (int t = 0; t < m; t++) {
            b[row + t] = atoms[aOff + t] - y[t];
        }
        double diag = s2 + Dots.dot(b, row, b, row, m);
        // forward solve L r = M[S, atom]
        double rr = 0;
        int newRow = k * cap;
        for (int i = 0; i < k; i++) {
            double c = s2 + Dots.dot(b, i * m, b, row, m);
            int li = i * cap;
            double acc = c - Dots.dot(lower, li, lower, newRow, i);
            double r = acc / lower[li + i];
            lower[newRow + i] = r;
            rr += r * r;
        }
        double pivot2 = diag - rr;
        if (!(pivot2 > PIVOT_TOLERANCE * diag)) {
            return false;
        }
        lower[newRow + k] = Math.sqrt(pivot2);
        index[k] = atom;
        lambda[k] = weight;
        member[atom] = true;
        k++;
        return true;
    }

    /** Removes member {@code q}, keeping the order of the others and the factorisation. */
    void remove(int q) {
        member[index[q]] = false;
        int tail = k - 1 - q;
        System.arraycopy(index, q + 1, index, q, tail);
        System.arraycopy(lambda, q + 1, lambda, q, tail);
        System.arraycopy(b, (q + 1) * m, b, q * m, tail * m);
        // delete row q of L: rows below move up and carry one entry above the diagonal
        for (int i = q; i < k - 1; i++) {
            System.arraycopy(lower, (i + 1) * cap, lower, i * cap, i + 2);
        }
        // Givens rotations on columns (c, c+1) restore the lower-triangular shape
        for (int c = q; c < k - 1; c++) {
            int rc = c * cap;
            double a = lower[rc + c];
            double e = lower[rc + c + 1];
            double r = Math.sqrt(a * a + e * e);
            double cs = a / r;
            double sn = e / r;
            for (int t = c; t < k - 1; t++) {
                int rt = t * cap;
                double u = lower[rt + c];
                double v = lower[rt + c + 1];
                lower[rt + c] = cs * u + sn * v;
                lower[rt + c + 1] = -sn * u + cs * v;
            }
            lower[rc + c + 1] = 0;
        }
        k--;
        for (int t = 0; t < k; t++) { // clear the now unused column k of the remaining rows
            lower[t * cap + k] = 0;
        }
    }

    /**
     * Writes the affine minimiser weights {@code α} ({@code Σα = 1}) into {@code alpha}; returns
     * {@code false} if the factorisation has become numerically unusable.
     */
    boolean affineMinimizer(double[] alpha) {
        // L z = e
        for (int i = 0; i < k; i++) {
            int li = i * cap;
            alpha[i] = (1.0 - Dots.dot(lower, li, alpha, 0, i)) / lower[li + i];
        }
        // Lᵀ v = z, column-oriented so that rows of L are read contiguously
        for (int i = k - 1; i >= 0; i--) {
            int li = i * cap;
            double v = alpha[i] / lower[li + i];
            alpha[i] = v;
            for (int l = 0; l < i; l++) {
                alpha[l] -= lower[li + l] * v;
            }
        }
        double sum = 0;
        for (int i = 0; i < k; i++) {
            sum += alpha[i];
        }
        if (!(sum > 0) || !Double.isFinite(sum)) {
            return false;
        }
        for (int i = 0; i < k; i++) {
            alpha[i] /= sum;
        }
        return true;
    }

    void setWeight(int q, double value) {
        lambda[q] = value;
    }

    /** Rescales the weights to sum to 1. */
    void normalize() {
        double sum = 0;
        for (int q = 0; q < k; q++) {
            sum += lambda[q];
        }
        for (int q = 0; q < k; q++) {
            lambda[q] /= sum;
        }
    }

    /** {@code w = Σ λ_j a_j}. */
    void point(double[] w) {
        java.util.Arrays.fill(w, 0.0);
        for (int q = 0; q < k; q++) {
            double l = lambda[q];
            int off = index[q] * m;
            for (int t = 0; t < m; t++) {
                w[t] += l * atoms[off + t];
            }
        }
    }

    private void grow() {
        int newCap = Math.min(maxSize, cap * 2);
        double[] newLower = new double[newCap * newCap];
        for (int i = 0; i < k; i++) {
            System.arraycopy(lower, i * cap, newLower, i * newCap, i + 1);
        }
        lower = newLower;
        index = java.util.Arrays.copyOf(index, newCap);
        lambda = java.util.Arrays.copyOf(lambda, newCap);
        b = java.util.Arrays.copyOf(b, newCap * m);
        cap = newCap;
    }
}

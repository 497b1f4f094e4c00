package io.privacygateway.mechanisms.projection;

import java.util.Arrays;

/**
 * The "corral" of Wolfe's minimum-norm-point algorithm: an affinely independent set {@code S} of atoms
 * with convex weights {@code λ}, and a Cholesky factor {@code L Lᵀ = M} of
 * {@code M = s²·eeᵀ + BᵀB}, {@code B = [a_j − y]_{j∈S}}. The minimiser of {@code ‖Σ α_j (a_j − y)‖} over
 * the affine hull ({@code Σα = 1}) is {@code α ∝ M⁻¹e} (Wolfe, "Finding the nearest point in a
 * polytope", Math. Programming 11, 1976, §4). {@code M} is positive definite exactly when the atoms are
 * affinely independent, whether or not {@code y} lies in their affine hull; {@code s > 0} only balances
 * the conditioning.
 *
 * <p>{@code L} is lower triangular with contiguous rows. Adding an atom costs {@code O(k·nnz + k²/2)}
 * (one forward substitution); removing one costs {@code O(k²)} (Givens rotations). {@code z = L⁻¹e} is
 * carried along the same updates in {@code O(k)}, so an affine minimiser costs one back substitution.
 * Not thread-safe: one instance per projection call.
 */
final class AffineCorral {
    /** An atom is rejected as affinely dependent when its new pivot² is below this fraction of its diagonal. */
    static final double PIVOT_TOLERANCE = 1e-12;
    /** {@code z} is recomputed from scratch after this many incremental updates. */
    private static final int Z_REFRESH = 64;

    private final AtomRows atoms;
    private final int m;
    private final double[] y;
    private final double s2;
    private final boolean splitProducts;
    private final int maxSize;
    private final boolean[] member;

    private int k;
    private int cap;
    private int[] index;
    private double[] lambda;
    private double[] b; // rows a_j − y, stride m
    private double[] by; // ⟨a_j − y, y⟩
    private double[] lower; // L, stride cap
    private double[] z; // L⁻¹e
    private int zUpdates;

    /**
     * @param s2 the balancing constant {@code s² > 0}
     * @param maxSize the largest corral allowed, {@code min(N, m + 1)}
     */
    AffineCorral(AtomRows atoms, double[] y, double s2, int maxSize) {
        this.atoms = atoms;
        this.m = atoms.dim();
        this.y = y;
        this.s2 = s2;
        // ⟨b_i, b_j⟩ = ⟨b_i, a_j⟩ − ⟨b_i, y⟩ touches only the non-zeros of a_j; its rounding error is
        // γ_m‖b_i‖(‖a_j‖ + ‖y‖), comparable to the entries of M only while ‖y‖ is O(s)
        this.splitProducts = Dots.normSq(y) <= 16 * s2;
        this.maxSize = maxSize;
        this.member = new boolean[atoms.size()];
        this.cap = Math.max(1, Math.min(maxSize, 64));
        allocate(cap);
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

    void setWeight(int q, double value) {
        lambda[q] = value;
    }

    boolean contains(int atom) {
        return member[atom];
    }

    /**
     * Appends {@code atom} with weight {@code weight} if it is numerically affinely independent of the
     * current members; returns whether it was added.
     */
    boolean add(int atom, double weight) {
        if (member[atom] || k == maxSize) {
            return false;
        }
        if (k == cap) {
            grow();
        }
        int row = k * m;
        atoms.differenceInto(atom, y, b, row);
        double byNew = Dots.dot(b, row, y, 0, m);
        double diag = s2 + Dots.dot(b, row, b, row, m);
        int newRow = k * cap;
        double rr = 0;
        double rz = 0;
        for (int i = 0; i < k; i++) {
            double bij = splitProducts ? atoms.dot(atom, b, i * m) - by[i] : Dots.dot(b, i * m, b, row, m);
            int li = i * cap;
            double r = (s2 + bij - Dots.dot(lower, li, lower, newRow, i)) / lower[li + i];
            lower[newRow + i] = r;
            rr += r * r;
            rz += r * z[i];
        }
        double pivot2 = diag - rr;
        if (!(pivot2 > PIVOT_TOLERANCE * diag)) {
            return false;
        }
        double pivot = Math.sqrt(pivot2);
        lower[newRow + k] = pivot;
        z[k] = (1.0 - rz) / pivot;
        index[k] = atom;
        lambda[k] = weight;
        by[k] = byNew;
        member[atom] = true;
        k++;
        zUpdates++;
        return true;
    }

    /** Removes member {@code q}, keeping the order of the others and the factorisation. */
    void remove(int q) {
        member[index[q]] = false;
        int tail = k - 1 - q;
        System.arraycopy(index, q + 1, index, q, tail);
        System.arraycopy(lambda, q + 1, lambda, q, tail);
        System.arraycopy(by, q + 1, by, q, tail);
        System.arraycopy(b, (q + 1) * m, b, q * m, tail * m);
        // delete row q of L: the rows below move up and carry one entry above the diagonal
        for (int i = q; i < k - 1; i++) {
            System.arraycopy(lower, (i + 1) * cap, lower, i * cap, i + 2);
        }
        // Givens rotations on columns (c, c+1) restore the triangle; z = L⁻¹e follows by z ← Gᵀz
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
            double zu = z[c];
            double zv = z[c + 1];
            z[c] = cs * zu + sn * zv;
            z[c + 1] = -sn * zu + cs * zv;
        }
        k--;
        zUpdates++;
    }

    /**
     * Writes the affine minimiser weights {@code α} ({@code Σα = 1}) into {@code alpha}; returns
     * {@code false} if the factorisation has become numerically unusable.
     */
    boolean affineMinimizer(double[] alpha) {
        if (zUpdates >= Z_REFRESH) {
            for (int i = 0; i < k; i++) {
                int li = i * cap;
                z[i] = (1.0 - Dots.dot(lower, li, z, 0, i)) / lower[li + i];
            }
            zUpdates = 0;
        }
        System.arraycopy(z, 0, alpha, 0, k);
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
        Arrays.fill(w, 0.0);
        for (int q = 0; q < k; q++) {
            atoms.addScaled(index[q], lambda[q], w);
        }
    }

    private void allocate(int capacity) {
        index = new int[capacity];
        lambda = new double[capacity];
        by = new double[capacity];
        z = new double[capacity];
        b = new double[capacity * m];
        lower = new double[capacity * capacity];
    }

    private void grow() {
        int newCap = Math.min(maxSize, cap * 2);
        double[] oldLower = lower;
        int oldCap = cap;
        int[] oldIndex = index;
        double[] oldLambda = lambda;
        double[] oldBy = by;
        double[] oldZ = z;
        double[] oldB = b;
        allocate(newCap);
        for (int i = 0; i < k; i++) {
            System.arraycopy(oldLower, i * oldCap, lower, i * newCap, i + 1);
        }
        System.arraycopy(oldIndex, 0, index, 0, k);
        System.arraycopy(oldLambda, 0, lambda, 0, k);
        System.arraycopy(oldBy, 0, by, 0, k);
        System.arraycopy(oldZ, 0, z, 0, k);
        System.arraycopy(oldB, 0, b, 0, k * m);
        cap = newCap;
    }
}

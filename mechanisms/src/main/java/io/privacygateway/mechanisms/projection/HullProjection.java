package io.privacygateway.mechanisms.projection;

import io.privacygateway.mechanisms.linalg.PointSet;

/**
 * Euclidean projection onto the convex hull {@code K = conv{a_1, …, a_N}} of a finite point set, the
 * generic case of MECHANISMS.md §1 (range queries, marginals, explicit points, chaining levels):
 * {@code min ½‖A p − y‖²} over the probability simplex {@code p}, answer {@code w = A p}.
 *
 * <p><b>Algorithm.</b> Wolfe's minimum-norm-point active-set method (Wolfe, "Finding the nearest point
 * in a polytope", Math. Programming 11, 1976) applied to the translated atoms {@code a_i − y}: a corral
 * of affinely independent atoms is grown one Frank–Wolfe vertex at a time, and the exact minimiser over
 * its affine hull is taken after every step (Cholesky factor updated in {@code O(k²)}), so it converges
 * finitely instead of zig-zagging like plain or away-step Frank–Wolfe. The vertex search is lazy: a
 * full {@code O(N·m)} pass refills a small pool of violating atoms ({@link MinNormPointSolve}). It was
 * chosen over FISTA on {@code p} because {@code ‖A‖²} is large for 0/1 atoms (the all-ones direction),
 * making first-order methods slow to reach a 1e-6 gap, while the support of the answer has at most
 * {@code m + 1} atoms, which bounds the active-set work by {@code O(m³)} per projection.
 *
 * <p><b>Guarantee.</b> The returned {@link ProjectionResult#dualityGap()} is the Frank–Wolfe gap
 * {@code g(w) = max_i ⟨w − y, w − a_i⟩}, evaluated in a full pass at exactly the returned point, plus a
 * bound on the rounding error of that evaluation; by convexity {@code g(w) ≥ f(w) − min_K f},
 * {@code f(v) = ½‖v − y‖²}. The run stops as soon as that gap is {@code ≤ gapTolerance} (absolute, on
 * {@code f}); it also stops after {@code maxIterations} major cycles or when floating point allows no
 * further progress, and then reports the gap it actually achieved, which may exceed the tolerance.
 * {@code weights} are convex weights over the atoms with {@code w = Σ p_i a_i} (at most {@code m + 1}
 * non-zero).
 *
 * <p><b>Attainable tolerance.</b> The rounding allowance is about {@code 2(m + 4)·2⁻⁵³·‖w − y‖·(‖w‖ +
 * max‖a_i‖)}; for targets very far from {@code K} (e.g. {@code ‖y‖ ~ 1e6} with 0/1 atoms and
 * {@code m = 256}) it exceeds tight tolerances, and the run then stops at once and reports it. Atoms far
 * from the origin relative to their spread cost accuracy and time in the same way: translate them first
 * if that matters.
 *
 * <p><b>Preconditions.</b> At least one atom; {@code y} of length {@code m} with finite entries (never
 * modified). Immutable and thread-safe: every call allocates its own working state.
 */
public final class HullProjection implements ConvexProjection {
    private final int n;
    private final int m;
    private final AtomRows atoms;
    private final double scaleSq;
    private final double gapTolerance;
    private final int maxIterations;

    /**
     * The projection onto {@code conv(atoms)}, stopping at the given absolute gap, with the default
     * iteration cap {@link #defaultMaxIterations(PointSet)}.
     */
    public HullProjection(PointSet atoms, double gapTolerance) {
        this(atoms, gapTolerance, defaultMaxIterations(atoms));
    }

    /**
     * The projection onto {@code conv(atoms)}.
     *
     * @param gapTolerance the absolute target for the certified gap on {@code f = ½‖w − y‖²}, finite and
     *     {@code >= 0}
     * @param maxIterations the cap on major cycles, {@code >= 1}
     */
    public HullProjection(PointSet atoms, double gapTolerance, int maxIterations) {
        if (atoms == null) {
            throw new IllegalArgumentException("atoms is required");
        }
        if (atoms.size() < 1) {
            throw new IllegalArgumentException("atoms must hold at least one point, got " + atoms.size());
        }
        if (!(Double.isFinite(gapTolerance) && gapTolerance >= 0)) {
            throw new IllegalArgumentException("gapTolerance must be a finite number >= 0, got " + gapTolerance);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be an integer >= 1, got " + maxIterations);
        }
        this.n = atoms.size();
        this.m = atoms.dim();
        this.atoms = AtomRows.of(atoms);
        double[] first = atoms.row(0);
        double spread = 0; // max_i ‖a_i − a_0‖², a translation-invariant scale of K
        for (int i = 0; i < n; i++) {
            spread = Math.max(spread, this.atoms.normSq(i) - 2 * this.atoms.dot(i, first, 0) + this.atoms.normSq(0));
        }
        this.scaleSq = spread;
        this.gapTolerance = gapTolerance;
        this.maxIterations = maxIterations;
    }

    /**
     * The default cap on major cycles: {@code 20·min(N, m + 1) + 200}. A run needs at least as many
     * cycles as atoms in the final support ({@code ≤ min(N, m + 1)}) plus one per atom dropped on the way.
     */
    public static int defaultMaxIterations(PointSet atoms) {
        if (atoms == null) {
            throw new IllegalArgumentException("atoms is required");
        }
        long cap = 20L * Math.min(atoms.size(), atoms.dim() + 1L) + 200;
        return (int) Math.min(Integer.MAX_VALUE, cap);
    }

    @Override
    public int dim() {
        return m;
    }

    /** The number of atoms {@code N}. */
    public int atomCount() {
        return n;
    }

    public double gapTolerance() {
        return gapTolerance;
    }

    public int maxIterations() {
        return maxIterations;
    }

    @Override
    public ProjectionResult project(double[] y) {
        Targets.requireTarget(y, m);
        return new MinNormPointSolve(atoms, y.clone(), gapTolerance, maxIterations).run(scaleSq);
    }

    /**
     * The projection warm-started from convex weights of an earlier answer (e.g. the previous window):
     * the atoms in the support of {@code initialWeights}, heaviest first, seed the active set (atoms
     * numerically affinely dependent on heavier ones are skipped; at most {@code min(N, m + 1)} are kept
     * and at most {@code 2(m + 1)} tried), and the solver starts from those weights renormalised over the
     * kept atoms. Starting from the weights of the previous answer typically saves most major cycles.
     * The guarantee is the same as for {@link #project(double[])}.
     *
     * @param initialWeights {@code N} finite non-negative weights with a positive sum, or {@code null} for
     *     a cold start; not modified
     */
    public ProjectionResult project(double[] y, double[] initialWeights) {
        if (initialWeights == null) {
            return project(y);
        }
        Targets.requireTarget(y, m);
        requireWeights(initialWeights);
        return new MinNormPointSolve(atoms, y.clone(), gapTolerance, maxIterations)
                .runWarm(initialWeights.clone(), scaleSq);
    }

    private void requireWeights(double[] p) {
        if (p.length != n) {
            throw new IllegalArgumentException("initialWeights must have length " + n + ", got " + p.length);
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            if (!(Double.isFinite(p[i]) && p[i] >= 0)) {
                throw new IllegalArgumentException(
                        "initialWeights[" + i + "] must be a finite number >= 0, got " + p[i]);
            }
            sum += p[i];
        }
        if (!(sum > 0)) {
            throw new IllegalArgumentException("initialWeights must have a positive sum, got " + sum);
        }
    }
}

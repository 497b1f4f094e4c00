package io.privacygateway.mechanisms.projection;

import java.util.Arrays;

/**
 * One run of Wolfe's minimum-norm-point algorithm for {@code min ½‖w − y‖²} over {@code conv{a_i}},
 * with a lazy linear-minimisation oracle; the state of a single {@link HullProjection#project} call.
 *
 * <p><b>Major cycle</b> (one "iteration"): pick an atom {@code a_j} with Frank–Wolfe violation
 * {@code ⟨x, w − a_j⟩ > tol}, {@code x = w − y}, add it to the corral ({@link AffineCorral}). <b>Minor
 * cycles</b>: move {@code λ} toward the affine minimiser {@code α} of the corral until a weight hits 0,
 * drop it, repeat until {@code α > 0}. Each successful major cycle strictly decreases {@code ‖x‖}, and
 * the method terminates finitely in exact arithmetic (Wolfe 1976; Chakrabarty, Jain and Kothari,
 * "Provable submodular minimization using Wolfe's algorithm", NeurIPS 2014).
 *
 * <p><b>Lazy oracle.</b> A full pass over all {@code N} atoms costs {@code O(N·m)}. After each full
 * pass the most violating atoms are kept in a small pool; major cycles take the best pool atom as long
 * as its current violation is at least a fraction of the last full gap, and a new full pass is made
 * only when the pool runs dry (in the spirit of Braun, Pokutta and Zink, "Lazifying conditional gradient
 * algorithms", ICML 2017). The method stops only after a full pass at exactly the point it returns, so
 * the reported gap is always the computed one.
 *
 * <p>Numerical safeguards: atoms that are numerically affinely dependent on the corral, or whose
 * addition does not strictly decrease {@code ‖x‖}, are skipped until the next successful cycle; when no
 * atom can be added although the gap exceeds the tolerance, the run stops and reports that gap.
 */
final class MinNormPointSolve {
    /** Pool atoms are used while their violation is at least this fraction of the last full gap. */
    static final double LAZY_FRACTION = 0.25;
    /** Number of most-violating atoms kept after a full pass. */
    static final int POOL_SIZE = 64;

    private final AtomRows atoms;
    private final int n;
    private final int m;
    private final double[] y;
    private final double tol;
    private final int maxIterations;
    private final double maxNorm;

    private AffineCorral corral;
    private final double[] w;
    private final double[] x;
    private final double[] alpha;
    private double xx;
    private double xw;

    private final int[] pool;
    private final double[] poolValue;
    private int poolSize;
    private final int[] rejectedAt;
    private int epoch = 1;
    private double lastFullGap;
    private double allowance;

    private int iterations;

    MinNormPointSolve(AtomRows atoms, double[] y, double tol, int maxIterations) {
        this.atoms = atoms;
        this.n = atoms.size();
        this.m = atoms.dim();
        this.maxNorm = atoms.maxNorm();
        this.y = y;
        this.tol = tol;
        this.maxIterations = maxIterations;
        this.w = new double[m];
        this.x = new double[m];
        int maxCorral = Math.min(n, m + 1); // affinely independent sets in R^m have at most m + 1 points
        this.alpha = new double[maxCorral];
        int poolCap = Math.min(n, POOL_SIZE);
        this.pool = new int[poolCap];
        this.poolValue = new double[poolCap];
        this.rejectedAt = new int[n];
    }

    /** Cold start from the atom nearest to {@code y}. */
    ProjectionResult run(double scaleSq) {
        int nearest = 0;
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double d = atoms.normSq(i) - 2 * atoms.dot(i, y, 0);
            if (d < best) {
                best = d;
                nearest = i;
            }
        }
        corral = newCorral(nearest, scaleSq);
        corral.add(nearest, 1.0);
        refreshPoint();
        return iterate();
    }

    /**
     * Warm start: the support of {@code initialWeights}, heaviest first, seeds the corral. At most
     * {@code min(N, m + 1)} affinely independent atoms fit, so seeding stops there, or after
     * {@code 2(m + 1)} attempts (the lightest atoms of a larger support are left to the oracle).
     */
    ProjectionResult runWarm(double[] initialWeights, double scaleSq) {
        Integer[] support = Arrays.stream(indicesOfPositive(initialWeights)).boxed().toArray(Integer[]::new);
        Arrays.sort(support, (i, j) -> Double.compare(initialWeights[j], initialWeights[i]));
        corral = newCorral(support[0], scaleSq);
        int full = Math.min(n, m + 1);
        int attempts = Math.min(support.length, 2 * (m + 1));
        for (int a = 0; a < attempts && corral.size() < full; a++) {
            corral.add(support[a], initialWeights[support[a]]);
        }
        corral.normalize();
        minorCycles();
        refreshPoint();
        return iterate();
    }

    private AffineCorral newCorral(int first, double scaleSq) {
        double[] diff = new double[m];
        atoms.differenceInto(first, y, diff, 0);
        double s2 = Math.max(scaleSq, Dots.normSq(diff));
        if (!(s2 > 0)) {
            s2 = 1.0;
        }
        return new AffineCorral(atoms, y, s2, alpha.length);
    }

    private ProjectionResult iterate() {
        double gap = fullPass(); // certified: the computed gap plus its rounding allowance
        boolean fresh = true; // the last full pass was made at the current point
        while (!(fresh && gap <= tol) && iterations < maxIterations) {
            // an atom helps if its violation exceeds what the tolerance allows, and is real: larger
            // than the rounding noise of its evaluation (when tol is below the rounding floor, the run
            // goes on until no violation is distinguishable from noise, then reports that gap)
            double useful = Math.max(tol - allowance, allowance);
            int j = pick(fresh ? useful : Math.max(useful, LAZY_FRACTION * lastFullGap));
            if (j < 0) {
                if (fresh) {
                    break; // no atom can be added: the numerical limit is reached
                }
                gap = fullPass();
                fresh = true;
                continue;
            }
            iterations++;
            double before = xx;
            boolean added = corral.add(j, 0.0);
            if (added) {
                minorCycles();
                refreshPoint();
                fresh = false;
            }
            if (added && corral.contains(j) && xx < before) {
                epoch++; // progress: earlier rejections may no longer apply
            } else {
                rejectedAt[j] = epoch;
            }
        }
        if (!fresh) {
            gap = fullPass();
        }
        double[] weights = new double[n];
        for (int q = 0; q < corral.size(); q++) {
            weights[corral.atom(q)] = corral.weight(q);
        }
        return new ProjectionResult(w.clone(), gap, weights, iterations);
    }

    /**
     * A bound on the floating-point error of the gap evaluation {@code ⟨x, w⟩ − ⟨x, a_i⟩} with
     * {@code x = fl(w − y)}: each dot product errs by at most {@code γ_m Σ|x_t||v_t| ≤ γ_m‖x‖‖v‖} and
     * the subtractions add a few units of roundoff (Higham, "Accuracy and stability of numerical
     * algorithms", §3.1); the factor 2 covers {@code γ_m ≤ 1.01·m·u} and second-order terms.
     */
    private double roundingAllowance() {
        double u = 0x1p-53;
        return 2.0 * (m + 4) * u * Math.sqrt(xx) * (Math.sqrt(Dots.normSq(w)) + maxNorm);
    }

    /** Moves {@code λ} to the corral's affine minimiser, dropping atoms whose weight reaches 0. */
    private void minorCycles() {
        for (int guard = 0; guard <= alpha.length + 1; guard++) {
            int k = corral.size();
            if (!corral.affineMinimizer(alpha)) {
                dropZeroWeights(); // keep λ > 0 on every member even when giving up
                return;
            }
            double theta = 1.0;
            int arg = -1;
            for (int q = 0; q < k; q++) {
                if (alpha[q] <= 0) {
                    double lam = corral.weight(q);
                    double r = lam <= 0 ? 0.0 : lam / (lam - alpha[q]);
                    if (arg < 0 || r < theta) {
                        theta = r;
                        arg = q;
                    }
                }
            }
            if (arg < 0) {
                for (int q = 0; q < k; q++) {
                    corral.setWeight(q, alpha[q]);
                }
                return;
            }
            for (int q = 0; q < k; q++) {
                corral.setWeight(q, theta * alpha[q] + (1 - theta) * corral.weight(q));
            }
            corral.setWeight(arg, 0.0);
            dropZeroWeights();
        }
    }

    private void dropZeroWeights() {
        for (int q = corral.size() - 1; q >= 0; q--) {
            if (corral.weight(q) <= 0) {
                corral.remove(q);
            }
        }
        corral.normalize();
    }

    private void refreshPoint() {
        corral.point(w);
        for (int t = 0; t < m; t++) {
            x[t] = w[t] - y[t];
        }
        xx = Dots.normSq(x);
        xw = Dots.dot(x, 0, w, 0, m);
    }

    /** The best pool atom with violation above {@code threshold}, or -1. */
    private int pick(double threshold) {
        int best = -1;
        double bestValue = threshold;
        for (int p = 0; p < poolSize; p++) {
            int i = pool[p];
            if (corral.contains(i) || rejectedAt[i] == epoch) {
                continue;
            }
            double v = xw - atoms.dot(i, x, 0);
            if (v > bestValue) {
                bestValue = v;
                best = i;
            }
        }
        return best;
    }

    /**
     * The certified gap at the current point: the computed Frank–Wolfe gap {@code max_i ⟨x, w − a_i⟩},
     * clamped at 0 (its exact value is {@code ≥ 0} for {@code w ∈ K}, and clamping only raises an upper
     * bound), plus {@link #roundingAllowance()}. Refills the pool.
     */
    private double fullPass() {
        poolSize = 0;
        double gap = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double v = xw - atoms.dot(i, x, 0);
            if (v > gap) {
                gap = v;
            }
            if (v > 0 && !corral.contains(i)) {
                offer(i, v);
            }
        }
        lastFullGap = gap;
        allowance = roundingAllowance();
        return Math.max(0.0, gap) + allowance;
    }

    /** Keeps the {@code pool.length} largest values in a min-heap. */
    private void offer(int i, double v) {
        if (poolSize < pool.length) {
            int c = poolSize++;
            pool[c] = i;
            poolValue[c] = v;
            siftUp(c);
        } else if (v > poolValue[0]) {
            pool[0] = i;
            poolValue[0] = v;
            siftDown(0);
        }
    }

    private void siftUp(int c) {
        while (c > 0) {
            int parent = (c - 1) >>> 1;
            if (poolValue[parent] <= poolValue[c]) {
                return;
            }
            swap(parent, c);
            c = parent;
        }
    }

    private void siftDown(int c) {
        while (true) {
            int l = 2 * c + 1;
            if (l >= poolSize) {
                return;
            }
            int s = l + 1 < poolSize && poolValue[l + 1] < poolValue[l] ? l + 1 : l;
            if (poolValue[c] <= poolValue[s]) {
                return;
            }
            swap(c, s);
            c = s;
        }
    }

    private void swap(int a, int b) {
        int ti = pool[a];
        pool[a] = pool[b];
        pool[b] = ti;
        double tv = poolValue[a];
        poolValue[a] = poolValue[b];
        poolValue[b] = tv;
    }

    private static int[] indicesOfPositive(double[] v) {
        int c = 0;
        for (double e : v) {
            if (e > 0) {
                c++;
            }
        }
        int[] out = new int[c];
        c = 0;
        for (int i = 0; i < v.length; i++) {
            if (v[i] > 0) {
                out[c++] = i;
            }
        }
        return out;
    }
}

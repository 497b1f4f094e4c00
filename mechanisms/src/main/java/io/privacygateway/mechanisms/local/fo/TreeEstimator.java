package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.Arrays;

/**
 * The estimator of the {@link TreeMechanism}: each level's oracle gives unbiased node frequencies from its own
 * {@code n_ℓ} reports, and the leaves are fitted by weighted least squares over the whole tree with the root fixed
 * at 1 (Hay et al.'s two-pass algorithm with the tree's public level weights; see {@link TreeMechanism}). The result
 * is consistent and unbiased given every level received a report. Its variances are the tree's model
 * ({@link TreeMechanism#queryVariancesAt}, design {@code n_ℓ = n/h}), which the device also uses to choose the
 * branching factor.
 */
final class TreeEstimator extends OracleEstimator<TreeMechanism> {
    private final int height;
    private final int[] levelSize;

    TreeEstimator(TreeMechanism tree) {
        super(tree);
        this.height = tree.height();
        this.levelSize = new int[height + 1];
        for (int l = 0; l <= height; l++) {
            levelSize[l] = tree.levelSize(l);
        }
    }

    @Override
    public double[] estimate(long[] state, long n) {
        double[][] f = consistentNodes(state, n);
        return f[height];
    }

    /** The consistent estimates of every node, level by level ({@code [0]} is the root, fixed at 1). */
    double[][] consistentNodes(long[] state, long n) {
        o.checkState(state);
        checkN(n);
        long total = 0;
        double[] nl = new double[height + 1];
        for (int l = 1; l <= height; l++) {
            if (state[l - 1] < 0) {
                throw new IllegalArgumentException("state[" + (l - 1) + "] (reports of level " + l
                        + ") must be >= 0, got " + state[l - 1]);
            }
            total += state[l - 1];
            nl[l] = state[l - 1];
        }
        checkAccumulated(total, n);
        double[][] y = new double[height + 1][];
        for (int l = 1; l <= height; l++) {
            int offset = o.levelOffset(l);
            long[] slice = Arrays.copyOfRange(state, offset, offset + levelSize[l]);
            y[l] = state[l - 1] > 0 ? new SupportCountEstimator(o.levelOracle(l)).estimate(slice, state[l - 1])
                    : new double[levelSize[l]];
        }
        return infer(o.plan(o.weights(nl, n)), y);
    }

    /** The fit: consistent node values from level observations {@code y[1..h]}, root fixed at 1. */
    double[][] infer(TreeMechanism.Plan plan, double[][] y) {
        int h = height;
        double[][] z = new double[h + 1][];
        double[][] zc = new double[h + 1][];
        for (int l = h; l >= 0; l--) {
            z[l] = new double[levelSize[l]];
            zc[l] = new double[levelSize[l]];
            for (int u = 0; u < levelSize[l]; u++) {
                double sum = 0;
                if (l < h) {
                    for (int c = o.childStart(u); c < o.childEnd(l, u); c++) {
                        sum += z[l + 1][c];
                    }
                }
                zc[l][u] = sum;
                double a = plan.alpha()[l][u];
                z[l][u] = l == 0 ? sum : (a == 0 ? sum : a * y[l][u] + (1 - a) * sum);
            }
        }
        double[][] f = new double[h + 1][];
        f[0] = new double[] {1.0};
        for (int l = 1; l <= h; l++) {
            f[l] = new double[levelSize[l]];
            for (int p = 0; p < levelSize[l - 1]; p++) {
                double residual = f[l - 1][p] - zc[l - 1][p];
                for (int c = o.childStart(p); c < o.childEnd(l - 1, p); c++) {
                    f[l][c] = z[l][c] + plan.beta()[l][c] * residual;
                }
            }
        }
        return f;
    }

    @Override
    double[] variancesAt(double n, double[] f) {
        TreeMechanism.Plan plan = o.plan(o.designWeights(n));
        double[][] levelF = o.aggregate(f);
        double[] v = new double[k];
        double[] e = new double[k];
        for (int x = 0; x < k; x++) {
            e[x] = 1;
            v[x] = o.modelVariance(plan, n, f, levelF, e);
            e[x] = 0;
        }
        return v;
    }

    @Override
    double queryVarianceAt(double n, double[] f, double[] c) {
        return o.modelVariance(o.plan(o.designWeights(n)), n, f, o.aggregate(f), c);
    }

    @Override
    double[] queryVariancesAt(double n, double[] f, PointSet answers) {
        return o.queryVariancesAt(n, f, answers);
    }
}

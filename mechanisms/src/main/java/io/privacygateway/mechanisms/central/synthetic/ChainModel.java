package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A chain-rule model fitted to (noisy) marginal tables: along an attribute order π, attribute π_j is drawn given
 * the s−1 attributes before it, from the table of those s attributes (the first s−1 positions use the table of the
 * first s attributes, marginalised). Negative noisy cells are clipped to 0 and every conditional is smoothed by a
 * small pseudo-count. This is the "marginals-then-sample" construction (PrivBayes-style, without consistency);
 * here it proposes candidate records for the LP and is the cheap baseline at every d.
 *
 * <p>Post-processing only: the model is a function of the noisy tables and public parameters, and is sampled with
 * public randomness.
 */
public final class ChainModel {
    /** Pseudo-count added to both outcomes of every conditional (in probability units). */
    static final double SMOOTHING = 1e-4;

    private final int d;
    private final int[] order;
    private final int[][] parents;
    private final double[][] probabilityOfOne;

    private ChainModel(int d, int[] order, int[][] parents, double[][] p1) {
        this.d = d;
        this.order = order;
        this.parents = parents;
        this.probabilityOfOne = p1;
    }

    /**
     * Fits the chain along {@code order} to the normalised tables {@code u} (layout order).
     *
     * @param order a permutation of the d attributes
     */
    public static ChainModel fit(MarginalLayout layout, double[] u, int[] order) {
        Require.nonNull("layout", layout);
        Require.nonNull("u", u);
        Require.nonNull("order", order);
        int d = layout.attributes();
        int s = layout.way();
        if (u.length != layout.cells()) {
            throw new IllegalArgumentException("u must have " + layout.cells() + " entries, got " + u.length);
        }
        boolean[] seen = new boolean[d];
        if (order.length != d) {
            throw new IllegalArgumentException("order must be a permutation of " + d + " attributes");
        }
        for (int a : order) {
            if (a < 0 || a >= d || seen[a]) {
                throw new IllegalArgumentException("order must be a permutation of " + d + " attributes, got "
                        + Arrays.toString(order));
            }
            seen[a] = true;
        }
        Map<Integer, Integer> blockOf = new HashMap<>();
        for (int b = 0; b < layout.blocks(); b++) {
            int mask = 0;
            for (int a : layout.subset(b)) {
                mask |= 1 << a;
            }
            blockOf.put(mask, b);
        }
        int[][] parents = new int[d][];
        double[][] p1 = new double[d][];
        for (int j = 0; j < d; j++) {
            int start = j >= s - 1 ? j - s + 1 : 0;
            int[] window = Arrays.copyOfRange(order, start, start + s); // s attributes containing π_j and parents
            int target = order[j];
            int np = Math.min(j, s - 1);
            int[] par = Arrays.copyOfRange(order, j - np, j);
            int mask = 0;
            for (int a : window) {
                mask |= 1 << a;
            }
            int b = blockOf.get(mask);
            int[] attrs = layout.subset(b); // increasing; cell bit for attrs[i] is s−1−i
            double[] sum = new double[2 << np]; // index: parents config · 2 + x_target
            for (int cell = 0; cell < (1 << s); cell++) {
                double v = Math.max(0, u[(b << s) + cell]);
                int x = 0;
                int targetBit = 0;
                for (int i = 0; i < s; i++) {
                    int bit = (cell >>> (s - 1 - i)) & 1;
                    if (attrs[i] == target) {
                        targetBit = bit;
                    }
                    for (int p = 0; p < np; p++) {
                        if (attrs[i] == par[p]) {
                            x |= bit << p;
                        }
                    }
                }
                sum[(x << 1) | targetBit] += v;
            }
            double[] p = new double[1 << np];
            for (int x = 0; x < p.length; x++) {
                p[x] = (sum[(x << 1) | 1] + SMOOTHING) / (sum[x << 1] + sum[(x << 1) | 1] + 2 * SMOOTHING);
            }
            parents[j] = par;
            p1[j] = p;
        }
        return new ChainModel(d, order.clone(), parents, p1);
    }

    /** The identity order {@code 0, 1, …, d−1}. */
    public static int[] identityOrder(int d) {
        int[] o = new int[d];
        for (int i = 0; i < d; i++) {
            o[i] = i;
        }
        return o;
    }

    /** A uniformly random order drawn with public coins (Fisher–Yates). */
    public static int[] randomOrder(int d, RandomBits coins) {
        int[] o = identityOrder(d);
        for (int i = d - 1; i > 0; i--) {
            int j = ExactSampler.uniformInt(coins, i + 1);
            int t = o[i];
            o[i] = o[j];
            o[j] = t;
        }
        return o;
    }

    /** One record drawn from the model with public coins. */
    public int sample(RandomBits coins) {
        int x = 0;
        for (int j = 0; j < d; j++) {
            int cfg = 0;
            int[] par = parents[j];
            for (int p = 0; p < par.length; p++) {
                cfg |= ((x >>> par[p]) & 1) << p;
            }
            if (ExactSampler.uniformDouble(coins) < probabilityOfOne[j][cfg]) {
                x |= 1 << order[j];
            }
        }
        return x;
    }

    /** The model's probability of a record. */
    public double probability(int record) {
        double pr = 1;
        for (int j = 0; j < d; j++) {
            int cfg = 0;
            int[] par = parents[j];
            for (int p = 0; p < par.length; p++) {
                cfg |= ((record >>> par[p]) & 1) << p;
            }
            double p1 = probabilityOfOne[j][cfg];
            pr *= ((record >>> order[j]) & 1) == 1 ? p1 : 1 - p1;
        }
        return pr;
    }
}

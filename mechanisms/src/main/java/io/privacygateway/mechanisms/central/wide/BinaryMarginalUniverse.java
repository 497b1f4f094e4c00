package io.privacygateway.mechanisms.central.wide;

/**
 * {@code U = {0,1}^d} with the k-way marginals as partition groups (one group per attribute subset, its
 * {@code 2^k} cells as queries), dense: a distribution is {@code 2^d} doubles. Answers on a distribution cost
 * one Walsh–Hadamard transform ({@link Hypercube}); an update multiplies every point by its cell's factor.
 * Thread-safe: the transform's work array is per thread.
 */
public final class BinaryMarginalUniverse implements MwUniverse {
    private final Hypercube cube;
    private final MarginalWorkload workload;
    private final ThreadLocal<double[]> scratch;
    private final int[][] subsets;

    public BinaryMarginalUniverse(MarginalWorkload workload) {
        this.cube = new Hypercube(workload);
        this.workload = workload;
        int size = cube.size();
        this.scratch = ThreadLocal.withInitial(() -> new double[size]);
        this.subsets = workload.subsetsView();
    }

    public MarginalWorkload workload() {
        return workload;
    }

    public Hypercube cube() {
        return cube;
    }

    @Override
    public int size() {
        return cube.size();
    }

    @Override
    public double logSize() {
        return workload.attributeCount() * Math.log(2);
    }

    @Override
    public int groups() {
        return workload.subsetCount();
    }

    @Override
    public int groupSize() {
        return workload.cellsPerSubset();
    }

    @Override
    public boolean partition() {
        return true;
    }

    @Override
    public long unit() {
        return 1;
    }

    @Override
    public void answers(double[] p, double[][] out) {
        cube.marginals(p, scratch.get(), out);
    }

    @Override
    public void update(double[] p, int g, double[] eta) {
        int k = workload.way();
        int per = 1 << k;
        double[] factor = new double[per];
        for (int c = 0; c < per; c++) {
            factor[c] = Math.exp(eta[c]);
        }
        int[] s = subsets[g];
        double total = 0;
        int n = p.length;
        if (k == 3) {
            int a = s[0];
            int b = s[1];
            int c = s[2];
            for (int x = 0; x < n; x++) {
                int cell = (((x >>> a) & 1) << 2) | (((x >>> b) & 1) << 1) | ((x >>> c) & 1);
                double v = p[x] * factor[cell];
                p[x] = v;
                total += v;
            }
        } else {
            for (int x = 0; x < n; x++) {
                int cell = 0;
                for (int a : s) {
                    cell = (cell << 1) | ((x >>> a) & 1);
                }
                double v = p[x] * factor[cell];
                p[x] = v;
                total += v;
            }
        }
        double inv = 1 / total;
        for (int x = 0; x < n; x++) {
            p[x] *= inv;
        }
    }
}

package io.privacygateway.mechanisms.testing;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Seeded synthetic point sets and noisy targets for the projection tests and the speed benchmark (public
 * randomness only: nothing here touches a secret). Shipped in the mechanisms test-jar.
 */
public final class SyntheticPointSets {
    private SyntheticPointSets() {}

    /** {@code n} points of {@code {0,1}^m}; each point's density is uniform in {@code [lo, hi]}. */
    public static PointSet randomBinaryPoints(int n, int m, double lo, double hi, UniformRandomProvider rng) {
        double[] data = new double[Math.multiplyExact(n, m)];
        for (int i = 0; i < n; i++) {
            double density = lo + (hi - lo) * rng.nextDouble();
            for (int t = 0; t < m; t++) {
                data[i * m + t] = rng.nextDouble() < density ? 1.0 : 0.0;
            }
        }
        return PointSet.ofRowMajor(n, m, data);
    }

    /**
     * The mean answer of {@code reports} values drawn from a random (Dirichlet(1)-like) distribution
     * over the atoms, plus independent Gaussian noise of standard deviation {@code sigma}.
     */
    public static double[] noisyMean(PointSet atoms, int reports, double sigma, UniformRandomProvider rng) {
        int n = atoms.size();
        double[] cumulative = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            total += -Math.log(1 - rng.nextDouble()); // exponential(1): normalised gives Dirichlet(1,…,1)
            cumulative[i] = total;
        }
        double[] counts = new double[n];
        for (int r = 0; r < reports; r++) {
            int i = Arrays.binarySearch(cumulative, rng.nextDouble() * total);
            counts[i < 0 ? Math.min(n - 1, -i - 1) : i]++;
        }
        double[] y = new double[atoms.dim()];
        for (int i = 0; i < n; i++) {
            if (counts[i] > 0) {
                atoms.addScaledRow(i, counts[i] / reports, y);
            }
        }
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        for (int t = 0; t < y.length; t++) {
            y[t] += sigma * normal.sample();
        }
        return y;
    }
}

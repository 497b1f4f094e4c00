package io.privacygateway.mechanisms.errors;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * The Gaussian mean width {@code g(S) = E max_{x∈S} ⟨G, x⟩}, {@code G ~ N(0, I_m)}, of a finite set,
 * by Monte Carlo (MECHANISMS.md §3). It depends only on the public workload, so it uses a fixed-seed
 * generator (public randomness) and is computed once per workload or level.
 *
 * <p>The estimate's standard error is reported alongside; with {@code T} draws it is at most
 * {@code maxNorm/√T} because {@code max⟨G,x⟩} is {@code maxNorm}-Lipschitz in {@code G}.
 */
public final class GaussianWidth {
    private GaussianWidth() {}

    /**
     * The Monte Carlo estimate.
     *
     * @param mean the average of {@code max⟨G,x⟩} over the draws
     * @param standardError the standard error of that average
     * @param draws the number of draws
     */
    public record Estimate(double mean, double standardError, int draws) {
        /** A value exceeded by the true width with probability about 1e-3 (mean + 3.1 standard errors). */
        public double upper() {
            return mean + 3.1 * standardError;
        }
    }

    /** {@code g(S)} with {@code draws} Gaussian vectors from the fixed public seed {@code seed}. */
    public static Estimate of(PointSet set, int draws, long seed) {
        if (draws < 2) {
            throw new IllegalArgumentException("draws must be >= 2, got " + draws);
        }
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        int m = set.dim();
        double[] g = new double[m];
        double sum = 0;
        double sumSq = 0;
        for (int t = 0; t < draws; t++) {
            for (int j = 0; j < m; j++) {
                g[j] = normal.sample();
            }
            double mx = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < set.size(); i++) {
                mx = Math.max(mx, set.dot(i, g));
            }
            sum += mx;
            sumSq += mx * mx;
        }
        double mean = sum / draws;
        double var = Math.max(0, (sumSq - draws * mean * mean) / (draws - 1));
        return new Estimate(mean, Math.sqrt(var / draws), draws);
    }

    private static final int CACHE_SIZE = 256;
    private static final Map<PointSet.ContentKey, Estimate> CACHE =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<PointSet.ContentKey, Estimate> e) {
                    return size() > CACHE_SIZE;
                }
            };

    /**
     * {@code g(S)} with 400 draws from the project's default public seed, memoised by the set's content
     * (several stages ask for the width of the same public set).
     */
    public static Estimate of(PointSet set) {
        PointSet.ContentKey key = set.contentKey();
        synchronized (CACHE) {
            Estimate hit = CACHE.get(key);
            if (hit != null) {
                return hit;
            }
        }
        Estimate e = of(set, 400, 0x5EED_6A55L);
        synchronized (CACHE) {
            CACHE.put(key, e);
        }
        return e;
    }
}

package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.BernoulliExp;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigInteger;

/**
 * Every secret draw a wide release or worst-case chaining makes, by kind. The only implementation used in
 * production is {@link #exact}: each method is one call of an exact sampler ({@code central/sampling}, the
 * purifier, {@link ExactSampler}) on the secret {@link RandomBits}; no release in these packages reads the bits
 * in any other way. Tests wrap it to record the sequence of draws and their parameters.
 */
public interface ReleaseDraws {
    /** One exact discrete Gaussian sample. */
    long gaussian(DiscreteGaussian noise);

    /** One exact discrete Laplace sample. */
    long laplace(DiscreteLaplace noise);

    /** {@code true} with probability exactly {@code exp(−num/den)} ({@link BernoulliExp}). */
    boolean bernoulliExp(BigInteger num, BigInteger den);

    /** A uniform integer in {@code [0, n)}, exactly. */
    long uniform(long n);

    /** The purified grid point of {@code x} ({@link Purifier#purifyToGrid}). */
    long[] purify(Purifier purifier, double[] x);

    /**
     * The released count of a window of {@code n} reports: {@code n} plus one {@link #laplace} draw of the count's
     * noise for a noisy count, {@code n} itself (no draw) for a public one.
     *
     * @throws ArithmeticException if the sum overflows a long
     */
    default long releasedCount(CountRelease count, long n) {
        return count instanceof CountRelease.Noisy c ? Math.addExact(n, laplace(c.noise())) : n;
    }

    /** The production draws on secret bits. */
    static ReleaseDraws exact(RandomBits secret) {
        return new Exact(Require.nonNull("secret", secret));
    }

    /** Draws through the exact samplers. */
    final class Exact implements ReleaseDraws {
        private final RandomBits bits;

        private Exact(RandomBits bits) {
            this.bits = bits;
        }

        @Override
        public long gaussian(DiscreteGaussian noise) {
            return noise.sample(bits);
        }

        @Override
        public long laplace(DiscreteLaplace noise) {
            return noise.sample(bits);
        }

        @Override
        public boolean bernoulliExp(BigInteger num, BigInteger den) {
            return BernoulliExp.sample(bits, num, den);
        }

        @Override
        public long uniform(long n) {
            return ExactSampler.uniformLong(bits, n);
        }

        @Override
        public long[] purify(Purifier purifier, double[] x) {
            return purifier.purifyToGrid(x, bits);
        }
    }
}

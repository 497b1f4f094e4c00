package io.privacygateway.mechanisms.central.sampling;

import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import java.util.Arrays;
import java.util.function.ToLongFunction;

/**
 * Throughput of the exact samplers (not a unit test): samples per second, median of 5 timed runs after 3
 * warm-ups, with the seeded generator and with {@link SecureRandomBits}, plus the mean number of 64-bit words
 * per sample. Run from the module directory with
 * {@code mvn -q -o dependency:build-classpath -Dmdep.outputFile=cp.txt && java -cp target/classes:target/test-classes:$(cat cp.txt) io.privacygateway.mechanisms.central.sampling.SamplerThroughput [n]}.
 */
public final class SamplerThroughput {
    private SamplerThroughput() {}

    /** Counts the words drawn. */
    private static final class Counting implements RandomBits {
        private final RandomBits inner;
        long words;

        Counting(RandomBits inner) {
            this.inner = inner;
        }

        @Override
        public long nextLong() {
            words++;
            return inner.nextLong();
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        DiscreteGaussian g100 = DiscreteGaussian.withSigma2(10_000, 1);
        DiscreteLaplace l100 = DiscreteLaplace.withScale(100, 1);
        DiscreteGaussian g1e4 = DiscreteGaussian.withSigma2(100_000_000, 1);
        DiscreteGaussian g1e6 = DiscreteGaussian.withSigma2(1_000_000_000_000L, 1);
        run("discrete Gaussian sigma=100", n, g100::sample);
        run("discrete Laplace t=100", n, l100::sample);
        run("discrete Gaussian sigma=1e4", n / 10, g1e4::sample);
        run("discrete Gaussian sigma=1e6 (BigInteger acceptance)", n / 10, g1e6::sample);
        Purifier pur = new Purifier(LqNorm.LINF, new double[100], 2.0, Epsilon.of(1.0), new LogDelta(-400), 1e-3);
        double[] x = new double[100];
        run("purify d=100 l-inf (per vector)", n / 100, b -> pur.purifyToGrid(x, b)[0]);
        UniformBallLattice ul1 = UniformBallLattice.l1(100, 1 << 20);
        UniformBallLattice ul2 = UniformBallLattice.l2(100, 1L << 40);
        run("uniform l1 ball d=100 N=2^20 (per point)", n / 1000, b -> ul1.sample(b)[0]);
        run("uniform l2 ball d=100 M=2^40 (per point)", n / 1000, b -> ul2.sample(b)[0]);
    }

    private static void run(String label, int n, ToLongFunction<RandomBits> sampler) {
        for (String source : new String[] {"seeded", "SecureRandom"}) {
            int count = source.equals("seeded") ? n : Math.max(1, n / 10);
            double[] rates = new double[5];
            long sink = 0;
            Counting counting = null;
            for (int rep = 0; rep < 8; rep++) {
                RandomBits base = source.equals("seeded") ? new SeededRandomBits(rep) : new SecureRandomBits();
                counting = new Counting(base);
                long start = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    sink += sampler.applyAsLong(counting);
                }
                long elapsed = System.nanoTime() - start;
                if (rep >= 3) {
                    rates[rep - 3] = count / (elapsed / 1e9);
                }
            }
            Arrays.sort(rates);
            System.out.printf("%-55s %-12s %,14.0f samples/s  %6.1f words/sample  (sink %d)%n", label, source,
                    rates[2], (double) counting.words / count, sink & 1);
        }
    }
}

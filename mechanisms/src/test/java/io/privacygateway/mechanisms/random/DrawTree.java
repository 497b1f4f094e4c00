package io.privacygateway.mechanisms.random;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Test support: the exact output law of a randomized function of {@link SecretDraws}, by depth-first
 * enumeration of its whole draw tree. Each run replays a path of outcomes; at a new call it takes outcome
 * 0 and records the call's arity (2 for a Bernoulli, {@code n} for {@code uniformInt(n)}); after the run
 * the path advances like an odometer. The probability of a leaf is the exact product of the chosen
 * outcomes' probabilities ({@code numerator/2^gridBits}, its complement, {@code 1/n}); branches of
 * probability 0 are cut as soon as they are taken. The function must be deterministic given the
 * outcomes (randomizers are: their only randomness is the draws).
 *
 * <p>The result is exactly the law of the function when its draws are exact, which {@code ExactSampler}
 * tests establish separately for the word-level sampler.
 */
public final class DrawTree {
    /** The default cap on the number of leaves. */
    public static final int MAX_LEAVES = 1 << 20;

    private DrawTree() {}

    /** The law of {@code run}: every reachable output with its exact probability (summing to 1). */
    public static <T> Map<T, Rational> law(Function<SecretDraws, T> run) {
        return law(run, MAX_LEAVES);
    }

    /** As {@link #law(Function)}, failing if the tree has more than {@code maxLeaves} leaves. */
    public static <T> Map<T, Rational> law(Function<SecretDraws, T> run, int maxLeaves) {
        List<Integer> path = new ArrayList<>();
        List<Integer> arity = new ArrayList<>();
        Map<T, Rational> out = new HashMap<>();
        int leaves = 0;
        while (true) {
            Replay r = new Replay(path, arity);
            try {
                T y = run.apply(r);
                if (r.depth < path.size()) {
                    throw new IllegalStateException("the function made fewer draws on replay than before");
                }
                out.merge(y, r.probability, Rational::add);
            } catch (ZeroBranch cut) {
                // a branch of probability 0: nothing below it can occur
            }
            if (++leaves > maxLeaves) {
                throw new IllegalStateException("more than " + maxLeaves + " leaves");
            }
            int i = path.size() - 1;
            while (i >= 0 && path.get(i) + 1 >= arity.get(i)) {
                path.remove(i);
                arity.remove(i);
                i--;
            }
            if (i < 0) {
                return out;
            }
            path.set(i, path.get(i) + 1);
        }
    }

    private static final class ZeroBranch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ZeroBranch() {
            super(null, null, false, false);
        }
    }

    private static final class Replay implements SecretDraws {
        final List<Integer> path;
        final List<Integer> arity;
        int depth;
        Rational probability = Rational.ONE;

        Replay(List<Integer> path, List<Integer> arity) {
            this.path = path;
            this.arity = arity;
        }

        private int next(int a) {
            if (depth < path.size()) {
                if (arity.get(depth) != a) {
                    throw new IllegalStateException("a replayed draw changed its arity at depth " + depth);
                }
            } else {
                path.add(0);
                arity.add(a);
            }
            return path.get(depth++);
        }

        @Override
        public boolean bernoulli(long numerator, int gridBits) {
            ExactSampler.checkGrid(numerator, gridBits);
            int c = next(2);
            BigInteger den = BigInteger.ONE.shiftLeft(gridBits);
            BigInteger num = c == 0 ? BigInteger.valueOf(numerator) : den.subtract(BigInteger.valueOf(numerator));
            if (num.signum() == 0) {
                throw new ZeroBranch();
            }
            probability = probability.multiply(Rational.of(num, den));
            return c == 0;
        }

        @Override
        public int uniformInt(int n) {
            if (n <= 0) {
                throw new IllegalArgumentException("n must be >= 1, got " + n);
            }
            int c = next(n);
            probability = probability.divide(n);
            return c;
        }
    }
}

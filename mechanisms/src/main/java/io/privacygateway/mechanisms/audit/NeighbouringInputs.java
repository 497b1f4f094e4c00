package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Two inputs the declared guarantee says are hard to tell apart (two device values for a local
 * randomizer, two neighbouring window aggregates for a central release), with everything public fixed
 * (the report's coordinates, hence its public coins), and a way to run the mechanism on each.
 *
 * @param first the first input, in words
 * @param second the second input, in words
 * @param context what else is fixed (coordinates, window), in words
 * @param onFirst draws one output of the mechanism on the first input
 * @param onSecond draws one output of the mechanism on the second input
 * @param dimension the number of features of an {@link Observation}
 * @param featureName the name of feature {@code j}, for event descriptions
 * @param directions feature-space directions known in advance to separate the inputs (e.g. the
 *     difference of their noise-free answers), each tried as a linear score; may be empty
 */
record NeighbouringInputs(String first, String second, String context, Sampler onFirst, Sampler onSecond,
        int dimension, IntFunction<String> featureName, List<double[]> directions) {

    public NeighbouringInputs {
        Require.nonBlank("first", first);
        Require.nonBlank("second", second);
        Require.nonNull("context", context);
        Require.nonNull("onFirst", onFirst);
        Require.nonNull("onSecond", onSecond);
        Require.positive("dimension", dimension);
        Require.nonNull("featureName", featureName);
        directions = List.copyOf(directions);
        for (double[] d : directions) {
            if (d.length != dimension) {
                throw new IllegalArgumentException("directions must have length " + dimension + ", got " + d.length);
            }
        }
    }

    /** Runs the mechanism once on a fixed input, with the auditor's randomness as its secret randomness. */
    @FunctionalInterface
    interface Sampler {
        Observation sample(RandomBits randomness);
    }

}

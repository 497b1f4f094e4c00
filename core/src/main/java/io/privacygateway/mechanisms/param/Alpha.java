package io.privacygateway.mechanisms.param;

/**
 * A target average error α for the coarse-projection and chaining mechanisms, in normalized distance
 * {@code ||u − v||₂ / √m}: finite and in {@code (0, 1)}.
 *
 * @param value the target error
 */
public record Alpha(double value) {
    public Alpha {
        Require.inOpenRange("alpha", value, 0.0, 1.0);
    }

    public static Alpha of(double value) {
        return new Alpha(value);
    }

    /** Number of chaining levels {@code k = ⌈log₂(2/α)⌉} (Lemma 4.2 of the query-release paper). */
    public int chainingLevels() {
        return (int) Math.ceil(StrictMath.log(2.0 / value) / StrictMath.log(2.0) - 1e-12);
    }
}

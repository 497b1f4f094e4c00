package io.privacygateway.mechanisms.local;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecretDraws;

/**
 * A local-model mechanism instantiated for one workload and one per-report ε: the device half
 * ({@link #randomize}) and the exact aggregation of its payloads ({@link #accumulate}), so device and gateway run
 * the same code for both. The estimate from an aggregate is the gateway's ({@code LocalEstimator}, module
 * {@code mechanisms}), which reads the public parameters the protocol exposes.
 *
 * <p><b>Guarantee.</b> For every pair of universe values {@code x, x'}, every report coordinates and
 * every payload {@code y}: {@code P(randomize(x) = y) <= e^ε · P(randomize(x') = y)}, where the only
 * secret randomness is exact Bernoulli and uniform-integer draws from {@code secret}
 * ({@link io.privacygateway.mechanisms.random.ExactSampler}); public coins derived from the coordinates
 * ({@link io.privacygateway.mechanisms.coins.PublicCoins}) may be used freely because the bound holds
 * for every value of them.
 *
 * <p><b>Aggregation.</b> The gateway half ({@link ReportAccumulator}): exact integer additions into a
 * {@code long[]}, merged by element-wise addition.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface LocalProtocol extends ReportAccumulator {
    /**
     * Device side: randomizes universe value {@code value} into a payload.
     *
     * @param value the device's value as a universe index, in {@code [0, universeSize)}
     * @param coordinates the report's public coordinates (used for public coins)
     * @param secret the secret randomness ({@link io.privacygateway.mechanisms.random.SecureRandomBits}
     *     in production)
     */
    default byte[] randomize(int value, ReportCoordinates coordinates, RandomBits secret) {
        if (secret == null) {
            throw new IllegalArgumentException("secret is required");
        }
        return randomize(value, coordinates, ExactSampler.draws(secret));
    }

    /**
     * Device side with explicit draws: the sequence of calls made on {@code draws} (count, kinds and the
     * parameters that set their cost) is the same for every value and every outcome of earlier draws, and
     * so is the public work; only the coordinates and the protocol decide it.
     *
     * @param value the device's value as a universe index
     * @param coordinates the report's public coordinates
     * @param draws the secret draws ({@link ExactSampler#draws} of {@code SecureRandomBits} in production)
     */
    byte[] randomize(int value, ReportCoordinates coordinates, SecretDraws draws);
}

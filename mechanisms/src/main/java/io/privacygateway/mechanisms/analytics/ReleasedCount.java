package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import java.util.Objects;
import java.util.Optional;

/**
 * The report count as released before a window-analytics mechanism runs: the public count (replace-one
 * neighbours) or the count plus discrete Laplace noise (add/remove). Everything here is a function of the
 * released value and public parameters, so mechanisms may use it freely (adaptive composition).
 *
 * @param value the released count ñ (may be 0 or negative under add/remove)
 * @param noise the count's noise, empty when the count is public
 */
public record ReleasedCount(long value, Optional<DiscreteLaplace> noise) {
    public ReleasedCount {
        Objects.requireNonNull(noise, "noise");
    }

    /** A public count. */
    public static ReleasedCount exact(long n) {
        return new ReleasedCount(n, Optional.empty());
    }

    /** {@code max(1, ñ)}: what means divide by. */
    public long divisor() {
        return Math.max(1, value);
    }

    /** {@code max(0, ñ)}: what is published. */
    public long published() {
        return Math.max(0, value);
    }

    /**
     * A bound {@code b} with {@code P(|n − ñ| > b) <= beta}: 0 for a public count, else {@code t·ln(2/β)} for the
     * discrete Laplace of scale t ({@code P(|η| > t ln(2/β)) <= β}).
     */
    public double tail(double beta) {
        return noise.map(l -> l.scaleDouble() * Math.log(2 / beta)).orElse(0.0);
    }

    /** An upper bound on n that holds with probability at least {@code 1 − β}. */
    public double upper(double beta) {
        return Math.max(1, value + tail(beta));
    }
}

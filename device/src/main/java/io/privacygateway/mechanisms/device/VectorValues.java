package io.privacygateway.mechanisms.device;

import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.VectorMeanProtocol;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.InvalidValueException;

/**
 * The one rule for vector values (family mean over a ball or a box), shared by the device SDK and the gateway: how a
 * vector is written as text, and which vectors are in the domain.
 */
public final class VectorValues {
    private VectorValues() {}

    /**
     * Refuses a vector outside the feasible set: its length, a non-finite coordinate, a coordinate outside the box, a
     * norm above the ball's radius, or anything else the protocol refuses. The message names the rule and the
     * coordinate's position, never a coordinate's value (nor the norm).
     *
     * @throws InvalidValueException as described
     */
    public static void check(Domain.Vector dom, VectorMeanProtocol protocol, double[] value)
            throws InvalidValueException {
        if (value == null) {
            throw new InvalidValueException("the value is missing");
        }
        if (value.length != dom.dimension()) {
            throw new InvalidValueException("a vector of " + dom.dimension() + " coordinates is expected, got "
                    + value.length);
        }
        double sq = 0;
        for (int q = 0; q < value.length; q++) {
            if (!Double.isFinite(value[q])) {
                throw new InvalidValueException("coordinate " + (q + 1) + " (" + dom.coordinates().get(q)
                        + ") is not a finite number");
            }
            if (dom instanceof Domain.Box b && (value[q] < b.lo() || value[q] > b.hi())) {
                throw new InvalidValueException("coordinate " + (q + 1) + " (" + dom.coordinates().get(q)
                        + ") is outside [" + b.lo() + ", " + b.hi() + "]");
            }
            sq += value[q] * value[q];
        }
        if (dom instanceof Domain.Ball b && Math.sqrt(sq) > b.radius() * (1 + BallCandidates.NORM_SLACK)) {
            throw new InvalidValueException("the vector is outside the ball of radius " + b.radius());
        }
        try {
            protocol.checkValue(value.clone());
        } catch (IllegalArgumentException e) { // its message is not repeated: only the rule above is public
            throw new InvalidValueException("the vector is outside the workload's " + dom.kind());
        }
    }

    /**
     * The vector a string holds: its coordinates in declaration order separated by commas, optionally in square
     * brackets ({@code 12.5, 40, 3}); the message of a refusal names the coordinate's position, never its text.
     *
     * @throws InvalidValueException if the text is not such a vector
     */
    public static double[] parse(Domain.Vector domain, String raw) throws InvalidValueException {
        if (raw == null) {
            throw new InvalidValueException("the value is missing");
        }
        String t = raw.trim();
        if (t.startsWith("[") && t.endsWith("]") && t.length() >= 2) {
            t = t.substring(1, t.length() - 1);
        }
        int d = domain.dimension();
        String[] parts = t.split(",", -1);
        if (parts.length != d) {
            throw new InvalidValueException("a vector of " + d + " comma-separated coordinates ("
                    + String.join(", ", domain.coordinates()) + ") is expected, got " + parts.length
                    + " field(s)");
        }
        double[] out = new double[d];
        for (int q = 0; q < d; q++) {
            String p = parts[q].trim();
            try {
                out[q] = Double.parseDouble(p);
            } catch (NumberFormatException e) {
                out[q] = Double.NaN;
            }
            if (p.isEmpty() || !Double.isFinite(out[q])) {
                throw new InvalidValueException("coordinate " + (q + 1) + " (" + domain.coordinates().get(q)
                        + ") is not a finite number");
            }
        }
        return out;
    }
}

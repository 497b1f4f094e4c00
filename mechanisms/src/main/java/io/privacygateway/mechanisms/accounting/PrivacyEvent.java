package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.Require;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One run of a mechanism as the ledger records it: which mechanism, the privacy it consumed, the
 * parameters it ran with, and when. Keeping these (not only a running total) lets a tighter accountant
 * replay the history later.
 *
 * <p>Preconditions, checked at construction (messages name the field and the value):
 * {@code mechanism} non-blank; {@code cost} and {@code time} required; {@code parameters} required (may be
 * empty), every key non-blank and every value finite. The time is event time supplied by the caller; this
 * class never reads a clock. The parameter map is copied into an immutable map sorted by key, so equal
 * events have equal maps and serialise to the same bytes.
 *
 * @param mechanism a stable mechanism name, e.g. {@code "gaussian-sign/v1"}
 * @param cost the privacy guarantee this run consumed
 * @param parameters free-form numeric parameters (e.g. {@code sigma}, {@code sensitivity}, {@code n}),
 *     immutable and sorted by key; informational for accountants that understand them
 * @param time the event time
 */
public record PrivacyEvent(String mechanism, PrivacyCost cost, SortedMap<String, Double> parameters, Instant time) {
    public PrivacyEvent {
        Require.nonBlank("mechanism", mechanism);
        Require.nonNull("cost", cost);
        Require.nonNull("parameters", parameters);
        Require.nonNull("time", time);
        TreeMap<String, Double> copy = new TreeMap<>();
        for (Map.Entry<String, Double> e : parameters.entrySet()) {
            String key = e.getKey();
            Require.nonBlank("parameter name", key);
            Double value = e.getValue();
            if (value == null) {
                throw new IllegalArgumentException("parameter " + key + " is required, got nothing");
            }
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("parameter " + key + " must be a finite number, got " + value);
            }
            copy.put(key, value);
        }
        parameters = Collections.unmodifiableSortedMap(copy);
    }

    /** An event without free-form parameters. */
    public static PrivacyEvent of(String mechanism, PrivacyCost cost, Instant time) {
        return new PrivacyEvent(mechanism, cost, Collections.emptySortedMap(), time);
    }

    /** An event with free-form parameters (copied; any map type, null keys and values are rejected). */
    public static PrivacyEvent of(String mechanism, PrivacyCost cost, Instant time, Map<String, Double> parameters) {
        Require.nonNull("parameters", parameters);
        TreeMap<String, Double> sorted = new TreeMap<>();
        for (Map.Entry<String, Double> e : parameters.entrySet()) {
            // TreeMap would throw a NullPointerException on a null key: report it as a validation error.
            sorted.put(Require.nonBlank("parameter name", e.getKey()), e.getValue());
        }
        return new PrivacyEvent(mechanism, cost, sorted, time);
    }
}

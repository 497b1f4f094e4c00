package io.privacygateway.mechanisms.accounting;

import java.util.List;

/**
 * A composition theorem applied to a recorded history: given the events of a {@link PrivacyLedger} in the
 * order they ran, the privacy guarantee of running all of them (adaptively, in sequence).
 *
 * <p>Contract: the returned cost must be a valid guarantee for the whole sequence, rounded so that it is
 * never below the exact value of the theorem's formula; an empty list gives a zero cost; an event whose
 * kind the theorem cannot handle is rejected with an {@link IllegalArgumentException} naming its index
 * (never silently skipped). Implementations are stateless and thread-safe. Standard ones are in
 * {@link Accountants}; a tighter accountant (e.g. one that reads the Gaussian σ and sensitivity from the
 * event parameters) can be added later and replayed over existing ledgers.
 */
public interface Accountant {
    /** A short stable name (for logs and answer records). */
    String name();

    /** The composed guarantee of {@code events}, in order. */
    PrivacyCost account(List<PrivacyEvent> events);
}

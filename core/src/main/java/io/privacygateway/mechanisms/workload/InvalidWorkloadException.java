package io.privacygateway.mechanisms.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A workload declaration is invalid; the message names the field (as a path) and the bad value. A file with several
 * errors gives one exception holding all of them ({@link #errors()}), its message listing each on one line.
 */
public final class InvalidWorkloadException extends IllegalArgumentException {
    private final String field;
    private final List<InvalidWorkloadException> errors;

    public InvalidWorkloadException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
        this.errors = null;
    }

    private InvalidWorkloadException(List<InvalidWorkloadException> errors) {
        super(errors.size() + " errors: " + joined(errors));
        this.field = errors.get(0).field();
        this.errors = Collections.unmodifiableList(new ArrayList<>(errors));
    }

    private static String joined(List<InvalidWorkloadException> errors) {
        StringBuilder b = new StringBuilder();
        for (InvalidWorkloadException e : errors) {
            b.append(b.length() == 0 ? "" : "; ").append(e.getMessage());
        }
        return b.toString();
    }

    /**
     * One exception for {@code errors} (in the order found): the single error itself, or one whose message lists
     * them all and whose {@link #field()} is the first one's.
     *
     * @param errors at least one error, none of them itself a list
     */
    public static InvalidWorkloadException of(List<InvalidWorkloadException> errors) {
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("no error given");
        }
        return errors.size() == 1 ? errors.get(0) : new InvalidWorkloadException(errors);
    }

    /** The path of the offending field, e.g. {@code budget.period} or {@code domain.labels[2]}; of the first error. */
    public String field() {
        return field;
    }

    /** Every error this exception reports (itself alone when it names one field). */
    public List<InvalidWorkloadException> errors() {
        return errors == null ? List.of(this) : errors;
    }
}

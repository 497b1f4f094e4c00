package io.privacygateway.mechanisms.param;

/**
 * Validation of numeric parameters with messages that name the field and show the bad value.
 *
 * <p>Every privacy parameter in the project is validated through these methods at construction, so a
 * NaN, an infinity or an out-of-range value can never reach a mechanism. The message always has the
 * shape {@code "<field> must be <condition>, got <value>"}.
 */
public final class Require {
    private Require() {}

    /** A finite number strictly greater than zero. */
    public static double finitePositive(String field, double value) {
        if (!(Double.isFinite(value) && value > 0)) {
            throw new IllegalArgumentException(field + " must be a finite number > 0, got " + value);
        }
        return value;
    }

    /** A finite number greater than or equal to zero. */
    public static double finiteNonNegative(String field, double value) {
        if (!(Double.isFinite(value) && value >= 0)) {
            throw new IllegalArgumentException(field + " must be a finite number >= 0, got " + value);
        }
        return value;
    }

    /** A finite number in the closed interval {@code [lo, hi]}. */
    public static double inClosedRange(String field, double value, double lo, double hi) {
        if (!(Double.isFinite(value) && value >= lo && value <= hi)) {
            throw new IllegalArgumentException(
                    field + " must be a finite number in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** A finite number in the open interval {@code (lo, hi)}. */
    public static double inOpenRange(String field, double value, double lo, double hi) {
        if (!(Double.isFinite(value) && value > lo && value < hi)) {
            throw new IllegalArgumentException(
                    field + " must be a finite number in (" + lo + ", " + hi + "), got " + value);
        }
        return value;
    }

    /** A finite number in {@code (lo, hi]}. */
    public static double inHalfOpenRange(String field, double value, double lo, double hi) {
        if (!(Double.isFinite(value) && value > lo && value <= hi)) {
            throw new IllegalArgumentException(
                    field + " must be a finite number in (" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** An integer in {@code [lo, hi]}. */
    public static long inRange(String field, long value, long lo, long hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(
                    field + " must be an integer in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** An integer {@code >= 1}. */
    public static int positive(String field, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be an integer >= 1, got " + value);
        }
        return value;
    }

    /** A non-null reference. */
    public static <T> T nonNull(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return value;
    }

    /** A non-blank string. */
    public static String nonBlank(String field, String value) {
        if (value == null || isBlank(value)) {
            throw new IllegalArgumentException(field + " must be a non-empty string, got "
                    + (value == null ? "nothing" : "\"" + value + "\""));
        }
        return value;
    }

    /** {@code String.isBlank} (Java 11; Android API 33): empty or only white space code points. */
    public static boolean isBlank(String s) {
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            if (!Character.isWhitespace(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }
}

package io.privacygateway.mechanisms.param;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of workload files, {@code gateway.yaml} and the command line: a whole number with a
 * unit ({@code 500ms}, {@code 10s}, {@code 1m}, {@code 1h}, {@code 1d}) or an ISO-8601 duration ({@code PT1M},
 * {@code P1D}).
 */
public final class Durations {
    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    private Durations() {}

    /**
     * Parses a duration.
     *
     * @throws IllegalArgumentException "must be a duration such as …, got "…"" (callers prefix the field name),
     *     also for a negative duration
     */
    public static Duration parse(String text) {
        String s = text == null ? "" : text.trim();
        Duration d;
        Matcher m = SHORT.matcher(s.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be a duration such as 10s, 1m, 1h, 1d or PT1M, got \"" + s + "\"");
            }
            d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        } else {
            try {
                d = Duration.parse(s.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("must be a duration such as 10s, 1m, 1h, 1d or PT1M, got \"" + s + "\"");
            }
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("must not be negative, got \"" + s + "\"");
        }
        return d;
    }
}

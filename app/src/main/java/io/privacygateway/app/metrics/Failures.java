package io.privacygateway.app.metrics;

import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Failures told in one line (what the command line prints without {@code --verbose}). */
public final class Failures {
    /** A one-line description is cut after this many characters. */
    public static final int MAX_LINE = 600;

    private Failures() {}

    /**
     * One line describing {@code t}: its message (or its class name when it has none), followed by the innermost
     * cause that has a message when that says something else (or, when neither {@code t} nor any cause has a
     * message, the innermost cause's class name). Wrappers without their own information ({@link ExecutionException},
     * {@link CompletionException}) are skipped. Line breaks are folded into spaces and the result is cut at
     * {@value #MAX_LINE} characters.
     */
    public static String oneLine(Throwable t) {
        Throwable top = unwrap(t);
        // the cause worth naming: the innermost one that says something (else the innermost one's class)
        Throwable root = top;
        Throwable telling = null;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            if (root.getMessage() != null && !root.getMessage().isBlank()) {
                telling = root;
            }
        }
        boolean topSilent = top.getMessage() == null || top.getMessage().isBlank();
        Throwable cause = telling != null ? telling : topSilent ? root : top;
        String line = describe(top);
        if (cause != top) {
            String r = describe(cause);
            if (!line.contains(r)) {
                line = line + " (cause: " + r + ")";
            }
        }
        line = line.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
        return line.length() <= MAX_LINE ? line : line.substring(0, MAX_LINE - 1) + "…";
    }

    /** {@code t} without the wrappers that carry no information of their own. */
    public static Throwable unwrap(Throwable t) {
        Throwable x = t;
        while ((x instanceof ExecutionException || x instanceof CompletionException) && x.getCause() != null) {
            x = x.getCause();
        }
        return x;
    }

    /** Whether {@code t} or one of its causes is an instance of {@code type}. */
    public static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable x = t; x != null; x = x.getCause() == x ? null : x.getCause()) {
            if (type.isInstance(x)) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        String name = t.getClass().getSimpleName();
        if (m == null || m.isBlank()) {
            return name;
        }
        // messages such as "java.net.ConnectException" (a cause's toString) already name the class
        return m.toLowerCase(Locale.ROOT).contains(name.toLowerCase(Locale.ROOT)) || isPlainStatement(t) ? m
                : name + ": " + m;
    }

    /** Exceptions whose message is a complete statement for a user (the class name would only add noise). */
    private static boolean isPlainStatement(Throwable t) {
        return t instanceof IllegalArgumentException || t instanceof IllegalStateException;
    }
}

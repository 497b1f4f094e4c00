package io.privacygateway.app;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The log level and format of the command line, read once at start, before the first logger exists: a system
 * property ({@code -Dpgw.log.level}, {@code -Dpgw.log.format}) wins over the environment ({@code PGW_LOG_LEVEL},
 * {@code PGW_LOG_FORMAT}), which wins over the defaults ({@code warn}, {@code text}). {@code log4j2.xml} reads the
 * result from the system properties. Text stays the default because the demo and the commands run on a terminal;
 * a deployment sets {@code PGW_LOG_FORMAT=json} for one JSON object per line (timestamp, level, logger, thread,
 * message, mdc, exception). SLF4J's provider is chosen explicitly: Log4j 2, except for {@code text} on the tool class
 * path of {@code bin/privacy-gateway} (demo, bench), which keeps slf4j-simple and the embedded broker's quiet levels
 * ({@code HarnessLogging}).
 */
public final class LogSettings {
    public static final String LEVEL_ENV = "PGW_LOG_LEVEL";
    public static final String FORMAT_ENV = "PGW_LOG_FORMAT";
    public static final String LEVEL_PROPERTY = "pgw.log.level";
    public static final String FORMAT_PROPERTY = "pgw.log.format";
    static final List<String> LEVELS = List.of("off", "error", "warn", "info", "debug", "trace");
    static final List<String> FORMATS = List.of("text", "json");
    /** SLF4J's provider for Log4j 2 (chosen explicitly: the tool class path also carries slf4j-simple). */
    static final String LOG4J_PROVIDER = "org.apache.logging.slf4j.SLF4JServiceProvider";
    static final String SIMPLE_PROVIDER = "org.slf4j.simple.SimpleServiceProvider";
    static final String HARNESS = "io.privacygateway.harness.HarnessLogging";

    private LogSettings() {}

    /**
     * @param level the root level, one of {@link #LEVELS}
     * @param format {@code text} or {@code json}
     */
    public record Resolved(String level, String format) {}

    /**
     * The settings from {@code properties} over {@code env} over the defaults.
     *
     * @throws IllegalArgumentException naming the variable or property when a value is not one of the allowed ones
     */
    public static Resolved resolve(Map<String, String> env, Properties properties) {
        return new Resolved(pick(env, properties, LEVEL_ENV, LEVEL_PROPERTY, "warn", LEVELS),
                pick(env, properties, FORMAT_ENV, FORMAT_PROPERTY, "text", FORMATS));
    }

    /**
     * Resolves the settings and sets them as system properties for {@code log4j2.xml}; call before any logger is
     * created.
     *
     * @throws IllegalArgumentException naming the variable or property with a bad value
     */
    public static Resolved apply(Map<String, String> env) {
        Resolved r = resolve(env, System.getProperties());
        System.setProperty(LEVEL_PROPERTY, r.level());
        System.setProperty(FORMAT_PROPERTY, r.format());
        if (System.getProperty("slf4j.provider") == null) {
            if (r.format().equals("text") && present(HARNESS) && present(SIMPLE_PROVIDER)) {
                // the tool class path (demo, bench: bin/privacy-gateway) keeps slf4j-simple with the broker's quiet
                // levels of HarnessLogging, as before; JSON always goes through Log4j 2
                System.setProperty("slf4j.provider", SIMPLE_PROVIDER);
                setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", r.level());
                setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
                setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
                setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
            } else if (present(LOG4J_PROVIDER)) {
                System.setProperty("slf4j.provider", LOG4J_PROVIDER);
            }
            setIfAbsent("slf4j.internal.verbosity", "WARN"); // no "provider specified" line on stderr
        }
        return r;
    }

    private static String pick(Map<String, String> env, Properties properties, String envName, String property,
            String dflt, List<String> allowed) {
        String fromProperty = properties.getProperty(property);
        String name = fromProperty != null ? "-D" + property : envName;
        String v = fromProperty != null ? fromProperty : env.get(envName);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (!allowed.contains(s)) {
            throw new IllegalArgumentException(name + " must be one of " + String.join(", ", allowed) + ", got \""
                    + v + "\"");
        }
        return s;
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, LogSettings.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}

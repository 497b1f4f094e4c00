package io.privacygateway.harness;

import java.util.Map;

/**
 * Quiet default log levels for a Kafka broker, its clients and Testcontainers, for the slf4j-simple
 * backend this module brings.
 *
 * <p>A broker logs hundreds of INFO lines while it starts, and every client dumps its whole
 * configuration at INFO. {@link #applyQuietDefaults()} sets, for each of the noisy logger
 * prefixes below, the slf4j-simple system property {@code org.slf4j.simpleLogger.log.<prefix>}
 * to {@code warn} <em>unless that property is already set</em>. So any level can be overridden on
 * the command line, e.g. {@code -Dorg.slf4j.simpleLogger.log.org.apache.kafka=info}, or in a
 * {@code simplelogger.properties} of one's own by setting {@code -Dprivacygateway.harness.quietLogging=false}
 * (which turns this class off altogether).
 *
 * <p>slf4j-simple decides a logger's level when the logger is created, so the defaults apply to
 * every logger created after the call; {@link EmbeddedKafka} and {@link KafkaHarness} call it
 * before they create any Kafka object. With another slf4j backend on the class path (the consumer
 * having excluded slf4j-simple) the properties are simply unused.
 */
public final class HarnessLogging {

    /** System property that turns the quiet defaults off ({@code false}). */
    public static final String QUIET_PROPERTY = "privacygateway.harness.quietLogging";

    static final String SIMPLE_LOGGER_PREFIX = "org.slf4j.simpleLogger.log.";

    /** Logger-name prefixes and the level each gets unless configured otherwise. */
    static final Map<String, String> DEFAULT_LEVELS = Map.ofEntries(
            Map.entry("org.apache.kafka", "warn"),
            Map.entry("kafka", "warn"),
            // Broker loggers named outside the packages above.
            Map.entry("state.change.logger", "warn"),
            Map.entry("org.apache.kafka.storage.internals.log.LogCleaner", "warn"),
            // Warns "the metadata log appears to be empty" on every fresh start, which is the
            // normal case here; its errors still show.
            Map.entry("org.apache.kafka.controller.QuorumController", "error"),
            // Clients: a producer whose transaction is fenced or aborted logs ERROR lines that are
            // expected in exactly-once tests; they stay visible (ERROR >= WARN).
            // Expected in tests and demos, which keep Streams state in the OS temp directory, stop brokers
            // under running clients and let a global consumer start before its partition is assigned.
            Map.entry("org.apache.kafka.streams.processor.internals.StateDirectory", "error"),
            Map.entry("org.apache.kafka.clients.NetworkClient", "error"),
            Map.entry("org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils", "error"),
            Map.entry("org.testcontainers", "warn"),
            Map.entry("tc", "warn"),
            Map.entry("com.github.dockerjava", "warn"),
            Map.entry("org.rnorth.ducttape", "warn"),
            // Kafka's transitive dependencies.
            Map.entry("org.apache.commons.beanutils", "warn"),
            Map.entry("org.reflections", "warn"));

    private static volatile boolean applied;

    private HarnessLogging() {
    }

    /**
     * Sets the quiet defaults (idempotent, cheap). Does nothing when
     * {@value #QUIET_PROPERTY} is {@code false}.
     */
    public static void applyQuietDefaults() {
        if (applied) {
            return;
        }
        synchronized (HarnessLogging.class) {
            if (applied) {
                return;
            }
            if (!"false".equalsIgnoreCase(System.getProperty(QUIET_PROPERTY))) {
                for (Map.Entry<String, String> e : DEFAULT_LEVELS.entrySet()) {
                    String key = SIMPLE_LOGGER_PREFIX + e.getKey();
                    if (System.getProperty(key) == null) {
                        System.setProperty(key, e.getValue());
                    }
                }
                // Log4j 2 (log4j-core comes with kafka-server and is only touched by the broker's
                // dynamic-log-level endpoint) must not print its own "no configuration" warning.
                if (System.getProperty("log4j2.statusLoggerLevel") == null) {
                    System.setProperty("log4j2.statusLoggerLevel", "OFF");
                }
            }
            applied = true;
        }
    }
}

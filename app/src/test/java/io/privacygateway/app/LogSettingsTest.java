package io.privacygateway.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;

/**
 * The command line's logging: level and format from the environment (checked, naming the variable), the shipped
 * {@code log4j2.xml} writing JSON lines with the standard fields, and no log statement handing a payload or a raw
 * value to a logger.
 */
class LogSettingsTest {

    @Test
    void levelAndFormatComeFromPropertyOverEnvironmentOverDefaultsAndABadValueNamesItsVariable() {
        assertThat(LogSettings.resolve(Map.of(), new Properties())).isEqualTo(new LogSettings.Resolved("warn", "text"));
        assertThat(LogSettings.resolve(Map.of("PGW_LOG_LEVEL", "INFO", "PGW_LOG_FORMAT", "json"), new Properties()))
                .isEqualTo(new LogSettings.Resolved("info", "json"));
        Properties p = new Properties();
        p.setProperty("pgw.log.format", "text");
        assertThat(LogSettings.resolve(Map.of("PGW_LOG_FORMAT", "json"), p).format()).isEqualTo("text");
        assertThatThrownBy(() -> LogSettings.resolve(Map.of("PGW_LOG_FORMAT", "yaml"), new Properties()))
                .hasMessageStartingWith("PGW_LOG_FORMAT must be one of text, json");
        assertThatThrownBy(() -> LogSettings.resolve(Map.of("PGW_LOG_LEVEL", "loud"), new Properties()))
                .hasMessageStartingWith("PGW_LOG_LEVEL must be one of");
    }

    /** Starts the shipped configuration with {@code format=json} and reads back what one event wrote. */
    @Test
    void jsonFormatWritesOneObjectPerLineWithTheStandardFields() throws Exception {
        org.slf4j.LoggerFactory.getLogger("first"); // a default context exists already, as in the command line
        List<String> lines = logThroughShippedConfig("json");
        assertThat(lines).hasSize(3);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.fieldNames()).toIterable().contains("timestamp", "level", "logger", "thread", "message",
                "mdc", "exception");
        assertThat(first.get("level").asText()).isEqualTo("WARN");
        assertThat(first.get("logger").asText()).isEqualTo("io.privacygateway.logtest");
        assertThat(first.get("thread").asText()).isEqualTo(Thread.currentThread().getName());
        assertThat(first.get("message").asText()).isEqualTo("window 42 of screen-usage released late");
        assertThat(first.get("mdc").get("workload").asText()).isEqualTo("screen-usage");
        assertThat(first.get("exception").asText()).contains("java.lang.IllegalStateException: boom");
        assertThat(first.get("timestamp").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        JsonNode second = json.readTree(lines.get(1)); // the INFO event passes at level info; no exception field
        assertThat(second.get("level").asText()).isEqualTo("INFO");
        assertThat(second.has("exception")).isFalse();
        assertThat(json.readTree(lines.get(2)).get("message").asText()).isEqualTo("another StreamsConfig warning passes");
    }

    @Test
    void textFormatIsOneReadableLinePerEvent() throws Exception {
        List<String> lines = logThroughShippedConfig("text");
        assertThat(lines.get(0)).contains("WARN").contains("logtest - window 42 of screen-usage released late");
        assertThat(lines.get(0)).doesNotStartWith("{");
    }

    /**
     * Kafka Streams' partition assignor warns once per stream thread that the global processing-exception handler
     * is off, even though the gateway turns it on; the shipped configuration drops that one message and no other.
     */
    @Test
    void theMisfiringGlobalHandlerWarningOfKafkaStreamsIsDroppedAndOtherStreamsConfigWarningsPass() throws Exception {
        List<String> lines = logThroughShippedConfig("text");
        assertThat(lines).noneMatch(l -> l.contains("Processing exception handler is not enabled"));
        assertThat(lines).anyMatch(l -> l.contains("StreamsConfig - another StreamsConfig warning passes"));
    }

    private static List<String> logThroughShippedConfig(String format) throws Exception {
        PrintStream err = System.err;
        String oldFormat = System.getProperty(LogSettings.FORMAT_PROPERTY);
        String oldLevel = System.getProperty(LogSettings.LEVEL_PROPERTY);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        URI config = LogSettingsTest.class.getClassLoader().getResource("log4j2.xml").toURI();
        System.setProperty(LogSettings.FORMAT_PROPERTY, format);
        System.setProperty(LogSettings.LEVEL_PROPERTY, "info");
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        LoggerContext ctx = new LoggerContext("pgw-log-test-" + format, null, config);
        try {
            ctx.start();
            var log = ctx.getLogger("io.privacygateway.logtest");
            ThreadContext.put("workload", "screen-usage");
            log.warn("window {} of {} released late", 42, "screen-usage", new IllegalStateException("boom"));
            ThreadContext.clearMap();
            log.info("an event without exception");
            log.debug("below the level: not written");
            var streamsConfig = ctx.getLogger("org.apache.kafka.streams.StreamsConfig");
            streamsConfig.warn("Processing exception handler is not enabled for the GlobalThread. It's recommended to"
                    + " set `processing.exception.handler.global.enabled` to true to enable it."); // dropped
            streamsConfig.warn("another StreamsConfig warning passes");
        } finally {
            ctx.stop();
            System.setErr(err);
            restore(LogSettings.FORMAT_PROPERTY, oldFormat);
            restore(LogSettings.LEVEL_PROPERTY, oldLevel);
        }
        List<String> out = new ArrayList<>();
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("{") || line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} .*")) {
                out.add(line);
            }
        }
        return out;
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    /**
     * No log statement of the gateway, the ingestion service or the command line hands a logger a payload, a
     * record's value or a raw value (a source check: every argument of every {@code LOG.x(...)} call).
     */
    @Test
    void noLogStatementPassesAPayloadOrARawValue() throws IOException {
        Pattern call = Pattern.compile("\\b(?:LOG|log|logger)\\.(?:trace|debug|info|warn|error)\\((.*?)\\);",
                Pattern.DOTALL);
        // a report, its payload, a record's value (a report or an answer) or a central raw value
        Pattern forbidden = Pattern.compile("(?i)payload|rawvalue|raw_value|record\\.value\\(|\\.getValue\\(\\)"
                + "|getReport|\\breports?\\s*[,)]|\\bvalue\\s*[,)]");
        List<String> offending = new ArrayList<>();
        int calls = 0;
        for (String module : List.of("../topology", "../app", "../ingest", "../client-kafka")) {
            Path root = Path.of(module, "src/main/java");
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                    Matcher m = call.matcher(Files.readString(f));
                    while (m.find()) {
                        calls++;
                        String args = m.group(1);
                        int firstQuote = args.indexOf('"');
                        int lastQuote = args.lastIndexOf('"');
                        String code = firstQuote >= 0 ? args.substring(0, firstQuote) + args.substring(lastQuote + 1)
                                : args; // the message text may say "payload"; the arguments may not carry one
                        if (forbidden.matcher(code).find()) {
                            offending.add(f + ": " + args.replaceAll("\\s+", " "));
                        }
                    }
                }
            }
        }
        assertThat(calls).as("log statements found").isGreaterThan(30);
        assertThat(offending).isEmpty();
    }
}

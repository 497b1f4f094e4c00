package io.privacygateway.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Choosing the kind, quietly; and the shutdown hook of a JVM that is killed. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KafkaHarnessTest {

    @AfterEach
    void clearMode() {
        System.clearProperty(KafkaHarness.MODE_PROPERTY);
    }

    @Test
    void modeComesFromSystemProperty() {
        System.clearProperty(KafkaHarness.MODE_PROPERTY);
        if (System.getenv(KafkaHarness.MODE_ENV) == null) {
            assertThat(KafkaHarness.Mode.fromEnvironment()).isEqualTo(KafkaHarness.Mode.AUTO);
        }
        System.setProperty(KafkaHarness.MODE_PROPERTY, "Embedded");
        assertThat(KafkaHarness.Mode.fromEnvironment()).isEqualTo(KafkaHarness.Mode.EMBEDDED);
        System.setProperty(KafkaHarness.MODE_PROPERTY, "testcontainers");
        assertThat(KafkaHarness.Mode.fromEnvironment()).isEqualTo(KafkaHarness.Mode.DOCKER);
        System.setProperty(KafkaHarness.MODE_PROPERTY, "kubernetes");
        assertThatThrownBy(KafkaHarness.Mode::fromEnvironment).isInstanceOf(IllegalArgumentException.class);
    }

    /** AUTO picks what the probe says; without Docker it says so without ERROR lines or stack traces. */
    @Test
    void autoFollowsTheProbeAndIsQuiet() throws Exception {
        PrintStream originalErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        KafkaHarness kafka;
        long t0 = System.nanoTime();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            kafka = KafkaHarness.start(KafkaHarness.Mode.AUTO);
        } finally {
            System.setErr(originalErr);
        }
        long startMs = (System.nanoTime() - t0) / 1_000_000;
        String log = captured.toString(StandardCharsets.UTF_8);
        originalErr.print(log);
        try (kafka) {
            DockerProbe.Result probe = DockerProbe.probe();
            assertThat(kafka.kind()).isEqualTo(probe.available() ? KafkaHarness.Kind.CONTAINER
                    : KafkaHarness.Kind.EMBEDDED);
            if (!probe.available()) {
                assertThat(log).doesNotContain("ERROR").doesNotContain("Exception").doesNotContain("\tat ");
                assertThat(log).contains("Starting embedded Kafka (");
                System.out.printf("[KafkaHarnessTest] AUTO -> EMBEDDED (%s) in %d ms%n", probe.reason(), startMs);
            }
            kafka.createTopic("auto", 1, false);
            Map<String, Object> producerConfig = new HashMap<>(kafka.clientConfig());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>("auto", "k", "v")).get(30, TimeUnit.SECONDS);
            }
            Map<String, Object> consumerConfig = new HashMap<>(kafka.clientConfig());
            consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "auto-test");
            consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            List<String> values = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig,
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("auto"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (values.isEmpty() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                }
            }
            assertThat(values).containsExactly("v");
        }
    }

    @Test
    void embeddedModeNeverProbesDocker() {
        try (KafkaHarness kafka = KafkaHarness.start(KafkaHarness.Mode.EMBEDDED)) {
            assertThat(kafka).isInstanceOf(EmbeddedKafka.class);
            assertThat(kafka.kind()).isEqualTo(KafkaHarness.Kind.EMBEDDED);
        }
    }

    /**
     * A JVM without Testcontainers on its class path gets the embedded broker; when it is killed
     * with SIGTERM (what Ctrl-C's SIGINT also triggers: the shutdown hooks) the broker stops and
     * its directory disappears.
     */
    @Test
    void withoutTestcontainersAndKilledChildCleansUp() throws Exception {
        List<String> classpath = testClasspath();
        assumeThat(classpath).as("test class path visible").anyMatch(e -> e.contains("kafka-clients"));
        List<String> withoutDocker = classpath.stream()
                .filter(e -> !e.contains("testcontainers") && !e.contains("docker-java") && !e.contains("duct-tape")
                        && !e.contains(File.separator + "jna" + File.separator))
                .collect(Collectors.toList());
        assertThat(withoutDocker).hasSizeLessThan(classpath.size());

        Path out = Files.createTempFile("harness-child", ".out");
        Path err = Files.createTempFile("harness-child", ".err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", String.join(File.pathSeparator, withoutDocker),
                HarnessChild.class.getName())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            Map<String, String> report = awaitReport(child, out, Duration.ofSeconds(90));
            assertThat(report).containsEntry("kind", "EMBEDDED").containsEntry("testcontainers", "false");
            Path dir = Path.of(report.get("dir"));
            assertThat(Files.isDirectory(dir)).isTrue();

            long t0 = System.nanoTime();
            child.destroy(); // SIGTERM
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child exits after SIGTERM").isTrue();
            long exitMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(Files.exists(dir)).as("data directory removed by the shutdown hook").isFalse();
            String stderr = Files.readString(err);
            assertThat(stderr).contains("Shutting down EmbeddedKafka").contains("stopped in");
            assertThat(stderr).doesNotContain("ERROR").doesNotContain("Exception");
            System.out.printf("[KafkaHarnessTest] child JVM (-Xmx256m, no Testcontainers): start %s ms,"
                    + " SIGTERM to exit %d ms%n", report.get("startMs"), exitMs);
        } finally {
            child.destroyForcibly();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static Map<String, String> awaitReport(Process child, Path out, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<String> lines = Files.readAllLines(out);
            if (lines.stream().anyMatch(l -> l.startsWith("ready"))) {
                Map<String, String> report = new HashMap<>();
                for (String line : lines) {
                    int eq = line.indexOf('=');
                    if (eq > 0) {
                        report.put(line.substring(0, eq), line.substring(eq + 1));
                    }
                }
                return report;
            }
            if (!child.isAlive()) {
                throw new AssertionError("child exited with " + child.exitValue() + ": " + lines);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("child did not report within " + timeout);
    }

    private static List<String> testClasspath() throws IOException {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path");
        }
        return Arrays.stream(cp.split(File.pathSeparator)).filter(s -> !s.isBlank()).collect(Collectors.toList());
    }
}

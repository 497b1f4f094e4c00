package io.privacygateway.itests.support;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.harness.testing.TopicReader;
import io.privacygateway.schemas.testing.AvroTopicReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;

/**
 * A gateway running in the test JVM: the real {@link GatewayService} (Kafka Streams, exactly-once v2,
 * one stream thread, central mode with {@link CentralReleaser#secure()}), plus what tests need around it:
 * report producers, the workload registrar, readers of its answers and rejections, and its metrics.
 */
public final class TestGateway implements AutoCloseable {
    public final ItCluster cluster;
    public final GatewayConfig config;
    public final GatewayService service;
    /** Writes reports in the wire format (the SDK's producer). */
    public final Producer<String, SpecificRecord> reports;
    /** Writes arbitrary bytes (misbehaving devices). */
    public final Producer<String, byte[]> raw;

    private final Path stateDir;

    private TestGateway(ItCluster cluster, GatewayConfig config, GatewayService service, Path stateDir) {
        this.cluster = cluster;
        this.stateDir = stateDir;
        this.config = config;
        this.service = service;
        this.reports = ReportProducers.avro(cluster.kafkaConfig(), cluster.registryClient);
        this.raw = ReportProducers.raw(cluster.kafkaConfig());
    }

    static TestGateway start(ItCluster cluster, String applicationId, GatewayConfig config) throws Exception {
        return start(cluster, config.toBuilder().applicationId(applicationId).build(), CentralReleaser.secure());
    }

    /**
     * Starts a gateway of its own in this JVM (application id and topics from {@code config}, a fresh state
     * directory) with the given central releaser; the caller closes it.
     */
    public static TestGateway start(ItCluster cluster, GatewayConfig config, CentralReleaser releaser)
            throws Exception {
        long t0 = System.nanoTime();
        // a fresh state directory: state left by an earlier run would not match this run's broker
        Path stateDir = Files.createTempDirectory(cluster.workDir(), "state-" + config.applicationId() + "-");
        GatewaySettings s = new GatewaySettings(cluster.kafka.bootstrapServers(), cluster.registry.ccompatUrl(),
                config, (short) 1, 1, stateDir, "exactly_once_v2", Map.of(), Map.of());
        Deployment.prepare(s, cluster.registryClient);
        GatewayService service = GatewayService.start(s, new SimpleMeterRegistry(), releaser, Duration.ofSeconds(90));
        System.out.printf("[it] gateway %s running after %.1f s%n", config.applicationId(),
                (System.nanoTime() - t0) / 1e9);
        return new TestGateway(cluster, config, service, stateDir);
    }

    public GatewayTopics topics() {
        return new GatewayTopics(config.topicPrefix());
    }

    /** Parses, resolves and publishes a workload file, and waits until the gateway has loaded it. */
    public WorkloadSpec register(String yaml) throws Exception {
        WorkloadSpec resolved;
        try (WorkloadRegistrar registrar = WorkloadRegistrar.create(cluster.kafkaConfig(), cluster.registryClient,
                topics())) {
            resolved = registrar.register(WorkloadFiles.parse(yaml, "it"));
        }
        awaitKnows(resolved, Duration.ofSeconds(30));
        return resolved;
    }

    /** Waits until the gateway's catalog has this version of the workload active. */
    public void awaitKnows(WorkloadSpec spec, Duration timeout) throws Exception {
        service.awaitWorkload(spec.id(), CanonicalForm.contentHash(spec), timeout);
    }

    /** When the active version of a workload became active (its registration record's broker time). */
    public long activeSince(String workloadId) {
        return service.catalog().current(workloadId).since();
    }

    /** Answers of a workload (read_committed), read until {@code done} holds or the timeout passes. */
    public List<WindowAnswer> answers(String workloadId, Predicate<List<WindowAnswer>> done, Duration timeout) {
        return AvroTopicReader.readValues(cluster.kafkaConfig(), cluster.registryClient, config.answersTopic(),
                WindowAnswer.class, a -> a.getWorkloadId().equals(workloadId), done, timeout);
    }

    /**
     * The answers of a workload for the window starting at {@code windowStart} (read_committed), read until at
     * least one is there or the timeout passes. The gateway answers every scheduled window (empty ones too), so
     * tests pick answers by window start.
     */
    public List<WindowAnswer> answersFor(String workloadId, long windowStart, Duration timeout) {
        return Answers.forWindow(cluster.kafkaConfig(), cluster.registryClient, config.answersTopic(), workloadId,
                windowStart, timeout);
    }

    /** The single answer of a window (fails if there is none or more than one). */
    public WindowAnswer answerFor(String workloadId, long windowStart, Duration timeout) {
        return Answers.single(answersFor(workloadId, windowStart, timeout), workloadId, windowStart);
    }

    /**
     * The answers of a workload by window start, for the windows starting at {@code starts}, read until every one
     * of them has at least one answer or the timeout passes.
     */
    public Map<Long, List<WindowAnswer>> answersFor(String workloadId, java.util.Collection<Long> starts,
            Duration timeout) {
        return Answers.byWindow(cluster.kafkaConfig(), cluster.registryClient, config.answersTopic(), workloadId,
                starts, timeout);
    }

    /** Every answer of a workload on the answers topic now, by window start. */
    public java.util.NavigableMap<Long, List<WindowAnswer>> allAnswers(String workloadId) {
        return Answers.all(cluster.kafkaConfig(), cluster.registryClient, config.answersTopic(), workloadId);
    }

    /** Rejections matching {@code filter} (read_committed), read until {@code done} holds or the timeout passes. */
    public List<Rejection> rejections(Predicate<Rejection> filter, Predicate<List<Rejection>> done, Duration timeout) {
        return AvroTopicReader.readValues(cluster.kafkaConfig(), cluster.registryClient, config.rejectionsTopic(),
                Rejection.class, filter, done, timeout);
    }

    /** Rejections of records whose device id (report field, or record key if undecodable) starts with a prefix. */
    public List<Rejection> rejectionsOfDevices(String devicePrefix, Predicate<List<Rejection>> done, Duration timeout) {
        return rejections(r -> deviceOf(r) != null && deviceOf(r).startsWith(devicePrefix), done, timeout);
    }

    /** The rejected report's device id, or the record key if the report could not be decoded. */
    public static String deviceOf(Rejection r) {
        if (r.getDeviceId() != null) {
            return r.getDeviceId();
        }
        return TopicReader.string(TopicReader.bytes(r.getOriginalKey()));
    }

    /** A counter of the gateway's registry (0 if never incremented). */
    public double count(String name, String... tags) {
        return service.metrics().count(name, tags);
    }

    public double accepted(String workloadId, String mode) {
        return count("pgw.reports.accepted", "workload", workloadId, "mode", mode);
    }

    /** {@code pgw.reports.rejected} of a workload (tag value {@code unknown} for undecodable records), by reason. */
    public Map<String, Double> rejectedByReason(String workloadTag) {
        Map<String, Double> out = new TreeMap<>();
        for (Counter c : service.metrics().registry().find("pgw.reports.rejected").tag("workload", workloadTag)
                .counters()) {
            if (c.count() > 0) {
                out.merge(c.getId().getTag("reason"), c.count(), Double::sum);
            }
        }
        return out;
    }

    public double rejectedTotal(String workloadTag) {
        return rejectedByReason(workloadTag).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** Waits until {@code value} reaches at least {@code target}; returns the last value seen. */
    public static double awaitAtLeast(DoubleSupplier value, double target, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        double v = value.getAsDouble();
        while (v < target && System.nanoTime() < deadline) {
            Thread.sleep(50);
            v = value.getAsDouble();
        }
        return v;
    }

    /** Starts sampling the Kafka Streams state and thread names (to show the stream never stopped). */
    public StreamsWatch watch() {
        return new StreamsWatch(service.streams());
    }

    @Override
    public void close() {
        reports.close(Duration.ofSeconds(5));
        raw.close(Duration.ofSeconds(5));
        service.close();
        deleteRecursively(stateDir);
    }

    static void deleteRecursively(Path dir) {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // best effort: it lies under target/
        }
    }
}

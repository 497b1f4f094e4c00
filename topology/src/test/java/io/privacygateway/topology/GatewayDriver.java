package io.privacygateway.topology;

import io.privacygateway.topology.service.GatewayTopologyFactory;
import io.privacygateway.topology.service.GatewaySerdes;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.WorkloadSpecRecords;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.topology.clock.CaughtUpClock;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The gateway topology under {@link TopologyTestDriver} (every record on partition 0 of its topic) with a real
 * schema registry, typed access to its topics, and a simulated broker clock: the driver's wall clock is the
 * broker's time, and the partition counts as caught up unless {@link #brokerReachable} is cleared.
 */
public final class GatewayDriver implements AutoCloseable {
    public final GatewayConfig cfg;
    public final GatewayMetrics metrics;
    public final WorkloadCatalog catalog = new WorkloadCatalog();
    public final TopologyTestDriver driver;
    public final TestInputTopic<String, byte[]> workloads;
    public final TestInputTopic<byte[], byte[]> local;
    public final TestInputTopic<byte[], byte[]> central;
    public final TestInputTopic<String, byte[]> partials;
    public final TestOutputTopic<String, WindowAnswer> answers;
    public final TestOutputTopic<byte[], Rejection> rejections;
    public final TestOutputTopic<String, io.privacygateway.schemas.avro.SyntheticData> synthetic;
    /** The broker's time as the simulated clock reports it. */
    public final AtomicLong brokerTime;
    /** Whether the simulated broker can be read (an outage clears it). */
    public final AtomicBoolean brokerReachable = new AtomicBoolean(true);
    private final SchemaRegistryClient client;
    private final AvroSerializer<LocalReport> localSerializer;
    private final AvroSerializer<CentralReport> centralSerializer;
    private final AvroSerializer<WorkloadSpecRecord> workloadSerializer;

    public GatewayDriver(SchemaRegistryClient client, GatewayConfig cfg, long startTime) {
        this(client, cfg, startTime, CentralReleaser.withSecret(new SeededRandomBits(99)));
    }

    public GatewayDriver(SchemaRegistryClient client, GatewayConfig cfg, long startTime, CentralReleaser releaser) {
        this(client, cfg, startTime, releaser, new GatewayMetrics(new SimpleMeterRegistry()));
    }

    public GatewayDriver(SchemaRegistryClient client, GatewayConfig cfg, long startTime, GatewayMetrics metrics) {
        this(client, cfg, startTime, CentralReleaser.withSecret(new SeededRandomBits(99)), metrics);
    }

    public GatewayDriver(SchemaRegistryClient client, GatewayConfig cfg, long startTime, CentralReleaser releaser,
            GatewayMetrics metrics) {
        this.client = client;
        this.metrics = metrics;
        this.cfg = cfg;
        this.brokerTime = new AtomicLong(startTime);
        this.localSerializer = new AvroSerializer<>(client);
        this.centralSerializer = new AvroSerializer<>(client);
        this.workloadSerializer = new AvroSerializer<>(client);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, cfg.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        CaughtUpClock clock = (topic, partition, next) -> brokerReachable.get() ? OptionalLong.of(brokerTime.get())
                : OptionalLong.empty();
        driver = new TopologyTestDriver(GatewayTopologyFactory.build(new GatewayTopologyFactory.Parts(cfg,
                GatewaySerdes.withRegistry(client), metrics, catalog, releaser, clock, brokerTime::get)), p,
                Instant.ofEpochMilli(startTime));
        workloads = driver.createInputTopic(cfg.workloadsTopic(), new StringSerializer(), new ByteArraySerializer());
        local = driver.createInputTopic(cfg.localReportsTopic(), new ByteArraySerializer(), new ByteArraySerializer());
        this.central = driver.createInputTopic(cfg.centralReportsTopic(), new ByteArraySerializer(), new ByteArraySerializer());
        partials = driver.createInputTopic(cfg.partialsTopic(), new StringSerializer(), new ByteArraySerializer());
        answers = driver.createOutputTopic(cfg.answersTopic(), new StringDeserializer(),
                new AvroDeserializer<>(WindowAnswer.class, client));
        rejections = driver.createOutputTopic(cfg.rejectionsTopic(), new ByteArrayDeserializer(),
                new AvroDeserializer<>(Rejection.class, client));
        synthetic = driver.createOutputTopic(cfg.syntheticTopic(), new StringDeserializer(),
                new AvroDeserializer<>(io.privacygateway.schemas.avro.SyntheticData.class, client));
    }

    /** Registers a workload version at broker time {@code at}. */
    public void register(WorkloadSpec s, long at) {
        WorkloadSpecRecord r = WorkloadSpecRecords.toRecord(s);
        workloads.pipeInput(s.id(), workloadSerializer.serialize(cfg.workloadsTopic(), r), at);
    }

    /** Deletes a workload at broker time {@code at}. */
    public void delete(String id, long at) {
        workloads.pipeInput(id, null, at);
    }

    public void send(LocalReport r, long appendTime) {
        local.pipeInput(r.getDeviceId().getBytes(), localSerializer.serialize(cfg.localReportsTopic(), r), appendTime);
    }

    public void sendCentral(CentralReport r, long appendTime) {
        central.pipeInput(r.getDeviceId().getBytes(), centralSerializer.serialize(cfg.centralReportsTopic(), r),
                appendTime);
    }

    /**
     * Discards what the stores wrote to their changelogs so far. The test driver commits after every input record and
     * keeps every record produced, so a test that feeds tens of thousands of reports into a large window aggregate
     * (heavy-hitters: a few hundred kB per commit) calls this now and then to keep the heap bounded.
     */
    public void drainChangelogs() {
        for (String topic : driver.producedTopicNames()) {
            if (topic.endsWith("-changelog")) {
                driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer())
                        .readRecordsToList();
            }
        }
    }

    /** Advances the wall clock (punctuations) and the broker's time together. */
    public void advance(Duration d) {
        brokerTime.addAndGet(d.toMillis());
        driver.advanceWallClockTime(d);
    }

    @Override
    public void close() {
        driver.close();
    }
}

package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.Outcome;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.itests.support.Answers;
import io.privacygateway.itests.support.Deployment;
import io.privacygateway.itests.support.FaultWorkloads;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.harness.testing.AclFile;
import io.privacygateway.harness.testing.TopicReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>The ACLs of {@code docs/acls.md}, tested.</b> A broker of its own with SASL/PLAIN on every listener and KRaft's
 * {@code StandardAuthorizer} (users admin — the super user —, gateway, device, registrar, consumer; nothing is
 * allowed without an ACL). The operator (admin) creates the gateway's topics and applies exactly the ACLs of
 * {@code deploy/kafka/acls.txt}, the file the Compose stack applies ({@link AclFile}: one rule in one place). Then, each as its own principal: the gateway runs (exactly-once: consumer group,
 * transactional ids, changelog topics it creates itself, the clock probes and the deployment record), the
 * registrar registers a workload, 30 devices report through the SDK, and a consumer reads the window's answer,
 * without a group and in a group of its prefix. The test proves the whole path works with these ACLs (n = 30)
 * and that the device principal can write reports but cannot read answers, cannot write the partials topic,
 * cannot write the workloads topic and cannot read other devices' reports; and that the consumer cannot write
 * reports. <b>Time:</b> about 30 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class AclIT {
    static final String PREFIX = "pgw.";
    static final String APP = "privacy-gateway";
    static final int DEVICES = 30;

    @Test
    void theDocumentedAclsRunTheGatewayEndToEndAndKeepDevicesToWritingReports(ItCluster c) throws Exception {
        long t0 = System.nanoTime();
        EmbeddedKafka.Sasl sasl = new EmbeddedKafka.Sasl(Map.of("admin", "admin-secret", "gateway", "gateway-secret",
                "device", "device-secret", "registrar", "registrar-secret", "consumer", "consumer-secret"), "admin");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(sasl, Map.of())) {
            GatewayConfig cfg = GatewayConfig.builder(3, 3).topicPrefix(PREFIX).applicationId(APP)
                    .watermarkSlack(Duration.ofMillis(500)).build();
            GatewayTopics topics = new GatewayTopics(PREFIX);
            Path state = Files.createTempDirectory(c.workDir(), "acl-state-");
            // the operator creates the topics and the ACLs
            Deployment.prepare(settings(kafka, c, "admin", cfg, state), c.registryClient);
            // the module's directory is the working directory of the integration tests: the repository is its parent
            List<AclBinding> acls = AclFile.read(Path.of("").toAbsolutePath().getParent());
            try (Admin admin = Admin.create(kafka.clientConfig())) {
                admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
            }
            System.out.printf("[acl] SASL broker up, topics and %d ACL bindings of deploy/kafka/acls.txt in place after"
                    + " %.1f s%n", acls.size(), (System.nanoTime() - t0) / 1e9);

            try (GatewayService gateway = GatewayService.start(settings(kafka, c, "gateway", cfg, state),
                    new SimpleMeterRegistry(), CentralReleaser.secure(), Duration.ofSeconds(120))) {
                WorkloadSpec spec;
                try (WorkloadRegistrar r = WorkloadRegistrar.create(kafka.clientConfig("registrar"), c.registryClient,
                        topics)) {
                    spec = r.register(WorkloadFiles.parse(FaultWorkloads.local("acl-local", "2s", "1s"), "acl"));
                }
                gateway.awaitWorkload(spec.id(), CanonicalForm.contentHash(spec), Duration.ofSeconds(60));

                long w = Windows.nextWindowStart(2000, 500);
                Clock clock = Clock.fixed(Instant.ofEpochMilli(w + 500), ZoneOffset.UTC);
                List<CompletableFuture<?>> sent = new ArrayList<>();
                try (Producer<String, SpecificRecord> devices = ReportProducers.avro(kafka.clientConfig("device"),
                        c.registryClient)) {
                    for (int i = 0; i < DEVICES; i++) {
                        DeviceClient d = DeviceClient.builder("acl-dev-" + i, spec).producer(devices).clock(clock)
                                .topics(topics).build();
                        Outcome o = d.report("abcdefgh".substring(i % 8, i % 8 + 1));
                        assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
                        sent.add(o.delivery());
                    }
                    CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                }
                List<WindowAnswer> answers = Answers.forWindow(kafka.clientConfig("consumer"), c.registryClient,
                        topics.answers(), spec.id(), w, Duration.ofSeconds(60));
                assertThat(answers).hasSize(1);
                assertThat(answers.get(0).getN()).isEqualTo(DEVICES);
                int inGroup = readInGroup(kafka.clientConfig("consumer"), topics.answers(), "answers-dashboard");
                assertThat(inGroup).isGreaterThan(0);
                System.out.printf("[acl] as gateway/registrar/device/consumer: window answered with n = %d; the"
                        + " consumer read %d answers in group answers-dashboard%n", answers.get(0).getN(), inGroup);

                // what the device principal must not do
                Map<String, Object> device = kafka.clientConfig("device");
                assertThatThrownBy(() -> TopicReader.read(device, topics.answers(), r -> true, l -> true,
                        Duration.ofSeconds(10))).as("device reads answers").isInstanceOf(TopicAuthorizationException.class);
                assertThatThrownBy(() -> TopicReader.read(device, topics.localReports(), r -> true, l -> true,
                        Duration.ofSeconds(10))).as("device reads reports").isInstanceOf(TopicAuthorizationException.class);
                assertThatThrownBy(() -> write(device, cfg.partialsTopic())).as("device writes partials")
                        .hasRootCauseInstanceOf(AuthorizationException.class);
                assertThatThrownBy(() -> write(device, topics.workloads())).as("device writes workloads")
                        .hasRootCauseInstanceOf(AuthorizationException.class);
                assertThatThrownBy(() -> write(kafka.clientConfig("consumer"), topics.localReports()))
                        .as("consumer writes reports").hasRootCauseInstanceOf(AuthorizationException.class);
                write(device, topics.localReports()); // the control: the same code succeeds where allowed
                System.out.printf("[acl] device: writes reports; cannot read answers or reports, cannot write %s or"
                        + " %s; consumer cannot write reports; %.1f s%n", cfg.partialsTopic(), topics.workloads(),
                        (System.nanoTime() - t0) / 1e9);
                assertThat(gateway.isReady()).isTrue();
            }
        }
    }

    private static GatewaySettings settings(EmbeddedKafka kafka, ItCluster c, String user, GatewayConfig cfg,
            Path state) {
        Map<String, String> props = new HashMap<>();
        kafka.clientConfig(user).forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) {
                props.put(k, String.valueOf(v));
            }
        });
        return new GatewaySettings(kafka.bootstrapServers(), c.registry.ccompatUrl(), cfg, (short) 1, 1, state,
                "exactly_once_v2", props, Map.of());
    }

    private static void write(Map<String, Object> config, String topic) throws Exception {
        Map<String, Object> p = new HashMap<>(config);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, "acl-probe".getBytes(), new byte[] {1})).get(30, TimeUnit.SECONDS);
        }
    }

    private static int readInGroup(Map<String, Object> config, String topic, String group) {
        Map<String, Object> c = new HashMap<>(config);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        int n = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (n == 0 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    n++;
                }
            }
            consumer.commitSync();
        }
        return n;
    }
}

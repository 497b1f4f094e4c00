package io.privacygateway.harness;

import static io.privacygateway.harness.testing.OneShotClients.readAll;
import static io.privacygateway.harness.testing.OneShotClients.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link EmbeddedKafka#stop()} / {@link EmbeddedKafka#restart()} keep the data, the cluster and the address; a
 * transactional producer and an idempotent producer that buffers through an outage lose and double nothing.
 * {@link EmbeddedKafka#start(EmbeddedKafka.Sasl, Map)} authenticates SASL/PLAIN users (a wrong password is
 * refused) and enforces ACLs with the super user exempt (bob, with no Write ACL anywhere, is refused either the
 * topic or, for his idempotent producer, the cluster).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class EmbeddedKafkaRestartAndSaslTest {

    @Test
    void restartKeepsRecordsOffsetsAndAddressAndBufferedRecordsArriveOnce() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String bootstrap = kafka.bootstrapServers();
            String cluster = kafka.clusterId();
            kafka.createTopic("bounce", 2, false);
            Map<String, Object> p = kafka.clientConfig();
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
            p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
            List<Future<RecordMetadata>> sent = java.util.Collections.synchronizedList(new ArrayList<>());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 100; i++) {
                    sent.add(producer.send(new ProducerRecord<>("bounce", "k" + (i % 7), "before-" + i)));
                }
                producer.flush();
                long t0 = System.nanoTime();
                kafka.stop();
                assertThat(kafka.isRunning()).isFalse();
                assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
                // sent while the broker is down, from another thread: send() itself may block on metadata
                Thread during = new Thread(() -> {
                    for (int i = 0; i < 100; i++) {
                        sent.add(producer.send(new ProducerRecord<>("bounce", "k" + (i % 7), "during-" + i)));
                    }
                });
                during.start();
                Thread.sleep(2000);
                kafka.restart();
                during.join(60_000);
                System.out.printf("[restart] broker down and up again in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
                assertThat(kafka.isRunning()).isTrue();
                assertThat(kafka.restarts()).isEqualTo(1);
                assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
                assertThat(kafka.clusterId()).isEqualTo(cluster);
                for (int i = 0; i < 100; i++) {
                    sent.add(producer.send(new ProducerRecord<>("bounce", "k" + (i % 7), "after-" + i)));
                }
                producer.flush();
                assertThat(sent).hasSize(300);
                for (Future<RecordMetadata> f : List.copyOf(sent)) {
                    f.get(60, TimeUnit.SECONDS);
                }
            }
            kafka.restart(); // a second bounce, with nothing in flight
            assertThat(kafka.restarts()).isEqualTo(2);
            List<String> values = readAll(kafka.clientConfig(), "bounce", 300);
            assertThat(values).hasSize(300).doesNotHaveDuplicates();
            assertThat(values.stream().filter(v -> v.startsWith("during-"))).hasSize(100);
        }
    }

    @Test
    void saslUsersAreAuthenticatedAndAclsAreEnforced() throws Exception {
        EmbeddedKafka.Sasl sasl = new EmbeddedKafka.Sasl(Map.of("admin", "admin-pw", "alice", "alice-pw", "bob",
                "bob-pw"), "admin");
        try (EmbeddedKafka kafka = EmbeddedKafka.start(sasl, Map.of())) {
            assertThat(kafka.brokerConfig()).containsEntry("authorizer.class.name", EmbeddedKafka.STANDARD_AUTHORIZER);
            kafka.createTopic("secured", 1, false); // as the super user
            try (Admin admin = Admin.create(kafka.clientConfig())) {
                admin.createAcls(List.of(
                        new AclBinding(new ResourcePattern(ResourceType.TOPIC, "secured", PatternType.LITERAL),
                                new AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW)),
                        new AclBinding(new ResourcePattern(ResourceType.TOPIC, "secured", PatternType.LITERAL),
                                new AccessControlEntry("User:bob", "*", AclOperation.READ, AclPermissionType.ALLOW))))
                        .all().get(30, TimeUnit.SECONDS);
            }
            Thread.sleep(500); // ACLs reach the authorizer through the metadata log
            // alice writes, bob reads (no group: assign), alice cannot read, bob cannot write
            send(kafka.clientConfig("alice"), "secured", "from-alice");
            assertThat(readAll(kafka.clientConfig("bob"), "secured", 1)).containsExactly("from-alice");
            assertThatThrownBy(() -> readAll(kafka.clientConfig("alice"), "secured", 1))
                    .isInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> send(kafka.clientConfig("bob"), "secured", "from-bob"))
                    .hasRootCauseInstanceOf(AuthorizationException.class);
            // a wrong password is refused
            Map<String, Object> wrong = kafka.clientConfig("alice");
            wrong.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                    + " username=\"alice\" password=\"not-hers\";");
            assertThatThrownBy(() -> send(wrong, "secured", "x")).hasCauseInstanceOf(SaslAuthenticationException.class);
            // the super user may alter configs; alice may not
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "secured");
            AlterConfigOp op = new AlterConfigOp(new ConfigEntry("retention.ms", "3600000"), AlterConfigOp.OpType.SET);
            try (Admin admin = Admin.create(kafka.clientConfig())) {
                admin.incrementalAlterConfigs(Map.of(topic, List.of(op))).all().get(30, TimeUnit.SECONDS);
            }
            try (Admin admin = Admin.create(kafka.clientConfig("alice"))) {
                assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(topic, List.of(op))).all()
                        .get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            }
            // a SASL broker restarts too, with its ACLs
            kafka.restart();
            assertThat(readAll(kafka.clientConfig("bob"), "secured", 1)).containsExactly("from-alice");
            assertThatThrownBy(() -> send(kafka.clientConfig("bob"), "secured", "from-bob"))
                    .hasRootCauseInstanceOf(AuthorizationException.class);
        }
    }
}

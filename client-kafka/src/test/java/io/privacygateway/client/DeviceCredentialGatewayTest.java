package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.identity.DeviceCredential;
import io.privacygateway.topology.identity.DeviceAuthentication;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 8.10, the device side of enrolled-device mode: a device built with its enrollment credential sends it in the
 * {@link DeviceCredential#HEADER} header of every report, on the real broker, and the gateway's verifier for
 * enrolled devices accepts exactly the reports whose credential was issued for their device id.
 */
@ExtendWith(GatewayFixture.Extension.class)
class DeviceCredentialGatewayTest {
    static final String WORKLOAD = """
            id: client-credential
            version: 1
            family: histogram
            domain: {labels: [a, b, c]}
            mechanism: grr
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 1.0, period: 1d}
            window: {size: 2s, grace: 1s}
            expectedReportsPerWindow: 10
            """;

    @Test
    void theSdkSendsItsCredentialAndTheEnrolledVerifierAcceptsOnlyItsOwnDevice(GatewayFixture g) throws Exception {
        WorkloadSpec resolved = g.registerAndAwait(WORKLOAD);
        byte[] key = new byte[32];
        new Random(17).nextBytes(key);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(DeviceClientGatewayTest.nextWindowStart(2000) + 100),
                ZoneOffset.UTC);
        DeviceClient enrolled = DeviceClient.builder("cred-dev-1", resolved).producer(g.reports).clock(clock)
                .topics(g.topics()).secretRandomness(new SeededRandomBits(1))
                .credential(DeviceCredential.issue("k1", key, "cred-dev-1")).build();
        DeviceClient borrowed = DeviceClient.builder("cred-dev-2", resolved).producer(g.reports).clock(clock)
                .topics(g.topics()).secretRandomness(new SeededRandomBits(2))
                .credential(DeviceCredential.issue("k1", key, "cred-dev-1")).build(); // another device's credential
        DeviceClient open = DeviceClient.builder("cred-dev-3", resolved).producer(g.reports).clock(clock)
                .topics(g.topics()).secretRandomness(new SeededRandomBits(3)).build();
        for (DeviceClient d : List.of(enrolled, borrowed, open)) {
            d.report("a").delivery().get(30, TimeUnit.SECONDS);
        }

        DeviceAuthentication verifier = new DeviceAuthentication.Enrolled(Map.of("k1", key));
        Map<String, Boolean> verified = new HashMap<>();
        Map<String, Object> cfg = g.kafkaConfig();
        cfg.put("group.id", "credential-reader");
        cfg.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(cfg, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            c.subscribe(List.of(g.topics().localReports()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (verified.size() < 3 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    String device = new String(r.key(), StandardCharsets.UTF_8);
                    if (device.startsWith("cred-dev-")) {
                        verified.put(device, verifier.verifies(device, r.headers()));
                    }
                }
            }
        }
        assertThat(verified).containsExactlyInAnyOrderEntriesOf(Map.of(
                "cred-dev-1", true, "cred-dev-2", false, "cred-dev-3", false));
    }
}

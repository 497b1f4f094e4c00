package io.privacygateway.topology.answers;

import java.util.Arrays;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.schemas.avro.PrivacyCostRecord;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayDriver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The answers store in the gateway's topology (TopologyTestDriver, a real registry): every answer record on the
 * answers topic is kept once under its (workload, window start, horizon, version) key, in the order a range of window
 * starts is read in; tombstones and undecodable records are skipped; with a finite retention the store forgets the
 * answers the topic forgets, with retention forever it keeps everything.
 */
class AnswersStoreTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long MINUTE = 60_000;

    static WindowAnswer answer(String workload, int version, long start, long end, String horizon) {
        return WindowAnswer.newBuilder().setWorkloadId(workload).setWorkloadVersion(version).setContentHash("00")
                .setMode("local").setWindowStart(Instant.ofEpochMilli(start)).setWindowEnd(Instant.ofEpochMilli(end))
                .setMechanism("grr").setEpsilon(1.0).setDelta(0.0).setN(10).setConfidence(0.95)
                .setLabels(List.of("a", "b")).setEstimates(List.of(0.4, 0.6)).setLower(List.of(0.3, 0.5))
                .setUpper(List.of(0.5, 0.7)).setStandardErrors(List.of()).setUnprojected(List.of())
                .setExpectedRmsError(0.1).setRmsErrorBoundAtConfidence(0.2).setLevels(List.of())
                .setCumulativeEpsilon(0.0).setReleasedAtStreamTime(end).setHorizon(horizon)
                .setCost(new PrivacyCostRecord("pure", 1.0, 0.0, null)).build();
    }

    record Rig(GatewayDriver gateway, TestInputTopic<String, byte[]> topic, KeyValueStore<Bytes, byte[]> store,
            AvroSerializer<WindowAnswer> serializer, String name) {
        void publish(WindowAnswer a) {
            topic.pipeInput(a.getWorkloadId(), serializer.serialize(name, a), a.getWindowEnd());
        }

        List<AnswerKey> keys(String workload, long from, long to) {
            List<AnswerKey> out = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = store.range(Bytes.wrap(AnswerKey.lowerBound(workload, from)),
                    Bytes.wrap(AnswerKey.lowerBound(workload, to)))) {
                it.forEachRemaining((KeyValue<Bytes, byte[]> kv) -> out.add(AnswerKey.decode(kv.key.get())));
            }
            return out;
        }
    }

    static Rig rig(long retentionMs) {
        GatewayConfig cfg = GatewayConfig.builder(1, 1).applicationId("answers-store-test").answersStore(true)
                .answersRetentionMs(retentionMs).build();
        GatewayDriver g = new GatewayDriver(registry.client(), cfg, 0);
        TestInputTopic<String, byte[]> topic = g.driver.createInputTopic(cfg.answersTopic(), new StringSerializer(),
                new ByteArraySerializer());
        AvroSerializer<WindowAnswer> ser = new AvroSerializer<>(registry.client());
        return new Rig(g, topic, g.driver.getKeyValueStore(AnswersStore.NAME), ser, cfg.answersTopic());
    }

    @Test
    void answersAreKeptOncePerWindowInWindowOrderAndBadRecordsAreSkipped() {
        Rig r = rig(GatewayConfig.FOREVER);
        try {
            r.publish(answer("w", 1, 3 * MINUTE, 4 * MINUTE, null));
            r.publish(answer("w", 1, MINUTE, 2 * MINUTE, null));
            r.publish(answer("w", 2, MINUTE, 2 * MINUTE, null));
            r.publish(answer("w", 1, 0, 4 * MINUTE, "PT4M"));
            r.publish(answer("w", 1, 2 * MINUTE, 3 * MINUTE, null));
            r.publish(answer("w", 1, 2 * MINUTE, 3 * MINUTE, null)); // a duplicate (at-least-once): kept once
            r.publish(answer("w-2", 1, MINUTE, 2 * MINUTE, null)); // a workload whose id extends w's
            r.topic().pipeInput("w", "not an answer".getBytes(StandardCharsets.UTF_8));
            r.topic().pipeInput("w", (byte[]) null);
            assertThat(r.keys("w", Long.MIN_VALUE, Long.MAX_VALUE)).containsExactly(
                    new AnswerKey("w", 0, "PT4M", 1),
                    new AnswerKey("w", MINUTE, "", 1), new AnswerKey("w", MINUTE, "", 2),
                    new AnswerKey("w", 2 * MINUTE, "", 1), new AnswerKey("w", 3 * MINUTE, "", 1));
            assertThat(r.keys("w", MINUTE, 3 * MINUTE)).containsExactly(new AnswerKey("w", MINUTE, "", 1),
                    new AnswerKey("w", MINUTE, "", 2), new AnswerKey("w", 2 * MINUTE, "", 1));
            assertThat(r.keys("w-2", Long.MIN_VALUE, Long.MAX_VALUE)).containsExactly(new AnswerKey("w-2", MINUTE, "", 1));
        } finally {
            r.gateway().close();
        }
    }

    @Test
    void aFiniteRetentionForgetsWhatTheTopicForgetsAndForeverKeepsEverything() {
        long retention = Duration.ofHours(2).toMillis();
        for (long kept : new long[] {retention, GatewayConfig.FOREVER}) {
            Rig r = rig(kept);
            try {
                for (int m = 0; m < 4 * 60; m += 10) { // ten-minute windows over four hours
                    r.publish(answer("w", 1, m * MINUTE, (m + 10) * MINUTE, null));
                }
                List<AnswerKey> left = r.keys("w", Long.MIN_VALUE, Long.MAX_VALUE);
                if (kept == GatewayConfig.FOREVER) {
                    assertThat(left).hasSize(24);
                } else {
                    // newest end 240 min; pruned last at an end of at least 240 - 12 min: nothing that ended within
                    // the retention of it is gone, nothing that ended before the last cutoff is left
                    assertThat(left).allSatisfy(k -> assertThat(k.windowStart() + 10 * MINUTE)
                            .isGreaterThanOrEqualTo((240 - 12) * MINUTE - retention));
                    assertThat(left.get(0).windowStart()).isLessThanOrEqualTo(240 * MINUTE - retention);
                    assertThat(left.get(left.size() - 1).windowStart()).isEqualTo(230 * MINUTE);
                }
            } finally {
                r.gateway().close();
            }
        }
    }

    @Test
    void keysRoundTripAndRefuseWhatTheyDoNotEncode() {
        AnswerKey k = new AnswerKey("latency.cdf-1", -5, "since-activation", 7);
        assertThat(AnswerKey.decode(k.encode())).isEqualTo(k);
        assertThat(Arrays.compareUnsigned(new AnswerKey("a", -1, "", 1).encode(),
                new AnswerKey("a", 1, "", 1).encode())).isNegative();
        assertThatThrownBy(() -> AnswerKey.decode(new byte[] {1, 2, 3})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AnswerKey("a\0b", 0, "", 1)).isInstanceOf(IllegalArgumentException.class);
    }
}

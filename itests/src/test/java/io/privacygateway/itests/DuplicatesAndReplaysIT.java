package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.client.Outcome;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.harness.testing.TopicReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Duplicates and replays.</b> 60 devices report once through the SDK into one window; each then
 * re-sends its report ({@link DeviceClient#resend}: the same record, byte for byte, which the test checks
 * on the report topic) while the window is open. The test proves that every re-sent copy is rejected
 * DUPLICATE (its rejection names the copy's partition and offset and carries exactly the original bytes)
 * and that the answer counts each report once (n = 60). After the window has been answered, all 60 reports
 * are re-sent once more through the SDK and replayed once more as raw bytes copied from the report topic
 * (an attacker replaying captured records): all 120 are rejected LATE, no second answer for the window
 * appears, and the metrics show 60 accepted, 60 DUPLICATE, 120 LATE. Deterministic. <b>Time:</b> about 15 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class DuplicatesAndReplaysIT {
    static final int DEVICES = 60;
    static final String WORKLOAD = """
            id: it-replay
            version: 1
            family: histogram
            domain: {labels: [a, b, c, d]}
            mechanism: grr
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 3.0, period: 1d}
            window: {size: 3s, grace: 1s}
            """;

    @Test
    void resentReportsAreDuplicatesWhileTheWindowIsOpenAndLateAfterItClosedAndNeverChangeTheAnswer(TestGateway g)
            throws Exception {
        WorkloadSpec spec = g.register(WORKLOAD);
        long windowStart = Windows.nextWindowStart(3000, 2000);
        Clock clock = Clock.fixed(Instant.ofEpochMilli(windowStart + 1000), ZoneOffset.UTC);
        String[] labels = {"a", "b", "c", "d"};
        List<DeviceClient> devices = new ArrayList<>();
        List<Outcome> firsts = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            DeviceClient d = DeviceClient.builder("replay-" + i, spec).producer(g.reports).clock(clock)
                    .topics(g.topics()).build();
            devices.add(d);
            Outcome o = d.report(labels[i % 4]);
            assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
            firsts.add(o);
        }
        List<RecordMetadata> firstAt = delivered(firsts);
        List<Outcome> copies = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            copies.add(devices.get(i).resend(firsts.get(i)));
        }
        List<RecordMetadata> copyAt = delivered(copies);
        System.out.printf("[replay] reports and copies sent %d ms before the window closes%n",
                windowStart + 4000 - System.currentTimeMillis());

        // The copies are the same bytes as the originals.
        List<ConsumerRecord<byte[], byte[]>> onTopic = TopicReader.read(g.cluster.kafkaConfig(),
                g.config.localReportsTopic(), r -> TopicReader.string(r.key()).startsWith("replay-"),
                l -> l.size() >= 2 * DEVICES, Duration.ofSeconds(30));
        Map<String, ConsumerRecord<byte[], byte[]>> byOffset = new HashMap<>();
        onTopic.forEach(r -> byOffset.put(r.partition() + "@" + r.offset(), r));
        for (int i = 0; i < DEVICES; i++) {
            byte[] original = byOffset.get(at(firstAt.get(i))).value();
            assertThat(byOffset.get(at(copyAt.get(i))).value()).isEqualTo(original);
        }

        List<Rejection> duplicates = g.rejectionsOfDevices("replay-", l -> l.size() >= DEVICES, Duration.ofSeconds(30));
        assertThat(duplicates).hasSize(DEVICES);
        Map<String, Rejection> rejectedAt = new HashMap<>();
        for (Rejection r : duplicates) {
            assertThat(r.getReasonCode().name()).isEqualTo("DUPLICATE");
            rejectedAt.put(r.getOriginalPartition() + "@" + r.getOriginalOffset(), r);
        }
        for (int i = 0; i < DEVICES; i++) {
            Rejection r = rejectedAt.get(at(copyAt.get(i)));
            assertThat(r).as("rejection of the copy of device %d", i).isNotNull();
            assertThat(r.getDeviceId()).isEqualTo("replay-" + i);
            assertThat(r.getOriginalTopic()).isEqualTo(g.config.localReportsTopic());
            assertThat(TopicReader.bytes(r.getOriginalValue())).isEqualTo(byOffset.get(at(firstAt.get(i))).value());
        }

        List<WindowAnswer> answers = g.answersFor(spec.id(), windowStart, Duration.ofSeconds(60));
        assertThat(answers).hasSize(1);
        WindowAnswer answer = answers.get(0);
        assertThat(answer.getN()).isEqualTo(DEVICES);
        assertThat(answer.getWindowStart()).isEqualTo(Instant.ofEpochMilli(windowStart));

        // The window is closed: the SDK re-sends once more, and an attacker replays the captured bytes.
        List<Outcome> late = new ArrayList<>();
        for (int i = 0; i < DEVICES; i++) {
            late.add(devices.get(i).resend(firsts.get(i)));
        }
        delivered(late);
        for (int i = 0; i < DEVICES; i++) {
            ConsumerRecord<byte[], byte[]> captured = byOffset.get(at(firstAt.get(i)));
            g.raw.send(new ProducerRecord<>(g.config.localReportsTopic(), TopicReader.string(captured.key()),
                    captured.value())).get(30, TimeUnit.SECONDS);
        }
        List<Rejection> all = g.rejectionsOfDevices("replay-", l -> l.size() >= 3 * DEVICES, Duration.ofSeconds(30));
        assertThat(all).hasSize(3 * DEVICES);
        assertThat(all.stream().filter(r -> r.getReasonCode().name().equals("LATE")).count()).isEqualTo(2L * DEVICES);

        Thread.sleep(2 * g.config.punctuateEvery().toMillis()); // shards punctuate and publish progress again
        assertThat(g.answersFor(spec.id(), windowStart, Duration.ofSeconds(5))).containsExactly(answer);
        assertThat(g.accepted(spec.id(), "local")).isEqualTo(DEVICES);
        assertThat(g.rejectedByReason(spec.id())).isEqualTo(Map.of("DUPLICATE", (double) DEVICES, "LATE",
                2.0 * DEVICES));
        assertThat(g.count("pgw.windows.discarded", "workload", spec.id())).isZero();
    }

    private static List<RecordMetadata> delivered(List<Outcome> outcomes) throws Exception {
        List<RecordMetadata> out = new ArrayList<>();
        for (Outcome o : outcomes) {
            assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
            out.add(o.delivery().get(30, TimeUnit.SECONDS));
        }
        return out;
    }

    private static String at(RecordMetadata md) {
        return md.partition() + "@" + md.offset();
    }
}

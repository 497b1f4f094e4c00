package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.client.Outcome;
import io.privacygateway.simulator.Reports;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.StreamsWatch;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.harness.testing.TopicReader;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Malformed and undeserializable records.</b> While 100 devices report through the SDK into one
 * window, 32 records that are not reports are interleaved with them on the local report topic: random
 * bytes (half of them with a valid magic byte and a random schema id), an empty value, a tombstone
 * ({@code null}), a valid report truncated at 5 lengths, a valid report with trailing bytes, with a wrong
 * magic byte, with an unknown schema id, and valid Avro records of the wrong type (a central report, a
 * rejection record); plus 7 on the central report topic: a local report and random bytes. The test proves:
 * <ul>
 *   <li>each such record becomes exactly one rejection with reason MALFORMED, naming the record's topic,
 *       partition and offset and key, and (local topic) carrying exactly the original bytes; central-topic
 *       rejections carry no bytes (they could hold raw values);
 *   <li>{@code pgw.reports.rejected{reason=MALFORMED, workload=unknown}} grows by exactly the number sent;
 *   <li>the valid traffic in the same window is answered with n = 100, and no valid report is rejected;
 *   <li>the stream never stops: sampled every 10 ms, Kafka Streams stays RUNNING and its stream thread is
 *       never replaced.
 * </ul>
 * Deterministic. <b>Time:</b> about 10 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class MalformedRecordsIT {
    static final int DEVICES = 100;
    static final String WORKLOAD = """
            id: it-malformed
            version: 1
            family: histogram
            domain: {labels: [a, b, c, d]}
            mechanism: grr
            epsilonPerReport: 1.0
            budget: {epsilonPerPeriod: 1.0, period: 1d}
            window: {size: 3s, grace: 1s}
            """;

    record Junk(String key, String topic, byte[] value) {}

    @Test
    void recordsThatAreNotReportsBecomeMalformedRejectionsWhileValidTrafficIsAnsweredAndTheStreamKeepsRunning(
            TestGateway g) throws Exception {
        WorkloadSpec spec = g.register(WORKLOAD);
        ResolvedWorkload w = Workloads.resolve(spec);
        double malformedBefore = g.rejectedByReason("unknown").getOrDefault("MALFORMED", 0.0);
        long windowStart = Windows.nextWindowStart(3000, 2000);
        long t = windowStart + 1000;
        List<Junk> junk = junk(g, w, t);
        assertThat(junk).hasSize(39);

        Clock clock = Clock.fixed(Instant.ofEpochMilli(t), ZoneOffset.UTC);
        Map<Junk, Future<RecordMetadata>> junkSent = new HashMap<>();
        List<CompletableFuture<RecordMetadata>> valid = new ArrayList<>();
        String[] labels = {"a", "b", "c", "d"};
        int j = 0;
        try (StreamsWatch watch = g.watch()) {
            for (int i = 0; i < DEVICES; i++) {
                DeviceClient d = DeviceClient.builder("malformed-ok-" + i, spec).producer(g.reports).clock(clock)
                        .topics(g.topics()).build();
                Outcome o = d.report(labels[i % 4]);
                assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
                valid.add(o.delivery());
                for (int k = 0; k < 2 && j < junk.size(); k++, j++) { // interleave: two junk records per report
                    Junk x = junk.get(j);
                    junkSent.put(x, g.raw.send(new ProducerRecord<>(x.topic(), x.key(), x.value())));
                }
            }
            CompletableFuture.allOf(valid.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(j).isEqualTo(junk.size());

            List<WindowAnswer> answers = g.answersFor(spec.id(), windowStart, Duration.ofSeconds(60));
            assertThat(answers).hasSize(1);
            assertThat(answers.get(0).getN()).isEqualTo(DEVICES);
            List<Rejection> rejections = g.rejections(r -> TestGateway.deviceOf(r) != null
                    && TestGateway.deviceOf(r).startsWith("junk-"), l -> l.size() >= junk.size(), Duration.ofSeconds(30));
            assertThat(rejections).hasSize(junk.size());
            Map<String, Rejection> byKey = new HashMap<>();
            rejections.forEach(r -> assertThat(byKey.put(TopicReader.string(TopicReader.bytes(r.getOriginalKey())), r))
                    .isNull());
            for (Junk x : junk) {
                RecordMetadata md = junkSent.get(x).get(30, TimeUnit.SECONDS);
                Rejection r = byKey.get(x.key());
                assertThat(r).as(x.key()).isNotNull();
                assertThat(r.getReasonCode()).as(x.key()).isEqualTo(RejectionReason.MALFORMED);
                assertThat(r.getOriginalTopic()).isEqualTo(x.topic());
                assertThat(r.getOriginalPartition()).isEqualTo(md.partition());
                assertThat(r.getOriginalOffset()).isEqualTo(md.offset());
                assertThat(r.getWorkloadId()).isNull();
                assertThat(r.getDeviceId()).isNull();
                if (x.topic().equals(g.config.localReportsTopic())) {
                    assertThat(TopicReader.bytes(r.getOriginalValue())).as(x.key()).isEqualTo(x.value());
                } else {
                    assertThat(r.getOriginalValue()).as(x.key()).isNull();
                }
            }
            System.out.println("[malformed] messages: " + rejections.stream().map(r -> r.getMessage().replaceAll(
                    ":.*", "")).distinct().sorted().toList());
            assertThat(g.rejectedByReason("unknown").get("MALFORMED") - malformedBefore).isEqualTo(junk.size());
            assertThat(g.accepted(spec.id(), "local")).isEqualTo(DEVICES);
            assertThat(g.rejectionsOfDevices("malformed-ok-", l -> true, Duration.ofSeconds(5))).isEmpty();

            watch.close();
            assertThat(watch.statesSeen()).containsExactly("RUNNING");
            assertThat(watch.threadsSeen()).isEqualTo(watch.threadsAtStart());
            assertThat(g.service.streams().state().name()).isEqualTo("RUNNING");
        }
    }

    private static List<Junk> junk(TestGateway g, ResolvedWorkload w, long t) {
        String local = g.config.localReportsTopic();
        String central = g.config.centralReportsTopic();
        AvroSerializer<SpecificRecord> serializer = new AvroSerializer<>(g.cluster.registryClient, false);
        ReportCoordinates c = new ReportCoordinates("junk-template", w.periodOf(t).index(), 0);
        LocalReport report = Reports.local(w, c, t, ((LocalWorkload) w).protocol().randomize(1, c, new SecureRandomBits()));
        byte[] validBytes = serializer.serialize(local, report);
        Random rnd = new Random(7);
        List<Junk> out = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            byte[] b = new byte[1 + rnd.nextInt(80)];
            rnd.nextBytes(b);
            if (i % 2 == 0) {
                b[0] = 0; // the magic byte is right; the schema id is random
            }
            out.add(new Junk("junk-random-" + i, local, b));
        }
        out.add(new Junk("junk-empty", local, new byte[0]));
        out.add(new Junk("junk-tombstone", local, null));
        for (int cut : new int[] {3, 5, 9, validBytes.length / 2, validBytes.length - 1}) {
            out.add(new Junk("junk-truncated-" + cut, local, Arrays.copyOf(validBytes, cut)));
        }
        byte[] trailing = Arrays.copyOf(validBytes, validBytes.length + 3);
        out.add(new Junk("junk-trailing", local, trailing));
        byte[] magic = validBytes.clone();
        magic[0] = 1;
        out.add(new Junk("junk-bad-magic", local, magic));
        byte[] unknownId = validBytes.clone();
        ByteBuffer.wrap(unknownId).putInt(1, 0x7ffffff0);
        out.add(new Junk("junk-unknown-schema-id", local, unknownId));
        CentralReport centralReport = Reports.central(w, c, t, "a");
        out.add(new Junk("junk-wrong-type-central-report", local, serializer.serialize(central, centralReport)));
        Rejection rejection = Rejection.newBuilder().setReasonCode(RejectionReason.LATE).setMessage("x")
                .setWorkloadId(w.id()).setDeviceId("junk").setOriginalTopic(local).setOriginalPartition(0)
                .setOriginalOffset(0).setOriginalKey(null).setOriginalValue(null).setRejectedAtStreamTime(0).build();
        out.add(new Junk("junk-wrong-type-rejection", local, serializer.serialize(g.config.rejectionsTopic(), rejection)));
        // On the central topic: a local report, and random bytes (central rejections never carry bytes).
        out.add(new Junk("junk-central-local-report", central, validBytes));
        for (int i = 0; i < 6; i++) {
            byte[] b = new byte[5 + rnd.nextInt(40)];
            rnd.nextBytes(b);
            b[0] = 0;
            out.add(new Junk("junk-central-random-" + i, central, b));
        }
        return out;
    }
}

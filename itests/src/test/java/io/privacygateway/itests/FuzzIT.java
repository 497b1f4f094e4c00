package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.ReportProducers;
import io.privacygateway.itests.support.ChildGateway;
import io.privacygateway.itests.support.FaultRig;
import io.privacygateway.itests.support.FaultWorkloads;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.serde.AvroSerializer;
import io.privacygateway.simulator.Reports;
import io.privacygateway.topology.ingest.Rejections;
import io.privacygateway.harness.testing.TopicReader;
import io.privacygateway.schemas.testing.AvroTopicReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Fuzzing through the real topology.</b> A gateway in a child JVM with a 256 MiB heap (exactly-once v2, 3 local
 * and 2 central partitions) receives, on both report topics, about 1,100 hostile records of these kinds (seeded):
 * random bytes (half with a valid magic byte), valid local and central reports with 1–4 random bytes changed,
 * valid reports under 1,000,000-byte random keys, device ids of 60,000 and 100,000 characters (the latter over the
 * 64 KiB report limit), workload ids of 50,000 characters, central values of 50,000 characters, Confluent frames
 * with 200 unknown schema ids around a valid body, tombstones, keyless records, records with 200 odd headers
 * (binary names, values up to 5 KB, repeated {@code pgw-device-credential}), and reports of one mode on the other
 * mode's topic. Then {@value #DEVICES} devices report validly into a later window, 40 of them with odd headers.
 * The test proves:
 * <ul>
 *   <li>the stream never stops: the process stays RUNNING throughout (sampled every 250 ms) and the valid traffic
 *       after the junk is answered with n = {@value #DEVICES} (local and central);
 *   <li>every hostile record becomes exactly one rejection (matched by topic, partition and offset; the count of
 *       rejections equals the count of hostile records), none is {@code PROCESSING_ERROR}, and no valid report is
 *       rejected;
 *   <li>rejection records stay small: every key at most {@code Rejections.MAX_KEY_BYTES} and every value at most
 *       the wire header + {@code Rejections.MAX_RECORD_BYTES} (the largest measured is printed);
 *   <li>the gateway's heap stays bounded: its live heap after a full collection, measured before and after the
 *       fuzzing, grows by less than {@value #HEAP_GROWTH_LIMIT_MIB} MiB, although more than 20 MB of keys alone
 *       passed through it (figures printed, with the largest heap use sampled meanwhile).
 * </ul>
 * <b>Time:</b> about 40 s.
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class FuzzIT {
    static final int DEVICES = 100;
    static final long HEAP_GROWTH_LIMIT_MIB = 16;

    record Junk(String kind, String topic, byte[] key, byte[] value, List<Header> headers) {}

    @Test
    void hostileRecordsEachBecomeOneSmallRejectionWhileTheStreamRunsOnInBoundedHeap(ItCluster c) throws Exception {
        long seed = Long.getLong("it.seed", System.nanoTime());
        long t0 = System.nanoTime();
        FaultRig rig = FaultRig.create("fuzz", c, "local=3", "central=3", "slackMs=500", "punctuateMs=100");
        ChildGateway g = rig.start("fuzz", "fuzz", "-Xmx256m");
        try {
            g.awaitReady(Duration.ofSeconds(120));
            FaultRig.Served served = rig.serve(FaultWorkloads.local("fuzz-local", "2s", "1s"),
                    FaultWorkloads.central("fuzz-central", "2s", "1s", "laplace", "replace-one"), g); // n is exact
            ResolvedWorkload local = served.local();
            ResolvedWorkload central = served.central();
            long heapBefore = g.liveHeapAfterFullGc();

            List<Junk> junk = junk(c, rig, local, central, new Random(seed));
            Map<String, Object> p = c.kafkaConfig();
            p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 << 20);
            p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L << 20);
            List<Future<RecordMetadata>> junkAt = new ArrayList<>();
            long junkBytes = 0;
            try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(p, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (Junk j : junk) {
                    junkAt.add(raw.send(new ProducerRecord<>(j.topic(), null, j.key(), j.value(), j.headers())));
                    junkBytes += (j.key() == null ? 0 : j.key().length) + (j.value() == null ? 0 : j.value().length);
                }
                raw.flush();
            }
            Map<String, Junk> junkByOffset = new HashMap<>();
            for (int i = 0; i < junk.size(); i++) {
                RecordMetadata md = junkAt.get(i).get(60, TimeUnit.SECONDS);
                junkByOffset.put(md.topic() + "/" + md.partition() + "@" + md.offset(), junk.get(i));
            }
            System.out.printf("[fuzz] seed %d: %d hostile records (%.1f MB) sent in %.1f s%n", seed, junk.size(),
                    junkBytes / 1e6, (System.nanoTime() - t0) / 1e9);

            // valid traffic after the junk, 40 of the local reports with odd headers
            long w = Windows.nextWindowStart(2000, 500);
            SecureRandomBits secret = new SecureRandomBits();
            List<Future<RecordMetadata>> valid = new ArrayList<>();
            try (Producer<String, SpecificRecord> reports = ReportProducers.avro(c.kafkaConfig(), c.registryClient)) {
                for (int i = 0; i < DEVICES; i++) {
                    String device = "fuzz-valid-" + i;
                    long t = w + 300 + i * 10L;
                    ReportCoordinates lc = new ReportCoordinates(device, local.periodOf(t).index(), 0);
                    LocalReport lr = Reports.local(local, lc, t, ((LocalWorkload) local).protocol().randomize(i % 8, lc,
                            secret));
                    List<Header> headers = i < 40 ? oddHeaders(new Random(i), 50) : List.of();
                    valid.add(reports.send(new ProducerRecord<>(rig.topics.localReports(), null, device, lr, headers)));
                    ReportCoordinates cc = new ReportCoordinates(device, central.periodOf(t).index(), 0);
                    CentralReport cr = Reports.central(central, cc, t, "abcdefgh".substring(i % 8, i % 8 + 1));
                    valid.add(reports.send(new ProducerRecord<>(rig.topics.centralReports(), device, cr)));
                }
                reports.flush();
            }
            for (Future<RecordMetadata> f : valid) {
                f.get(60, TimeUnit.SECONDS);
            }
            WindowAnswer la = rig.answersFor(local.id(), List.of(w), Duration.ofSeconds(90)).get(w).get(0);
            WindowAnswer ca = rig.answersFor(central.id(), List.of(w), Duration.ofSeconds(60)).get(w).get(0);

            List<Rejection> rejections = AvroTopicReader.readValues(c.kafkaConfig(), c.registryClient,
                    rig.topics.rejections(), Rejection.class, x -> true, l -> l.size() >= junk.size(),
                    Duration.ofSeconds(60));
            Map<String, Integer> byReason = new TreeMap<>();
            Map<String, Integer> byKind = new TreeMap<>();
            Map<String, Integer> matched = new HashMap<>();
            for (Rejection r : rejections) {
                String at = r.getOriginalTopic() + "/" + r.getOriginalPartition() + "@" + r.getOriginalOffset();
                Junk j = junkByOffset.get(at);
                assertThat(j).as("a rejection of a record that was not hostile: %s %s", r.getReasonCode(),
                        r.getMessage()).isNotNull();
                assertThat(matched.merge(at, 1, Integer::sum)).as("rejections of %s", at).isEqualTo(1);
                byReason.merge(r.getReasonCode().name(), 1, Integer::sum);
                byKind.merge(j.kind() + " -> " + r.getReasonCode().name(), 1, Integer::sum);
            }
            assertThat(matched).as("hostile records with a rejection").hasSize(junk.size());

            // rejection records stay small
            List<ConsumerRecord<byte[], byte[]>> raw = TopicReader.read(c.kafkaConfig(), rig.topics.rejections(),
                    r -> true, l -> l.size() >= junk.size(), Duration.ofSeconds(60));
            int maxValue = raw.stream().mapToInt(r -> r.value().length).max().orElse(0);
            int maxKey = raw.stream().mapToInt(r -> r.key() == null ? 0 : r.key().length).max().orElse(0);

            long heapAfter = g.liveHeapAfterFullGc();
            byKind.forEach((k, n) -> System.out.printf("[fuzz]   %-44s %d%n", k, n));
            System.out.printf("[fuzz] %d rejections %s; largest rejection record: key %d bytes, value %d bytes (bound"
                    + " %d); answers after the junk: local n = %d, central n = %d; live heap after a full GC %.1f MiB"
                    + " before, %.1f MiB after; largest heap use sampled %.1f MiB (%d samples, -Xmx256m); states %s;"
                    + " %.1f s%n", rejections.size(), byReason, maxKey, maxValue, 5 + Rejections.MAX_RECORD_BYTES,
                    la.getN(), ca.getN(), heapBefore / 1048576.0, heapAfter / 1048576.0, g.maxHeapUsed() / 1048576.0,
                    g.heapSamples(), g.states(), (System.nanoTime() - t0) / 1e9);
            assertThat(la.getN()).isEqualTo(DEVICES);
            assertThat(ca.getN()).isEqualTo(DEVICES);
            assertThat(byReason).doesNotContainKey("PROCESSING_ERROR");
            assertThat(maxKey).isLessThanOrEqualTo(Rejections.MAX_KEY_BYTES);
            assertThat(maxValue).isLessThanOrEqualTo(5 + Rejections.MAX_RECORD_BYTES);
            assertThat(g.isAlive()).isTrue();
            assertThat(g.states()).as("Kafka Streams states after start").containsExactly("RUNNING");
            assertThat(heapAfter - heapBefore).as("live heap growth (bytes)")
                    .isLessThan(HEAP_GROWTH_LIMIT_MIB << 20);
        } finally {
            g.close();
        }
    }

    private static List<Junk> junk(ItCluster c, FaultRig rig, ResolvedWorkload local, ResolvedWorkload central,
            Random rnd) {
        String lt = rig.topics.localReports();
        String ct = rig.topics.centralReports();
        AvroSerializer<SpecificRecord> ser = new AvroSerializer<>(c.registryClient, false);
        SecureRandomBits secret = new SecureRandomBits();
        long t = System.currentTimeMillis(); // event times near the broker's (tests pick times by wall clock)
        List<Junk> out = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] b = bytes(rnd, rnd.nextInt(301));
            if (i % 2 == 0 && b.length > 0) {
                b[0] = 0;
            }
            out.add(new Junk("random bytes", i % 5 == 0 ? ct : lt, utf8("fuzz-random-" + i), b, List.of()));
        }
        for (int i = 0; i < 400; i++) {
            boolean isLocal = i < 300;
            String device = "fuzz-template-" + i;
            byte[] v = isLocal ? ser.serialize(lt, localReport(local, device, t, secret))
                    : ser.serialize(ct, Reports.central(central, new ReportCoordinates(device,
                            central.periodOf(t).index(), 0), t, "c"));
            for (int m = 1 + rnd.nextInt(4); m > 0; m--) {
                v[rnd.nextInt(v.length)] ^= (byte) (1 + rnd.nextInt(255));
            }
            out.add(new Junk("mutated " + (isLocal ? "local" : "central"), isLocal ? lt : ct,
                    utf8("fuzz-mutated-" + i), v, List.of()));
        }
        for (int i = 0; i < 20; i++) {
            out.add(new Junk("1 MB key", lt, bytes(rnd, 1_000_000), ser.serialize(lt, localReport(local,
                    "fuzz-bigkey-" + i, t, secret)), List.of()));
        }
        for (int len : new int[] {60_000, 100_000}) {
            for (int i = 0; i < 10; i++) {
                String device = (char) ('A' + i) + "d".repeat(len - 1);
                out.add(new Junk(len + "-char device id", lt, utf8(device), ser.serialize(lt,
                        localReport(local, device, t, secret)), List.of()));
            }
        }
        for (int i = 0; i < 10; i++) {
            LocalReport r = localReport(local, "fuzz-wid-" + i, t, secret);
            r.setWorkloadId("W".repeat(50_000));
            out.add(new Junk("50,000-char workload id", lt, utf8("fuzz-wid-" + i), ser.serialize(lt, r), List.of()));
        }
        for (int i = 0; i < 10; i++) {
            String device = "fuzz-cval-" + i;
            CentralReport r = Reports.central(central, new ReportCoordinates(device, central.periodOf(t).index(), 0), t,
                    "x".repeat(50_000));
            out.add(new Junk("50,000-char central value", ct, utf8(device), ser.serialize(ct, r), List.of()));
        }
        byte[] body = ser.serialize(lt, localReport(local, "fuzz-schema", t, secret));
        for (int i = 0; i < 200; i++) {
            byte[] v = body.clone();
            ByteBuffer.wrap(v).putInt(1, 1_000_000 + i * 7919);
            out.add(new Junk("unknown schema id", lt, utf8("fuzz-schema-" + i), v, List.of()));
        }
        for (int i = 0; i < 50; i++) {
            out.add(new Junk("tombstone", i % 5 == 0 ? ct : lt, utf8("fuzz-tombstone-" + i), null, List.of()));
        }
        for (int i = 0; i < 20; i++) {
            out.add(new Junk("keyless random bytes", lt, null, bytes(rnd, 1 + rnd.nextInt(100)), List.of()));
        }
        for (int i = 0; i < 50; i++) {
            out.add(new Junk("odd headers, random bytes", lt, utf8("fuzz-headers-" + i), bytes(rnd, 1 + rnd.nextInt(60)),
                    oddHeaders(rnd, 200)));
        }
        // each serialized under its own topic's subject, then written to the other topic
        byte[] centralOnLocal = ser.serialize(ct, Reports.central(central, new ReportCoordinates("fuzz-cross-c",
                central.periodOf(t).index(), 0), t, "a"));
        byte[] localOnCentral = ser.serialize(lt, localReport(local, "fuzz-cross-l", t, secret));
        for (int i = 0; i < 10; i++) {
            out.add(new Junk("central report on the local topic", lt, utf8("fuzz-cross-c"), centralOnLocal, List.of()));
            out.add(new Junk("local report on the central topic", ct, utf8("fuzz-cross-l"), localOnCentral, List.of()));
        }
        return out;
    }

    private static LocalReport localReport(ResolvedWorkload local, String device, long t, SecureRandomBits secret) {
        ReportCoordinates c = new ReportCoordinates(device, local.periodOf(t).index(), 0);
        return Reports.local(local, c, t, ((LocalWorkload) local).protocol().randomize(1, c, secret));
    }

    /** Headers with binary and non-ASCII names, empty and large values, and repeated credential headers. */
    static List<Header> oddHeaders(Random rnd, int n) {
        List<Header> h = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = switch (i % 5) {
                case 0 -> "pgw-device-credential";
                case 1 -> new String(bytes(rnd, 1 + rnd.nextInt(40)), StandardCharsets.ISO_8859_1);
                case 2 -> "ключ-" + i + "-\u0000-\uD83D\uDE00";
                case 3 -> "";
                default -> "x-" + i;
            };
            byte[] value = i % 7 == 0 ? null : bytes(rnd, i % 11 == 0 ? 5000 : rnd.nextInt(64));
            h.add(new RecordHeader(name, value));
        }
        return h;
    }

    private static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

package io.privacygateway.itests.support;

import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.testing.AvroTopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reading a gateway's answers by window. The gateway answers every scheduled window of a workload version from
 * its activation on (empty windows too: local ones with n = 0, central ones noise-only), so a test never takes
 * "the first answer": it selects answers by their window start.
 */
public final class Answers {
    private Answers() {}

    /** Every answer of {@code workloadId} for the window starting at {@code start}, read until one is there. */
    public static List<WindowAnswer> forWindow(Map<String, Object> kafka, SchemaRegistryClient registry, String topic,
            String workloadId, long start, Duration timeout) {
        return byWindow(kafka, registry, topic, workloadId, List.of(start), timeout).get(start);
    }

    /**
     * The answers of {@code workloadId} for the windows starting at {@code starts}, by window start (every start is
     * a key, possibly with an empty list), read until each has at least one answer or {@code timeout} passes.
     */
    public static Map<Long, List<WindowAnswer>> byWindow(Map<String, Object> kafka, SchemaRegistryClient registry,
            String topic, String workloadId, Collection<Long> starts, Duration timeout) {
        Set<Long> wanted = new TreeSet<>(starts);
        List<WindowAnswer> read = AvroTopicReader.readValues(kafka, registry, topic, WindowAnswer.class,
                a -> a.getWorkloadId().equals(workloadId) && wanted.contains(a.getWindowStart().toEpochMilli()),
                l -> l.stream().map(a -> a.getWindowStart().toEpochMilli()).distinct().count() >= wanted.size(),
                timeout);
        Map<Long, List<WindowAnswer>> out = new TreeMap<>();
        wanted.forEach(s -> out.put(s, new ArrayList<>()));
        read.forEach(a -> out.get(a.getWindowStart().toEpochMilli()).add(a));
        return out;
    }

    /** Every answer of {@code workloadId} on the topic now, by window start (read_committed). */
    public static java.util.NavigableMap<Long, List<WindowAnswer>> all(Map<String, Object> kafka,
            SchemaRegistryClient registry, String topic, String workloadId) {
        java.util.NavigableMap<Long, List<WindowAnswer>> out = new TreeMap<>();
        AvroTopicReader.readValues(kafka, registry, topic, WindowAnswer.class, a -> a.getWorkloadId().equals(workloadId),
                l -> true, Duration.ofSeconds(30))
                .forEach(a -> out.computeIfAbsent(a.getWindowStart().toEpochMilli(), k -> new ArrayList<>()).add(a));
        return out;
    }

    /** The one answer in {@code answers}; fails naming the window if there is none or more than one. */
    public static WindowAnswer single(List<WindowAnswer> answers, String workloadId, long start) {
        if (answers.size() != 1) {
            throw new AssertionError(workloadId + ": expected exactly one answer for the window starting at " + start
                    + ", found " + answers.size());
        }
        return answers.get(0);
    }

    /**
     * The Avro binary encoding of an answer without its release stream time: two answers with equal bytes are
     * identical bit for bit in every other field (every double compared by its bits, NaN included).
     */
    public static byte[] bits(WindowAnswer a) {
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            org.apache.avro.io.BinaryEncoder e = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
            new org.apache.avro.specific.SpecificDatumWriter<>(WindowAnswer.class).write(withoutStreamTime(a), e);
            e.flush();
            return out.toByteArray();
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    /** The answer without its release stream time (which follows broker append times, so it differs between runs). */
    public static WindowAnswer withoutStreamTime(WindowAnswer a) {
        return WindowAnswer.newBuilder(a).setReleasedAtStreamTime(0).build();
    }
}

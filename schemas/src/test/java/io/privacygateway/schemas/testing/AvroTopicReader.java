package io.privacygateway.schemas.testing;

import io.privacygateway.harness.testing.TopicReader;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.serde.AvroDeserializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/** {@link TopicReader} with the values decoded by the project's wire-format deserializer. */
public final class AvroTopicReader {
    private AvroTopicReader() {}

    /**
     * Reads {@code topic} as {@link TopicReader#read} does (from the beginning, read_committed, at least up to
     * the end offsets at the time of the call), decoding every value as {@code type}, on until {@code done}
     * holds for the values {@code filter} accepted or {@code timeout} passes; returns those values.
     */
    public static <T extends SpecificRecord> List<T> readValues(Map<String, Object> kafkaConfig,
            SchemaRegistryClient registry, String topic, Class<T> type, Predicate<T> filter, Predicate<List<T>> done,
            Duration timeout) {
        AvroDeserializer<T> values = new AvroDeserializer<>(type, registry);
        List<T> out = new ArrayList<>();
        TopicReader.read(kafkaConfig, topic, r -> {
            T v = values.deserialize(topic, r.value());
            if (filter.test(v)) {
                out.add(v);
            }
            return false;
        }, l -> done.test(out), timeout);
        return out;
    }
}

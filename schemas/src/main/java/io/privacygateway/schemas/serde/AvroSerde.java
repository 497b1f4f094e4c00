package io.privacygateway.schemas.serde;

import java.util.Map;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * An {@link AvroSerializer} and {@link AvroDeserializer} as one Kafka {@link Serde}; configure and
 * close reach both. Build with {@link AvroSerdes}.
 *
 * @param <T> the record type
 */
public final class AvroSerde<T extends IndexedRecord> implements Serde<T> {
    private final AvroSerializer<T> serializer;
    private final AvroDeserializer<T> deserializer;

    public AvroSerde(AvroSerializer<T> serializer, AvroDeserializer<T> deserializer) {
        this.serializer = serializer;
        this.deserializer = deserializer;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }

    @Override
    public void close() {
        serializer.close();
        deserializer.close();
    }
}

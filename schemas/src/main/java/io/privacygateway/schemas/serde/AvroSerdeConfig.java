package io.privacygateway.schemas.serde;

import java.util.Locale;
import java.util.Map;

/**
 * Config keys of {@link AvroSerializer} and {@link AvroDeserializer} (Confluent's names where
 * Confluent has one), besides the registry keys of
 * {@link io.privacygateway.schemas.registry.SchemaRegistryConfig} (read with
 * {@code SchemaRegistryConfig.fromClientConfigs}: unknown keys starting with
 * {@code schema.registry.}, {@code basic.auth.} or {@code bearer.auth.} are refused).
 */
public final class AvroSerdeConfig {
    private AvroSerdeConfig() {}

    /**
     * Serializer: register the record's schema under the topic's subject on first use
     * ({@code true}, the default), or only look its id up and fail if it is not registered
     * ({@code false}: for producers that must not change the registry).
     */
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    /** Deserializer of values: the generated SpecificRecord class to read into (name or Class). */
    public static final String SPECIFIC_AVRO_VALUE_TYPE = "specific.avro.value.type";
    /** Deserializer of keys: the generated SpecificRecord class to read into (name or Class). */
    public static final String SPECIFIC_AVRO_KEY_TYPE = "specific.avro.key.type";
    /**
     * Deserializer: accept only schema ids registered under the topic's subject
     * ({@code <topic>-value}, or {@code <topic>-key} for keys), as {@link AvroSerializer} registers
     * them. Default {@code true} for generated classes, {@code false} for generic readers. Turn it
     * off only for topics whose producers register under other subjects: lookups by id cannot
     * reject a garbage id without asking the registry about it.
     */
    public static final String SUBJECT_CHECK = "subject.check";

    static boolean bool(Map<String, ?> configs, String key, boolean fallback) {
        Object v = configs.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = String.valueOf(v).trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, got " + v);
        };
    }
}

package io.privacygateway.schemas.registry;

/**
 * Schema Registry compatibility levels (Confluent names). A new schema version is checked against
 * the latest version ({@code *_TRANSITIVE}: against every version) of its subject.
 */
public enum CompatibilityLevel {
    /** No check. */
    NONE,
    /** Readers of the new schema can read data written with the latest previous one. */
    BACKWARD,
    /** {@link #BACKWARD} against every previous version. */
    BACKWARD_TRANSITIVE,
    /** Readers of the latest previous schema can read data written with the new one. */
    FORWARD,
    /** {@link #FORWARD} against every previous version. */
    FORWARD_TRANSITIVE,
    /** {@link #BACKWARD} and {@link #FORWARD}. */
    FULL,
    /** {@link #FULL} against every previous version. */
    FULL_TRANSITIVE
}

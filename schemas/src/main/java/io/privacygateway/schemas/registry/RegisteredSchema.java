package io.privacygateway.schemas.registry;

import org.apache.avro.Schema;

/**
 * One version of a subject.
 *
 * @param subject the subject, e.g. {@code pgw.answers-value}
 * @param id the registry-wide schema id (what the wire format carries)
 * @param version the version within the subject (1, 2, ...)
 * @param schema the parsed schema
 */
public record RegisteredSchema(String subject, int id, int version, Schema schema) {}

package io.privacygateway.schemas.registry;

import java.util.List;

/**
 * The registry's answer to a compatibility check.
 *
 * @param compatible whether the schema may be registered as the subject's next version
 * @param messages the registry's explanations (Confluent: {@code messages}; Apicurio: its
 *     {@code reason} string); may be empty
 */
public record CompatibilityResult(boolean compatible, List<String> messages) {
    public CompatibilityResult {
        messages = List.copyOf(messages);
    }
}

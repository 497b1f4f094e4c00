package io.privacygateway.schemas;

import io.privacygateway.schemas.registry.CompatibilityLevel;
import io.privacygateway.schemas.registry.CompatibilityResult;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The project's schema evolution policy, applied to the registry at startup.
 *
 * <p><b>Policy: {@link CompatibilityLevel#FULL_TRANSITIVE} on every value subject.</b> Why not
 * just BACKWARD (new readers read old data):
 * <ul>
 *   <li>Readers lag writers as often as the other way round. Reports are written by devices that
 *       update slowly and read by the gateway (gateway upgraded first: BACKWARD); but answers and
 *       rejections are written by the gateway and read by dashboards and consumers that upgrade
 *       later (old readers read new data: FORWARD); during a rolling upgrade of the gateway both
 *       directions happen at once. FULL is both.</li>
 *   <li>Old data stays: the workloads topic is compacted, so a record written with version 1 is
 *       read for as long as its workload lives, and devices may run any of several versions.
 *       Checking against the latest version only would let version 3 break readers of version 1
 *       data: hence TRANSITIVE.</li>
 * </ul>
 * What FULL_TRANSITIVE allows is what the project needs: add a field with a default, remove a
 * field that has a default, add an enum symbol (readers fall back to the enum default), widen
 * documentation. Renaming, retyping, or adding/removing a field without a default is rejected by
 * the registry (HTTP 409) — such a change needs a new topic.
 */
public final class SchemaCompatibility {
    private SchemaCompatibility() {}

    /** The compatibility level of every project subject. */
    public static final CompatibilityLevel POLICY = CompatibilityLevel.FULL_TRANSITIVE;

    /**
     * Applies the policy with the default topic names: see {@link #setUp(SchemaRegistryClient, Function)}.
     */
    public static Map<ProjectTopic, Integer> setUp(SchemaRegistryClient client) {
        return setUp(client, ProjectTopic::defaultName);
    }

    /**
     * For each project topic: sets {@link #POLICY} on its value subject, then registers the
     * current value schema (idempotent) so an incompatible build fails at startup rather than on
     * its first record. Returns the schema id of each topic's value schema.
     *
     * <p>The level is set before the registration, so no version ever enters a subject unchecked
     * (Confluent and Apicurio 2.4.2 both keep a level set on a subject that has no version yet). A
     * registry that answers 404 to that gets the schema first and the level right after, which is
     * equivalent for a new subject: a first version has nothing to be compatible with.
     *
     * @throws SchemaRegistryException naming the subject, e.g. 409 if this build's schema is
     *     incompatible with the versions already registered
     */
    public static Map<ProjectTopic, Integer> setUp(SchemaRegistryClient client,
            Function<ProjectTopic, String> topicNames) {
        Map<ProjectTopic, Integer> ids = new EnumMap<>(ProjectTopic.class);
        for (ProjectTopic topic : ProjectTopic.values()) {
            String subject = SchemaRegistryClient.valueSubject(topicNames.apply(topic));
            boolean levelSet;
            try {
                client.setCompatibility(subject, POLICY);
                levelSet = true;
            } catch (SchemaRegistryException e) {
                if (!e.isNotFound()) {
                    throw e;
                }
                levelSet = false;   // the subject does not exist yet and the registry wants it to
            }
            ids.put(topic, client.register(subject, topic.valueSchema()));
            if (!levelSet) {
                client.setCompatibility(subject, POLICY);
            }
        }
        return ids;
    }

    /**
     * Checks, without changing the registry, whether this build's value schemas could be
     * registered under the project subjects (for deployment pre-flight checks).
     */
    public static Map<ProjectTopic, CompatibilityResult> check(SchemaRegistryClient client,
            Function<ProjectTopic, String> topicNames) {
        Map<ProjectTopic, CompatibilityResult> results = new EnumMap<>(ProjectTopic.class);
        for (ProjectTopic topic : ProjectTopic.values()) {
            String subject = SchemaRegistryClient.valueSubject(topicNames.apply(topic));
            results.put(topic, client.testCompatibility(subject, topic.valueSchema()));
        }
        return results;
    }
}

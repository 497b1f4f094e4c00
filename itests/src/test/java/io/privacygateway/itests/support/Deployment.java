package io.privacygateway.itests.support;

import io.privacygateway.schemas.SchemaCompatibility;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Prepares a gateway's topics and schemas before the gateway starts, as a deployment step would, working
 * around two startup failures of {@link GatewayService#start}:
 * <ul>
 *   <li>{@link GatewayService#ensureTopics} describes the report topics right after creating them, before
 *       the broker's metadata knows them (see {@code GatewayStartupIT}): retried here until they can be
 *       described;
 *   <li>two gateways registering new subjects at the same moment can make the embedded Apicurio registry
 *       (in-memory H2) answer HTTP 500 ("Timeout trying to lock table"), and the gateway's start does not
 *       retry: the schemas are registered here, one gateway after the other.
 * </ul>
 * A gateway then finds its topics and subjects in place (both steps are idempotent).
 */
public final class Deployment {
    private Deployment() {}

    public static void prepare(GatewaySettings s, SchemaRegistryClient registry) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                GatewayService.ensureTopics(s);
                break;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || attempt >= 50) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
        SchemaCompatibility.setUp(registry, t -> GatewayService.topicName(s.gateway(), t));
    }
}

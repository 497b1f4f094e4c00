package io.privacygateway.topology;

import static io.privacygateway.topology.GatewayHardeningTest.T0;
import static io.privacygateway.topology.GatewayHardeningTest.local;
import static io.privacygateway.topology.GatewayHardeningTest.report;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reports with unknown schema ids beyond what the registry client asks about (its listings are paced) are refused
 * MALFORMED naming the reason, never retried: a flood cannot stall the shard, and valid reports go on being admitted.
 */
class SchemaIdFloodTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();

    @Test
    void aFloodOfUnknownSchemaIdsIsRefusedWithoutStallingTheShard() {
        SchemaRegistryClient own = SchemaRegistryClient.forUrl(registry.ccompatUrl()); // its own listing allowance
        WorkloadSpec s = local("apps", 1, 1, 10, "1d", "1m");
        try (GatewayDriver g = new GatewayDriver(own, GatewayConfig.builder(1, 1).applicationId("flood").build(), T0)) {
            g.register(s, T0);
            g.send(report(s, "d0", 0, T0 + 1_000, 1), T0 + 1_000); // the valid schema id is known from here on
            int flood = 100;
            for (int i = 0; i < flood; i++) {
                byte[] bad = ByteBuffer.allocate(9).put((byte) 0).putInt(40_000_000 + i).putInt(7).array();
                g.local.pipeInput("d1".getBytes(), bad, T0 + 1_000);
            }
            g.send(report(s, "d2", 0, T0 + 2_000, 1), T0 + 2_000);
            List<Rejection> rejections = g.rejections.readValuesToList();
            assertThat(rejections).hasSize(flood).allSatisfy(r -> assertThat(r.getReasonCode())
                    .isEqualTo(RejectionReason.MALFORMED));
            assertThat(rejections).anySatisfy(r -> assertThat(r.getMessage()).contains("SCHEMA_NOT_CHECKED"));
            assertThat(rejections).anySatisfy(r -> assertThat(r.getMessage()).contains("SCHEMA_NOT_IN_SUBJECT"));
        }
    }
}

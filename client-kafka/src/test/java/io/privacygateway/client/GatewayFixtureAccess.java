package io.privacygateway.client;

import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import java.time.Duration;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** Gives test classes in other packages the shared {@link GatewayFixture}. */
@ExtendWith(GatewayFixture.Extension.class)
public abstract class GatewayFixtureAccess {
    private GatewayFixture fixture;

    @BeforeEach
    void fixture(GatewayFixture f) {
        this.fixture = f;
    }

    protected GatewayFixture fixture() {
        return fixture;
    }

    protected Map<String, Object> kafkaConfig() {
        return fixture.kafkaConfig();
    }

    protected GatewayTopics topics() {
        return fixture.topics();
    }

    protected Producer<String, SpecificRecord> reports() {
        return fixture.reports;
    }

    protected void awaitGatewayKnows(WorkloadSpec spec) throws Exception {
        fixture.awaitGatewayKnows(spec, Duration.ofSeconds(30));
    }

    protected static long nextWindowStart(long windowMillis) {
        return DeviceClientGatewayTest.nextWindowStart(windowMillis);
    }

    protected static String keyOf(Rejection r) {
        return GatewayFixture.keyString(r);
    }
}

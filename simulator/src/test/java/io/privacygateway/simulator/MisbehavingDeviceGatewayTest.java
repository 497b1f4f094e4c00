package io.privacygateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.DeviceClientGatewayTest;
import io.privacygateway.client.GatewayFixture;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.Rejection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Hand-built reports the SDK would never send, against the real gateway. */
@ExtendWith(GatewayFixture.Extension.class)
class MisbehavingDeviceGatewayTest {

    /**
     * The Rejection schema says originalValue is "left out where they would expose a raw central value". A
     * device that ignores its contribution limit (built by hand: the SDK refuses) gets its third report to a
     * window (L = 2, so it reuses a slot) rejected with CONTRIBUTION_LIMIT; the rejection must not carry the raw
     * value.
     */
    @Test
    void rejectedCentralReportsDoNotExposeTheirRawValue(GatewayFixture g) throws Exception {
        WorkloadSpec resolved = g.registerAndAwait(DeviceClientGatewayTest.CENTRAL.replace("client-it-central", "sim-leak-central"));
        ResolvedWorkload w = Workloads.resolve(resolved);
        long t = DeviceClientGatewayTest.nextWindowStart(2000) + 100;
        String device = "dev-leak-1";
        for (int i = 0; i < 3; i++) { // L = 2: the third contribution to the window (slot 0 again) is over the limit
            int slot = i % 2;
            CentralReport report = Reports.central(w, new ReportCoordinates(device, w.periodOf(t).index(), slot), t,
                    "high");
            g.reports.send(new ProducerRecord<>(g.topics().centralReports(), device, report)).get(30, TimeUnit.SECONDS);
        }
        List<Rejection> rejections = g.rejections("dev-leak-", l -> !l.isEmpty(), Duration.ofSeconds(30));
        assertThat(rejections).hasSize(1);
        Rejection r = rejections.get(0);
        assertThat(r.getReasonCode().name()).isEqualTo("CONTRIBUTION_LIMIT");
        assertThat(r.getOriginalValue()).as("raw central value in the rejections topic").isNull();
    }
}

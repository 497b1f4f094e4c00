package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The mean family end to end through the real topology (TopologyTestDriver, real embedded registry): reports of
 * a bounded scalar in, one answer out with {@code family = mean}, the clipped mean, its bar and the named scalars,
 * bit-for-bit the library's release of the same reports.
 */
class GatewayMeanTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = GatewayTopologyTest.T0;

    static WorkloadSpec spec(String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "latency-ms");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of("range", Map.of("lo", 0, "hi", 500)));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 2.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void aMeanWindowIsReleasedWithItsBarAndFamily() throws Exception {
        for (String mechanism : new String[] {"duchi", "piecewise", "hybrid"}) {
            WorkloadSpec s = spec(mechanism);
            Workload w = Workload.of(s);
            LocalPipeline pipeline = LocalPipeline.of(w);
            LocalProtocol protocol = pipeline.protocol();
            SeededRandomBits secret = new SeededRandomBits(11);
            Random data = new Random(3);
            List<LocalReport> reports = new ArrayList<>();
            long[] state = new long[protocol.stateLength()];
            double truth = 0;
            int n = 2000;
            for (int i = 0; i < n; i++) {
                int x = w.encode(Double.toString(Math.max(0, Math.min(500, 100 + 60 * data.nextGaussian()))));
                truth += w.points().row(x)[0] / n;
                LocalReport r = GatewayTopologyTest.report(w, protocol, "dev-" + i, 0, T0 + 1000 + i * 10, x, secret);
                reports.add(r);
                byte[] payload = new byte[r.getPayload().remaining()];
                r.getPayload().duplicate().get(payload);
                protocol.accumulate(payload, new ReportCoordinates(r.getDeviceId(), r.getPeriod(), r.getSequence()),
                        state);
            }
            Answer expected = pipeline.release().release(state, n);
            try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("mean-test")
                    .build(), T0)) {
                g.register(s, T0);
                for (LocalReport r : reports) {
                    g.send(r, T0 + 40_000);
                }
                g.send(GatewayTopologyTest.report(w, protocol, "late", 0, T0 + GatewayTopologyTest.MINUTE + 15_000, 5,
                        secret), T0 + GatewayTopologyTest.MINUTE + 15_000);
                g.advance(Duration.ofSeconds(2));
                List<WindowAnswer> out = g.answers.readValuesToList();
                assertThat(g.rejections.isEmpty()).as(mechanism).isTrue();
                assertThat(out).as(mechanism).hasSize(1);
                WindowAnswer a = out.get(0);
                assertThat(a.getFamily()).isEqualTo("mean");
                assertThat(a.getMechanism()).isEqualTo(mechanism);
                assertThat(a.getN()).isEqualTo(n);
                assertThat(a.getLabels()).containsExactly("mean");
                assertThat(a.getEstimates()).containsExactly(expected.estimates()[0]);
                double mean = a.getEstimates().get(0);
                assertThat(mean).isBetween(0.0, 500.0);
                assertThat(a.getScalars()).containsEntry("mean", mean)
                        .containsEntry("lower", a.getLower().get(0)).containsEntry("upper", a.getUpper().get(0))
                        .containsKey("standardError");
                assertThat(a.getLower().get(0)).isLessThanOrEqualTo(truth);
                assertThat(a.getUpper().get(0)).isGreaterThanOrEqualTo(truth);
                assertThat(a.getUpper().get(0) - a.getLower().get(0)).as(mechanism).isLessThan(100);
            }
        }
    }
}

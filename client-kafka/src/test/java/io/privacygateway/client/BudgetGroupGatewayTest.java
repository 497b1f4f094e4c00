package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.ReportRecords;
import io.privacygateway.schemas.avro.LocalReport;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Budget groups (one budget per device across workloads) on the real gateway: the SDK refuses locally once the
 * group is spent, and a device that ignores that and floods both workloads concurrently gets exactly the group
 * budget admitted, never more.
 */
@ExtendWith(GatewayFixture.Extension.class)
class BudgetGroupGatewayTest {
    static String workload(String id) {
        return """
                id: %s
                version: 1
                family: histogram
                domain: {labels: [a, b, c]}
                mechanism: grr
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 4.0, period: 1d, group: {name: client-group, epsilonPerPeriod: 3.0}}
                window: {size: 2s, grace: 1s}
                """.formatted(id);
    }

    @Test
    void theGroupBudgetHoldsOnTheDeviceAndAtTheGateway(GatewayFixture g) throws Exception {
        WorkloadSpec a;
        WorkloadSpec b;
        try (WorkloadRegistrar registrar = g.registrar()) {
            a = registrar.register(WorkloadFiles.parse(workload("group-a"), "test"));
            b = registrar.register(WorkloadFiles.parse(workload("group-b"), "test"));
        }
        g.awaitGatewayKnows(a, Duration.ofSeconds(30));
        g.awaitGatewayKnows(b, Duration.ofSeconds(30));
        long t = DeviceClientGatewayTest.nextWindowStart(2000) + 100;
        Clock clock = Clock.fixed(Instant.ofEpochMilli(t), ZoneOffset.UTC);

        // the SDK: one device, one budget store, two workloads of the group
        InMemoryDeviceBudget budget = new InMemoryDeviceBudget();
        DeviceClient da = DeviceClient.builder("grp-sdk", a).producer(g.reports).clock(clock).topics(g.topics())
                .budget(budget).build();
        DeviceClient db = DeviceClient.builder("grp-sdk", b).producer(g.reports).clock(clock).topics(g.topics())
                .budget(budget).build();
        List<Outcome.Status> statuses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            statuses.add(da.report("a").status());
            statuses.add(db.report("b").status());
        }
        assertThat(statuses).containsExactly(Outcome.Status.SENT, Outcome.Status.SENT, Outcome.Status.SENT,
                Outcome.Status.BUDGET_EXHAUSTED, Outcome.Status.BUDGET_EXHAUSTED, Outcome.Status.BUDGET_EXHAUSTED);
        assertThat(da.groupSpentInCurrentPeriod()).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo("3"));
        assertThat(da.remainingInCurrentPeriod()).isZero();

        // a device that bypasses its SDK: every slot of both workloads, 100 copies each, concurrently
        LocalWorkload wa = (LocalWorkload) Workloads.resolve(a);
        LocalWorkload wb = (LocalWorkload) Workloads.resolve(b);
        String device = "grp-flood";
        long period = wa.periodOf(t).index();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        SeededRandomBits secret = new SeededRandomBits(3);
        for (int copy = 0; copy < 100; copy++) {
            for (int seq = 0; seq < wa.slots(); seq++) {
                for (LocalWorkload w : List.of(wa, wb)) {
                    ReportCoordinates c = new ReportCoordinates(device, period, seq);
                    LocalReport r = ReportRecords.local(w, c, t, w.protocol().randomize(1, c, secret));
                    CompletableFuture<Object> f = new CompletableFuture<>();
                    g.reports.send(new ProducerRecord<>(g.topics().localReports(), device, r),
                            (md, e) -> f.complete(null));
                    sent.add(f);
                }
            }
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        int expected = 2 * 100 * wa.slots();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<io.privacygateway.schemas.avro.Rejection> rejected = List.of();
        while (System.nanoTime() < deadline) {
            rejected = g.rejections(device, l -> l.size() >= expected - 3, Duration.ofSeconds(5));
            if (rejected.size() >= expected - 3) {
                break;
            }
        }
        assertThat(rejected).hasSize(expected - 3); // exactly the group's 3 reports of ε 1 were admitted
        assertThat(rejected).extracting(r -> r.getReasonCode().name())
                .containsOnly("GROUP_BUDGET_EXHAUSTED", "DUPLICATE");
    }
}

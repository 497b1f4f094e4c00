package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.harness.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The device's own budget, on a real broker (reports go to topics of another prefix that no gateway reads;
 * the gateway's agreement is tested in {@link DeviceClientGatewayTest} and the fleet test).
 */
@ExtendWith(GatewayFixture.Extension.class)
class DeviceBudgetTest {
    static final GatewayTopics TOPICS = new GatewayTopics("budget-test.");
    static final long DAY = 86_400_000L;
    static final long T0 = 1_800_000_000_000L; // a minute boundary, mid-day
    static Producer<String, SpecificRecord> producer;

    @BeforeAll
    static void producer(GatewayFixture g) {
        g.kafka.createTopic(TOPICS.localReports(), 1, false);
        g.kafka.createTopic(TOPICS.centralReports(), 1, false);
        producer = ReportProducers.avro(g.kafkaConfig(), g.registryClient, true);
    }

    @AfterAll
    static void close() {
        producer.close(Duration.ofSeconds(5));
    }

    static WorkloadSpec local(double eps, double budget, String mechanism) {
        return WorkloadFiles.parse("""
                id: budget-local
                version: 1
                family: histogram
                domain: {labels: [a, b, c]}
                mechanism: %s
                epsilonPerReport: %s
                budget: {epsilonPerPeriod: %s, period: 1d}
                window: {size: 1m, grace: 10s}
                """.formatted(mechanism, eps, budget), "test");
    }

    static WorkloadSpec central() {
        return WorkloadFiles.parse("""
                id: budget-central
                version: 1
                family: histogram
                domain: {labels: [a, b, c]}
                mode: central
                mechanism: laplace
                central: {epsilonPerRelease: 0.5, neighbour: add-remove, contributionsPerWindow: 2}
                budget: {epsilonPerPeriod: 1.0, period: 1h}
                window: {size: 1m, grace: 10s}
                """, "test");
    }

    DeviceClient device(String id, WorkloadSpec spec, MutableClock clock, DeviceBudget budget) {
        return DeviceClient.builder(id, spec).producer(producer).topics(TOPICS).clock(clock).budget(budget)
                .secretRandomness(new SeededRandomBits(1)).build();
    }

    @Test
    void aDeviceWithBudgetForKReportsRefusesTheNextLocallyAndStartsAgainNextPeriod() throws Exception {
        WorkloadSpec spec = local(0.3, 0.9, "grr"); // k = 3: the declared decimals add up exactly
        assertThat(spec.reportsPerPeriod()).isEqualTo(3);
        MutableClock clock = new MutableClock(T0);
        InMemoryDeviceBudget budget = new InMemoryDeviceBudget();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        try (DeviceClient d = device("budget-dev-1", spec, clock, budget)) {
            assertThat(d.remainingInCurrentPeriod()).isEqualTo(3);
            for (int k = 0; k < 3; k++) {
                Outcome o = d.report("b");
                assertThat(o.status()).isEqualTo(Outcome.Status.SENT);
                assertThat(o.coordinates().sequence()).isEqualTo(k);
                assertThat(o.coordinates().period()).isEqualTo(T0 / DAY);
                sent.add(o.delivery());
                clock.advance(Duration.ofMinutes(5));
            }
            Outcome refused = d.report("b");
            assertThat(refused.status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
            assertThat(refused.coordinates()).isNull();
            assertThat(refused.delivery()).isNull();
            assertThat(d.remainingInCurrentPeriod()).isZero();
            var used = budget.ledger().charges().get(0);
            assertThat(budget.ledger().charges()).hasSize(1);
            assertThat(used.from()).isEqualTo(T0 / DAY * DAY);
            assertThat(used.slotsUsed()).isEqualTo(3);
            assertThat(used.epsilon()).isEqualByComparingTo("0.9");
            assertThat(d.spentInCurrentPeriod()).isEqualByComparingTo("0.9");

            clock.set((T0 / DAY + 1) * DAY); // the next budget period
            Outcome next = d.report("c");
            assertThat(next.status()).isEqualTo(Outcome.Status.SENT);
            assertThat(next.coordinates().sequence()).isZero();
            assertThat(next.coordinates().period()).isEqualTo(T0 / DAY + 1);
            sent.add(next.delivery());
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    @Test
    void theBudgetBelongsToTheDeviceNotToTheClientObject() {
        WorkloadSpec spec = local(1.0, 2.0, "oue");
        MutableClock clock = new MutableClock(T0);
        InMemoryDeviceBudget shared = new InMemoryDeviceBudget();
        assertThat(device("budget-dev-2", spec, clock, shared).report("a").status()).isEqualTo(Outcome.Status.SENT);
        // an app restart builds a new client over the persisted budget: it continues at sequence 1 ...
        Outcome again = device("budget-dev-2", spec, clock, shared).report("a");
        assertThat(again.coordinates().sequence()).isEqualTo(1);
        assertThat(device("budget-dev-2", spec, clock, shared).report("a").status())
                .isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
        // ... and a new version of the workload does not refill the period's budget (the gateway's budgets are
        // keyed by workload id, not version)
        WorkloadSpec v2 = WorkloadFiles.parse("""
                id: budget-local
                version: 2
                family: histogram
                domain: {labels: [a, b, c, d]}
                mechanism: oue
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 2.0, period: 1d}
                window: {size: 1m, grace: 10s}
                """, "test");
        assertThat(device("budget-dev-2", v2, clock, shared).report("d").status())
                .isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
    }

    @Test
    void valuesOutsideTheDomainAreNeverSentAndCostNothing() {
        MutableClock clock = new MutableClock(T0);
        DeviceClient d = device("budget-dev-3", local(1.0, 1.0, "grr"), clock, new InMemoryDeviceBudget());
        Outcome o = d.report("not-a-label");
        assertThat(o.status()).isEqualTo(Outcome.Status.INVALID_VALUE);
        assertThat(o.delivery()).isNull();
        assertThat(o.detail()).doesNotContain("not-a-label"); // outcomes never carry the value
        assertThat(d.remainingInCurrentPeriod()).isEqualTo(1);
        assertThat(d.report(" a ").status()).isEqualTo(Outcome.Status.SENT);
    }

    @Test
    void aWideWorkloadTakesItsFlagsAsABitVectorWithoutAMaterialisedUniverse() throws Exception {
        String flags = String.join(", ", java.util.stream.IntStream.range(0, 20).mapToObj(j -> "f" + j).toList());
        WorkloadSpec spec = WorkloadFiles.parse("""
                id: budget-wide
                version: 1
                family: marginals
                domain: {attributes: [%s]}
                queries: {way: 3}
                mode: central
                mechanism: worst-case-chaining
                central: {epsilonPerRelease: 0.5, neighbour: replace-one, contributionsPerWindow: 1}
                budget: {epsilonPerPeriod: 1.0, period: 1h}
                window: {size: 1m, grace: 10s}
                """.formatted(flags), "test");
        MutableClock clock = new MutableClock(T0 + 1000);
        DeviceClient d = device("budget-dev-wide", spec, clock, new InMemoryDeviceBudget());
        String zeros = String.join(",", java.util.Collections.nCopies(20, "0"));
        assertThat(d.report("1,0,1").status()).isEqualTo(Outcome.Status.INVALID_VALUE);
        assertThat(d.report("2" + zeros.substring(1)).status()).isEqualTo(Outcome.Status.INVALID_VALUE);
        assertThat(d.report("1" + zeros.substring(1)).status()).isEqualTo(Outcome.Status.SENT);
        assertThat(d.report(zeros).status()).isEqualTo(Outcome.Status.CONTRIBUTION_LIMIT); // L = 1
    }

    @Test
    void centralModeAllowsLContributionsPerWindowAndChargesEachWindowOnce() throws Exception {
        WorkloadSpec spec = central(); // L = 2, ε = 0.5 per window, budget 1.0 per hour: two windows an hour
        MutableClock clock = new MutableClock(T0 + 1000);
        DeviceClient d = device("budget-dev-4", spec, clock, new InMemoryDeviceBudget());
        assertThat(d.topic()).isEqualTo(TOPICS.centralReports());
        Outcome a = d.report("a");
        Outcome b = d.report("b");
        assertThat(List.of(a.status(), b.status())).containsOnly(Outcome.Status.SENT);
        assertThat(List.of(a.coordinates().sequence(), b.coordinates().sequence())).containsExactly(0, 1);
        assertThat(d.report("c").status()).isEqualTo(Outcome.Status.CONTRIBUTION_LIMIT);
        clock.advance(Duration.ofMinutes(1)); // next window: a second release is paid for
        assertThat(d.report("c").status()).isEqualTo(Outcome.Status.SENT);
        assertThat(d.report("c").status()).isEqualTo(Outcome.Status.SENT); // L = 2, already paid
        clock.advance(Duration.ofMinutes(1)); // a third window in the same hour: no budget left
        Outcome third = d.report("a");
        assertThat(third.status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
        a.delivery().get(30, TimeUnit.SECONDS);
        clock.advance(Duration.ofHours(1));
        assertThat(d.report("a").status()).isEqualTo(Outcome.Status.SENT);
    }

    @Test
    void resendSendsTheSameRecordAgainWithoutSpendingBudget() throws Exception {
        MutableClock clock = new MutableClock(T0);
        DeviceClient d = device("budget-dev-5", local(1.0, 1.0, "grr"), clock, new InMemoryDeviceBudget());
        Outcome o = d.report("c");
        Outcome again = d.resend(o);
        assertThat(again.coordinates()).isEqualTo(o.coordinates());
        assertThat(again.eventTime()).isEqualTo(o.eventTime());
        assertThat(again.delivery().get(30, TimeUnit.SECONDS).offset())
                .isEqualTo(o.delivery().get(30, TimeUnit.SECONDS).offset() + 1);
        Outcome refused = d.report("c");
        assertThat(refused.status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
        assertThatThrownBy(() -> d.resend(refused)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void slotsAndTopicsAgreeWithTheGateway() {
        // device and gateway call the same rule (ResolvedWorkload.slots and admit); the topic names agree
        for (WorkloadSpec s : List.of(local(0.3, 0.9, "grr"), local(1.0, 4.0, "oue"), central())) {
            assertThat(Workloads.resolve(s).slots()).isEqualTo(s.mode() == io.privacygateway.mechanisms.workload.Mode.LOCAL
                    ? s.reportsPerPeriod() : s.central().contributionsPerWindow());
        }
        GatewayConfig c = GatewayConfig.defaults(1, 1);
        GatewayTopics t = GatewayTopics.defaults();
        assertThat(List.of(t.workloads(), t.localReports(), t.centralReports(), t.answers(), t.rejections()))
                .containsExactly(c.workloadsTopic(), c.localReportsTopic(), c.centralReportsTopic(), c.answersTopic(),
                        c.rejectionsTopic());
    }

    /**
     * Admission compares exact sums of the declared decimals: for ε = 10⁻⁴ and a budget of 4 the device (like
     * the gateway, which runs the same rule) lets exactly 40,000 reports through and refuses the next, although a
     * running double sum of 10⁻⁴ would have drifted above 4 one report earlier.
     */
    @Test
    void theDeviceAdmitsInExactEpsilonLikeTheGateway() {
        WorkloadSpec spec = local(1e-4, 4.0, "grr");
        assertThat(spec.reportsPerPeriod()).isEqualTo(40_000);
        MutableClock clock = new MutableClock(T0);
        DeviceClient d = device("budget-dev-6", spec, clock, new InMemoryDeviceBudget());
        assertThat(d.remainingInCurrentPeriod()).isEqualTo(40_000);
        double spent = 0;
        for (int i = 0; i < 39_999; i++) {
            spent += 1e-4;
        }
        assertThat(spent + 1e-4).isGreaterThan(4.0 * (1 + 1e-12)); // the drift a double sum would suffer
    }

    @Test
    void theDeviceForgetsChargesOlderThanItsRetentionAndThenNeverDecidesOnThem() {
        MutableClock clock = new MutableClock(T0);
        InMemoryDeviceBudget budget = new InMemoryDeviceBudget();
        DeviceClient d = DeviceClient.builder("retention", local(1.0, 2.0, "grr")).producer(producer).topics(TOPICS).clock(clock)
                .budget(budget).retention(Duration.ofDays(2)).build();
        assertThat(d.report("a").status()).isEqualTo(Outcome.Status.SENT);
        clock.advance(Duration.ofDays(3));
        assertThat(d.report("a").status()).isEqualTo(Outcome.Status.SENT);
        assertThat(budget.ledger().charges()).hasSize(1);
        assertThat(budget.ledger().forgotten("budget-local")).isEqualTo((T0 / DAY + 1) * DAY);
    }

    static WorkloadSpec member(String id, int version, String group) {
        return WorkloadFiles.parse("""
                id: %s
                version: %d
                family: histogram
                domain: {labels: [a, b, c]}
                mechanism: grr
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 4.0, period: 1d%s}
                window: {size: 1m, grace: 10s}
                """.formatted(id, version, group == null ? "" : ", group: {name: " + group + ", epsilonPerPeriod: 3.0}"),
                "test");
    }

    /** 14.1: a workload joining a group brings what the device already spent on it; nothing is reset. */
    @Test
    void aWorkloadJoiningAGroupBringsItsSpendingWithIt() {
        MutableClock clock = new MutableClock(T0);
        InMemoryDeviceBudget budget = new InMemoryDeviceBudget();
        DeviceClient a = device("joiner", member("join-a", 1, "g"), clock, budget);
        DeviceClient c1 = device("joiner", member("join-c", 1, null), clock, budget);
        assertThat(c1.report("a").status()).isEqualTo(Outcome.Status.SENT);
        assertThat(c1.report("a").status()).isEqualTo(Outcome.Status.SENT);
        assertThat(a.groupSpentInCurrentPeriod()).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo("0"));
        // the device learns version 2 of join-c, which is in the group: from now on its 2 count
        DeviceClient c2 = device("joiner", member("join-c", 2, "g"), clock, budget);
        assertThat(c2.groupSpentInCurrentPeriod()).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo("2"));
        assertThat(a.groupSpentInCurrentPeriod()).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo("2"));
        assertThat(a.remainingInCurrentPeriod()).isEqualTo(1);
        assertThat(a.report("a").status()).isEqualTo(Outcome.Status.SENT);
        assertThat(a.report("a").status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
        assertThat(c2.report("a").status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
        // a renamed group: the members' own spending is counted again, so still nothing left
        DeviceClient renamed = device("joiner", member("join-a", 2, "g2"), clock, budget);
        assertThat(renamed.groupSpentInCurrentPeriod()).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo("1"));
        DeviceClient c3 = device("joiner", member("join-c", 3, "g2"), clock, budget);
        // both members' charges in the period count: join-a's 1 and join-c's 2
        assertThat(c3.groupSpentInCurrentPeriod()).hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo("3"));
        assertThat(renamed.report("a").status()).isEqualTo(Outcome.Status.BUDGET_EXHAUSTED);
        // the next period starts afresh
        clock.advance(Duration.ofDays(1));
        assertThat(renamed.report("a").status()).isEqualTo(Outcome.Status.SENT);
    }
}

package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.Epsilon;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkloadSpec} validates itself: every path that makes a spec (the parser, {@link WorkloadSpec#builder()},
 * {@link WorkloadSpec#toBuilder()} copies) runs the same rules, and a violated rule names the field.
 */
class WorkloadSpecRulesTest {

    static WorkloadSpec.Builder histogram() {
        return WorkloadSpec.builder().id("w").version(1).family(QueryFamily.HISTOGRAM)
                .domain(new Domain.Labels(List.of("a", "b", "c"))).local(Epsilon.of(1))
                .budget(Epsilon.of(4), Duration.ofDays(1)).window(Duration.ofMinutes(1), Duration.ofSeconds(10));
    }

    static WorkloadSpec.Builder central() {
        return histogram().central(Epsilon.of(1), NeighbourRelation.ADD_REMOVE, 2);
    }

    private static void fails(UnaryOperator<WorkloadSpec.Builder> change, String field) {
        assertThatThrownBy(() -> change.apply(histogram()).build()).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith(field + ":");
    }

    @Test
    void aValidSpecBuildsAndCopiesThroughTheSameRules() {
        WorkloadSpec s = histogram().build();
        assertThat(s.toBuilder().build()).isEqualTo(s);
        assertThat(s.reportsPerPeriod()).isEqualTo(4);
        // a copy cannot skip validation: a central mechanism on a local spec is refused
        assertThatThrownBy(() -> s.toBuilder().mechanism(MechanismId.LAPLACE).build())
                .hasMessageStartingWith("mechanism:").hasMessageContaining("central-mode mechanism");
        assertThatThrownBy(() -> s.toBuilder().mechanism(MechanismId.LOCAL_CHAINING).build())
                .hasMessageStartingWith("alpha:");
        assertThat(s.toBuilder().mechanism(MechanismId.LOCAL_CHAINING).alpha(new Alpha(0.2)).build().alpha())
                .isEqualTo(new Alpha(0.2));
    }

    /**
     * A declared ε has at most 20 decimal places: with 200, one charge made a device's stored spend longer than the
     * budget store decodes (and a central account's total likewise), so a restart could not read it back.
     */
    @Test
    void aDeclaredEpsilonHasBoundedDecimalsSoEveryStoredSumDecodes() {
        Epsilon fine = Epsilon.exactly(new java.math.BigDecimal("0.1" + "0".repeat(200) + "1"));
        fails(b -> b.local(fine), "epsilonPerReport");
        Epsilon large = Epsilon.exactly(new java.math.BigDecimal("30." + "0".repeat(200) + "1"));
        fails(b -> b.budget(large, Duration.ofDays(1)), "budget.epsilonPerPeriod");
        assertThatThrownBy(() -> histogram().central(fine, NeighbourRelation.ADD_REMOVE, 1).build())
                .hasMessageStartingWith("central.epsilonPerRelease:");
        Epsilon finest = Epsilon.exactly(new java.math.BigDecimal("1e-" + WorkloadSpec.MAX_EPSILON_DECIMALS));
        assertThat(histogram().local(finest).build().epsilonPerReport()).isEqualTo(finest);
    }

    @Test
    void everyRuleNamesItsField() {
        fails(b -> b.id("has space"), "id");
        fails(b -> b.version(0), "version");
        fails(b -> b.family(QueryFamily.CDF), "domain");
        fails(b -> b.marginalWay(2), "queries.way");
        fails(b -> b.queryLabels(List.of("x")), "queries.labels");
        fails(b -> b.mechanism(MechanismId.TREE), "mechanism");
        fails(b -> b.budget(Epsilon.of(0.5), Duration.ofDays(1)), "budget.epsilonPerPeriod");
        fails(b -> b.window(Duration.ZERO, Duration.ZERO), "window.size");
        fails(b -> b.window(Duration.ofMinutes(1), Duration.ofSeconds(-1)), "window.grace");
        fails(b -> b.budget(Epsilon.of(4), Duration.ZERO), "budget.period");
        fails(b -> b.modeParameters(null), "mode");
        fails(b -> b.central(Epsilon.of(1), NeighbourRelation.ADD_REMOVE, 0), "central.contributionsPerWindow");
        fails(b -> b.domain(new Domain.Attributes(List.of("x", "y"))).family(QueryFamily.MARGINALS).marginalWay(3),
                "queries.way");
        assertThatThrownBy(() -> new Domain.Labels(List.of("a", "a"))).hasMessageStartingWith("domain.labels[1]:");
        assertThatThrownBy(() -> new Domain.Buckets(List.of(0.0, 2.0, 1.0))).hasMessageStartingWith("domain.buckets[2]:");
        assertThatThrownBy(() -> new Domain.Points(List.of("p", "q"), List.of(List.of(0.5), List.of(1.5))))
                .hasMessageStartingWith("domain.points[1].answer[0]:");
    }

    @Test
    void modeSpecificFieldsAreATypeNotNulls() {
        WorkloadSpec local = histogram().build();
        WorkloadSpec c = central().build();
        assertThat(local.modeParameters()).isInstanceOf(WorkloadSpec.Local.class);
        assertThat(c.modeParameters()).isInstanceOf(WorkloadSpec.Central.class);
        assertThat(c.mode()).isEqualTo(Mode.CENTRAL);
        assertThat(c.epsilonPerCharge()).isEqualTo(Epsilon.of(1));
        assertThatThrownBy(local::central).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(c::epsilonPerReport).isInstanceOf(IllegalStateException.class);
        // changing ε through the builder keeps the mode's other parameters
        WorkloadSpec c2 = c.toBuilder().epsilonPerAnswer(Epsilon.of(0.5)).build();
        assertThat(c2.central().contributionsPerWindow()).isEqualTo(2);
        assertThat(c2.central().epsilonPerRelease()).isEqualTo(Epsilon.of(0.5));
    }

    @Test
    void reportsPerPeriodIsExact() {
        // 3 × 0.1 fits 0.3 exactly (declared decimals), 3 × (1/3 + 1e-13) does not fit 1
        assertThat(histogram().local(Epsilon.of(0.1)).budget(Epsilon.of(0.3), Duration.ofDays(1)).build()
                .reportsPerPeriod()).isEqualTo(3);
        assertThat(histogram().local(Epsilon.of(1.0 / 3 + 1e-13)).budget(Epsilon.of(1), Duration.ofDays(1)).build()
                .reportsPerPeriod()).isEqualTo(2);
        // the old rule floor(budget/ε·(1+1e-12)) admitted 3 here
        assertThat((int) Math.floor(1.0 / (1.0 / 3 + 1e-13) * (1 + 1e-12))).isEqualTo(3);
    }

    @Test
    void windowAndBudgetOwnTheirArithmetic() {
        WorkloadSpec.Window w = new WorkloadSpec.Window(Duration.ofSeconds(10), Duration.ofSeconds(2));
        assertThat(w.startOf(25_000)).isEqualTo(20_000);
        assertThat(w.startOf(-1)).isEqualTo(-10_000);
        assertThat(w.endOf(20_000)).isEqualTo(30_000);
        assertThat(w.closesAt(20_000)).isEqualTo(32_000);
        assertThat(w.closedAt(20_000, 31_999)).isFalse();
        assertThat(w.closedAt(20_000, 32_000)).isTrue();
        WorkloadSpec.Budget b = new WorkloadSpec.Budget(Epsilon.of(1), Duration.ofHours(1));
        assertThat(b.periodOf(3_600_000L * 5 + 1)).isEqualTo(5);
        assertThat(b.periodStart(5)).isEqualTo(3_600_000L * 5);
    }

    @Test
    void theParserOnlyMapsAndTheSpecDecides() {
        java.util.Map<String, Object> t = WorkloadTest.base("histogram", java.util.Map.of("labels", List.of("a", "b")));
        t.put("budget", java.util.Map.of("epsilonPerPeriod", 0.5, "period", "1d"));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).hasMessageStartingWith("budget.epsilonPerPeriod:");
        // ε given as a decimal string is taken exactly
        java.util.Map<String, Object> t2 = WorkloadTest.base("histogram", java.util.Map.of("labels", List.of("a", "b")));
        t2.put("epsilonPerReport", "0.1");
        t2.put("budget", java.util.Map.of("epsilonPerPeriod", "0.3", "period", "1d"));
        WorkloadSpec s = WorkloadSpecParser.parse(t2);
        assertThat(s.epsilonPerReport().exact()).isEqualByComparingTo("0.1");
        assertThat(s.reportsPerPeriod()).isEqualTo(3);
        // and written back exactly, so the canonical form round-trips
        assertThat(CanonicalForm.of(s)).contains("\"epsilonPerReport\":0.1,").contains("\"epsilonPerPeriod\":0.3,");
    }

    @Test
    void budgetGroupsAreParsedValidatedAndHashed() {
        java.util.Map<String, Object> t = WorkloadTest.base("histogram", java.util.Map.of("labels", List.of("a", "b")));
        t.put("budget", java.util.Map.of("epsilonPerPeriod", 2.0, "period", "1d",
                "group", java.util.Map.of("name", "telemetry", "epsilonPerPeriod", 3.0)));
        WorkloadSpec s = WorkloadSpecParser.parse(t);
        assertThat(s.budget().group()).isEqualTo(new WorkloadSpec.Group("telemetry", Epsilon.of(3)));
        assertThat(s.budget().group().budgetKey()).isEqualTo("group:telemetry");
        assertThat(CanonicalForm.of(s)).contains("\"group\":{\"epsilonPerPeriod\":3,\"name\":\"telemetry\"}");
        java.util.Map<String, Object> plain = WorkloadTest.base("histogram", java.util.Map.of("labels", List.of("a", "b")));
        assertThat(CanonicalForm.contentHash(WorkloadSpecParser.parse(plain))).isNotEqualTo(CanonicalForm.contentHash(s));
        t.put("budget", java.util.Map.of("epsilonPerPeriod", 2.0, "period", "1d",
                "group", java.util.Map.of("name", "bad name", "epsilonPerPeriod", 3.0)));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).hasMessageStartingWith("budget.group");
        t.put("budget", java.util.Map.of("epsilonPerPeriod", 2.0, "period", "1d",
                "group", java.util.Map.of("name", "g", "epsilonPerPeriod", 0.5)));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).hasMessageStartingWith("budget.group.epsilonPerPeriod");
        t.put("budget", java.util.Map.of("epsilonPerPeriod", 2.0, "period", "1d",
                "group", java.util.Map.of("name", "g", "epsilon", 3.0)));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(t)).hasMessageStartingWith("budget.group.epsilon");
    }

    /** 14.2: horizons are whole multiples of the window, distinct, few; since-activation is central only. */
    @Test
    void horizonsAreWholeMultiplesOfTheWindowAndKeepOlderContentHashes() {
        Duration m = Duration.ofMinutes(1);
        Duration g = Duration.ofSeconds(10);
        WorkloadSpec plain = histogram().build();
        WorkloadSpec rolled = histogram().window(new WorkloadSpec.Window(m, g, List.of(
                new Horizon.Span(Duration.ofHours(1)), new Horizon.Span(Duration.ofDays(1))))).build();
        assertThat(rolled.window().horizons()).hasSize(2);
        assertThat(CanonicalForm.of(plain)).doesNotContain("horizons");
        assertThat(CanonicalForm.of(rolled)).contains("\"horizons\":[\"PT1H\",\"PT24H\"]");
        assertThat(CanonicalForm.contentHash(rolled)).isNotEqualTo(CanonicalForm.contentHash(plain));
        fails(b -> b.window(new WorkloadSpec.Window(m, g, List.of(new Horizon.Span(Duration.ofSeconds(90))))),
                "window.horizons");
        fails(b -> b.window(new WorkloadSpec.Window(m, g, List.of(new Horizon.Span(m)))), "window.horizons");
        fails(b -> b.window(new WorkloadSpec.Window(m, g, List.of(new Horizon.Span(Duration.ofHours(1)),
                new Horizon.Span(Duration.ofMinutes(60))))), "window.horizons");
        fails(b -> b.window(new WorkloadSpec.Window(m, g, List.of(new Horizon.Span(Duration.ofDays(401))))),
                "window.horizons");
        fails(b -> b.window(new WorkloadSpec.Window(m, g, List.of(new Horizon.Span(Duration.ofMinutes(2)),
                new Horizon.Span(Duration.ofMinutes(3)), new Horizon.Span(Duration.ofMinutes(4)),
                new Horizon.Span(Duration.ofMinutes(5)), new Horizon.Span(Duration.ofMinutes(6))))), "window.horizons");
        fails(b -> b.window(new WorkloadSpec.Window(m, g, List.of(new Horizon.SinceActivation()))), "window.horizons");
        WorkloadSpec.Window withTotals = new WorkloadSpec.Window(m, g, List.of(new Horizon.SinceActivation(),
                new Horizon.Span(Duration.ofHours(1))));
        // central running totals cost their own ε per window, declared next to the release's
        assertThatThrownBy(() -> central().window(withTotals).build()).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith("central.epsilonPerRunningTotal:");
        WorkloadSpec totals = central().window(withTotals).modeParameters(new WorkloadSpec.Central(Epsilon.of(1),
                NeighbourRelation.ADD_REMOVE, 2, Epsilon.of(0.5))).build();
        assertThat(totals.window().horizons()).hasSize(2);
        assertThat(((WorkloadSpec.Central) totals.modeParameters()).epsilonPerCharge()).isEqualTo(Epsilon.of(1.5));
        assertThat(CanonicalForm.of(totals)).contains("epsilonPerRunningTotal");
        assertThatThrownBy(() -> central().modeParameters(new WorkloadSpec.Central(Epsilon.of(1),
                NeighbourRelation.ADD_REMOVE, 2, Epsilon.of(0.5))).build()).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageStartingWith("central.epsilonPerRunningTotal:");
        assertThat(CanonicalForm.of(central().build())).doesNotContain("epsilonPerRunningTotal");
        // resolving `auto` plans for the release's ε and leaves the declared ε and budget alone (it once planned
        // for the charge, release + running totals, and raised the release's ε and the budget with it)
        WorkloadSpec auto = central().window(withTotals).mechanism(MechanismId.AUTO).modeParameters(
                new WorkloadSpec.Central(Epsilon.of(1), NeighbourRelation.ADD_REMOVE, 2, Epsilon.of(0.5)))
                .budget(Epsilon.of(3), Duration.ofDays(1)).expectedReportsPerWindow(1000).build();
        assertThat(auto.epsilonPerAnswer()).isEqualTo(Epsilon.of(1));
        WorkloadSpec resolved = io.privacygateway.mechanisms.planner.Planner.resolve(auto);
        assertThat(resolved.mechanism()).isNotEqualTo(MechanismId.AUTO);
        assertThat(resolved.central().epsilonPerRelease()).isEqualTo(Epsilon.of(1));
        assertThat(resolved.central().epsilonPerRunningTotal()).isEqualTo(Epsilon.of(0.5));
        assertThat(resolved.epsilonPerCharge()).isEqualTo(Epsilon.of(1.5));
        assertThat(resolved.budget().epsilonPerPeriod()).isEqualTo(Epsilon.of(3));
        // the file syntax
        var tree = WorkloadSpecParser.tree();
        tree.put("id", "h");
        tree.put("version", 1);
        tree.put("family", "histogram");
        tree.put("domain", java.util.Map.of("labels", List.of("a", "b")));
        tree.put("mechanism", "grr");
        tree.put("epsilonPerReport", 1.0);
        tree.put("budget", java.util.Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        tree.put("window", java.util.Map.of("size", "1m", "horizons", List.of("1h", "P1D")));
        assertThat(WorkloadSpecParser.parse(tree).window().horizons()).containsExactly(
                new Horizon.Span(Duration.ofHours(1)), new Horizon.Span(Duration.ofDays(1)));
        tree.put("window", java.util.Map.of("size", "1m", "horizons", List.of("hourly")));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree)).hasMessageStartingWith("window.horizons:");
        tree.put("window", java.util.Map.of("size", "1m", "horizons", "1h"));
        assertThatThrownBy(() -> WorkloadSpecParser.parse(tree)).hasMessageStartingWith("window.horizons:");
    }
}

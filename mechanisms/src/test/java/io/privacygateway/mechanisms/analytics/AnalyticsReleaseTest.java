package io.privacygateway.mechanisms.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.analytics.release.AnalyticsMechanisms;
import io.privacygateway.mechanisms.analytics.release.AnalyticsRelease;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.CentralPlanner;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every analytics mechanism through the central release: its cost is computed from what it spent and never exceeds
 * the declared ε (exactly), the count is free under replace-one, empty windows are released, answers carry their
 * error information, and seeded releases are reproducible. The planner chooses among a family's own mechanisms.
 */
class AnalyticsReleaseTest {

    static WorkloadSpec spec(MechanismId id, double eps, String relation, int l) {
        QueryFamily f = QueryFamily.MODE.centralMechanisms().contains(id) ? QueryFamily.MODE
                : QueryFamily.REGRESSION.centralMechanisms().contains(id) ? QueryFamily.REGRESSION : QueryFamily.ERM;
        return switch (f) {
            case MODE -> AnalyticsFixtures.mode(id.wireName(), eps, relation, l, List.of("a", "b", "c", "d", "e"));
            case REGRESSION -> AnalyticsFixtures.regression(id.wireName(), eps, relation, l);
            default -> AnalyticsFixtures.erm(id.wireName(), eps, relation, l);
        };
    }

    static List<Object[]> cases() {
        List<Object[]> out = new ArrayList<>();
        for (QueryFamily f : List.of(QueryFamily.MODE, QueryFamily.REGRESSION, QueryFamily.ERM)) {
            for (MechanismId id : f.centralMechanisms()) {
                out.add(new Object[] {id, 0.3, "add-remove", 1});
                out.add(new Object[] {id, 2.0, "replace-one", 2});
            }
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void costsFitTheDeclaredEpsilonAndEveryWindowIsAnswered(MechanismId id, double eps, String relation, int l) {
        WorkloadSpec s = spec(id, eps, relation, l);
        Workload w = Workload.of(s);
        CentralRelease p = CountsReleases.of(w);
        AnalyticsRelease r = (AnalyticsRelease) p;
        BigDecimal declared = s.central().epsilonPerRelease().exact();
        assertThat(new BigDecimal(p.cost().epsilon())).isLessThanOrEqualTo(declared);
        assertThat(p.cost().epsilon()).isGreaterThan(0.85 * eps); // spent, not a loose literal
        if (relation.equals("replace-one")) {
            assertThat(r.parameters().epsilonCount()).isZero();
        } else {
            assertThat(r.parameters().epsilonCount()).isPositive();
        }
        long[] counts = SyntheticWindows.counts(w, ReferenceData.ZIPF, 3000);
        for (long[] c : List.of(counts, new long[w.universeSize()])) {
            Answer a = p.release(c, new SeededRandomBits(17));
            assertThat(a.mechanism()).isEqualTo(id);
            assertThat(a.cost()).isEqualTo(p.cost());
            assertThat(a.labels()).isEqualTo(w.queryLabels());
            assertThat(a.workloadHash()).isEqualTo(w.contentHash());
            assertThat(a.extras().scalars()).isNotEmpty().hasSizeLessThanOrEqualTo(AnalyticsMechanisms.MAX_SCALARS);
            assertThat(a.extras().scalars().keySet()).allMatch(k -> k.length() <= 32); // what RecordSizes assumes
            assertThat(a.extras().items()).hasSizeLessThanOrEqualTo(AnalyticsMechanisms.MAX_ITEMS);
            Answer again = p.release(c, new SeededRandomBits(17));
            assertThat(again.estimates()).containsExactly(a.estimates());
            if (s.family() == QueryFamily.MODE) {
                assertThat(a.extras().scalars()).containsKeys("released", "gapForConfidence");
                int released = WindowStatistics.releasedIndex(a);
                assertThat(a.extras().items()).hasSize(released >= 0 ? 1 : 0);
            } else {
                assertThat(a.extras().scalars()).containsKey("errorEstimate");
                assertThat(a.standardErrors()).isPresent();
                for (int j = 0; j < a.labels().size(); j++) {
                    assertThat(a.lower()[j]).isLessThanOrEqualTo(a.estimates()[j]);
                    assertThat(a.upper()[j]).isGreaterThanOrEqualTo(a.estimates()[j]);
                }
            }
        }
        assertThat(r.mechanism().parameters()).isNotEmpty();
    }

    @Test
    void thePlannerChoosesAmongTheFamilysOwnMechanisms() {
        for (WorkloadSpec s : List.of(AnalyticsFixtures.mode("auto", 1), AnalyticsFixtures.regression("auto", 1,
                "add-remove", 1), AnalyticsFixtures.erm("auto", 1, "add-remove", 1))) {
            Plan plan = CentralPlanner.plan(s, Epsilon.of(1), 10_000);
            assertThat(plan.predictions()).extracting(pr -> pr.candidate().id())
                    .containsExactlyElementsOf(s.family().centralMechanisms());
            assertThat(plan.predictions()).allMatch(Prediction::applicable);
            assertThat(s.family().centralMechanisms()).contains(plan.resolved().mechanism());
            assertThat(plan.method()).contains(AnalyticsMechanisms.errorMeasure(s.family()));
            // deterministic: the same choice again
            assertThat(CentralPlanner.plan(s, Epsilon.of(1), 10_000).resolved()).isEqualTo(plan.resolved());
        }
    }
}

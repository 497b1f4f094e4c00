package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import org.junit.jupiter.api.Test;

/** The published answers are exactly the synthetic records' marginals, and the published fields are consistent. */
class SyntheticRecordsTest {
    @Test
    void answersAreTheRecordsMarginals() {
        MarginalWorkload w = MarginalWorkload.anonymous(6, 3);
        WideSettings s = WideFixtures.settings(1.0, NeighbourRelation.ADD_REMOVE, 1, 5000);
        PurifiedMwemRelease r = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
        for (int t = 0; t < 5; t++) {
            WideAnswer a = r.release(WideFixtures.mixture(w, 5000, t), new SeededRandomBits(t));
            SyntheticRecords records = a.records().orElseThrow();
            assertThat(records.size()).isEqualTo(r.parameters().records());
            assertThat(records.cost()).isEqualTo(a.answer().cost());
            assertThat(a.answer().estimates()).isEqualTo(records.answers());
            Answer ans = a.answer();
            double bound = ans.extras().maxErrorBound().getAsDouble();
            assertThat(bound).isEqualTo(Math.min(1.0, Math.min(ans.extras().scalars().get("theoreticalMaxErrorBound"),
                    ans.extras().scalars().get("measuredMaxErrorBound"))));
            for (int q = 0; q < w.queryCount(); q++) {
                assertThat(ans.lower()[q]).isEqualTo(Math.max(0, ans.estimates()[q] - bound));
                assertThat(ans.upper()[q]).isEqualTo(Math.min(1, ans.estimates()[q] + bound));
            }
            assertThat(ans.labels()).isEqualTo(w.labels());
            assertThat(ans.cost().epsilon()).isLessThanOrEqualTo(1.0);
        }
    }
}

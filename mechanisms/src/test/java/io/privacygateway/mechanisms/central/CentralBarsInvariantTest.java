package io.privacygateway.mechanisms.central;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Central answers keep their own invariants on workloads with a query whose answer is known exactly (all ranges:
 * the whole range is 1 in every window) and on data piled on the last bucket: every estimate lies in [0, 1] and
 * every bar is ordered and contains its estimate, for every central mechanism and neighbour relation.
 */
class CentralBarsInvariantTest {
    /** All ranges over 32 buckets and a CDF over 32, every central mechanism, ε ∈ {0.5, 4}. */
    @Test
    void rangeAndCdfAnswersKeepTheirBarsOrdered() {
        for (String family : List.of("range", "cdf")) {
            for (String mechanism : List.of("laplace", "central-projection", "central-chaining")) {
                for (String relation : List.of("add-remove", "replace-one")) {
                    for (double eps : new double[] {0.5, 4}) {
                        CentralRelease p = CountsReleases.of(Workload.of(CentralPipelineTest.spec(family,
                                Map.of("buckets", CentralPipelineTest.edges(32)), null, mechanism, relation, eps,
                                2000)));
                        long[] c = new long[p.workload().universeSize()];
                        c[c.length - 1] = 1_900;
                        c[3] = 100;
                        for (int seed = 0; seed < 3; seed++) {
                            Answer a = p.release(c, new SeededRandomBits(seed));
                            for (int q = 0; q < a.estimates().length; q++) {
                                String where = family + " " + mechanism + " " + relation + " eps " + eps + " q " + q;
                                assertThat(a.estimates()[q]).as(where).isBetween(0.0, 1.0);
                                assertThat(a.lower()[q]).as(where).isLessThanOrEqualTo(a.estimates()[q]);
                                assertThat(a.upper()[q]).as(where).isGreaterThanOrEqualTo(a.estimates()[q]);
                            }
                        }
                    }
                }
            }
        }
    }
}

package io.privacygateway.mechanisms.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.testing.SyntheticPointSets;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class ProjectionsFactoryTest {

    private static Workload workload(String family, Map<String, Object> domain, Map<String, Object> queries) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "w1");
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        if (queries != null) {
            t.put("queries", queries);
        }
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return Workload.of(WorkloadSpecParser.parse(t));
    }

    private static List<Workload> workloads() {
        return List.of(
                workload("histogram", Map.of("labels", List.of("a", "b", "c", "d", "e")), null),
                workload("cdf", Map.of("buckets", List.of(0, 1, 2, 5, 10, 20, 50)), null),
                workload("range", Map.of("buckets", List.of(0, 1, 2, 3, 4)), null),
                workload("marginals", Map.of("attributes", List.of("a", "b", "c", "d")), Map.of("way", 2)),
                workload("points", Map.of("points", List.of(
                        Map.of("label", "x", "answer", List.of(0, 1, 0.5)),
                        Map.of("label", "y", "answer", List.of(0.5, 0.5, 0)),
                        Map.of("label", "z", "answer", List.of(1, 0, 1)))), null));
    }

    @Test
    void picksTheProjectionByFeasibleSetShape() {
        List<Workload> w = workloads();
        assertThat(Projections.forWorkload(w.get(0))).isInstanceOf(SimplexProjection.class);
        assertThat(Projections.forWorkload(w.get(1))).isInstanceOf(MonotoneUnitBoxProjection.class);
        assertThat(Projections.forWorkload(w.get(2))).isInstanceOf(HullProjection.class);
        assertThat(Projections.forWorkload(w.get(3))).isInstanceOf(HullProjection.class);
        assertThat(Projections.forWorkload(w.get(4))).isInstanceOf(HullProjection.class);
        for (Workload x : w) {
            assertThat(Projections.forWorkload(x).dim()).isEqualTo(x.queryCount());
        }
    }

    /** Whatever the factory picks must agree with the certified hull of the workload's own answer vectors. */
    @Test
    void agreesWithTheHullOfTheAnswerVectors() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(51L);
        for (Workload w : workloads()) {
            ConvexProjection chosen = Projections.forWorkload(w);
            HullProjection reference = new HullProjection(w.points(), 1e-13);
            double[][] atoms = ProjectionHullTest.rows(w.points());
            for (int trial = 0; trial < 20; trial++) {
                double[] y = SyntheticPointSets.noisyMean(w.points(), 30, trial % 2 == 0 ? 0.05 : 0.4, rng);
                ProjectionResult a = chosen.project(y);
                ProjectionResult b = reference.project(y);
                ProjectionHullTest.assertCertified(atoms, y, b, 1e-13);
                assertThat(ProjectionBruteForce.distance(a.point(), b.point()))
                        .isLessThanOrEqualTo(a.distanceBound() + b.distanceBound() + 1e-9);
                assertThat(ProjectionBruteForce.frankWolfeGap(atoms, a.point(), y))
                        .isLessThanOrEqualTo(Math.max(a.dualityGap(), 1e-12));
            }
        }
    }

    @Test
    void defaultHullToleranceScalesWithDimension() {
        PointSet set = PointSet.of(4, new double[][] {{0, 0, 0, 0}, {1, 1, 1, 1}});
        assertThat(Projections.hull(set).gapTolerance()).isEqualTo(4e-10);
        assertThat(Projections.defaultGapTolerance(448)).isEqualTo(448 * 1e-10);
        assertThatThrownBy(() -> Projections.forWorkload(null)).hasMessage("workload is required");
        assertThatThrownBy(() -> Projections.hull(null)).hasMessage("atoms is required");
        assertThatThrownBy(() -> Projections.defaultGapTolerance(0)).hasMessage("m must be an integer >= 1, got 0");
    }
}

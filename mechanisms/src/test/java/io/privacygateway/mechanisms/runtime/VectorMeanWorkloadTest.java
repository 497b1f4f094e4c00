package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.local.vector.VectorMeanEstimator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.vector.BallCandidates;
import io.privacygateway.mechanisms.local.vector.BoxCoordinates;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.release.VectorMeanRelease;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Vector-mean workloads (family mean over a ball or a box) resolved, run and released through {@link LocalWorkload}. */
class VectorMeanWorkloadTest {
    static WorkloadSpec spec(String kind, Map<String, Object> domain, String mechanism, double epsilon) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "vectors");
        t.put("version", 1);
        t.put("family", "mean");
        t.put("domain", Map.of(kind, domain));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", epsilon);
        t.put("budget", Map.of("epsilonPerPeriod", epsilon, "period", "1d"));
        t.put("window", Map.of("size", "1h"));
        t.put("confidence", 0.99);
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec box(String mechanism) {
        return spec("box", Map.of("coordinates", List.of("cpu", "memory", "battery", "disk"), "lo", 0, "hi", 100),
                mechanism, 2.0);
    }

    static WorkloadSpec ball(String mechanism) {
        return spec("ball", Map.of("coordinates", List.of("x1", "x2", "x3"), "radius", 2.0), mechanism, 4.0);
    }

    @Test
    void autoOnABoxPicksTheScalarMechanismWithTheSmallestWorstCaseVariance() {
        WorkloadSpec s = box("auto");
        Plan p = Planner.plan(s, s.epsilonPerReport(), 5000);
        assertThat(p.predictions()).extracting(x -> x.candidate().id()).containsExactlyElementsOf(
                MechanismId.MEAN_MECHANISMS);
        Prediction best = p.predictions().stream().min(java.util.Comparator.comparingDouble(Prediction::unprojectedRms))
                .orElseThrow();
        assertThat(p.choice().candidate().id()).isEqualTo(best.candidate().id());
        // the protocol's own chooser over the scalar mechanisms agrees
        assertThat(p.choice().candidate().id()).isEqualTo(BoxCoordinates.best(4, 1025, s.epsilonPerReport()).scalar());
        for (Prediction x : p.predictions()) { // each column is the candidate protocol's closed form at n
            WorkloadSpec r = x.candidate().apply(s, s.epsilonPerReport(), 5000);
            double se = VectorMeanEstimator.of(((LocalWorkload) ResolvedWorkload.of(r)).vectors().pipeline().protocol()).worstStandardError(5000);
            assertThat(x.unprojectedRms()).isEqualTo(se);
        }
        assertThat(Planner.resolve(s).mechanism()).isEqualTo(p.choice().candidate().id());
    }

    @Test
    void autoOnABallIsPrivUnitG() {
        WorkloadSpec s = ball("auto");
        Plan p = Planner.plan(s, s.epsilonPerReport(), 5000);
        assertThat(p.predictions()).hasSize(1);
        assertThat(p.choice().candidate().id()).isEqualTo(MechanismId.PRIVUNIT_G);
        assertThat(Planner.resolve(s).mechanism()).isEqualTo(MechanismId.PRIVUNIT_G);
    }

    @Test
    void aBoxWindowReleasesTheProjectedMeanWithCoordinateLabelsBarsAndScalars() throws InvalidValueException {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(box("hybrid"));
        assertThat(w.values()).isInstanceOf(LocalWorkload.Vectors.class);
        assertThat(w.queryLabels()).containsExactly("cpu", "memory", "battery", "disk");
        assertThatThrownBy(w::workload).isInstanceOf(IllegalStateException.class);
        Answer a = run(w, r -> new double[] {30 + 10 * r.nextDouble(), 70, r.nextInt(2) * 20, 99.5}, 20000, 3);
        double[] truth = {35, 70, 10, 99.5};
        assertThat(a.mechanism()).isEqualTo(MechanismId.HYBRID);
        assertThat(a.labels()).containsExactly("cpu", "memory", "battery", "disk");
        for (int q = 0; q < 4; q++) {
            assertThat(a.estimates()[q]).isBetween(0.0, 100.0);
            assertThat(a.lower()[q]).as(a.labels().get(q)).isLessThanOrEqualTo(truth[q] + 0.05); // + level rounding
            assertThat(a.upper()[q]).as(a.labels().get(q)).isGreaterThanOrEqualTo(truth[q] - 0.05);
            assertThat(a.upper()[q]).isLessThanOrEqualTo(100.0);
        }
        assertThat(a.extras().scalars()).containsEntry("dimension", 4.0).containsEntry("lo", 0.0)
                .containsEntry("hi", 100.0).containsEntry("levels", 1025.0).containsKey("sampledCoordinates")
                .doesNotContainKey("radius");
        assertThat(VectorMeanRelease.SCALARS).containsAll(a.extras().scalars().keySet());
        assertThat(a.expectedRmsError()).isPositive().isLessThanOrEqualTo(a.rmsErrorBoundAtConfidence());
        assertThat(java.util.Arrays.stream(a.standardErrors().orElseThrow()).min().orElseThrow()).isPositive();
    }

    @Test
    void aBallWindowReleasesAMeanInsideTheBall() throws InvalidValueException {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(Planner.resolve(ball("auto")));
        assertThat(w.vectors().pipeline().protocol()).isInstanceOf(BallCandidates.class);
        Answer a = run(w, r -> new double[] {1.2 + 0.3 * r.nextGaussian(), -0.6, 0.2 * r.nextGaussian()}, 20000, 5);
        double sq = 0;
        for (int q = 0; q < 3; q++) {
            sq += a.estimates()[q] * a.estimates()[q];
            assertThat(a.lower()[q]).isGreaterThanOrEqualTo(-2.0);
            assertThat(a.upper()[q]).isLessThanOrEqualTo(2.0);
        }
        assertThat(Math.sqrt(sq)).isLessThanOrEqualTo(2.0 * (1 + 1e-12));
        assertThat(a.lower()[1]).isLessThanOrEqualTo(-0.6);
        assertThat(a.upper()[1]).isGreaterThanOrEqualTo(-0.6);
        assertThat(a.extras().scalars()).containsEntry("radius", 2.0).containsKeys("candidates", "topSet");
        assertThat(a.mechanism()).isEqualTo(MechanismId.PRIVUNIT_G);
    }

    @Test
    void theAnswerIsTheProjectionOfTheUnbiasedMeanAndTheBarsAddTheMove() {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(ball("privunit-g"));
        var protocol = w.vectors().pipeline().protocol();
        Answer a = run(w, r -> new double[] {1.99, 0, 0}, 200, 9); // few reports: the raw mean often leaves the ball
        double[] raw = a.unprojected().orElseThrow();
        double[] projected = VectorMeanEstimator.of(protocol).project(raw);
        double z = io.privacygateway.mechanisms.release.Confidence.twoSidedZ(w.spec().confidence());
        for (int q = 0; q < 3; q++) {
            assertThat(a.estimates()[q]).isEqualTo(Math.max(-2, Math.min(2, projected[q])));
            double h = Math.abs(a.estimates()[q] - raw[q]) + z * a.standardErrors().orElseThrow()[q];
            assertThat(a.lower()[q]).isEqualTo(Math.max(-2, Math.min(2, a.estimates()[q]) - h));
        }
    }

    @Test
    void vectorsAreParsedAndCheckedWithoutEchoingACoordinate() throws InvalidValueException {
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(box("duchi"));
        LocalWorkload.Vectors v = w.vectors();
        assertThat(v.parse(" [12.5, 40, 0, 100] ")).containsExactly(12.5, 40, 0, 100);
        w.checkValue("12.5,40,0,100");
        for (String bad : new String[] {"12.5, 40, 0", "12.5, 40, 0, 100, 7", "12.5, abc, 0, 100", "12.5,,0,100",
                "12.5, 140.25, 0, 100", "12.5, NaN, 0, 100", "-3.75, 40, 0, 100"}) {
            assertThatThrownBy(() -> w.checkValue(bad)).as(bad).isInstanceOf(InvalidValueException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("140.25").doesNotContain("3.75")
                            .doesNotContain("abc").doesNotContain("12.5"));
        }
        LocalWorkload ball = (LocalWorkload) ResolvedWorkload.of(ball("privunit-g"));
        assertThatThrownBy(() -> ball.vectors().checkVector(new double[] {1.5, 1.5, 0.25}))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("outside the ball")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("1.5").doesNotContain("2.1"));
        assertThatThrownBy(() -> ((LocalWorkload) ResolvedWorkload.of(HeavyHitterWorkloadTest.spec("prefix-tree-sketch")))
                .vectors()).isInstanceOf(IllegalStateException.class);
    }

    /** n reports of the population randomized and accumulated by the real device and gateway code, released. */
    static Answer run(LocalWorkload w, java.util.function.Function<Random, double[]> population, int n, long seed) {
        Random data = new Random(seed);
        SeededRandomBits secret = new SeededRandomBits(seed);
        long[] state = new long[w.aggregateLength()];
        try {
            for (int i = 0; i < n; i++) {
                ReportCoordinates c = new ReportCoordinates("d" + i, 0, 0);
                double[] v = population.apply(data);
                if (w.spec().domain() instanceof Domain.Ball b) {
                    double norm = Math.sqrt(java.util.Arrays.stream(v).map(x -> x * x).sum());
                    if (norm > b.radius()) {
                        for (int q = 0; q < v.length; q++) {
                            v[q] *= b.radius() / norm;
                        }
                    }
                }
                assertThat(w.accumulator().accumulate(w.vectors().randomize(v, c, secret), c, state)).isTrue();
            }
        } catch (InvalidValueException e) {
            throw new AssertionError(e);
        }
        return w.release(state, n);
    }
}

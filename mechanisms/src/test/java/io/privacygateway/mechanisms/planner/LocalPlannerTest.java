package io.privacygateway.mechanisms.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class LocalPlannerTest {

    static WorkloadSpec histogram(int k) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            labels.add("v" + i);
        }
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "h");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", labels));
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"));
        t.put("window", Map.of("size", "1m"));
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void referenceDataAreDistributionsAndStratifiedDatasetsHaveExactSize() {
        for (ReferenceData r : ReferenceData.all()) {
            double s = 0;
            for (double f : r.frequencies(37)) {
                assertThat(f).isBetween(0.0, 1.0);
                s += f;
            }
            assertThat(s).isCloseTo(1.0, within(1e-12));
            int[] v = r.stratified(37, 1001);
            assertThat(v).hasSize(1001);
            assertThat(java.util.Arrays.stream(v).allMatch(x -> x >= 0 && x < 37)).isTrue();
        }
        assertThat(ReferenceData.SPARSE.stratified(64, 10)).containsOnly(8, 32, 56);
    }

    @Test
    void planIsDeterministicChoosesMinimaxRegretAndMarksIdenticalProtocols() {
        WorkloadSpec s = histogram(12);
        Plan a = LocalPlanner.plan(s, new Epsilon(1), 20_000);
        Plan b = LocalPlanner.plan(s, new Epsilon(1), 20_000);
        assertThat(a.choice().candidate()).isEqualTo(b.choice().candidate());
        for (int i = 0; i < a.predictions().size(); i++) {
            assertThat(a.predictions().get(i).simulatedRms()).containsExactly(b.predictions().get(i).simulatedRms());
        }
        assertThat(a.choice().regret()).isEqualTo(a.predictions().stream().filter(Prediction::applicable)
                .mapToDouble(Prediction::regret).min().orElseThrow());
        assertThat(a.resolved().mechanism()).isEqualTo(a.choice().candidate().id());
        assertThat(a.resolved().expectedReportsPerWindow()).isEqualTo(20_000);
        // α/2 = 1/16 keeps every one-hot vector (distance √(2/12) ≈ 0.41): coarse projection is projection
        Prediction coarse = a.predictions().stream()
                .filter(p -> p.candidate().id() == MechanismId.LOCAL_COARSE_PROJECTION && p.candidate().alpha().value() == 0.125)
                .findFirst().orElseThrow();
        assertThat(coarse.note()).contains("same protocol as projection");
        // no ordered buckets: no tree
        assertThat(a.predictions()).noneMatch(p -> p.candidate().id() == MechanismId.TREE);
        assertThatThrownBy(() -> LocalPlanner.plan(s, new Epsilon(1), 0)).hasMessageContaining("n must be >= 1");
    }

    /**
     * The Gaussian model of the window estimate predicts the same projected error as simulating every
     * report. 40 report-by-report windows against 400 model draws: the two mean squared errors agree
     * within 25% (their relative standard errors are about 5% and 2% here, so a correct model fails with
     * probability well below 1e-4).
     */
    @Test
    void gaussianModelMatchesReportByReportSimulation() {
        WorkloadSpec s = histogram(16).toBuilder().mechanism(MechanismId.OUE).expectedReportsPerWindow(5_000).build();
        LocalPipeline p = LocalPipeline.of(Workload.of(s));
        LocalProtocol protocol = p.protocol();
        int n = 5_000;
        int[] values = ReferenceData.ZIPF.stratified(16, n);
        double[] hist = new double[16];
        for (int v : values) {
            hist[v] += 1.0 / n;
        }
        double[] truth = p.workload().answersOf(hist);
        double simulated = 0;
        for (int t = 0; t < 40; t++) {
            SeededRandomBits secret = new SeededRandomBits(t);
            long[] state = new long[protocol.stateLength()];
            for (int i = 0; i < n; i++) {
                ReportCoordinates c = new ReportCoordinates("d" + t + "-" + i, 0, 0);
                protocol.accumulate(protocol.randomize(values[i], c, secret), c, state);
            }
            simulated += LocalPlanner.squaredError(p.release().release(state, n).estimates(), truth) / 40;
        }
        NoiseModel model = NoiseModel.of(protocol, p.workload().points(), hist, n);
        assertThat(model).isNotNull();
        double modelled = 0;
        for (int t = 0; t < 400; t++) {
            Answer a = p.release().releaseEstimate(model.sample(RandomSource.XO_RO_SHI_RO_128_PP.create(t)), n);
            modelled += LocalPlanner.squaredError(a.estimates(), truth) / 400;
        }
        assertThat(modelled / simulated).isBetween(0.8, 1.25);
    }

    @Test
    void semiDefiniteCholeskyReproducesTheMatrix() {
        double[][] a = {{4, 2, 2}, {2, 2, 1}, {2, 1, 1}}; // rank 2 (row 3 = row 1 / 2)
        double[][] l = NoiseModel.choleskySemiDefinite(a);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int c = 0; c < 3; c++) {
                    s += l[i][c] * l[j][c];
                }
                assertThat(s).isCloseTo(a[i][j], within(1e-12));
            }
        }
    }
}

package io.privacygateway.mechanisms.robustness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.privacygateway.mechanisms.local.gaussian.PublicGaussian;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The worst case over the public coins: attained where it is claimed attained (by coins that sampling
 * finds), above every sampled value where it is only a proven bound, and equal to the published formulas
 * (ideal probabilities; the grid rounding moves them by about 1e-15 relative).
 */
class WorstCaseTest {
    static final double REL = 1e-12;

    static Influence largestOver(MechanismInfluence mi, int probes) {
        Influence w = null;
        for (int i = 0; i < probes; i++) {
            Influence at = mi.atCoordinates(MechanismInfluence.probe(i));
            w = w == null ? at : w.max(at);
        }
        return w;
    }

    @Test
    void olhWorstCaseIsAttainedByAHashThatSendsEveryValueToOneBucket() {
        // k = 3 values, g = round(e^0.5 + 1) = 3 buckets: a hash with all three values in one bucket has
        // probability 1/9 per report, so 300 sampled coordinates contain one (failure probability (8/9)^300 < 1e-15)
        LocalPipeline p = PoisoningWorkloads.pipeline(PoisoningWorkloads.labels(3, 0.5), MechanismId.OLH);
        MechanismInfluence mi = MechanismInfluence.of(p);
        Influence ground = largestOver(mi, 300);
        assertThat(ground.linf()).isCloseTo(mi.worst().linf(), within(REL * mi.worst().linf()));
        assertThat(ground.l2()).isCloseTo(mi.worst().l2(), within(REL * mi.worst().l2()));
        // a typical hash spreads the values: its ℓ2 influence is smaller
        assertThat(mi.atCoordinates(MechanismInfluence.probe(0)).l2()).isLessThanOrEqualTo(mi.worst().l2());
    }

    @Test
    void treeWorstCaseIsAttainedWhenEveryLevelUsesGrr() {
        LocalPipeline p = PoisoningWorkloads.pipeline(PoisoningWorkloads.cdf(16, 2.0), MechanismId.TREE);
        TreeInfluence t = (TreeInfluence) MechanismInfluence.of(p);
        assertThat(t.height()).isEqualTo(2);
        assertThat(t.worst().linfExact()).isTrue();
        Influence ground = largestOver(t, 64); // both levels occur among 64 coordinates (failure 2^-63)
        assertThat(ground.linf()).isCloseTo(t.worst().linf(), within(REL * t.worst().linf()));
        assertThat(ground.l2()).isCloseTo(t.worst().l2(), within(REL * t.worst().l2()));
    }

    @Test
    void treeWithAnOlhLevelIsBoundedAboveEverySampledCoin() {
        LocalPipeline p = PoisoningWorkloads.pipeline(PoisoningWorkloads.cdf(16, 0.5), MechanismId.TREE);
        MechanismInfluence mi = MechanismInfluence.of(p);
        Influence ground = largestOver(mi, 400);
        assertThat(mi.worst().linfExact()).isFalse();
        InfluenceClosedFormTest.assertAtMost(ground, mi.worst());
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 1, 2, 4})
    void gaussianWorstCaseIsTheProvenRangeOfThePublicGaussian(double eps) {
        LocalPipeline p = PoisoningWorkloads.pipeline(PoisoningWorkloads.labels(8, eps), MechanismId.LOCAL_PROJECTION);
        MechanismInfluence mi = MechanismInfluence.of(p);
        // one-hot answers have radius 1: c = √(π/2)/b̃ with b̃ ≈ tanh(ε/2)
        double c = Math.sqrt(Math.PI / 2) / Math.tanh(eps / 2);
        assertThat(mi.worst().linf()).isCloseTo(2 * PublicGaussian.MAX_ABS * c, within(1e-9 * c));
        assertThat(mi.worst().l2()).isCloseTo(2 * PublicGaussian.MAX_ABS * c * Math.sqrt(8), within(1e-9 * c));
        assertThat(mi.worst().linfExact()).isFalse();
        Influence ground = largestOver(mi, 2000);
        InfluenceClosedFormTest.assertAtMost(ground, mi.worst());
        // for fixed coins it is exact: twice the decode scale times the largest |Z|
        assertThat(ground.linfExact()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 1, 2, 4})
    void histogramFormulas(double eps) {
        int k = 16;
        WorkloadSpec s = PoisoningWorkloads.labels(k, eps);
        double e = Math.exp(eps);
        // GRR: 1/(p − q) = (e^ε + k − 1)/(e^ε − 1); two one-hot rows are √2 apart
        double grr = (e + k - 1) / (e - 1);
        check(s, MechanismId.GRR, grr, Math.sqrt(2) * grr);
        // OUE: 1/(1/2 − 1/(e^ε + 1)) = 2(e^ε + 1)/(e^ε − 1); all bits against none: √k times that
        double oue = 2 * (e + 1) / (e - 1);
        check(s, MechanismId.OUE, oue, Math.sqrt(k) * oue);
        // Hadamard response: 2/(2π − 1), π = e^ε/(e^ε + 1): the same 2(e^ε + 1)/(e^ε − 1) per coordinate
        Influence hr = MechanismInfluence.of(PoisoningWorkloads.pipeline(s, MechanismId.HADAMARD_RESPONSE)).worst();
        assertThat(hr.linf()).isCloseTo(oue, within(1e-9 * oue));
        // OLH: 1/(p' − 1/g), p' = e^ε/(e^ε + g − 1), over every hash function as OUE's sets
        int g = (int) Math.max(2, Math.rint(e + 1));
        double olh = 1 / (e / (e + g - 1) - 1.0 / g);
        check(s, MechanismId.OLH, olh, Math.sqrt(k) * olh);
    }

    static void check(WorkloadSpec s, MechanismId id, double linf, double l2) {
        Influence w = MechanismInfluence.of(PoisoningWorkloads.pipeline(s, id)).worst();
        assertThat(w.linf()).as(id + " linf").isCloseTo(linf, within(1e-9 * linf));
        assertThat(w.l2()).as(id + " l2").isCloseTo(l2, within(1e-9 * l2));
    }
}

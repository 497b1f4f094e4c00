package io.privacygateway.mechanisms.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.local.fo.FourierMarginals;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.testing.TestWorkloads;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Mechanism {@code fourier} as a workload mechanism: offered by the planner for marginals of at most 12 attributes,
 * refused elsewhere naming the field, and end to end on 3-way marginals of 8 attributes (256 values, the size
 * workload factorization does not take) within the stated standard errors.
 */
class FourierPipelineTest {
    static List<MechanismId> offered(io.privacygateway.mechanisms.workload.WorkloadSpec s) {
        return LocalPlanner.candidates(s).stream().map(Candidate::id).toList();
    }

    @Test
    void plannerOffersItForMarginalsOfAtMost12Attributes() {
        assertThat(offered(FactorizationPipelineTest.marginals(8, 3, null))).contains(MechanismId.FOURIER);
        assertThat(offered(FactorizationPipelineTest.marginals(12, 2, null))).contains(MechanismId.FOURIER);
        assertThat(offered(FactorizationPipelineTest.marginals(13, 2, null))).doesNotContain(MechanismId.FOURIER);
        assertThat(offered(TestWorkloads.local("cdf", TestWorkloads.buckets(16), null)))
                .doesNotContain(MechanismId.FOURIER);
    }

    @Test
    void validationTakesMarginalsOfAtMost12AttributesAndNamesTheField() {
        assertThat(FactorizationPipelineTest.marginals(12, 3, "fourier").mechanism()).isEqualTo(MechanismId.FOURIER);
        assertThatThrownBy(() -> FactorizationPipelineTest.marginals(13, 2, "fourier"))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageStartingWith("domain.attributes:")
                .hasMessageContaining("12").hasMessageContaining("13");
        assertThatThrownBy(() -> TestWorkloads.local("cdf", TestWorkloads.buckets(16), "fourier"))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageStartingWith("mechanism:");
        assertThatThrownBy(() -> TestWorkloads.local("histogram", Map.of("labels", List.of("a", "b")), "fourier"))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageStartingWith("mechanism:");
        assertThat(MechanismId.fromWireName("fourier")).isEqualTo(MechanismId.FOURIER);
    }

    /**
     * 3-way marginals of 8 attributes at ε = 1, N = 40,000 devices with skewed values: every unprojected answer
     * within 5 of its own standard errors of the truth (each fails with probability below 10⁻⁶ under normality), the
     * standard errors within 20% of the closed form at the true frequencies, the released answers within their
     * published RMS bound, and the cost pure ε.
     */
    @Test
    void marginalsOfEightAttributesEndToEndWithinTheirStandardErrors() {
        Workload w = Workload.of(FactorizationPipelineTest.marginals(8, 3, "fourier"));
        LocalPipeline p = LocalPipeline.of(w);
        LocalProtocol protocol = p.protocol();
        assertThat(protocol.id()).isEqualTo(MechanismId.FOURIER);
        assertThat(protocol.payloadBytes()).isEqualTo(2);
        FourierMarginals oracle = (FourierMarginals) ((FrequencyOracleProtocol) protocol).oracle();
        assertThat(oracle.parameters()).isEqualTo(FourierMarginals.chooseParameters(8, 3, Epsilon.of(1)));
        int n = 40_000;
        int k = w.universeSize();
        long[] state = new long[protocol.stateLength()];
        long[] counts = FactorizationPipelineTest.reportSkewed(protocol, k, n, 11, 12, state);
        FactorizationPipelineTest.withinStandardErrorsAndBound(p, oracle, state, counts, n);
    }
}

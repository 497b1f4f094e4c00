package io.privacygateway.mechanisms.local.gaussian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Accessors and argument checks of the Gaussian-sign classes. */
class GaussianSignContractTest {
    @Test
    void protocolAccessors() {
        Workload w = GaussianSignProtocolTest.histogram("a", "b", "c");
        GaussianSignProtocol p = new GaussianSignProtocol(w, MechanismId.LOCAL_PROJECTION,
                List.of(new GaussianLevel(Epsilon.of(1), w.points(), null)), 0.25);
        assertThat(p.dimension()).isEqualTo(3);
        assertThat(p.universeSize()).isEqualTo(3);
        assertThat(p.contentHash()).isEqualTo(w.contentHash());
        assertThat(p.biasBound()).isEqualTo(0.25);
        assertThat(LocalEstimators.of(p).expectedLevelMean(0, new double[] {0.5, 0.5, 0})).containsExactly(0.5, 0.5, 0);
        assertThatThrownBy(() -> LocalEstimators.of(p).expectedLevelMean(1, new double[3])).hasMessageContaining("level must be in [0, 1)");
        assertThatThrownBy(() -> LocalEstimators.of(p).expectedLevelMean(-1, new double[3])).hasMessageContaining("got -1");
        assertThat(p.outputProbability(0, new byte[] {2}, 0).isZero()).isTrue(); // stray bit: malformed
        assertThatThrownBy(() -> p.outputProbability(3, new byte[] {1}, 0)).hasMessageContaining("value");
    }

    @Test
    void randomizerChecksLengths() {
        GaussianSignRandomizer rz = new GaussianSignRandomizer(1, Epsilon.of(1), 2);
        double[] out = new double[2];
        assertThatThrownBy(() -> rz.decode(true, new double[3], out)).hasMessageContaining("z must have length 2");
        assertThatThrownBy(() -> rz.decode(true, new double[2], new double[1])).hasMessageContaining("out must have length 2");
        assertThatThrownBy(() -> rz.valueBias(new double[] {0.8, 0.7})).hasMessageContaining("||v|| must be <= radius");
        assertThat(rz.valueBias(new double[] {0.6, 0.8})).isEqualTo(rz.biasNumerator());
        assertThat(rz.valueBias(new double[] {0, 0})).isZero();
        assertThat(GaussianSignRandomizer.valueBias(1000, 0.5)).isEqualTo(500);
        assertThat(GaussianSignRandomizer.valueBias(1000, 1.5)).isEqualTo(1000);
    }

    @Test
    void levelNeedsRows() {
        assertThatThrownBy(() -> new GaussianLevel(Epsilon.of(1), PointSet.ofRowMajor(0, 2, new double[0]), null))
                .hasMessageContaining("at least one row");
        GaussianLevel one = new GaussianLevel(Epsilon.of(1), PointSet.ofRowMajor(1, 2, new double[] {0.3, 0.4}), null);
        assertThat(one.radius()).isEqualTo(0.5, org.assertj.core.api.Assertions.within(1e-15));
        assertThat(one.dimension()).isEqualTo(2);
    }
}

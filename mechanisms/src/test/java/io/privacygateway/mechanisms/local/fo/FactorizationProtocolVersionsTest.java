package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import org.junit.jupiter.api.Test;

/**
 * The factorization protocol versions a gateway can still serve derive the strategies of their wire formats: version 1
 * reproduces the {@code pgw-wfm-v1} golden fingerprints of docs/wire-format.md §8 as they stood before K was searched
 * (commit 4af8f04), version 3 today's rows, and version 2 differs from 3 only above ε = 6.
 */
class FactorizationProtocolVersionsTest {
    @Test
    void versionOneIsTheStrategyOfWireFormatV1() throws Exception {
        assertThat(FactorizationWireFormatGoldenTest.fingerprint(
                new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(4), 1).mechanism()))
                .isEqualTo("47c964828c3eb7ebac0270ad1d457786e2167e17628218d390b08d47be522e32");
        assertThat(FactorizationWireFormatGoldenTest.fingerprint(
                new FactorizationOracle(FactorizationOracleTest.cdf(16), Epsilon.of(4), 1).mechanism()))
                .isEqualTo("e362ed4136723ca2f24535b84abf6a0b2f465c4d67798c73306b1d229ef3d246");
    }

    @Test
    void versionsTwoAndThreeAreTheSearchedKStrategyAndDifferOnlyAboveTheDesignCap() throws Exception {
        String v3 = "3920253177ed77a9b4389d9ed04a8e7bbeef87b14e13315be876bb9e61aeaf14"; // today's row, cdf k = 4, ε = 4
        assertThat(FactorizationWireFormatGoldenTest.fingerprint(
                new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(4), 2).mechanism())).isEqualTo(v3);
        assertThat(FactorizationWireFormatGoldenTest.fingerprint(
                new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(4), 3).mechanism())).isEqualTo(v3);
        assertThat(new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(8), 3).mechanism().epsilon()
                .value()).isEqualTo(6.0);
        assertThat(new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(8), 2).mechanism().epsilon()
                .value()).isEqualTo(8.0);
    }

    @Test
    void theCacheKeepsVersionsApartAndRefusesUnknownOnes() {
        FactorizationOracle one = FactorizationOracle.of(FactorizationOracleTest.cdf(4), Epsilon.of(4), 1);
        FactorizationOracle three = FactorizationOracle.of(FactorizationOracleTest.cdf(4), Epsilon.of(4), 3);
        assertThat(one).isNotSameAs(three);
        assertThat(FactorizationOracle.of(FactorizationOracleTest.cdf(4), Epsilon.of(4))).isSameAs(three);
        assertThatThrownBy(() -> new FactorizationOracle(FactorizationOracleTest.cdf(4), Epsilon.of(1), 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[1, 2, 3]");
    }
}

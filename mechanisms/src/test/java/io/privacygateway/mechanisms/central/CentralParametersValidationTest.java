package io.privacygateway.mechanisms.central;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.central.sampling.LqNorm;
import io.privacygateway.mechanisms.workload.MechanismId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The purified Gaussian parameters validate every share and the (ε_apx, δ) part at construction, naming the field:
 * a parameter set that claims a zero or non-finite share, an ω outside (0, 1), an invalid ln δ or a non-positive ρ
 * never reaches a release.
 */
class CentralParametersValidationTest {
    private static CentralParameters.Gaussian gaussian(double count, double apx, double prime, double logDelta,
            double omega, double rho) {
        return new CentralParameters.Gaussian(MechanismId.CENTRAL_PROJECTION, count, apx, prime, logDelta, omega, rho,
                new double[] {rho}, LqNorm.L2, 0.01, CentralParameters.Space.ANSWERS);
    }

    @ParameterizedTest
    @CsvSource({
        "-0.1, 0.5, 0.2, -40, 0.01, 0.001, epsilonCount",
        "NaN, 0.5, 0.2, -40, 0.01, 0.001, epsilonCount",
        "0.1, 0, 0.2, -40, 0.01, 0.001, epsilonApprox",
        "0.1, Infinity, 0.2, -40, 0.01, 0.001, epsilonApprox",
        "0.1, 0.5, 0, -40, 0.01, 0.001, epsilonPrime",
        "0.1, 0.5, 0.2, 1, 0.01, 0.001, log(delta)",
        "0.1, 0.5, 0.2, -40, 0, 0.001, omega",
        "0.1, 0.5, 0.2, -40, 1, 0.001, omega",
        "0.1, 0.5, 0.2, -40, 0.01, 0, rho",
        "0.1, 0.5, 0.2, -40, 0.01, NaN, rho"
    })
    void anInvalidShareOrApproximatePartIsRefusedNamingTheField(double count, double apx, double prime,
            double logDelta, double omega, double rho, String field) {
        assertThatThrownBy(() -> gaussian(count, apx, prime, logDelta, omega, rho))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(field);
        assertThatCode(() -> gaussian(0.1, 0.5, 0.2, -40, 0.01, 0.001)).doesNotThrowAnyException();
    }
}

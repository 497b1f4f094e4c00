package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the published error bars over many windows: the interval {@code estimate ± 1.96·SE} holds the true
 * mean of each coordinate in at least 95% of windows, since the bar is a worst case (an upper bound of the true
 * standard deviation) and the estimate is a sum of many independent reports.
 *
 * <p>240 windows (seeded). The coordinates of one window are dependent, so the test counts windows as the
 * independent units: with a true coverage of at least 0.95, the observed fraction of covered (window, coordinate)
 * pairs falls below 0.86 with probability below 1e-6 (5.3 standard deviations of a proportion over 240 windows,
 * 0.014). Power: with bars half as wide the same runs cover 76% to 80% (measured once by editing the factor), so a
 * bar too small by half fails here, and would fail with probability above 0.99 on other seeds (2 to 3.5 standard
 * deviations below the threshold).
 */
class VectorCoverageTest {
    static final int WINDOWS = 240;

    @Test
    void ballBarsCoverTheMean() {
        double r = 1.5;
        BallCandidates p = BallCandidates.of(3, r, Epsilon.of(2), VectorFixtures.HASH);
        double[] x1 = {1.5, 0, 0};
        double[] x2 = {0, -0.6, 0.8};
        int n = 400;
        SecretDraws draws = ExactSampler.draws(new SeededRandomBits(77));
        int covered = 0;
        for (int w = 0; w < WINDOWS; w++) {
            long[] state = new long[3];
            double[] truth = new double[3];
            for (int i = 0; i < n; i++) {
                double[] x = i % 3 == 0 ? x1 : x2;
                for (int k = 0; k < 3; k++) {
                    truth[k] += x[k] / n;
                }
                ReportCoordinates c = new ReportCoordinates("w" + w, w, i);
                assertThat(p.accumulate(p.randomize(x, c, draws), c, state)).isTrue();
            }
            VectorMeanEstimate e = VectorMeanEstimator.of(p).estimate(state, n);
            for (int k = 0; k < 3; k++) {
                covered += Math.abs(e.mean()[k] - truth[k]) <= 1.96 * e.standardError()[k] ? 1 : 0;
            }
        }
        assertThat(covered / (3.0 * WINDOWS)).isGreaterThanOrEqualTo(0.86);
    }

    @Test
    void boxBarsCoverTheMean() {
        for (MechanismId id : MechanismId.MEAN_MECHANISMS) {
            BoxCoordinates p = BoxCoordinates.of(4, 0, 10, 11, id, Epsilon.of(3), VectorFixtures.HASH);
            Domain.Range range = p.range();
            double[] x1 = {0, 10, 10, 3};
            double[] x2 = {10, 0, 5, 3};
            int n = 400;
            SecretDraws draws = ExactSampler.draws(new SeededRandomBits(id.ordinal() + 5L));
            int covered = 0;
            for (int w = 0; w < WINDOWS; w++) {
                long[] state = new long[p.stateLength()];
                double[] truth = new double[4];
                for (int i = 0; i < n; i++) {
                    double[] x = i % 4 == 0 ? x1 : x2;
                    for (int k = 0; k < 4; k++) {
                        truth[k] += range.valueOf(range.levelOf(x[k])) / n;
                    }
                    ReportCoordinates c = new ReportCoordinates("w" + w, w, i);
                    assertThat(p.accumulate(p.randomize(x, c, draws), c, state)).isTrue();
                }
                VectorMeanEstimate e = VectorMeanEstimator.of(p).estimate(state, n);
                for (int k = 0; k < 4; k++) {
                    covered += Math.abs(e.mean()[k] - truth[k]) <= 1.96 * e.standardError()[k] ? 1 : 0;
                }
            }
            assertThat(covered / (4.0 * WINDOWS)).as("%s", id).isGreaterThanOrEqualTo(0.86);
        }
    }
}

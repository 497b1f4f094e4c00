package io.privacygateway.mechanisms.nets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MetricTest {

    @Test
    void earlyExitIsExactOrCertifiesExceedance() {
        SplittableRandom r = new SplittableRandom(7);
        for (int trial = 0; trial < 2000; trial++) {
            int m = 1 + r.nextInt(40);
            double[] d = new double[2 * m];
            for (int i = 0; i < d.length; i++) {
                d[i] = r.nextDouble() * (r.nextBoolean() ? 1 : 1e-3);
            }
            double full = Metric.squaredDistance(d, 0, m, m);
            double bound = full * (0.5 + r.nextDouble());
            double cut = Metric.squaredDistance(d, 0, m, m, bound);
            if (cut <= bound) {
                assertThat(cut).isEqualTo(full);
            } else {
                assertThat(full).isGreaterThan(bound);
                assertThat(cut).isLessThanOrEqualTo(full);
            }
            // the canonical value is a faithful squared distance
            double naive = 0;
            for (int i = 0; i < m; i++) {
                naive += (d[i] - d[m + i]) * (d[i] - d[m + i]);
            }
            assertThat(full).isCloseTo(naive, within(1e-13 * Math.max(1e-300, naive)));
        }
    }

    @Test
    void summationOrderIsPartOfTheDefinition() {
        // coordinate i goes to accumulator i mod 4; final (s0 + s1) + (s2 + s3)
        double[] d = {1e16, 1, 1, 1, 0, 0, 0, 0};
        double s0 = 1e32;
        double s1 = 1;
        double s2 = 1;
        double s3 = 1;
        assertThat(Metric.squaredDistance(d, 0, 4, 4)).isEqualTo((s0 + s1) + (s2 + s3));
        assertThat(Metric.threshold(0.5, 64)).isEqualTo(16.0);
    }
}

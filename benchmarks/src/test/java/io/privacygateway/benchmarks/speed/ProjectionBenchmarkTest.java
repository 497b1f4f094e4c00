package io.privacygateway.benchmarks.speed;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.testing.SyntheticPointSets;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class ProjectionBenchmarkTest {

    @Test
    void producesFiguresFromAnInjectedClock() {
        PointSet atoms = SyntheticPointSets.randomBinaryPoints(200, 24, 0.1, 0.5,
                RandomSource.XO_RO_SHI_RO_128_PP.create(61L));
        AtomicLong fake = new AtomicLong();
        ProjectionBenchmark.Figures f = ProjectionBenchmark.run(atoms, 1e-6, new double[] {0.001, 0.05}, 5, 100, 62L,
                () -> fake.addAndGet(1_000_000)); // every reading advances 1 ms: each projection "takes" 1 ms
        assertThat(f.points()).isEqualTo(200);
        assertThat(f.dim()).isEqualTo(24);
        assertThat(f.rows()).hasSize(2);
        assertThat(f.medianMs()).isEqualTo(1.0);
        assertThat(f.p90Ms()).isEqualTo(1.0);
        for (ProjectionBenchmark.Row r : f.rows()) {
            assertThat(r.targets()).isEqualTo(5);
            assertThat(r.reachedTolerance()).isEqualTo(5);
            assertThat(r.maxGap()).isLessThanOrEqualTo(1e-6);
            assertThat(r.medianSupport()).isBetween(1, 25);
        }
        assertThat(f.toString()).contains("N=200 atoms, m=24").contains("median").contains("0.050");
    }

    @Test
    void randomPointsAreBinaryWithTheRequestedDensity() {
        PointSet p = SyntheticPointSets.randomBinaryPoints(100, 200, 0.2, 0.2,
                RandomSource.XO_RO_SHI_RO_128_PP.create(63L));
        double ones = 0;
        for (int i = 0; i < p.size(); i++) {
            for (int t = 0; t < p.dim(); t++) {
                assertThat(p.get(i, t)).isIn(0.0, 1.0);
                ones += p.get(i, t);
            }
        }
        assertThat(ones / (100 * 200)).isBetween(0.18, 0.22);
    }
}

package io.privacygateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.workload.Domain;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The simulator's vector distributions (family mean over a ball or a box): inside the domain, their means. */
class VectorDistributionsTest {
    static final Domain.Ball BALL = new Domain.Ball(List.of("a", "b", "c", "d"), 2.0);
    static final Domain.Box BOX = new Domain.Box(List.of("cpu", "memory", "battery"), 0, 100, 1025);

    /** The mean of n samples, checking each is a line of d finite coordinates inside the domain. */
    static double[] mean(ValueDistribution dist, Domain.Vector dom, int n) {
        SplittableRandom rng = new SplittableRandom(3);
        double[] mean = new double[dom.dimension()];
        for (int i = 0; i < n; i++) {
            String line = dist.sample(rng);
            String[] parts = line.split(",");
            assertThat(parts).hasSize(dom.dimension());
            double sq = 0;
            for (int q = 0; q < parts.length; q++) {
                double x = Double.parseDouble(parts[q]);
                assertThat(x).isBetween(dom.coordinateLo(), dom.coordinateHi());
                sq += x * x;
                mean[q] += x / n;
            }
            if (dom instanceof Domain.Ball b) {
                assertThat(Math.sqrt(sq)).isLessThanOrEqualTo(b.radius());
            }
        }
        return mean;
    }

    @Test
    void uniformInTheBallHasItsMeanAtTheOriginAndFillsTheBall() {
        double[] m = mean(ValueDistributions.uniformBall(BALL), BALL, 20000);
        for (double x : m) {
            assertThat(x).isBetween(-0.05, 0.05);
        }
        // in d = 4, half the volume lies beyond radius 2^(-1/4) of the edge: check the radial law through the median
        SplittableRandom rng = new SplittableRandom(5);
        int outer = 0;
        for (int i = 0; i < 10000; i++) {
            double sq = 0;
            for (String p : ValueDistributions.uniformBall(BALL).sample(rng).split(",")) {
                sq += Double.parseDouble(p) * Double.parseDouble(p);
            }
            outer += Math.sqrt(sq) > 2.0 * Math.pow(0.5, 0.25) ? 1 : 0;
        }
        assertThat(outer / 10000.0).isBetween(0.47, 0.53);
    }

    @Test
    void skewedInTheBallLeansAlongItsDirection() {
        double[] m = mean(ValueDistributions.skewedBall(BALL), BALL, 20000);
        assertThat(m[0]).isGreaterThan(0.6);
        assertThat(m[0]).isGreaterThan(m[1]);
        assertThat(m[1]).isGreaterThan(m[2]);
        assertThat(m[2]).isGreaterThan(m[3]);
        assertThat(m[3]).isPositive();
    }

    @Test
    void bimodalInTheBallHasItsMeanBetweenTheModes() {
        double[] m = mean(ValueDistributions.bimodalBall(BALL), BALL, 20000);
        assertThat(m[0]).isBetween(0.45, 0.55); // half the devices at +1 on the first coordinate
        assertThat(m[3]).isBetween(-0.55, -0.45); // half at −1 on the last
        assertThat(m[1]).isBetween(-0.03, 0.03);
    }

    @Test
    void uniformAndSkewedInTheBox() {
        double[] u = mean(ValueDistributions.uniformBox(BOX), BOX, 20000);
        for (double x : u) {
            assertThat(x).isBetween(48.0, 52.0);
        }
        double[] s = mean(ValueDistributions.skewedBox(BOX), BOX, 20000);
        assertThat(s[0]).isBetween(17.0, 23.0); // gamma(2) of mean 100·1/5
        assertThat(s[1]).isBetween(35.0, 42.0); // 100·2/5, a little clamped at 100
        assertThat(s[2]).isGreaterThan(s[1]).isLessThan(60.0);
    }

    @Test
    void aVectorLineRoundTripsExactly() {
        double[] v = {0.1, -1e-300, 2.0 / 3, 0.0, -0.0};
        String[] parts = ValueDistributions.vectorLine(v).split(",");
        for (int q = 0; q < v.length; q++) {
            assertThat(Double.parseDouble(parts[q])).isEqualTo(v[q] == 0 ? 0.0 : v[q]);
        }
        assertThat(ValueDistributions.vectorLine(v)).doesNotContain("-0.0");
    }
}

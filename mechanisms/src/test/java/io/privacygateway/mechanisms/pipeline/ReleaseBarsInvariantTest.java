package io.privacygateway.mechanisms.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.planner.Candidate;
import io.privacygateway.mechanisms.planner.LocalPlanner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every released local answer keeps its own invariants on workloads with a query whose answer is known exactly (the
 * whole range, whose value is 1 for every window): each estimate lies in [0, 1], and each bar is ordered and
 * contains its estimate. The factorization mechanism's exact covariance gives that query a standard error of 0, so
 * a projection that lands a rounding error above 1 used to produce a bar with {@code lower > upper}, and the release
 * threw instead of answering.
 */
class ReleaseBarsInvariantTest {
    private static void checkEveryOfferedMechanism(WorkloadSpec spec, double epsilon, int n, long seed) {
        Epsilon eps = Epsilon.of(epsilon);
        for (Candidate c : LocalPlanner.candidates(spec)) {
            Workload w = Workload.of(c.apply(spec, eps, n));
            LocalPipeline p = LocalPipeline.of(w);
            LocalProtocol protocol = p.protocol();
            SeededRandomBits secret = new SeededRandomBits(seed);
            SplittableRandom data = new SplittableRandom(seed);
            long[] state = new long[protocol.stateLength()];
            int k = (int) w.universeSize();
            for (int i = 0; i < n; i++) {
                int x = data.nextInt(4) == 0 ? data.nextInt(k) : k - 1; // mass piled on the last bucket
                ReportCoordinates rc = new ReportCoordinates("d-" + i, 7, 0);
                protocol.accumulate(protocol.randomize(x, rc, secret), rc, state);
            }
            Answer a = p.release().release(state, n);
            for (int q = 0; q < a.estimates().length; q++) {
                String where = c.label() + " at eps " + epsilon + ", query " + q;
                assertThat(a.estimates()[q]).as(where).isBetween(0.0, 1.0);
                assertThat(a.lower()[q]).as(where).isLessThanOrEqualTo(a.estimates()[q]);
                assertThat(a.upper()[q]).as(where).isGreaterThanOrEqualTo(a.estimates()[q]);
            }
        }
    }

    /** All ranges over 32 buckets (the whole range is query 31), every offered mechanism, four ε. */
    @Test
    void rangeAnswersKeepTheirBarsOrdered() {
        WorkloadSpec spec = FactorizationPipelineTest.spec("range", FactorizationPipelineTest.buckets(32), null);
        for (double e : new double[] {0.5, 1, 2, 4}) {
            checkEveryOfferedMechanism(spec, e, 3_000, 11L + (long) (e * 10));
        }
    }

    /** A CDF over 24 buckets: its last prefix is every bucket but one, the mass piled on the last bucket. */
    @Test
    void cdfAnswersKeepTheirBarsOrdered() {
        WorkloadSpec spec = FactorizationPipelineTest.spec("cdf", FactorizationPipelineTest.buckets(24), null);
        for (double e : new double[] {1, 4}) {
            checkEveryOfferedMechanism(spec, e, 3_000, 29L + (long) e);
        }
    }
}

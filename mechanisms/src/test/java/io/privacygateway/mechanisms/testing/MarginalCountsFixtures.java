package io.privacygateway.mechanisms.testing;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import java.util.Random;

/** Wide aggregates filled with seeded records, for tests of {@link MarginalCounts} and of its codecs. */
public final class MarginalCountsFixtures {
    private MarginalCountsFixtures() {
    }

    /**
     * The aggregate of {@code n} records whose attributes are uniform bits drawn from {@code new Random(seed)}
     * (the same records for the same arguments). Precondition: {@code n >= 0}.
     */
    public static MarginalCounts random(MarginalWorkload w, int n, long seed) {
        Random r = new Random(seed);
        MarginalCounts c = MarginalCounts.empty(w);
        for (int i = 0; i < n; i++) {
            c.add(r.nextLong() & ((1L << w.attributeCount()) - 1));
        }
        return c;
    }
}

package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.param.Require;
import java.util.Arrays;

/**
 * A released synthetic dataset over the workload's binary attributes: m records, each a bit vector (bit j attribute
 * j), with the pure guarantee of the release that produced them. Every query answered from the records (their
 * marginals, or anything else) is post-processing and carries the same guarantee.
 *
 * @param workload the attributes
 * @param records the m records (bit vectors; at most 26 attributes for the dense release)
 * @param cost the pure-DP guarantee of the release (δ = 0)
 */
public record SyntheticRecords(MarginalWorkload workload, long[] records, PrivacyCost.Pure cost) {
    public SyntheticRecords {
        Require.nonNull("workload", workload);
        Require.nonNull("records", records);
        Require.nonNull("cost", cost);
        int d = workload.attributeCount();
        if (d > 63) {
            throw new IllegalArgumentException("records of more than 63 attributes are not one word each");
        }
        for (long r : records) {
            if ((r >>> d) != 0) {
                throw new IllegalArgumentException("a record has bits beyond attribute " + (d - 1));
            }
        }
        records = records.clone();
    }

    @Override
    public long[] records() {
        return records.clone();
    }

    public int size() {
        return records.length;
    }

    /** The records' marginal counts (an aggregate like a window's, of the synthetic data). */
    public MarginalCounts marginalCounts() {
        MarginalCounts c = MarginalCounts.empty(workload);
        for (long r : records) {
            c.add(r);
        }
        return c;
    }

    /** The records' marginal answers {@code count/m} in query order. */
    public double[] answers() {
        return marginalCounts().answers();
    }

    /** Record i as 0/1 attribute values, in attribute order. */
    public int[] values(int i) {
        int d = workload.attributeCount();
        int[] v = new int[d];
        for (int j = 0; j < d; j++) {
            v[j] = (int) ((records[i] >>> j) & 1L);
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SyntheticRecords s && s.workload.equals(workload) && Arrays.equals(s.records, records)
                && s.cost.equals(cost);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(records);
    }
}

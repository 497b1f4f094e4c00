package io.privacygateway.mechanisms.central.sampling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.statistics.inference.ChiSquareTest;

/**
 * Chi-square goodness of fit of integer samples against an exact distribution given by its CDF. Bins are
 * chosen from the exact CDF only (never from the data): the {@code j/B} quantiles, then adjacent bins are
 * merged until every expected count is at least 5. The test then fails by chance with probability equal to
 * the p-value threshold (asymptotically).
 */
public final class DistributionChecks {
    /** Every statistical test in this package fails by chance with probability at most this. */
    public static final double FALSE_FAILURE = 1e-6;

    private DistributionChecks() {}

    public static double chiSquarePValue(long[] samples, LongToDoubleFunction cdf, int bins) {
        List<Long> edges = new ArrayList<>();
        for (int j = 1; j < bins; j++) {
            long e = quantile(cdf, (double) j / bins);
            if (edges.isEmpty() || edges.get(edges.size() - 1) < e) {
                edges.add(e);
            }
        }
        // bins: (-inf, e0], (e0, e1], ..., (e_last, inf)
        int b = edges.size() + 1;
        double[] prob = new double[b];
        double prev = 0;
        for (int i = 0; i < edges.size(); i++) {
            double c = cdf.applyAsDouble(edges.get(i));
            prob[i] = c - prev;
            prev = c;
        }
        prob[b - 1] = 1 - prev;
        long[] counts = new long[b];
        long[] edgeArray = edges.stream().mapToLong(Long::longValue).toArray();
        for (long s : samples) {
            int idx = Arrays.binarySearch(edgeArray, s);
            counts[idx >= 0 ? idx : -idx - 1]++;
        }
        // merge bins with expected count < 5
        List<double[]> merged = new ArrayList<>();
        double accP = 0;
        long accC = 0;
        for (int i = 0; i < b; i++) {
            accP += prob[i];
            accC += counts[i];
            if (accP * samples.length >= 5) {
                merged.add(new double[] {accP, accC});
                accP = 0;
                accC = 0;
            }
        }
        if (accP > 0 || accC > 0) {
            if (merged.isEmpty()) {
                merged.add(new double[] {accP, accC});
            } else {
                double[] last = merged.get(merged.size() - 1);
                last[0] += accP;
                last[1] += accC;
            }
        }
        if (merged.size() < 2) {
            // a single bin: all mass in one bin; every sample must be there
            return 1.0;
        }
        double[] expected = new double[merged.size()];
        long[] observed = new long[merged.size()];
        for (int i = 0; i < merged.size(); i++) {
            expected[i] = merged.get(i)[0] * samples.length;
            observed[i] = (long) merged.get(i)[1];
        }
        return ChiSquareTest.withDefaults().test(expected, observed).getPValue();
    }

    /** The smallest k with cdf(k) >= p. */
    public static long quantile(LongToDoubleFunction cdf, double p) {
        long lo = -(1L << 62);
        long hi = 1L << 62;
        while (lo < hi) {
            long mid = Math.floorDiv(lo, 2) + Math.floorDiv(hi, 2) + ((lo & 1) + (hi & 1)) / 2;
            if (cdf.applyAsDouble(mid) >= p) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** A CDF from a pmf tabulated on [-k, k] (normalised by the table's own sum). */
    public static LongToDoubleFunction tabulatedCdf(LongToDoubleFunction pmf, long k) {
        double[] prefix = new double[(int) (2 * k + 1)];
        double acc = 0;
        for (long x = -k; x <= k; x++) {
            acc += pmf.applyAsDouble(x);
            prefix[(int) (x + k)] = acc;
        }
        double total = acc;
        return x -> x < -k ? 0.0 : x >= k ? 1.0 : prefix[(int) (x + k)] / total;
    }
}

package io.privacygateway.mechanisms.reference;

import java.util.Arrays;
import java.util.List;

/**
 * Public reference distributions over a workload's universe, used by the planner (which never sees
 * real data) and by the accuracy benchmark: uniform, Zipf(1.1) in universe order, and a sparse
 * distribution on three values. They are fixed functions of the universe size.
 */
public enum ReferenceData {
    UNIFORM("uniform"),
    ZIPF("zipf-1.1"),
    SPARSE("sparse-3");

    private final String label;

    ReferenceData(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static List<ReferenceData> all() {
        return List.of(values());
    }

    /** The frequencies over a universe of size {@code n} (summing to 1). */
    public double[] frequencies(int n) {
        double[] f = new double[n];
        switch (this) {
            case UNIFORM -> Arrays.fill(f, 1.0 / n);
            case ZIPF -> {
                double s = 0;
                for (int x = 0; x < n; x++) {
                    f[x] = Math.pow(x + 1, -1.1);
                    s += f[x];
                }
                for (int x = 0; x < n; x++) {
                    f[x] /= s;
                }
            }
            default -> {
                int[] at = {n / 8, n / 2, Math.min(n - 1, (7 * n) / 8)};
                double[] w = {0.5, 0.3, 0.2};
                for (int i = 0; i < 3; i++) {
                    f[at[i]] += w[i];
                }
            }
        }
        return f;
    }

    /**
     * A dataset of exactly {@code size} values whose histogram is the nearest integer apportionment of
     * {@code size·f} (largest remainders, ties to the lower value): no sampling noise, so the planner's
     * comparisons see only mechanism noise.
     */
    public int[] stratified(int universe, int size) {
        double[] f = frequencies(universe);
        int[] counts = new int[universe];
        double[] rem = new double[universe];
        int total = 0;
        for (int x = 0; x < universe; x++) {
            double c = f[x] * size;
            counts[x] = (int) Math.floor(c);
            rem[x] = c - counts[x];
            total += counts[x];
        }
        while (total < size) {
            int best = 0;
            for (int x = 1; x < universe; x++) {
                if (rem[x] > rem[best]) {
                    best = x;
                }
            }
            counts[best]++;
            rem[best] = -1;
            total++;
        }
        int[] values = new int[size];
        int i = 0;
        for (int x = 0; x < universe; x++) {
            for (int c = 0; c < counts[x]; c++) {
                values[i++] = x;
            }
        }
        return values;
    }
}

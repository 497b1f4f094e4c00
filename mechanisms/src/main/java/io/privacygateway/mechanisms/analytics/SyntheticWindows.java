package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.Arrays;
import java.util.List;

/**
 * Public synthetic windows for the analytics families, deterministic functions of the workload, a
 * {@link ReferenceData} distribution and n (no sampling noise: counts are the largest-remainder apportionment of
 * n over the cell probabilities). The planner, the benchmark and the demo's simulated devices use them; they never
 * see real data.
 *
 * <ul>
 *   <li>mode: the reference distribution over the labels in declaration order (uniform: every label ties; Zipf:
 *       the first label leads by a margin that grows with n; sparse: three labels with 50/30/20%);</li>
 *   <li>regression: features from the reference distribution over the feature cells; given features, the response
 *       is a discretised normal around the linear signal {@code mid_y + 0.4·range_y·s(φ)}, sd 10% of the range,
 *       where {@code s(φ) = Σ_j a_j u_j/Σ_j|a_j|}, {@code u_j ∈ [−1, 1]} the feature's position in its range and
 *       {@code a = (1, −0.6, 0.8, −0.4, …)};</li>
 *   <li>erm: features as for regression; the upper response value with probability {@code σ(2.5·s(φ))}.</li>
 * </ul>
 */
public final class SyntheticWindows {
    private static final double[] COEFFICIENTS = {1, -0.6, 0.8, -0.4, 0.5, -0.3, 0.7, -0.2};

    private SyntheticWindows() {}

    /** The cell probabilities of a window (see the class comment). */
    public static double[] frequencies(Workload w, ReferenceData ref) {
        QueryFamily f = w.spec().family();
        if (f == QueryFamily.MODE || !(w.spec().domain() instanceof Domain.Grid g)) {
            return ref.frequencies(w.universeSize());
        }
        int levelsY = g.response().levelCount();
        int featureCells = w.universeSize() / levelsY;
        double[] pf = ref.frequencies(featureCells);
        List<Double> ys = g.response().levels();
        double yMin = g.response().min();
        double yMax = g.response().max();
        double[] out = new double[w.universeSize()];
        for (int fc = 0; fc < featureCells; fc++) {
            int x0 = fc * levelsY;
            double s = signal(g, g.featuresOf(x0));
            double[] q = new double[levelsY];
            double z = 0;
            if (f == QueryFamily.ERM) {
                double p = 1 / (1 + Math.exp(-2.5 * s));
                q[0] = 1 - p;
                q[levelsY - 1] = p;
                z = 1;
            } else {
                double target = (yMin + yMax) / 2 + 0.4 * (yMax - yMin) * s;
                double sd = 0.1 * Math.max(yMax - yMin, 1e-12);
                for (int k = 0; k < levelsY; k++) {
                    double u = (ys.get(k) - target) / sd;
                    q[k] = Math.exp(-u * u / 2);
                    z += q[k];
                }
            }
            for (int k = 0; k < levelsY; k++) {
                out[x0 + k] = pf[fc] * q[k] / z;
            }
        }
        return out;
    }

    /** {@code s(φ) ∈ [−1, 1]}. */
    static double signal(Domain.Grid g, double[] phi) {
        double s = 0;
        double norm = 0;
        for (int j = 0; j < phi.length; j++) {
            Domain.Grid.Axis a = g.features().get(j);
            double half = (a.max() - a.min()) / 2;
            if (a.levelCount() < 2 || !(half > 0)) {
                continue;
            }
            double u = (phi[j] - (a.max() + a.min()) / 2) / half;
            double c = COEFFICIENTS[j % COEFFICIENTS.length];
            s += c * u;
            norm += Math.abs(c);
        }
        return norm == 0 ? 0 : s / norm;
    }

    /** A window of exactly n reports (see the class comment). */
    public static long[] counts(Workload w, ReferenceData ref, long n) {
        return apportion(frequencies(w, ref), n);
    }

    /** The largest-remainder apportionment of n over the probabilities f (ties to the lower index). */
    public static long[] apportion(double[] f, long n) {
        double total = 0;
        for (double v : f) {
            total += v;
        }
        long[] c = new long[f.length];
        double[] rem = new double[f.length];
        long sum = 0;
        for (int i = 0; i < f.length; i++) {
            double x = f[i] / total * n;
            c[i] = (long) Math.floor(x);
            rem[i] = x - c[i];
            sum += c[i];
        }
        Integer[] order = new Integer[f.length];
        for (int i = 0; i < f.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> rem[a] != rem[b] ? Double.compare(rem[b], rem[a]) : Integer.compare(a, b));
        for (int k = 0; sum < n; k = (k + 1) % f.length) {
            c[order[k]]++;
            sum++;
        }
        return c;
    }
}

package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.WalshHadamard;

/**
 * The estimator of {@link HadamardResponse} (fast decode): the support count of {@code x} is
 * {@code (n + T(x + 1))/2} with {@code T} the Walsh–Hadamard transform of the output histogram, so
 * {@code p̂_x = T(x + 1)/(n (2π − 1))} and {@code Var(p̂_x) = [f_x π(1−π) + (1−f_x)/4]/(n (π − 1/2)²)}; query
 * covariances are computed exactly with two further transforms.
 */
final class HadamardEstimator extends OracleEstimator<HadamardResponse> {
    private final int bigK;
    private final double pi;

    HadamardEstimator(HadamardResponse oracle) {
        super(oracle);
        this.bigK = oracle.order();
        this.pi = oracle.inSetProbability().value();
    }

    @Override
    public double[] estimate(long[] state, long n) {
        checkIndexCounts(state, n);
        long[] t = state.clone();
        WalshHadamard.transform(t);
        double scale = n * (2 * pi - 1);
        double[] out = new double[k];
        for (int x = 0; x < k; x++) {
            out[x] = t[x + 1] / scale;
        }
        return out;
    }

    @Override
    double[] variancesAt(double n, double[] f) {
        double scale = n * (pi - 0.5) * (pi - 0.5);
        double[] v = new double[k];
        for (int x = 0; x < k; x++) {
            v[x] = (f[x] * pi * (1 - pi) + (1 - f[x]) * 0.25) / scale;
        }
        return v;
    }

    /**
     * With {@code ĉ = WHT(c')} ({@code c'_{x+1} = c_x}) a report's query statistic is
     * {@code (Σc + ĉ(j))/2}; for a report of value {@code v},
     * {@code E ĉ(j) = (2π−1) c_v} and {@code E ĉ(j)² = [G(0) + (2π−1) G(v+1)]/K} with {@code G = WHT(ĉ²)}.
     */
    @Override
    double queryVarianceAt(double n, double[] f, double[] c) {
        double[] chat = new double[bigK];
        for (int x = 0; x < k; x++) {
            chat[x + 1] = c[x];
        }
        WalshHadamard.transform(chat);
        for (int j = 0; j < bigK; j++) {
            chat[j] *= chat[j];
        }
        WalshHadamard.transform(chat); // now G
        double b = 2 * pi - 1;
        double total = 0;
        for (int v = 0; v < k; v++) {
            if (f[v] == 0) {
                continue;
            }
            double second = (chat[0] + b * chat[v + 1]) / bigK;
            double mean = b * c[v];
            total += f[v] * Math.max(0, second - mean * mean) / 4;
        }
        return total / (n * (pi - 0.5) * (pi - 0.5));
    }
}

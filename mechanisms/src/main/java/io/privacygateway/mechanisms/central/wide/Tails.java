package io.privacygateway.mechanisms.central.wide;

/** Tail bounds the wide releases' error bars use, each a function of public parameters only. */
final class Tails {
    private Tails() {}

    /**
     * The smallest F with {@code P(Bin(m, p) > F) <= beta}, certified: F = 0 when {@code 1 − (1−p)^m <= beta}
     * (union bound {@code m·p} also suffices), otherwise the first F whose Chernoff–Hoeffding bound
     * {@code P(X >= F+1) <= exp(−m·kl((F+1)/m ‖ p))} is at most beta (and m when none is).
     */
    static int binomialUpper(int m, double p, double beta) {
        if (p <= 0) {
            return 0;
        }
        if (p >= 1) {
            return m;
        }
        double none = -Math.expm1(m * Math.log1p(-p)); // P(X >= 1)
        if (Math.min(none, m * p) <= beta) {
            return 0;
        }
        double lnBeta = Math.log(beta);
        for (int f = Math.max(0, (int) Math.ceil(m * p) - 1); f < m; f++) {
            double a = (f + 1.0) / m;
            if (a <= p) {
                continue;
            }
            if (-m * kl(a, p) <= lnBeta) {
                return f;
            }
        }
        return m;
    }

    /** {@code kl(a ‖ p)} of two Bernoulli laws. */
    static double kl(double a, double p) {
        double s = a >= 1 ? 0 : (1 - a) * Math.log((1 - a) / (1 - p));
        return (a <= 0 ? 0 : a * Math.log(a / p)) + s;
    }

    /** Hoeffding with a union bound: {@code ‖Q(Y) − Q(p)‖∞ <= √(ln(2K/β)/(2m))} for m i.i.d. draws, K queries. */
    static double sampling(int queries, int m, double beta) {
        return Math.sqrt(Math.log(2.0 * queries / beta) / (2.0 * m));
    }
}

package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.param.Epsilon;

/**
 * A "pure" frequency oracle in the sense of Wang et al. 2017 ("Locally Differentially Private Protocols
 * for Frequency Estimation", USENIX Security, §3–4): each report supports a set of values, a report of
 * value {@code v} supports {@code v} with probability {@code p*} and any other value with probability
 * {@code q*}, independently across reports. The server state is the support count {@code C_x} of every
 * value and {@code p̂_x = (C_x/n − q*)/(p* − q*)} is unbiased.
 *
 * <p>For a fixed dataset with frequencies {@code f} (Wang et al. 2017, Eq. (2), in its fixed-dataset form):
 * <pre>Var(p̂_x) = [f_x p*(1−p*) + (1−f_x) q*(1−q*)] / (n (p*−q*)²)</pre>
 * and for a linear query {@code Σ_x c_x p̂_x} the variance is
 * {@code Σ_v f_v Var_v(Σ_x c_x S(x)) / (n (p*−q*)²)}, where {@code S(x)} is the support indicator of one
 * report of value {@code v}; its pairwise joint probabilities are {@link #pairBothOther()} (neither value
 * is {@code v}) and {@link #pairWithTrue()} (one of them is {@code v}).
 */
abstract class SupportCountOracle extends AbstractOracle {
    SupportCountOracle(int k, Epsilon eps) {
        super(k, eps);
    }

    /** {@code p*}: the probability that a report supports its own value (exact value as a double). */
    abstract double pStar();

    /** {@code q*}: the probability that a report supports a given other value. */
    abstract double qStar();

    /** {@code P(S(x) = S(y) = 1)} for distinct {@code x, y} both different from the report's value. */
    abstract double pairBothOther();

    /** {@code P(S(v) = S(y) = 1)} for the report's value {@code v} and another value {@code y}. */
    abstract double pairWithTrue();

    @Override
    public int stateLength() {
        return k;
    }

    /** {@code Var(p̂_x)} for a (possibly fractional) number of reports {@code n > 0}, unvalidated. */
    double[] variancesAt(double n, double[] f) {
        double p = pStar();
        double q = qStar();
        double scale = n * (p - q) * (p - q);
        double[] v = new double[k];
        for (int x = 0; x < k; x++) {
            v[x] = (f[x] * p * (1 - p) + (1 - f[x]) * q * (1 - q)) / scale;
        }
        return v;
    }

    /** {@code Var(Σ_x c_x p̂_x)} for a (possibly fractional) number of reports {@code n > 0}, unvalidated. */
    double queryVarianceAt(double n, double[] f, double[] c) {
        double p = pStar();
        double q = qStar();
        double r0 = pairBothOther();
        double r1 = pairWithTrue();
        double c1 = 0;
        double c2 = 0;
        for (double ci : c) {
            c1 += ci;
            c2 += ci * ci;
        }
        double total = 0;
        for (int v = 0; v < k; v++) {
            if (f[v] == 0) {
                continue;
            }
            double cv = c[v];
            double rest = c1 - cv;
            double second = q * c2 + (p - q) * cv * cv // diagonal terms Σ c_x² P(S(x)=1)
                    + r0 * (rest * rest - (c2 - cv * cv)) // ordered pairs x != y, both != v
                    + 2 * r1 * cv * rest; // ordered pairs with one of them = v
            double mean = q * c1 + (p - q) * cv;
            total += f[v] * Math.max(0, second - mean * mean);
        }
        return total / (n * (p - q) * (p - q));
    }
}

package io.privacygateway.mechanisms.analytics;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * Small dense symmetric linear algebra in doubles for the window analytics (d ≤ 16): the cyclic Jacobi
 * eigen-decomposition, the projection onto the positive semi-definite cone, and solves through the
 * eigen-decomposition. Everything here is <b>post-processing</b> of values that are already private (noisy
 * sufficient statistics) or public (the non-private truth a simulation compares with); nothing here decides a
 * privacy parameter, so floating-point rounding affects accuracy only. (Where a data-dependent quantity needs an
 * exact value, see {@link ExactPsd}.)
 */
public final class Matrices {
    private Matrices() {}

    /**
     * The eigen-decomposition of a symmetric matrix {@code a = V diag(λ) Vᵀ} (cyclic Jacobi, to machine
     * precision).
     *
     * @param values the eigenvalues, ascending
     * @param vectors the eigenvectors as columns: {@code vectors[i][k]} is coordinate i of eigenvector k
     */
    public record Eigen(double[] values, double[][] vectors) {
        /** {@code V diag(f(λ)) Vᵀ b}. */
        public double[] apply(DoubleUnaryOperator f, double[] b) {
            int d = values.length;
            double[] out = new double[d];
            for (int k = 0; k < d; k++) {
                double c = 0;
                for (int i = 0; i < d; i++) {
                    c += vectors[i][k] * b[i];
                }
                c *= f.applyAsDouble(values[k]);
                for (int i = 0; i < d; i++) {
                    out[i] += vectors[i][k] * c;
                }
            }
            return out;
        }

        /** {@code V diag(f(λ)) Vᵀ}. */
        public double[][] matrix(DoubleUnaryOperator f) {
            int d = values.length;
            double[][] out = new double[d][d];
            for (int k = 0; k < d; k++) {
                double fk = f.applyAsDouble(values[k]);
                for (int i = 0; i < d; i++) {
                    for (int j = 0; j < d; j++) {
                        out[i][j] += vectors[i][k] * fk * vectors[j][k];
                    }
                }
            }
            return out;
        }
    }

    /** The eigen-decomposition of the symmetric matrix {@code a} (only its upper triangle is read). */
    public static Eigen eigen(double[][] a) {
        int d = a.length;
        double[][] m = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                m[i][j] = a[i][j];
                m[j][i] = a[i][j];
            }
        }
        double[][] v = identity(d);
        for (int sweep = 0; sweep < 100; sweep++) {
            double off = 0;
            double total = 0;
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    double s = m[i][j] * m[i][j];
                    total += s;
                    if (i != j) {
                        off += s;
                    }
                }
            }
            if (off <= 1e-30 * total || off == 0) {
                break;
            }
            for (int p = 0; p < d - 1; p++) {
                for (int q = p + 1; q < d; q++) {
                    if (m[p][q] == 0) {
                        continue;
                    }
                    double theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(t * t + 1);
                    double s = t * c;
                    for (int k = 0; k < d; k++) {
                        double mkp = m[k][p];
                        double mkq = m[k][q];
                        m[k][p] = c * mkp - s * mkq;
                        m[k][q] = s * mkp + c * mkq;
                    }
                    for (int k = 0; k < d; k++) {
                        double mpk = m[p][k];
                        double mqk = m[q][k];
                        m[p][k] = c * mpk - s * mqk;
                        m[q][k] = s * mpk + c * mqk;
                    }
                    for (int k = 0; k < d; k++) {
                        double vkp = v[k][p];
                        double vkq = v[k][q];
                        v[k][p] = c * vkp - s * vkq;
                        v[k][q] = s * vkp + c * vkq;
                    }
                }
            }
        }
        Integer[] order = new Integer[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
        }
        double[] diag = new double[d];
        for (int i = 0; i < d; i++) {
            diag[i] = m[i][i];
        }
        Arrays.sort(order, (x, y) -> Double.compare(diag[x], diag[y]));
        double[] values = new double[d];
        double[][] vectors = new double[d][d];
        for (int k = 0; k < d; k++) {
            values[k] = diag[order[k]];
            for (int i = 0; i < d; i++) {
                vectors[i][k] = v[i][order[k]];
            }
        }
        return new Eigen(values, vectors);
    }

    /** The smallest eigenvalue. */
    public static double lambdaMin(double[][] a) {
        return eigen(a).values()[0];
    }

    /** The nearest PSD matrix in Frobenius norm: negative eigenvalues set to 0. */
    public static double[][] psdProjection(double[][] a) {
        return eigen(a).matrix(l -> Math.max(0, l));
    }

    /**
     * {@code (a + ridge·I)^+ b} for a symmetric {@code a}: eigenvalues {@code λ + ridge} at or below
     * {@code tolerance·max(1, λ_max)} are treated as 0 (pseudo-inverse).
     */
    public static double[] solve(double[][] a, double ridge, double[] b) {
        Eigen e = eigen(a);
        double top = Math.max(1e-300, Math.abs(e.values()[e.values().length - 1]) + Math.abs(ridge));
        double tol = 1e-12 * top;
        return e.apply(l -> {
            double s = l + ridge;
            return s > tol ? 1 / s : 0;
        }, b);
    }

    public static double[][] identity(int d) {
        double[][] m = new double[d][d];
        for (int i = 0; i < d; i++) {
            m[i][i] = 1;
        }
        return m;
    }

    public static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    public static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    /** {@code a} scaled onto the l2 ball of the given radius when it lies outside (Euclidean projection). */
    public static double[] projectToBall(double[] a, double radius) {
        double n = norm(a);
        if (n <= radius) {
            return a.clone();
        }
        double f = radius / n;
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] * f;
        }
        return out;
    }
}

package io.privacygateway.mechanisms.local.factorization;

/** Small dense linear algebra for strategy optimisation (row-major {@code double[][]}). */
final class Dense {
    private Dense() {}

    /** The inverse of a symmetric positive definite matrix by Cholesky, or {@code null} if it is not one. */
    static double[][] inverseSpd(double[][] a) {
        int n = a.length;
        double[][] l = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double s = a[i][j];
                for (int k = 0; k < j; k++) {
                    s -= l[i][k] * l[j][k];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        return null;
                    }
                    l[i][i] = Math.sqrt(s);
                } else {
                    l[i][j] = s / l[j][j];
                }
            }
        }
        double[][] li = new double[n][n];
        for (int i = 0; i < n; i++) {
            li[i][i] = 1 / l[i][i];
            for (int j = 0; j < i; j++) {
                double s = 0;
                for (int k = j; k < i; k++) {
                    s -= l[i][k] * li[k][j];
                }
                li[i][j] = s / l[i][i];
            }
        }
        double[][] out = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double s = 0;
                for (int k = Math.max(i, j); k < n; k++) {
                    s += li[k][i] * li[k][j];
                }
                out[i][j] = s;
                out[j][i] = s;
            }
        }
        return out;
    }

    static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length;
        int m = b[0].length;
        int inner = b.length;
        double[][] c = new double[n][m];
        for (int i = 0; i < n; i++) {
            double[] ci = c[i];
            for (int k = 0; k < inner; k++) {
                double v = a[i][k];
                if (v == 0) {
                    continue;
                }
                double[] bk = b[k];
                for (int j = 0; j < m; j++) {
                    ci[j] += v * bk[j];
                }
            }
        }
        return c;
    }

    static double[][] transpose(double[][] a) {
        double[][] t = new double[a[0].length][a.length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[0].length; j++) {
                t[j][i] = a[i][j];
            }
        }
        return t;
    }
}

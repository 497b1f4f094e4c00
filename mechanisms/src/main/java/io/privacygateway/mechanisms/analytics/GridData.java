package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * The public geometry of a regression or erm workload: every grid cell's feature vector {@code φ_x ∈ ℝ^d} and
 * response {@code y_x}, and the same on an integer grid ({@code Φ_x = round(φ_x·S)}, {@code Y_x = round(y_x·S_y)}
 * with power-of-two scales chosen so that every {@code |Φ|, |Y| <= 2^BITS}), so that window sums of products are
 * exact integers and the exact samplers' guarantees apply to them. The rounding is the same for every device (a
 * fixed, data-independent bias of at most {@code 2^-(BITS+1)} of the axis's largest magnitude per coordinate),
 * never a privacy issue.
 */
public final class GridData {
    /** Integer grid resolution: {@code |Φ|, |Y| <= 2^BITS}. */
    public static final int BITS = 10;

    private final Domain.Grid grid;
    private final int d;
    private final int cells;
    private final double[][] features;
    private final double[] response;
    private final double featureScale;
    private final double responseScale;
    private final long[][] phi;
    private final long[] y;
    private final double maxFeatureNorm;
    private final double maxAbsResponse;

    private GridData(Domain.Grid grid) {
        this.grid = grid;
        this.d = grid.dimension();
        this.cells = (int) grid.cellCount();
        this.features = new double[cells][];
        this.response = new double[cells];
        double maxAbsFeature = 0;
        double maxNorm = 0;
        double maxY = 0;
        for (int x = 0; x < cells; x++) {
            features[x] = grid.featuresOf(x);
            response[x] = grid.responseOf(x);
            for (double v : features[x]) {
                maxAbsFeature = Math.max(maxAbsFeature, Math.abs(v));
            }
            maxNorm = Math.max(maxNorm, Matrices.norm(features[x]));
            maxY = Math.max(maxY, Math.abs(response[x]));
        }
        this.maxFeatureNorm = maxNorm;
        this.maxAbsResponse = maxY;
        this.featureScale = scaleFor(maxAbsFeature);
        this.responseScale = scaleFor(maxY);
        this.phi = new long[cells][d];
        this.y = new long[cells];
        for (int x = 0; x < cells; x++) {
            for (int j = 0; j < d; j++) {
                phi[x][j] = Math.round(features[x][j] * featureScale);
            }
            y[x] = Math.round(response[x] * responseScale);
        }
    }

    /** The largest power of two {@code S} with {@code maxAbs·S <= 2^BITS} (1 for an all-zero axis). */
    static double scaleFor(double maxAbs) {
        if (!(maxAbs > 0)) {
            return 1;
        }
        int e = Math.getExponent(maxAbs); // 2^e <= maxAbs < 2^(e+1)
        return Math.scalb(1.0, BITS - e - 1);
    }

    /** The grid data of a regression or erm workload. */
    public static GridData of(Workload w) {
        if (!(w.spec().domain() instanceof Domain.Grid g)) {
            throw new IllegalArgumentException("workload " + w.spec().id() + " has no grid of features and response");
        }
        return new GridData(g);
    }

    public Domain.Grid grid() {
        return grid;
    }

    /** d. */
    public int dimension() {
        return d;
    }

    /** The number of cells (the universe size). */
    public int cells() {
        return cells;
    }

    /** φ_x (a copy). */
    public double[] features(int x) {
        return features[x].clone();
    }

    /** φ_x, not copied (callers must not modify it). */
    double[] featuresView(int x) {
        return features[x];
    }

    public double response(int x) {
        return response[x];
    }

    /** {@code max_x ‖φ_x‖₂}. */
    public double maxFeatureNorm() {
        return maxFeatureNorm;
    }

    /** {@code max_x |y_x|}. */
    public double maxAbsResponse() {
        return maxAbsResponse;
    }

    /** S, a power of two: {@code Φ = round(φ·S)}. */
    public double featureScale() {
        return featureScale;
    }

    /** S_y, a power of two: {@code Y = round(y·S_y)}. */
    public double responseScale() {
        return responseScale;
    }

    /** Φ_x (a copy). */
    public long[] gridFeatures(int x) {
        return phi[x].clone();
    }

    public long gridResponse(int x) {
        return y[x];
    }

    /** The number of entries of the upper triangle of a d×d matrix. */
    public int upperCount() {
        return d * (d + 1) / 2;
    }

    /** The per-cell vectors {@code upper(Φ_x Φ_xᵀ)} (row-major upper triangle) whose window sum is XᵀX. */
    public long[][] secondMomentVectors() {
        long[][] v = new long[cells][upperCount()];
        for (int x = 0; x < cells; x++) {
            int k = 0;
            for (int i = 0; i < d; i++) {
                for (int j = i; j < d; j++) {
                    v[x][k++] = phi[x][i] * phi[x][j];
                }
            }
        }
        return v;
    }

    /** The per-cell vectors {@code Φ_x·Y_x} whose window sum is Xᵀy. */
    public long[][] crossMomentVectors() {
        long[][] v = new long[cells][d];
        for (int x = 0; x < cells; x++) {
            for (int j = 0; j < d; j++) {
                v[x][j] = phi[x][j] * y[x];
            }
        }
        return v;
    }

    /** {@code Σ_x c_x·v_x} for per-cell vectors, exactly (an ArithmeticException on overflow). */
    public static long[] windowSum(long[][] vectors, long[] counts) {
        long[] s = new long[vectors[0].length];
        for (int x = 0; x < counts.length; x++) {
            if (counts[x] != 0) {
                for (int k = 0; k < s.length; k++) {
                    s[k] = Math.addExact(s[k], Math.multiplyExact(counts[x], vectors[x][k]));
                }
            }
        }
        return s;
    }

    /** The symmetric matrix of an upper triangle (row-major), divided by {@code scale}. */
    public double[][] symmetric(long[] upper, double scale) {
        double[][] m = new double[d][d];
        int k = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                m[i][j] = upper[k] / scale;
                m[j][i] = m[i][j];
                k++;
            }
        }
        return m;
    }

    /** The symmetric integer matrix of an upper triangle. */
    public long[][] symmetricExact(long[] upper) {
        long[][] m = new long[d][d];
        int k = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                m[i][j] = upper[k];
                m[j][i] = upper[k];
                k++;
            }
        }
        return m;
    }

    /** The real (unrounded) XᵀX of a window. */
    public double[][] secondMoment(long[] counts) {
        double[][] m = new double[d][d];
        for (int x = 0; x < cells; x++) {
            if (counts[x] != 0) {
                for (int i = 0; i < d; i++) {
                    for (int j = 0; j < d; j++) {
                        m[i][j] += counts[x] * features[x][i] * features[x][j];
                    }
                }
            }
        }
        return m;
    }

    /** The real (unrounded) Xᵀy of a window. */
    public double[] crossMoment(long[] counts) {
        double[] v = new double[d];
        for (int x = 0; x < cells; x++) {
            if (counts[x] != 0) {
                for (int j = 0; j < d; j++) {
                    v[j] += counts[x] * features[x][j] * response[x];
                }
            }
        }
        return v;
    }

    /** {@code MSE(θ) = (1/2n) Σ_x c_x (y_x − φ_xᵀθ)²} of a window with n >= 1 reports. */
    public double mse(long[] counts, double[] theta) {
        double s = 0;
        long n = 0;
        for (int x = 0; x < cells; x++) {
            if (counts[x] != 0) {
                double r = response[x] - Matrices.dot(features[x], theta);
                s += counts[x] * r * r;
                n += counts[x];
            }
        }
        return n == 0 ? 0 : s / (2.0 * n);
    }

    /** The second moment {@code E φφᵀ} of the uniform distribution over the feature cells (public planning). */
    public double[][] uniformSecondMoment() {
        long[] ones = new long[cells];
        java.util.Arrays.fill(ones, 1);
        double[][] m = secondMoment(ones);
        for (double[] row : m) {
            for (int j = 0; j < d; j++) {
                row[j] /= cells;
            }
        }
        return m;
    }
}

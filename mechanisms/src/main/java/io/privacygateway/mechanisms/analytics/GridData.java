package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.Arrays;

/**
 * The public geometry of a regression or erm workload: every grid cell's feature vector {@code φ_x ∈ ℝ^d} and
 * response {@code y_x}, and the same on an integer grid ({@code Φ_x = round(φ_x·S)}, {@code Y_x = round(y_x·S_y)}
 * with power-of-two scales chosen so that every {@code |Φ|, |Y| <= 2^BITS}), so that window sums of products are
 * exact integers and the exact samplers' guarantees apply to them. The rounding is the same for every device (a
 * fixed, data-independent bias of at most {@code 2^-(BITS+1)} of the axis's largest magnitude per coordinate),
 * never a privacy issue.
 *
 * <p><b>Unit scale</b> ({@link #unitScaled}): each axis is scaled on its own, by a power of two from its public
 * bound, so that every axis's largest magnitude is in {@code (1/2, 1]}; the response likewise. A mechanism that adds
 * noise and a ridge in these units treats a feature in miles (up to 3,000) and one in [0, 1] alike, and maps its
 * coefficients back with {@link #featureFactor}/{@link #responseFactor}.
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
    private final double[] featureFactors;
    private final double responseFactor;
    private final double[] featureRounding;
    private final double responseRounding;
    private final double[] maxAbsGridFeature;

    private GridData(Domain.Grid grid) {
        this(grid, false);
    }

    private GridData(Domain.Grid grid, boolean unit) {
        this.grid = grid;
        this.d = grid.dimension();
        this.cells = (int) grid.cellCount();
        this.features = new double[cells][];
        this.response = new double[cells];
        double maxAbsFeature = 0;
        double maxNorm = 0;
        double maxY = 0;
        this.featureFactors = new double[d];
        Arrays.fill(featureFactors, 1);
        if (unit) { // per-axis powers of two: every axis's largest magnitude lands in (1/2, 1], exactly
            double[] axisMax = new double[d];
            double yMax = 0;
            for (int x = 0; x < cells; x++) {
                double[] f = grid.featuresOf(x);
                for (int j = 0; j < d; j++) {
                    axisMax[j] = Math.max(axisMax[j], Math.abs(f[j]));
                }
                yMax = Math.max(yMax, Math.abs(grid.responseOf(x)));
            }
            for (int j = 0; j < d; j++) {
                featureFactors[j] = Math.scalb(scaleFor(axisMax[j]), -BITS);
            }
            this.responseFactor = Math.scalb(scaleFor(yMax), -BITS);
        } else {
            this.responseFactor = 1;
        }
        for (int x = 0; x < cells; x++) {
            features[x] = grid.featuresOf(x);
            response[x] = grid.responseOf(x) * responseFactor;
            for (int j = 0; j < d; j++) {
                features[x][j] *= featureFactors[j];
            }
            for (double v : features[x]) {
                maxAbsFeature = Math.max(maxAbsFeature, Math.abs(v));
            }
            maxNorm = Math.max(maxNorm, Matrices.norm(features[x]));
            maxY = Math.max(maxY, Math.abs(response[x]));
        }
        this.maxFeatureNorm = maxNorm;
        this.maxAbsResponse = maxY;
        // in unit scale every magnitude is at most 1 and 2^BITS keeps |Φ| <= 2^BITS (Φ = round(φ·S_j), S_j the axis's
        // own power of two, exactly as scaleFor would pick it for that axis alone)
        this.featureScale = unit ? Math.scalb(1.0, BITS) : scaleFor(maxAbsFeature);
        this.responseScale = unit ? Math.scalb(1.0, BITS) : scaleFor(maxY);
        this.phi = new long[cells][d];
        this.y = new long[cells];
        for (int x = 0; x < cells; x++) {
            for (int j = 0; j < d; j++) {
                phi[x][j] = Math.round(features[x][j] * featureScale);
            }
            y[x] = Math.round(response[x] * responseScale);
        }
        this.featureRounding = new double[d];
        this.maxAbsGridFeature = new double[d];
        double yr = 0;
        for (int x = 0; x < cells; x++) {
            for (int j = 0; j < d; j++) {
                double g = phi[x][j] / featureScale; // exact: a power-of-two scale
                featureRounding[j] = Math.max(featureRounding[j], Math.abs(g - features[x][j]));
                maxAbsGridFeature[j] = Math.max(maxAbsGridFeature[j], Math.abs(g));
            }
            yr = Math.max(yr, Math.abs(y[x] / responseScale - response[x]));
        }
        this.responseRounding = yr;
    }

    /**
     * {@code h_j = max_x |Φ_xj/S − φ_xj|}: the largest rounding error of axis j on the integer grid, in this data's
     * units (0 when every value of the axis is on the grid; at most {@code 2^-(BITS+1)} of the axis's largest magnitude
     * in unit scale).
     */
    public double featureRounding(int j) {
        return featureRounding[j];
    }

    /** {@code h_y = max_x |Y_x/S_y − y_x|}, as {@link #featureRounding}. */
    public double responseRounding() {
        return responseRounding;
    }

    /** {@code max_x |Φ_xj/S|}: the largest magnitude of axis j on the integer grid, in this data's units. */
    public double maxAbsGridFeature(int j) {
        return maxAbsGridFeature[j];
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

    /**
     * The grid data of a regression or erm workload in unit scale: feature {@code j} is {@code φ_j·f_j} and the
     * response {@code y·f_y}, with {@code f_j = S_j/2^BITS}, {@code S_j} the power of two {@code scaleFor} picks from
     * axis j's own largest magnitude (public: the grid), so every axis's largest magnitude is in {@code (1/2, 1]}
     * (an all-zero axis keeps factor {@code 2^-BITS}; it stays 0). The scaling is exact (powers of two) and the
     * integer grid is {@code Φ_j = round(φ_j·S_j)}: each axis uses its full {@code BITS} bits, so the rounding bias
     * is at most {@code 2^-(BITS+1)} of that axis's own largest magnitude (with one common scale a small axis next
     * to a large one could round to 0). A coefficient {@code θ'_j} in these units is {@code θ_j = θ'_j·f_j/f_y} in
     * the workload's units.
     */
    public static GridData unitScaled(Workload w) {
        if (!(w.spec().domain() instanceof Domain.Grid g)) {
            throw new IllegalArgumentException("workload " + w.spec().id() + " has no grid of features and response");
        }
        return new GridData(g, true);
    }

    /** {@code f_j}: feature j in this data's units is {@code φ_j·f_j} (1 unless {@link #unitScaled}). */
    public double featureFactor(int j) {
        return featureFactors[j];
    }

    /** {@code f_y}: the response in this data's units is {@code y·f_y} (1 unless {@link #unitScaled}). */
    public double responseFactor() {
        return responseFactor;
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
        Arrays.fill(ones, 1);
        double[][] m = secondMoment(ones);
        for (double[] row : m) {
            for (int j = 0; j < d; j++) {
                row[j] /= cells;
            }
        }
        return m;
    }
}

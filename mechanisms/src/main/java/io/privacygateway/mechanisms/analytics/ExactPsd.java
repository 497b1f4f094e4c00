package io.privacygateway.mechanisms.analytics;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Exact positive-semidefiniteness of integer symmetric matrices, and from it the exact value of
 * {@code ⌊λ_min(S)/s⌋} for an integer symmetric PSD matrix {@code S} and a positive integer step {@code s}.
 *
 * <p><b>Why exact.</b> The regression release publishes a noisy {@code ⌊λ_min(XᵀX)/s⌋}; its privacy rests on the
 * sensitivity of that function ({@code |λ_min(S) − λ_min(S')| ≤ ‖S − S'‖₂} by Weyl's inequality), which holds for
 * the exact value and not for a floating-point eigenvalue whose error grows with the data. Here the double
 * eigenvalue is only a starting guess; the returned integer is certified by exact PSD tests of
 * {@code S − k·s·I}.
 *
 * <p><b>Method.</b> Symmetric fraction-free (Bareiss) elimination with positive diagonal pivots: a symmetric
 * matrix with a positive pivot is PSD iff its Schur complement is; a zero diagonal entry requires its row to be
 * zero (else a 2×2 principal minor is negative) and the row is then dropped; a negative diagonal entry refutes.
 * Bareiss's exact division by the previous pivot keeps every entry a minor of the original matrix (so its size
 * stays bounded by Hadamard's inequality), and the common positive factor does not change signs.
 */
public final class ExactPsd {
    private ExactPsd() {}

    /** Whether the symmetric integer matrix {@code m} (only its upper triangle is read) is PSD, exactly. */
    public static boolean isPsd(BigInteger[][] m) {
        int d = m.length;
        BigInteger[][] a = new BigInteger[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                a[i][j] = m[i][j];
                a[j][i] = m[i][j];
            }
        }
        boolean[] alive = new boolean[d];
        Arrays.fill(alive, true);
        BigInteger prev = BigInteger.ONE;
        while (true) {
            int pivot = -1;
            for (int i = 0; i < d; i++) {
                if (!alive[i]) {
                    continue;
                }
                int sign = a[i][i].signum();
                if (sign < 0) {
                    return false;
                }
                if (sign == 0) {
                    for (int j = 0; j < d; j++) {
                        if (alive[j] && a[i][j].signum() != 0) {
                            return false;
                        }
                    }
                    alive[i] = false; // a zero row and column: drop it
                } else if (pivot < 0) {
                    pivot = i;
                }
            }
            if (pivot < 0) {
                return true;
            }
            BigInteger p = a[pivot][pivot];
            alive[pivot] = false;
            for (int i = 0; i < d; i++) {
                if (!alive[i]) {
                    continue;
                }
                for (int j = i; j < d; j++) {
                    if (!alive[j]) {
                        continue;
                    }
                    BigInteger v = p.multiply(a[i][j]).subtract(a[i][pivot].multiply(a[pivot][j])).divide(prev);
                    a[i][j] = v;
                    a[j][i] = v;
                }
            }
            prev = p;
        }
    }

    /** Whether {@code S − shift·I} is PSD, exactly. */
    public static boolean isPsdShifted(long[][] s, BigInteger shift) {
        int d = s.length;
        BigInteger[][] m = new BigInteger[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                BigInteger v = BigInteger.valueOf(s[i][j]);
                m[i][j] = i == j ? v.subtract(shift) : v;
            }
        }
        return isPsd(m);
    }

    /**
     * The exact {@code ⌊λ_min(S)/step⌋} for an integer symmetric PSD matrix {@code S} (so the result is
     * {@code >= 0}): the largest integer {@code k} with {@code S − k·step·I} PSD.
     *
     * @param s a symmetric PSD integer matrix (e.g. {@code Σ c_x Φ_x Φ_xᵀ})
     * @param step the step {@code >= 1}
     * @param estimate a floating-point estimate of {@code λ_min(S)} (only where the search starts)
     * @throws IllegalArgumentException if {@code S} is not PSD
     */
    public static long floorLambdaMin(long[][] s, long step, double estimate) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be >= 1, got " + step);
        }
        BigInteger st = BigInteger.valueOf(step);
        if (!isPsdShifted(s, BigInteger.ZERO)) {
            throw new IllegalArgumentException("the matrix is not positive semi-definite");
        }
        long lo = 0; // PSD at lo
        long guess = Double.isFinite(estimate) && estimate > 0 ? (long) Math.min(estimate / step, 1e17) : 0;
        long hi; // not PSD at hi (to be found)
        if (guess > 0 && isPsdShifted(s, st.multiply(BigInteger.valueOf(guess)))) {
            lo = guess;
        }
        long probe = Math.max(1, lo + 1);
        long width = 1;
        while (true) {
            if (!isPsdShifted(s, st.multiply(BigInteger.valueOf(probe)))) {
                hi = probe;
                break;
            }
            lo = probe;
            width = Math.multiplyExact(width, 2);
            probe = Math.addExact(lo, width);
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (isPsdShifted(s, st.multiply(BigInteger.valueOf(mid)))) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}

package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.param.Require;

/**
 * One window's certified synthetic dataset: exactly {@link #recordCount()} records over d binary attributes,
 * stored as distinct rows with multiplicities, with the certificate that bounds how far any query on at most s
 * attributes can be from the window's true answer, and the privacy cost. Pure ε-DP, δ = 0: every field is a
 * function of the {@link NoisyMarginals} and public parameters, so consumers may do anything with the records
 * (queries, joins, models, more sampling) without further privacy cost.
 *
 * <p>Size: at most {@code min(N, candidates)} rows (default at most 4,096 rows of two numbers each for
 * N = 65,536 records), independent of the window's report count.
 *
 * @param attributes d
 * @param way s (the certificate covers queries on at most s attributes)
 * @param rows distinct records, each the integer {@code Σ_j b_j·2^j} (attribute 0 least significant), increasing
 * @param multiplicities how many synthetic records equal each row, {@code >= 1}, summing to {@code recordCount}
 * @param recordCount N (0 only for a window with a public count of 0)
 * @param reportCount the published report count {@code max(0, ñ)} (exact n under replace-one)
 * @param certificate the bound and its terms
 * @param cost the pure ε of the release (0 for a window with a public count of 0); δ = 0 always
 * @param lpObjective the LP's objective (the largest TV to the noisy tables) at the fitted weights, before rounding
 * @param lpLowerBound the LP's certified lower bound (its optimum lies between the two; 0 for the least-squares fit)
 * @param noisy the private outputs everything here derives from (publishable: re-deriving the release from them
 *     is how a consumer checks the certificate)
 */
public record SyntheticRelease(int attributes, int way, int[] rows, long[] multiplicities, long recordCount,
        long reportCount, Certificate certificate, PrivacyCost.Pure cost, double lpObjective, double lpLowerBound,
        NoisyMarginals noisy) {
    public SyntheticRelease {
        Require.nonNull("rows", rows);
        Require.nonNull("multiplicities", multiplicities);
        Require.nonNull("certificate", certificate);
        Require.nonNull("cost", cost);
        if (rows.length != multiplicities.length) {
            throw new IllegalArgumentException("rows and multiplicities must have the same length");
        }
        long total = 0;
        for (int i = 0; i < rows.length; i++) {
            if (multiplicities[i] < 1) {
                throw new IllegalArgumentException("multiplicities[" + i + "] must be >= 1, got " + multiplicities[i]);
            }
            if (i > 0 && rows[i] <= rows[i - 1]) {
                throw new IllegalArgumentException("rows must increase strictly");
            }
            total += multiplicities[i];
        }
        if (total != recordCount) {
            throw new IllegalArgumentException("multiplicities sum to " + total + ", not recordCount " + recordCount);
        }
        rows = rows.clone();
        multiplicities = multiplicities.clone();
    }

    @Override
    public int[] rows() {
        return rows.clone();
    }

    @Override
    public long[] multiplicities() {
        return multiplicities.clone();
    }

    /** δ of the release: 0, by construction. */
    public double delta() {
        return 0;
    }

    /** The records one by one (N ints; each row repeated by its multiplicity). */
    public int[] expand() {
        int[] out = new int[Math.toIntExact(recordCount)];
        int k = 0;
        for (int i = 0; i < rows.length; i++) {
            for (long j = 0; j < multiplicities[i]; j++) {
                out[k++] = rows[i];
            }
        }
        return out;
    }

    /** Attribute {@code j} of a record as 0 or 1. */
    public static int bit(int record, int j) {
        return (record >>> j) & 1;
    }
}

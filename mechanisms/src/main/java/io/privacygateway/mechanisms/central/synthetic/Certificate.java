package io.privacygateway.mechanisms.central.synthetic;

import io.privacygateway.mechanisms.param.Require;
import java.util.Locale;

/**
 * The certificate of a synthetic release (certified private data release paper, eq. (4) and Lemma 1): a
 * published upper bound on the utility loss
 * {@code U = max over the K tables of TV(true table, synthetic table)}, which holds with probability at least
 * {@link #confidence()} over the mechanism's noise.
 *
 * <p><b>What it means.</b> For binary attributes under the paper's l∞ metric, an s-sparse 1-Lipschitz function is
 * any function of at most s attributes whose values lie in an interval of length 1, and the supremum over them of
 * {@code |mean over the window − mean over the records|} is exactly U. So, with that probability, every such query
 * (every conjunction or marginal cell on at most s attributes as a fraction, every [0, 1]-valued score of at most s
 * attributes) differs between the window's reports and the synthetic records by at most {@link #value()}.
 *
 * <p><b>Terms</b> (all functions of the private outputs and public parameters, so the certificate is
 * post-processing and costs no privacy): {@code value = min(1, noise + count + fit)}, each rounded up.
 *
 * @param value the bound, in {@code [0, 1]} (1 is trivial: TV never exceeds 1)
 * @param noise the quantile bound of the table noise, divided by the divisor D ({@code q_{1−β}(G(0, η))})
 * @param count the normalisation error from the noisy count ({@code (|D − ñ| + r)/(2D)}; 0 when n is public)
 * @param fit the largest TV between a noisy table and the released records' table ({@code G(v_DP, Tμ)})
 * @param confidence the probability with which {@code U <= value}
 */
public record Certificate(double value, double noise, double count, double fit, double confidence) {
    public Certificate {
        Require.inClosedRange("value", value, 0, 1);
        Require.finiteNonNegative("noise", noise);
        Require.finiteNonNegative("count", count);
        Require.finiteNonNegative("fit", fit);
        Require.inOpenRange("confidence", confidence, 0, 1);
    }

    /** The sentence a consumer reads next to the value. */
    public String meaning(int way) {
        return String.format(Locale.ROOT, "With probability at least %.4g over the mechanism's noise, every"
                + " query on at most %d attributes with values in an interval of length 1 (e.g. the fraction of"
                + " records in any marginal cell) differs between the window's reports and these synthetic records"
                + " by at most %.6g.", confidence, way, value);
    }
}

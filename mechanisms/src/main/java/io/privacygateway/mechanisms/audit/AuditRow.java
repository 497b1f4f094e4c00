package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;

/**
 * One audited release: the chosen neighbouring inputs and event, what was counted on fresh samples, and
 * the resulting lower confidence bound on the privacy loss.
 *
 * <p><b>What it means.</b> Write {@code P₁ = P(event | first input)} and {@code P₂ = P(event | second)}
 * and let {@code H, L} be the sides with the larger and smaller count ({@link #favoursFirst}). With
 * probability at least {@code 1 − errorProbability}, {@code P_H ≥ lowerH} and {@code P_L ≤ upperL}
 * (exact Clopper–Pearson bounds, {@code errorProbability/2} each), hence
 * {@code ln(P_H/P_L) ≥ epsilonLowerBound}. A mechanism that is ε-DP for these inputs has
 * {@code ln(P_H/P_L) ≤ ε}, so {@code epsilonLowerBound > ε} happens with probability at most
 * {@code errorProbability}: a row above its declared ε is statistical evidence that the declaration is
 * false. A row at or below it shows only that this search found nothing; an audit never proves privacy.
 *
 * @param mechanism the mechanism audited (wire name)
 * @param part which release: {@code report}, {@code level j of L}, {@code release ...}
 * @param first the first input, in words
 * @param second the second input, in words
 * @param context what else was fixed (public coordinates, window)
 * @param event the event, in words
 * @param samples outputs drawn on each input in the test phase
 * @param hitsFirst how many of the first input's outputs fell in the event
 * @param hitsSecond how many of the second input's
 * @param firstInterval two-sided Clopper–Pearson interval for {@code P₁} ({@code errorProbability/2} per tail)
 * @param secondInterval the same for {@code P₂}
 * @param favoursFirst whether the event was chosen (on training data) as typical of the first input
 * @param epsilonLowerBound ε̂ = {@code max(0, ln(lowerH/upperL))}
 * @param declared the ε the release claims (exact)
 * @param errorProbability the probability that this row's bounds fail; the rows of one audit share
 *     {@code 1 − confidence}
 */
public record AuditRow(String mechanism, String part, String first, String second, String context, String event,
        long samples, long hitsFirst, long hitsSecond, double[] firstInterval, double[] secondInterval,
        boolean favoursFirst, double epsilonLowerBound, BigDecimal declared, double errorProbability) {

    public AuditRow {
        Require.nonBlank("mechanism", mechanism);
        Require.nonBlank("part", part);
        Require.inRange("samples", samples, 1, Long.MAX_VALUE);
        Require.inRange("hitsFirst", hitsFirst, 0, samples);
        Require.inRange("hitsSecond", hitsSecond, 0, samples);
        Require.finiteNonNegative("epsilonLowerBound", epsilonLowerBound);
        Require.nonNull("declared", declared);
        Require.inOpenRange("errorProbability", errorProbability, 0, 1);
        firstInterval = firstInterval.clone();
        secondInterval = secondInterval.clone();
    }

    /** {@code hitsFirst / samples}. */
    public double firstEstimate() {
        return (double) hitsFirst / samples;
    }

    /** {@code hitsSecond / samples}. */
    public double secondEstimate() {
        return (double) hitsSecond / samples;
    }

    /** ε̂ / declared ε. */
    public double ratio() {
        return epsilonLowerBound / declared.doubleValue();
    }

    /** Whether ε̂ exceeds the declared ε (compared exactly). */
    public boolean violation() {
        return new BigDecimal(epsilonLowerBound).compareTo(declared) > 0;
    }

    @Override
    public double[] firstInterval() {
        return firstInterval.clone();
    }

    @Override
    public double[] secondInterval() {
        return secondInterval.clone();
    }
}

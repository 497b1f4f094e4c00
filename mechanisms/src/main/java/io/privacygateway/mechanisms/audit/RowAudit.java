package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigDecimal;
import java.util.List;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * Audits one release: search phase ({@link EventSearch}) on training outputs, then the test phase on
 * {@code samples} fresh outputs of each chosen input, with exact Clopper–Pearson bounds at
 * {@code errorProbability/2} each (see {@link AuditRow} for what the result means).
 */
final class RowAudit {
    private RowAudit() {}

    static AuditRow run(String mechanism, String part, BigDecimal declared, List<NeighbouringInputs> candidates,
            AuditSettings settings, double errorProbability, RandomBits rng) {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("candidates must not be empty");
        }
        double half = errorProbability / 2;
        double z = NormalDistribution.of(0, 1).inverseSurvivalProbability(half);
        long n = settings.samples();
        EventSearch.Choice ch = EventSearch.choose(candidates, settings, z, rng);
        NeighbouringInputs in = ch.inputs();
        long hitsFirst = 0;
        for (long i = 0; i < n; i++) {
            if (ch.test(in.onFirst().sample(rng))) {
                hitsFirst++;
            }
        }
        long hitsSecond = 0;
        for (long i = 0; i < n; i++) {
            if (ch.test(in.onSecond().sample(rng))) {
                hitsSecond++;
            }
        }
        double[] firstCi = {ClopperPearson.lower(hitsFirst, n, half), ClopperPearson.upper(hitsFirst, n, half)};
        double[] secondCi = {ClopperPearson.lower(hitsSecond, n, half), ClopperPearson.upper(hitsSecond, n, half)};
        boolean favoursFirst = ch.above();
        double low = favoursFirst ? firstCi[0] : secondCi[0];
        double high = favoursFirst ? secondCi[1] : firstCi[1];
        double eps = low > 0 ? downward(Math.log(low / high)) : 0;
        return new AuditRow(mechanism, part, in.first(), in.second(), in.context(), ch.describe(in.featureName()), n,
                hitsFirst, hitsSecond, firstCi, secondCi, favoursFirst, eps, declared, errorProbability);
    }

    /**
     * A lower bound rounded down: the Beta inversions are accurate to far better than 10⁻¹⁰ relative (the
     * defining tail probability is met to about 10⁻¹⁰ at n = 10⁷), so {@code ln(lower/upper)} is off by at
     * most about 2·10⁻¹⁰, and the logarithm adds a few ulps; shaving 10⁻⁹ plus 10⁻⁹ relative keeps ε̂ a
     * lower bound (never below 0).
     */
    static double downward(double logRatio) {
        return Math.max(0, logRatio - 1e-9 * Math.abs(logRatio) - 1e-9);
    }
}

package io.privacygateway.mechanisms.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The local auditor against real randomizers and under-noised controls.
 *
 * <p><b>False alarms.</b> Every audit here runs at confidence {@value #CONFIDENCE}: if the randomizer is
 * ε-LDP as declared, the audit reports a violation with probability at most 10⁻³ (union bound over its
 * rows, Clopper–Pearson bounds). {@link #realRandomizersAreNotFlagged} makes 9 audits, so a correct
 * implementation fails it by chance with probability at most 0.9% over the choice of seed; the seeds are
 * fixed, so the outcome is reproducible.
 */
class LocalAuditTest {
    static final double CONFIDENCE = 0.999;

    static AuditReport audit(Workload w, LocalProtocol p, Epsilon declared, long samples, long seed) {
        return LocalAudit.run(w, p, declared, AuditSettings.of(samples, CONFIDENCE), new SeededRandomBits(seed));
    }

    /**
     * A randomizer that uses 3ε but claims ε is flagged with 5,000 test samples per side: ε̂ > ε on the
     * whole report (and, for chaining, on at least one level).
     */
    @ParameterizedTest
    @CsvSource({"grr, histogram", "oue, histogram", "projection, marginals", "chaining, cdf", "tree, cdf",
        "factorization, cdf"})
    void underNoisedRandomizersAreFlagged(String mechanism, String family) {
        Workload claimed = AuditWorkloads.local(family, mechanism, 1.0);
        Workload actual = AuditWorkloads.withEpsilon(claimed, 3.0);
        LocalProtocol control = new OverclaimingProtocol(LocalPipeline.of(actual).protocol(), Epsilon.of(1.0));
        AuditReport r = audit(claimed, control, Epsilon.of(1.0), 5_000, 11);
        assertThat(r.violation()).as("%s", r).isTrue();
        AuditRow report = r.rows().get(r.rows().size() - 1);
        assertThat(report.part()).startsWith("report");
        assertThat(report.violation()).isTrue();
        assertThat(report.epsilonLowerBound()).isGreaterThan(1.0);
    }

    /**
     * The production randomizers at ε = 1 are not flagged (20,000 test samples per side), and on the
     * mechanisms whose bound is attained by some pair of values and event (every frequency oracle, the
     * tree, projection) the audit finds at least 70% of ε, so it is not passing for lack of power.
     */
    @ParameterizedTest
    @CsvSource({"grr, histogram, 0.7", "oue, histogram, 0.7", "olh, histogram, 0.7", "subset-selection, histogram, 0.7",
        "hadamard-response, histogram, 0.7", "tree, cdf, 0.7", "projection, marginals, 0.7",
        "coarse-projection, cdf, 0.3", "chaining, cdf, 0.3", "factorization, cdf, 0.7"})
    void realRandomizersAreNotFlagged(String mechanism, String family, double power) {
        Workload w = AuditWorkloads.local(family, mechanism, 1.0);
        AuditReport r = audit(w, LocalPipeline.of(w).protocol(), w.spec().epsilonPerReport(), 20_000, 5);
        assertThat(r.violation()).as("%s", r).isFalse();
        assertThat(r.mechanism()).isEqualTo(mechanism);
        assertThat(r.maxRatio()).as("%s", r).isGreaterThanOrEqualTo(power).isLessThanOrEqualTo(1.0);
    }

    /** Chaining is audited per level against each level's ε, and as a whole against the declared total. */
    @ParameterizedTest
    @CsvSource({"chaining, cdf"})
    void chainingIsAuditedPerLevelAndAsAWhole(String mechanism, String family) {
        Workload w = AuditWorkloads.local(family, mechanism, 1.0);
        LocalProtocol p = LocalPipeline.of(w).protocol();
        AuditReport r = audit(w, p, w.spec().epsilonPerReport(), 2_000, 3);
        int levels = r.rows().size() - 1;
        assertThat(levels).isGreaterThan(1);
        BigDecimal sum = BigDecimal.ZERO;
        for (int j = 0; j < levels; j++) {
            assertThat(r.rows().get(j).part()).isEqualTo("level " + (j + 1) + " of " + levels);
            sum = sum.add(r.rows().get(j).declared());
        }
        assertThat(sum.doubleValue()).isLessThanOrEqualTo(1.0);
        assertThat(r.rows().get(levels).declared()).isEqualByComparingTo("1");
        for (AuditRow row : r.rows()) {
            assertThat(row.errorProbability()).isCloseTo((1 - CONFIDENCE) / r.rows().size(),
                    org.assertj.core.data.Offset.offset(1e-15));
        }
    }
}

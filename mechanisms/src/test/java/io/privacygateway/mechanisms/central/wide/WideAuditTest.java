package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.audit.AuditReport;
import io.privacygateway.mechanisms.audit.AuditSettings;
import io.privacygateway.mechanisms.audit.CentralAudit;
import io.privacygateway.mechanisms.audit.CentralReleases;
import io.privacygateway.mechanisms.central.worstcase.WorstCaseChainingRelease;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The black-box auditor ({@code mechanisms/.../audit}) on a tiny domain (2-way marginals over 3 attributes, 8 values)
 * against the wide releases, through the same neighbouring windows it uses for the production central releases.
 * Confidence 0.999 per audit: a release that is ε-DP as declared is flagged with probability at most 10^-3. The
 * releases are purified, so the auditor sees little of their ε (as for the other purified releases, docs/audit.md);
 * the test is that they are not flagged.
 */
class WideAuditTest {
    @ParameterizedTest
    @CsvSource({"mwem, add-remove", "chaining, replace-one"})
    void wideReleasesAreNotFlagged(String mechanism, String neighbour) {
        Workload declared = WideFixtures.centralMarginals(3, 2, "central-projection", 1.0, neighbour, 1, 2800);
        MarginalWorkload w = MarginalWorkload.anonymous(3, 2);
        WideSettings s = WideSettings.of(declared.spec(), declared.contentHash());
        CentralReleases.Release release;
        if (mechanism.equals("mwem")) {
            PurifiedMwemRelease r = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
            release = (counts, bits) -> r.release(WideFixtures.fromUniverseCounts(w, counts), bits).answer();
        } else {
            WorstCaseChainingRelease r = WorstCaseChainingRelease.forMarginals(w, s, MechanismId.CENTRAL_CHAINING);
            release = (counts, bits) -> r.release(WideFixtures.fromUniverseCounts(w, counts), bits).answer();
        }
        AuditReport report = CentralAudit.run(declared, release,
                new AuditSettings(1000, ConfidenceLevel.of(0.999), 2, 1), new SeededRandomBits(31));
        assertThat(report.violation()).as("%s", report).isFalse();
        assertThat(report.rows()).hasSize(2);
    }
}

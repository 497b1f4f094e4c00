package io.privacygateway.topology.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol;
import io.privacygateway.mechanisms.local.fo.TreeMechanism;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gateway checks a local report's protocol version before anything else (issue 28 §4): a report derived with
 * another version of its mechanism's protocol than the workload serves, or a legacy report (no version) of a mechanism
 * whose derivation changed, is {@link RejectReason#PROTOCOL_MISMATCH} with both versions in the detail, even when it
 * carries the workload's content hash; legacy reports of unchanged protocols are still accepted.
 */
class ProtocolVersionValidationTest {
    static final long DAY = Duration.ofDays(1).toMillis();
    static final long T = 1_700_000_000_000L;
    final ReportValidator validator = new ReportValidator(Duration.ofMinutes(1), Duration.ofHours(1));

    /** A CDF over 32 buckets at ε = 1: tree version 1 derives B = 6, version 2 B = 2. */
    static WorkloadSpec spec(String mechanism, Integer protocolVersion) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "lat");
        t.put("version", 1);
        t.put("family", mechanism.equals("grr") ? "histogram" : "cdf");
        List<Integer> edges = new ArrayList<>();
        for (int i = 0; i <= 32; i++) {
            edges.add(i * 10);
        }
        t.put("domain", Map.of("buckets", edges));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        if (protocolVersion != null) {
            t.put("protocolVersion", protocolVersion);
        }
        return WorkloadSpecParser.parse(t);
    }

    static LocalWorkload workload(WorkloadSpec s) {
        return (LocalWorkload) ResolvedWorkload.of(s);
    }

    /** A report a device holding {@code device} sends, declaring {@code declared} as its protocol version. */
    static ReportView report(LocalWorkload device, int declared) {
        byte[] payload = device.protocol().randomize(5, new ReportCoordinates("dev-1", T / DAY, 0),
                new SeededRandomBits(1));
        return new ReportView("lat", 1, device.contentHash(), "dev-1", T / DAY, 0, T,
                device.spec().mechanism().wireName(), 1.0, payload, null, declared);
    }

    static int branching(LocalWorkload w) {
        return ((TreeMechanism) ((FrequencyOracleProtocol) w.protocol()).oracle()).branching();
    }

    @Test
    void theTwoTreeVersionsDeriveDifferentTrees() {
        assertThat(branching(workload(spec("tree", 1)))).isEqualTo(6);
        assertThat(branching(workload(spec("tree", null)))).isEqualTo(2);
    }

    @Test
    void aVersionOneTreeReportIsRejectedByAVersionTwoWorkloadNamingBothVersions() {
        LocalWorkload gateway = workload(spec("tree", null)); // serves tree/2
        LocalWorkload device = workload(spec("tree", 1));
        Verdict v = validator.check(report(device, 1), gateway, Mode.LOCAL, T);
        assertThat(v.reason()).isEqualTo(RejectReason.PROTOCOL_MISMATCH);
        assertThat(v.message()).isEqualTo("report protocol tree/1, the workload serves tree/2");
    }

    @Test
    void aLegacyTreeReportWithTheWorkloadsOwnHashIsRejected() {
        // a device from before protocol versions: no version, and the content hash of the very spec the gateway
        // serves (before versions, B = 6 and B = 2 builds shared it): it must not be decoded with either tree
        for (Integer served : new Integer[] {null, 1}) {
            LocalWorkload gateway = workload(spec("tree", served));
            ReportView legacy = report(gateway, 0);
            Verdict v = validator.check(legacy, gateway, Mode.LOCAL, T);
            assertThat(v.reason()).isEqualTo(RejectReason.PROTOCOL_MISMATCH);
            assertThat(v.message()).startsWith("report protocol tree/legacy, the workload serves tree/"
                    + (served == null ? 2 : 1));
        }
        LocalWorkload factorization = workload(spec("factorization", null));
        assertThat(validator.check(report(factorization, 0), factorization, Mode.LOCAL, T).message())
                .startsWith("report protocol factorization/legacy, the workload serves factorization/3");
    }

    /** Runs against the code before protocol versions too (old API only): there the legacy report was accepted. */
    @Test
    void aLegacyTreeReportIsNotAccepted() {
        LocalWorkload gateway = workload(spec("tree", null));
        byte[] payload = gateway.protocol().randomize(5, new ReportCoordinates("dev-1", T / DAY, 0),
                new SeededRandomBits(1));
        ReportView legacy = new ReportView("lat", 1, gateway.contentHash(), "dev-1", T / DAY, 0, T, "tree", 1.0,
                payload, null);
        assertThat(validator.check(legacy, gateway, Mode.LOCAL, T).accepted()).isFalse();
    }

    @Test
    void theServedPreviousVersionAcceptsItsDevicesAndTheCurrentOneItsOwn() {
        LocalWorkload v1 = workload(spec("tree", 1));
        assertThat(validator.check(report(v1, 1), v1, Mode.LOCAL, T)).isEqualTo(Verdict.ACCEPT);
        LocalWorkload v2 = workload(spec("tree", 2));
        assertThat(validator.check(report(v2, 2), v2, Mode.LOCAL, T)).isEqualTo(Verdict.ACCEPT);
        // a current device against the gateway still serving version 1 (devices updated before the gateway)
        assertThat(validator.check(report(v2, 2), v1, Mode.LOCAL, T).message())
                .isEqualTo("report protocol tree/2, the workload serves tree/1");
    }

    @Test
    void legacyReportsOfAnUnchangedProtocolAreStillAccepted() {
        LocalWorkload grr = workload(spec("grr", null));
        assertThat(grr.spec().protocolVersion()).isEqualTo(1);
        assertThat(validator.check(report(grr, 0), grr, Mode.LOCAL, T)).isEqualTo(Verdict.ACCEPT);
        assertThat(validator.check(report(grr, 1), grr, Mode.LOCAL, T)).isEqualTo(Verdict.ACCEPT);
        Verdict future = validator.check(report(grr, 2), grr, Mode.LOCAL, T);
        assertThat(future.reason()).isEqualTo(RejectReason.PROTOCOL_MISMATCH);
        assertThat(future.message()).isEqualTo("report protocol grr/2, the workload serves grr/1");
    }
}

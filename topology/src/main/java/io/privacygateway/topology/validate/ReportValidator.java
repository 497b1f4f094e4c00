package io.privacygateway.topology.validate;

import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.time.Duration;

/**
 * Stateless checks of a report against its registered workload version (decoding, identity, the device budget
 * and window lateness are checked elsewhere). The period and slot rules are the workload's own
 * ({@link ResolvedWorkload#periodOf}, {@link ResolvedWorkload#slots()}), the same the device SDK uses. Times:
 * {@code appendTime} is the broker's append time of the record (report topics use LogAppendTime, so replays see
 * the same value).
 */
public final class ReportValidator {
    /** The longest device id accepted, in characters. */
    public static final int MAX_DEVICE_ID = 256;
    private final Duration maxFutureSkew;
    private final Duration maxAge;

    /**
     * @param maxFutureSkew how far an event time may lie after the broker append time (device clocks run fast)
     * @param maxAge how far an event time may lie before the append time (devices buffer reports)
     */
    public ReportValidator(Duration maxFutureSkew, Duration maxAge) {
        this.maxFutureSkew = maxFutureSkew;
        this.maxAge = maxAge;
    }

    /** Checks the report's identity fields before anything is looked up. */
    public static Verdict checkIdentity(ReportView r) {
        if (r.deviceId() == null || r.deviceId().isBlank() || r.deviceId().length() > MAX_DEVICE_ID) {
            return Verdict.reject(RejectReason.MALFORMED, "the device id must have 1 to " + MAX_DEVICE_ID
                    + " characters, got " + (r.deviceId() == null ? 0 : r.deviceId().length()));
        }
        if (r.workloadId() == null || r.workloadId().isEmpty() || r.workloadId().length() > 100) {
            return Verdict.reject(RejectReason.MALFORMED, "the workload id must have 1 to 100 characters");
        }
        return Verdict.ACCEPT;
    }

    /**
     * Checks a report for {@code w} in the expected mode. The protocol version is checked first, before the workload
     * version and content hash: a local report of the workload's mechanism whose protocol version is not the one the
     * workload serves ({@link ProtocolVersions#accepts}) is {@link RejectReason#PROTOCOL_MISMATCH}, with both versions
     * in the detail, whatever its hash (a device from before a protocol change can carry the hash of the same spec).
     */
    public Verdict check(ReportView r, ResolvedWorkload w, Mode expectedMode, long appendTime) {
        WorkloadSpec s = w.spec();
        if (w instanceof LocalWorkload && expectedMode == Mode.LOCAL && s.mechanism().wireName().equals(r.mechanism())
                && !ProtocolVersions.accepts(s.mechanism(), s.protocolVersion(), r.protocolVersion())) {
            return Verdict.reject(RejectReason.PROTOCOL_MISMATCH, "report protocol "
                    + ProtocolVersions.wireName(s.mechanism(), r.protocolVersion()) + ", the workload serves "
                    + ProtocolVersions.wireName(s.mechanism(), s.protocolVersion())
                    + (r.protocolVersion() == ProtocolVersions.LEGACY ? " (a report without a protocol version is"
                            + " ambiguous for " + s.mechanism().wireName() + ")" : ""));
        }
        if (r.workloadVersion() != s.version() || !w.contentHash().equals(r.contentHash())) {
            return Verdict.reject(RejectReason.VERSION_MISMATCH, "report is for version " + r.workloadVersion()
                    + " (hash " + abbreviate(r.contentHash()) + "), the gateway runs version " + s.version() + " (hash "
                    + abbreviate(w.contentHash()) + ")");
        }
        if (s.mode() != expectedMode) {
            return Verdict.reject(RejectReason.MECHANISM_MISMATCH, "workload " + s.id() + " is " + s.mode().wireName()
                    + "-mode; this topic carries " + expectedMode.wireName() + " reports");
        }
        if (w instanceof LocalWorkload local) {
            if (!s.mechanism().wireName().equals(r.mechanism())) {
                return Verdict.reject(RejectReason.MECHANISM_MISMATCH, "report mechanism " + abbreviate(r.mechanism())
                        + ", workload declares " + s.mechanism().wireName());
            }
            if (r.epsilon() != s.epsilonPerReport().value()) {
                return Verdict.reject(RejectReason.EPSILON_MISMATCH, "report ε " + r.epsilon() + ", workload declares "
                        + s.epsilonPerReport().exact().toPlainString());
            }
            int bytes = local.accumulator().payloadBytes();
            if (r.payload() == null || r.payload().length != bytes) {
                return Verdict.reject(RejectReason.BAD_PAYLOAD, "payload has " + (r.payload() == null ? 0
                        : r.payload().length) + " bytes, the protocol sends " + bytes);
            }
        }
        int slots = w.slots();
        if (r.sequence() < 0 || r.sequence() >= slots) {
            return Verdict.reject(RejectReason.SEQUENCE_OUT_OF_RANGE, "sequence " + r.sequence() + " is outside [0, "
                    + slots + ")");
        }
        long expectedPeriod = s.budget().periodOf(Math.max(0, r.eventTime()));
        if (r.eventTime() < 0 || r.period() != expectedPeriod) {
            return Verdict.reject(RejectReason.PERIOD_MISMATCH, "period " + r.period() + " does not contain the event time"
                    + " (period " + expectedPeriod + ")");
        }
        if (r.eventTime() > appendTime + maxFutureSkew.toMillis()
                || r.eventTime() < appendTime - maxAge.toMillis()) {
            return Verdict.reject(RejectReason.CLOCK_SKEW, "event time is " + (r.eventTime() - appendTime)
                    + " ms from the broker's append time (allowed: -" + maxAge.toMillis() + " .. +"
                    + maxFutureSkew.toMillis() + ")");
        }
        return Verdict.ACCEPT;
    }

    private static String abbreviate(String s) {
        return s == null ? "none" : s.length() > 12 ? s.substring(0, 12) : s;
    }
}

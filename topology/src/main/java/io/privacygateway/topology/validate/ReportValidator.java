package io.privacygateway.topology.validate;

import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.workload.ActiveWorkload;
import java.time.Duration;

/**
 * Stateless checks of a report against its registered workload (schema decoding, the per-device ledger
 * and window lateness are checked elsewhere). Times: {@code appendTime} is the broker's append time of
 * the record (report topics use LogAppendTime, so replays see the same value).
 */
public final class ReportValidator {
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

    /** Checks a report for {@code w} ({@code null} if the id is unknown) in the expected mode. */
    public Verdict check(ReportView r, ActiveWorkload w, Mode expectedMode, long appendTime) {
        if (w == null) {
            return Verdict.reject(RejectReason.UNKNOWN_WORKLOAD, "no workload \"" + r.workloadId() + "\" is registered");
        }
        WorkloadSpec s = w.spec();
        if (r.workloadVersion() != s.version() || !w.contentHash().equals(r.contentHash())) {
            return Verdict.reject(RejectReason.VERSION_MISMATCH, "report is for version " + r.workloadVersion()
                    + " (hash " + abbreviate(r.contentHash()) + "), the gateway runs version " + s.version() + " (hash "
                    + abbreviate(w.contentHash()) + ")");
        }
        if (s.mode() != expectedMode) {
            return Verdict.reject(RejectReason.MECHANISM_MISMATCH, "workload " + s.id() + " is " + s.mode().wireName()
                    + "-mode; this topic carries " + expectedMode.wireName() + " reports");
        }
        if (expectedMode == Mode.LOCAL) {
            if (!s.mechanism().wireName().equals(r.mechanism())) {
                return Verdict.reject(RejectReason.MECHANISM_MISMATCH, "report mechanism " + r.mechanism()
                        + ", workload declares " + s.mechanism().wireName());
            }
            if (!(Math.abs(r.epsilon() - s.epsilonPerReport().value()) <= 1e-12 * s.epsilonPerReport().value())) {
                return Verdict.reject(RejectReason.EPSILON_MISMATCH, "report ε " + r.epsilon() + ", workload declares "
                        + s.epsilonPerReport().value());
            }
            if (r.payload() == null || r.payload().length != w.local().protocol().payloadBytes()) {
                return Verdict.reject(RejectReason.BAD_PAYLOAD, "payload has " + (r.payload() == null ? 0
                        : r.payload().length) + " bytes, the protocol sends " + w.local().protocol().payloadBytes());
            }
        }
        int slots = slots(s);
        if (r.sequence() < 0 || r.sequence() >= slots) {
            return Verdict.reject(RejectReason.SEQUENCE_OUT_OF_RANGE, "sequence " + r.sequence() + " is outside [0, "
                    + slots + ")");
        }
        long expectedPeriod = Math.floorDiv(r.eventTime(), w.periodMillis());
        if (r.period() != expectedPeriod) {
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

    /**
     * The valid sequence numbers per period: the reports a device may send (local), or its
     * contribution slots (central: L per window for each window its budget pays for).
     */
    public static int slots(WorkloadSpec s) {
        if (s.mode() == Mode.LOCAL) {
            return s.reportsPerPeriod();
        }
        long windowsPerPeriod = Math.max(1, s.budget().period().toMillis() / s.window().size().toMillis());
        long slots = (long) s.central().contributionsPerWindow() * windowsPerPeriod;
        return (int) Math.min(Integer.MAX_VALUE, slots);
    }

    private static String abbreviate(String hash) {
        return hash == null ? "none" : hash.length() > 12 ? hash.substring(0, 12) : hash;
    }
}

package io.privacygateway.itests.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.release.AnswerRecords;
import io.privacygateway.harness.testing.TopicReader;
import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The offline oracle of the fault tests: what an uninterrupted gateway publishes for one workload version, given
 * every report it accepts and the version's activation time — computed without Kafka, from the same library
 * code the gateway releases with: exact aggregation of each window's reports ({@code accumulate}, or counts per
 * universe value), the local release (estimation, projection, error bars) or the central release with the
 * test-only {@link SeededCentralReleaser}, and the answer record. Every window from the activation window on
 * has one answer, empty ones too (local: n = 0 and empty arrays; central: noise only); a central answer's
 * cumulative ε is that of the k-th release, {@code k × ε} rounded up, and its release time is the window's close
 * time.
 *
 * <p>{@link #verify} compares a gateway's answers with the oracle's <b>bit for bit</b> (the Avro encoding of the
 * records, every double by its bits) except the local release stream time, which follows broker append times and
 * so differs between runs.
 */
public final class Oracle {
    private final ResolvedWorkload w;
    private final long firstWindow;
    private final NavigableMap<Long, long[]> state = new TreeMap<>();
    private final NavigableMap<Long, Long> n = new TreeMap<>();

    /**
     * @param activatedAt the broker time of the version's registration record (see {@link Registrations})
     */
    public Oracle(ResolvedWorkload w, long activatedAt) {
        this.w = w;
        this.firstWindow = w.window().startOf(activatedAt);
    }

    public ResolvedWorkload workload() {
        return w;
    }

    /** The first window answered: the one containing the activation. */
    public long firstWindow() {
        return firstWindow;
    }

    /** Adds reports the gateway must accept (local or central records of this version). */
    public Oracle addAll(Collection<?> reports) {
        for (Object r : reports) {
            if (r instanceof LocalReport l && l.getContentHash().equals(w.contentHash())) {
                addLocal(l);
            } else if (r instanceof CentralReport c && c.getContentHash().equals(w.contentHash())) {
                addCentral(c);
            }
        }
        return this;
    }

    private long[] window(long eventTime) {
        long start = w.window().startOf(eventTime);
        if (start < firstWindow) {
            throw new IllegalArgumentException("a report for a window before the activation: it would be NOT_ACTIVE");
        }
        n.merge(start, 1L, Long::sum);
        return state.computeIfAbsent(start, s -> new long[w.aggregateLength()]);
    }

    private void addLocal(LocalReport r) {
        long[] s = window(r.getEventTime().toEpochMilli());
        ReportCoordinates c = new ReportCoordinates(r.getDeviceId(), r.getPeriod(), r.getSequence());
        if (!((LocalWorkload) w).protocol().accumulate(TopicReader.bytes(r.getPayload()), c, s)) {
            throw new IllegalArgumentException("an invalid payload in the oracle's input");
        }
    }

    private void addCentral(CentralReport r) {
        long[] s = window(r.getEventTime().toEpochMilli());
        try {
            s[((CentralWorkload) w).encode(r.getValue())]++;
        } catch (InvalidValueException e) {
            throw new IllegalArgumentException("an invalid value in the oracle's input", e);
        }
    }

    /** The number of reports in the window starting at {@code start}. */
    public long n(long start) {
        return n.getOrDefault(start, 0L);
    }

    /** The last window with reports (or the first window if none). */
    public long lastWindowWithReports() {
        return n.isEmpty() ? firstWindow : n.lastKey();
    }

    /** The answer an uninterrupted gateway publishes for the window starting at {@code start}. */
    public WindowAnswer expected(long start) {
        long[] s = state.get(start);
        long count = n(start);
        long[] counts = s == null ? new long[w.aggregateLength()] : s.clone();
        AnswerRecords.Span span = AnswerRecords.Span.window(w, start);
        if (w.windowRelease() instanceof WindowRelease.Central c) {
            ReleaseResult r = SeededCentralReleaser.INSTANCE.release(c,
                    WindowRelease.Window.central(count, counts, w.window().sizeMillis()));
            long k = (start - firstWindow) / w.window().sizeMillis() + 1;
            BigDecimal cumulative = c.workload().parameters().epsilonPerRelease().exact()
                    .multiply(BigDecimal.valueOf(k));
            return AnswerRecords.toRecord(r, w, span, Composition.pureTotal(cumulative), w.window().closesAt(start));
        }
        // the amplified (ε, δ) the gateway adds to every local window answer, over the IT gateways' identity
        var identity = io.privacygateway.topology.identity.DeviceAuthentication.OPEN;
        ReleaseResult r = w.windowRelease().release(new WindowRelease.Window(count, counts, w.window().sizeMillis(),
                identity.vouchedCrowd(count), identity.crowdBasis()), null);
        return AnswerRecords.toRecord(r, w, span, AnswerRecords.NONE, 0);
    }

    /**
     * Checks a gateway's answers of this workload against the oracle for every window from the activation window
     * through {@code lastWindow}: exactly one answer each, bit for bit the oracle's (local: except the release
     * stream time; central: the release time too, the window's close time); and no answer for any window before
     * the activation. Returns how many windows were checked.
     */
    public int verify(NavigableMap<Long, List<WindowAnswer>> answers, long lastWindow, String who) {
        assertThat(answers.headMap(firstWindow, false)).as("%s: answers before the activation window", who).isEmpty();
        int checked = 0;
        for (long s = firstWindow; s <= lastWindow; s += w.window().sizeMillis()) {
            List<WindowAnswer> got = answers.getOrDefault(s, List.of());
            assertThat(got).as("%s: answers of %s for the window starting at %d (n expected %d)", who, w.id(), s, n(s))
                    .hasSize(1);
            WindowAnswer a = got.get(0);
            WindowAnswer e = expected(s);
            assertThat(a.getN()).as("%s: n of %s in the window starting at %d", who, w.id(), s).isEqualTo(e.getN());
            if (!Arrays.equals(Answers.bits(a), Answers.bits(e))) {
                assertThat(Answers.withoutStreamTime(a)).as("%s: answer of %s for the window starting at %d", who,
                        w.id(), s).isEqualTo(Answers.withoutStreamTime(e));
                throw new AssertionError(who + ": answer of " + w.id() + " for the window starting at " + s
                        + " differs from the oracle's in its bits");
            }
            if (w instanceof CentralWorkload) {
                assertThat(a.getReleasedAtStreamTime()).isEqualTo(w.window().closesAt(s));
            }
            checked++;
        }
        return checked;
    }
}

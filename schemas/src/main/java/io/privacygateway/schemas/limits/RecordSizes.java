package io.privacygateway.schemas.limits;

import io.privacygateway.mechanisms.analytics.release.AnalyticsMechanisms;
import io.privacygateway.mechanisms.central.synthetic.CertifiedSyntheticRelease;
import io.privacygateway.mechanisms.central.synthetic.MarginalLayout;
import io.privacygateway.mechanisms.release.HeavyHitterRelease;
import io.privacygateway.mechanisms.release.VectorMeanRelease;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.AmplifiedGuarantee;
import io.privacygateway.schemas.avro.AnswerItem;
import io.privacygateway.schemas.avro.AnswerLevel;
import io.privacygateway.schemas.avro.PrivacyCostRecord;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * The largest records a workload version makes the gateway write, checked <b>before</b> the workload runs, so
 * that a valid-looking workload can never produce a record over Kafka's request limits and stop the stream
 * (the producer treats an oversized record as fatal). Registration refuses a workload whose records would not
 * fit, with a message that names the record and its size.
 *
 * <ul>
 *   <li>the answer: a {@link WindowAnswer} with every array full (m labels, estimates, bounds, standard errors,
 *       unprojected values) and one level per release level, serialized exactly; for the window-analytics
 *       families also the most items and named scalars they publish ({@code AnalyticsMechanisms});
 *   <li>a vector-mean answer (family mean over a ball or a box): one label per coordinate (at most 256 names of
 *       at most 64 UTF-8 bytes) and its named scalars;
 *   <li>a heavy-hitters answer (an open domain): its most items ({@code HeavyHitterRelease.maxItems}, at most 64)
 *       with labels of the domain's {@code maxBytes} UTF-8 bytes, and its named scalars;
 *   <li>the window partial: the aggregate's {@code 8 × length} bytes plus its header (a wide workload's aggregate is
 *       its {@code C(d,k)·2^k} marginal cell counts);
 *   <li>a wide workload's answer also with its named scalars and l∞ bound, and with {@code central.synthetic} its
 *       synthetic-data record ({@code SyntheticData}) of the declared number of rows;
 *   <li>a device's budget entry: local, the used sequence numbers of a period; central, the windows a period's
 *       budget can pay for, each with its L contribution slots.
 * </ul>
 */
public final class RecordSizes {
    /**
     * The largest record the gateway writes by default: below Kafka's default {@code max.request.size}
     * (1 MiB) with room for headers and batch overhead.
     */
    public static final int MAX_RECORD_BYTES = 900 * 1024;
    /** Release levels assumed for a local protocol's answer (chaining has at most this many). */
    static final int MAX_LEVELS = 16;

    private RecordSizes() {}

    /** The sizes of a workload version's records. */
    public record Sizes(int answerBytes, long partialBytes, long budgetEntryBytes, long runningTotalStateBytes,
            long syntheticBytes) {
        /** The first record over {@code limit}, described for an error message, or {@code null}. */
        public String overLimit(long limit) {
            if (syntheticBytes > limit) {
                return "its synthetic-data records could reach " + syntheticBytes + " bytes";
            }
            if (runningTotalStateBytes > limit) {
                return "the state of its running totals (window.horizons) could reach " + runningTotalStateBytes
                        + " bytes";
            }
            if (answerBytes > limit) {
                return "its answers would be " + answerBytes + " bytes";
            }
            if (partialBytes > limit) {
                return "its window aggregates would be " + partialBytes + " bytes";
            }
            if (budgetEntryBytes > limit) {
                return "a device's budget entry could reach " + budgetEntryBytes + " bytes";
            }
            return null;
        }
    }

    /** The sizes of {@code w}'s records. */
    public static Sizes of(ResolvedWorkload w) {
        // heavy-hitters: a variable label set per window, at most maxItems labels of at most maxBytes UTF-8 bytes
        // (HeavyHitterRelease caps both), sized here at their widest
        var open = w instanceof LocalWorkload l && l.values() instanceof LocalWorkload.OpenDomain o ? o : null;
        List<String> labels = open == null ? w.queryLabels() : Collections.nCopies(open.pipeline().maxItems(),
                "x".repeat(open.pipeline().protocol().parameters().maxBytes()));
        WindowAnswer a = widestAnswer(w, labels);
        if (w.spec().family().isWindowAnalytics()) { // analytics answers: a released label and named scalars
            int longest = w.workload().universeLabels().stream().mapToInt(String::length).max().orElse(0);
            List<AnswerItem> items = new ArrayList<>();
            for (int i = 0; i < AnalyticsMechanisms.MAX_ITEMS; i++) {
                items.add(AnswerItem.newBuilder().setLabel("x".repeat(longest))
                        .setEstimate(1).setLower(0).setUpper(1).build());
            }
            a.setItems(items);
            a.setScalars(numberedScalars(AnalyticsMechanisms.MAX_SCALARS));
            a.setMaxErrorBound(1.0);
        }
        if (w instanceof LocalWorkload l && l.values() instanceof LocalWorkload.Vectors) {
            // vector means: one label per coordinate (names of at most Domain.Vector.MAX_NAME_BYTES UTF-8 bytes, the
            // queryLabels above) and its named scalars (VectorMeanRelease.SCALARS)
            a.setScalars(namedScalars(VectorMeanRelease.SCALARS));
        }
        if (open != null) { // heavy-hitters: its named scalars (HeavyHitterRelease.SCALARS)
            a.setScalars(namedScalars(HeavyHitterRelease.SCALARS));
        }
        boolean wide = w instanceof CentralWorkload cw && cw.wide().isPresent();
        if (wide) { // the wide releases: named scalars (rounds, ε shares, bounds) and the l∞ bound
            a.setScalars(numberedScalars(MAX_WIDE_SCALARS));
            a.setMaxErrorBound(1.0);
        }
        int answer = serializedSize(a) + 5 + 64; // wire-format header and a margin for fields added later
        long partial = 8L * w.aggregateLength() + 256;
        WorkloadSpec s = w.spec();
        long state = w instanceof CentralWorkload c && c.parameters().epsilonPerRunningTotal() != null
                ? c.runningTotals().orElseThrow().codec().maxBytes() : 0;
        long synthetic = 0;
        if (wide && s.central().synthetic() != null) {
            synthetic = syntheticSize(w, s.central().synthetic().records());
        }
        return new Sizes(answer, partial, budgetEntryBytes(w), state, synthetic);
    }

    /** A window answer with every array full ({@code labels.size()} entries) and {@link #MAX_LEVELS} levels. */
    private static WindowAnswer widestAnswer(ResolvedWorkload w, List<String> labels) {
        List<Double> full = Collections.nCopies(labels.size(), -0.123456789);
        List<AnswerLevel> levels = new ArrayList<>();
        for (int i = 0; i < MAX_LEVELS; i++) {
            levels.add(AnswerLevel.newBuilder().setLevel(i).setEpsilon(1).setRadius(1).setNoiseScale(1)
                    .setGaussianWidth(1).setHullSize(Integer.MAX_VALUE).setProjectionGap(1).setRho(1)
                    .setCost(PrivacyCostRecord.newBuilder().setKind("zcdp").setEpsilon(1)
                            .setDelta(0).setRho(1.0).build()).setProjectionGapValue(1.0).build());
        }
        return WindowAnswer.newBuilder().setWorkloadId(w.id()).setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash()).setMode(w.mode().wireName()).setWindowStart(Instant.EPOCH)
                .setWindowEnd(Instant.EPOCH).setMechanism(w.spec().mechanism().wireName()).setEpsilon(1).setDelta(0)
                .setN(Long.MAX_VALUE).setConfidence(0.95).setLabels(labels).setEstimates(full)
                .setLower(full).setUpper(full).setStandardErrors(full).setUnprojected(full).setExpectedRmsError(1)
                .setRmsErrorBoundAtConfidence(1).setLevels(levels).setCumulativeEpsilon(1).setUnprojectedEstimate(full)
                .setCost(PrivacyCostRecord.newBuilder().setKind("pure").setEpsilon(1)
                        .setDelta(0).build())
                .setFamily(w.spec().family().wireName())
                .setHorizon("since-activation")
                .setAmplified(AmplifiedGuarantee.newBuilder().setEpsilon(1).setDelta(1)
                        .setMethod("variation-ratio").build())
                .setReleasedAtStreamTime(Long.MAX_VALUE).build();
    }

    /** {@code count} scalars with names of 32 characters. */
    private static Map<String, Double> numberedScalars(int count) {
        Map<String, Double> scalars = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            scalars.put(String.format("%032d", i), 1.0);
        }
        return scalars;
    }

    private static Map<String, Double> namedScalars(List<String> names) {
        Map<String, Double> scalars = new TreeMap<>();
        for (String name : names) {
            scalars.put(name, 1.0);
        }
        return scalars;
    }

    /**
     * A device's budget entry: local, the used sequence numbers of a period; central, the windows a period's budget
     * can pay for, each with its L contribution slots.
     */
    private static long budgetEntryBytes(ResolvedWorkload w) {
        if (w instanceof LocalWorkload) {
            return 128 + (w.slots() + 7) / 8;
        }
        WorkloadSpec s = w.spec();
        CentralWorkload c = (CentralWorkload) w;
        long windowsPerPeriod = Math.max(1, Math.floorDiv(s.budget().periodMillis() + s.window().sizeMillis() - 1,
                s.window().sizeMillis()) + 1);
        long paid = Math.min(s.reportsPerPeriod(), windowsPerPeriod);
        return 128 + paid * (8 + 4 + (c.slots() + 7) / 8);
    }

    /** Named scalars a wide answer publishes at most (docs/wide-domains.md §8; names of at most 32 characters). */
    static final int MAX_WIDE_SCALARS = 32;

    /** The largest synthetic-data record of {@code records} rows, every row and field at its widest. */
    static long syntheticSize(ResolvedWorkload w, int records) {
        SyntheticData d = SyntheticData.newBuilder()
                .setWorkloadId(w.id()).setWorkloadVersion(w.spec().version()).setContentHash(w.contentHash())
                .setWindowStart(Instant.EPOCH).setWindowEnd(Instant.EPOCH).setMechanism(w.spec().mechanism().wireName())
                .setEpsilon(1).setDelta(0).setAttributes(((Domain.Attributes)
                        w.spec().domain()).names())
                .setRecords(Collections.nCopies(records, Long.MIN_VALUE)).setN(Long.MAX_VALUE).setConfidence(0.95)
                .setMaxErrorBound(1).setReleasedAtStreamTime(Long.MAX_VALUE).setCertificate(1.0)
                .setCertificateQueries(CertifiedSyntheticRelease
                        .queryClass(MarginalLayout.MAX_WAY)).build();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
            new SpecificDatumWriter<>(SyntheticData.class).write(d, enc);
            enc.flush();
            return out.size() + 5 + 64L;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Refuses a workload whose records would exceed {@link #MAX_RECORD_BYTES}.
     *
     * @throws IllegalArgumentException naming the record and its size
     */
    public static void check(ResolvedWorkload w) {
        String over = of(w).overLimit(MAX_RECORD_BYTES);
        if (over != null) {
            throw new IllegalArgumentException("domain: workload " + w.id() + " is too large for Kafka records: " + over
                    + " (at most " + MAX_RECORD_BYTES + "); use fewer buckets, attributes or queries");
        }
    }

    private static int serializedSize(WindowAnswer a) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
            new SpecificDatumWriter<>(WindowAnswer.class).write(a, enc);
            enc.flush();
            return out.size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

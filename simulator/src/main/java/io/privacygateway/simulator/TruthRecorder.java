package io.privacygateway.simulator;

import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records the true universe values of the valid reports a simulator sent, per workload version and window
 * ({@link WindowTruth}), so a demo can print estimates next to the truth. Only reports the gateway is
 * expected to count are recorded (valid reports, including the original of a duplicated one); if the
 * gateway rejects one anyway (e.g. it arrives after its window closed), truth and answer differ by it,
 * and the answer's {@code n} shows it. Thread-safe.
 */
public final class TruthRecorder {
    private final Map<String, Entry> windows = new HashMap<>();

    private static final class Entry {
        final ResolvedWorkload workload;
        final long start;
        final long[] counts;
        /** A wide workload's exact marginals (its universe is never materialised), else null. */
        final MarginalCounts marginals;
        /** An open domain's (heavy-hitters) count per string sent, else null. */
        final Map<String, Long> strings;
        /** A vector mean's per-coordinate sums of the vectors sent, else null ({@code counts[0]}: their number). */
        final double[] vectorSums;

        Entry(ResolvedWorkload workload, long start) {
            this.workload = workload;
            this.start = start;
            this.marginals = workload instanceof CentralWorkload c && c.wide().isPresent()
                    ? MarginalCounts.empty(c.wide().get()) : null;
            this.strings = workload.spec().family().isOpenDomain() ? new HashMap<>() : null;
            this.vectorSums = workload.spec().domain() instanceof Domain.Vector v
                    ? new double[v.dimension()] : null;
            this.counts = marginals != null || vectorSums != null ? new long[1] // the report count
                    : strings != null ? new long[0] : new long[workload.workload().universeSize()];
        }

        void add(int x) {
            if (marginals != null) {
                marginals.add(x);
                counts[0]++;
            } else {
                counts[x]++;
            }
        }

        double[] meanAnswer() {
            if (vectorSums != null) { // vector means: the exact mean of the vectors sent, coordinate by coordinate
                double[] mean = new double[vectorSums.length];
                for (int q = 0; q < mean.length; q++) {
                    mean[q] = counts[0] == 0 ? 0 : vectorSums[q] / counts[0];
                }
                return mean;
            }
            return marginals != null ? marginals.answers() : WindowStatistics.trueAnswer(workload.workload(), counts);
        }
    }

    /** Records one valid report of string {@code value} of an open-domain (heavy-hitters) workload. */
    public synchronized void recordString(ResolvedWorkload w, long eventTimeMillis, String value) {
        long start = w.window().startOf(eventTimeMillis);
        windows.computeIfAbsent(key(w.contentHash(), start), k -> new Entry(w, start)).strings.merge(value, 1L,
                Long::sum);
    }

    /** Records one valid report of vector {@code value} of a vector-mean workload (family mean over a ball or box). */
    public synchronized void recordVector(ResolvedWorkload w, long eventTimeMillis, double[] value) {
        long start = w.window().startOf(eventTimeMillis);
        Entry e = windows.computeIfAbsent(key(w.contentHash(), start), k -> new Entry(w, start));
        if (value.length != e.vectorSums.length) {
            throw new IllegalArgumentException("a vector of " + e.vectorSums.length + " coordinates is expected, got "
                    + value.length);
        }
        for (int q = 0; q < value.length; q++) {
            e.vectorSums[q] += value[q];
        }
        e.counts[0]++;
    }

    /** Records one valid report of universe value (wide workloads: bit vector) {@code x} at {@code eventTimeMillis}. */
    public synchronized void record(ResolvedWorkload w, long eventTimeMillis, int x) {
        long start = w.window().startOf(eventTimeMillis);
        windows.computeIfAbsent(key(w.contentHash(), start), k -> new Entry(w, start)).add(x);
    }

    /** The truth of one window of one workload version, if any valid report was sent to it. */
    public synchronized Optional<WindowTruth> window(String contentHash, long windowStart) {
        Entry e = windows.get(key(contentHash, windowStart));
        return Optional.ofNullable(e == null ? null : truth(e));
    }

    /** Every window of a workload (any version) with valid reports, by window start then content hash. */
    public synchronized List<WindowTruth> windows(String workloadId) {
        List<WindowTruth> out = new ArrayList<>();
        for (Entry e : windows.values()) {
            if (e.workload.id().equals(workloadId)) {
                out.add(truth(e));
            }
        }
        out.sort(Comparator.comparingLong(WindowTruth::windowStart).thenComparing(WindowTruth::contentHash));
        return out;
    }

    /** The total number of valid reports recorded. */
    public synchronized long total() {
        long n = 0;
        for (Entry e : windows.values()) {
            for (long c : e.counts) {
                n += c;
            }
            if (e.strings != null) {
                for (long c : e.strings.values()) {
                    n += c;
                }
            }
        }
        return n;
    }

    private static WindowTruth truth(Entry e) {
        if (e.strings != null) { // heavy-hitters: every string sent, most frequent first, with its share
            List<Map.Entry<String, Long>> sorted = new ArrayList<>(e.strings.entrySet());
            sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            long n = 0;
            for (Map.Entry<String, Long> x : sorted) {
                n += x.getValue();
            }
            long[] counts = new long[sorted.size()];
            double[] shares = new double[sorted.size()];
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < counts.length; i++) {
                counts[i] = sorted.get(i).getValue();
                shares[i] = (double) counts[i] / n;
                labels.add(sorted.get(i).getKey());
            }
            return new WindowTruth(e.workload.id(), e.workload.contentHash(), e.start,
                    e.start + e.workload.window().sizeMillis(), counts, shares, labels);
        }
        return new WindowTruth(e.workload.id(), e.workload.contentHash(), e.start, e.start + e.workload.window().sizeMillis(),
                e.counts, e.meanAnswer(), e.workload.queryLabels());
    }

    private static String key(String contentHash, long start) {
        return contentHash + "@" + start;
    }
}

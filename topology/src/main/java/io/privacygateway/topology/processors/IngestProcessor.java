package io.privacygateway.topology.processors;

import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.wire.WireFormatException;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.PartialAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportValidator;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.validate.Verdict;
import io.privacygateway.topology.workload.ActiveWorkload;
import io.privacygateway.topology.workload.WorkloadCache;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A shard of the gateway: one task per report-topic partition (reports are keyed by device id, so a
 * device's reports always meet the same ledger; a report on another partition than its device id's is
 * rejected with {@code WRONG_PARTITION}). For each record, in one exactly-once transaction:
 * decode, validate against the registered workload, check the window is still open, check and charge the
 * device's ledger, and add the report to the shard's exact partial aggregate of its window. A window
 * closes at this shard when the shard's watermark (the largest broker append time seen, or the gateway
 * clock minus a slack once the shard has been idle) passes the window's end + grace; its partial then goes
 * to the release step, followed by the shard's progress.
 *
 * <p>Every record either counts or becomes a rejection record (with the original bytes, topic,
 * partition and offset) and a metric increment; undecodable bytes included. The only exception is a
 * schema registry that cannot be reached, which is not the record's fault: that error propagates so the
 * stream thread is replaced and the record retried.
 */
public abstract class IngestProcessor implements Processor<byte[], byte[], Object, Object> {
    public static final String REJECTIONS_SINK = "rejections-sink";
    public static final String PARTIALS_SINK = "partials-sink";
    private static final String WATERMARK_KEY = "watermark";

    protected final GatewayConfig config;
    protected final WorkloadCache cache;
    protected final GatewayMetrics metrics;
    private final String workloadsStore;
    private final String ledgerStoreName;
    private final String partialsStoreName;
    private final String watermarkStoreName;
    private final ReportValidator validator;

    protected ProcessorContext<Object, Object> context;
    protected KeyValueStore<String, byte[]> ledger;
    private KeyValueStore<String, byte[]> partials;
    private KeyValueStore<String, Long> watermarkStore;
    private KeyValueStore<String, String> workloads;
    private final Map<String, long[]> stateCache = new HashMap<>();
    private final Map<String, Long> countCache = new HashMap<>();
    private long watermark = Long.MIN_VALUE;
    private long lastRecordClock;
    /** The earliest stream time at which an open window of this shard closes (MIN_VALUE: unknown, scan). */
    private long nextClose = Long.MIN_VALUE;


    protected IngestProcessor(GatewayConfig config, WorkloadCache cache, GatewayMetrics metrics, String workloadsStore,
            String ledgerStore, String partialsStore, String watermarkStore) {
        this.config = config;
        this.cache = cache;
        this.metrics = metrics;
        this.workloadsStore = workloadsStore;
        this.ledgerStoreName = ledgerStore;
        this.partialsStoreName = partialsStore;
        this.watermarkStoreName = watermarkStore;
        this.validator = new ReportValidator(config.maxFutureSkew(), config.maxEventAge());
    }

    /** The mode of the workloads this shard serves. */
    protected abstract Mode mode();

    /** The report topic this shard reads. */
    protected abstract String topic();

    /** The number of partitions of {@link #topic()} (checked against the topic at start-up). */
    protected abstract int partitions();

    /**
     * The partition a device's reports belong on: Kafka's default partitioner for the device id as key
     * (murmur2 of its UTF-8 bytes). A device's ledger lives with that partition only, so a device that places
     * reports on other partitions itself cannot multiply its budget.
     */
    int partitionOf(String deviceId) {
        return Utils.toPositive(Utils.murmur2(deviceId.getBytes(StandardCharsets.UTF_8))) % partitions();
    }

    /** Decodes a report; {@link WireFormatException}s propagate to be classified. */
    protected abstract ReportView decode(byte[] value);

    /**
     * Mode-specific part: check and charge the ledger and add the report to {@code aggregate} (mutating
     * it). Returns a rejection verdict without changing any state, or {@link Verdict#ACCEPT} after
     * charging.
     */
    protected abstract Verdict admit(ReportView report, ActiveWorkload w, WindowKey window, long[] aggregate);

    /**
     * Whether rejection records carry the original record bytes. Central reports carry raw values, which must
     * not be copied to the rejections topic; their rejections keep topic, partition and offset, so the original
     * can still be found in the report topic (under its retention) by whoever may read it.
     */
    protected boolean copyOriginalBytes() {
        return true;
    }

    /** Called when a window closes at this shard, before its partial is sent (e.g. to drop per-window state). */
    protected void onWindowClosed(WindowKey window) {}

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.ledger = context.getStateStore(ledgerStoreName);
        this.partials = context.getStateStore(partialsStoreName);
        this.watermarkStore = context.getStateStore(watermarkStoreName);
        this.workloads = context.getStateStore(workloadsStore);
        stateCache.clear();
        countCache.clear();
        nextClose = Long.MIN_VALUE;
        Long wm = watermarkStore.get(WATERMARK_KEY);
        watermark = wm == null ? Long.MIN_VALUE : wm;
        lastRecordClock = context.currentSystemTimeMs();
        context.schedule(config.punctuateEvery(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        lastRecordClock = context.currentSystemTimeMs();
        long append = record.timestamp();
        advanceWatermark(append);
        ReportView report;
        try {
            report = decode(record.value());
        } catch (WireFormatException e) {
            if (!e.isRecordFault()) {
                throw e;
            }
            reject(record, null, RejectReason.MALFORMED, e.reason().name() + ": " + e.getMessage());
            return;
        } catch (RuntimeException e) {
            reject(record, null, RejectReason.MALFORMED, "undecodable report: " + e.getClass().getSimpleName());
            return;
        }
        int expected = partitionOf(report.deviceId());
        if (expected != context.taskId().partition()) {
            reject(record, report, RejectReason.WRONG_PARTITION, "device " + report.deviceId() + " belongs on partition "
                    + expected + " of " + topic() + " (its reports are keyed by device id, default partitioner), not "
                    + context.taskId().partition());
            return;
        }
        ActiveWorkload w;
        try {
            w = lookup(report.workloadId());
        } catch (WorkloadCache.BadSpecException e) {
            reject(record, report, RejectReason.UNKNOWN_WORKLOAD, "the registered spec is unusable: " + e.getMessage());
            return;
        }
        Verdict v = validator.check(report, w, mode(), append);
        if (!v.accepted()) {
            reject(record, report, v.reason(), v.message());
            return;
        }
        Duration size = w.spec().window().size();
        Duration grace = w.spec().window().grace();
        WindowKey window = WindowKey.of(w.id(), w.contentHash(), report.eventTime(), size);
        if (window.closedAt(watermark, size, grace)) {
            reject(record, report, RejectReason.LATE, "window [" + window.start() + ", " + window.end(size)
                    + ") closed at this shard (watermark " + watermark + ", grace " + grace.toMillis() + " ms)");
            return;
        }
        String key = window.asString();
        long[] agg = stateCache.get(key);
        long n;
        if (agg == null) {
            byte[] stored = partials.get(key);
            PartialAggregate p = stored == null ? PartialAggregate.empty(w.contentHash(), w.aggregateLength())
                    : PartialAggregate.fromBytes(stored);
            agg = p.state();
            n = p.n();
        } else {
            n = countCache.get(key);
        }
        long[] working = agg.clone();
        v = admit(report, w, window, working);
        if (!v.accepted()) {
            reject(record, report, v.reason(), v.message());
            return;
        }
        stateCache.put(key, working);
        countCache.put(key, n + 1);
        partials.put(key, new PartialAggregate(w.contentHash(), n + 1, working).toBytes());
        metrics.accepted(w.id(), mode().wireName());
        long closes = window.end(size) + grace.toMillis();
        if (nextClose != Long.MIN_VALUE && closes < nextClose) {
            nextClose = closes;
        }
        if (nextClose == Long.MIN_VALUE || watermark >= nextClose) {
            closeWindows();
        }
    }

    private void punctuate(long now) {
        if (now - lastRecordClock >= config.idleAfter().toMillis()) {
            advanceWatermark(now - config.watermarkSlack().toMillis());
        }
        closeWindows();
        int partition = context.taskId().partition();
        if (watermark != Long.MIN_VALUE) {
            for (String id : workloadIds()) {
                context.forward(new Record<>(id, ShardMessage.progress(topic(), partition, watermark).toBytes(), now),
                        PARTIALS_SINK);
            }
        }
        expireLedger();
    }

    private void advanceWatermark(long t) {
        if (t > watermark) {
            watermark = t;
            watermarkStore.put(WATERMARK_KEY, t);
        }
    }

    /**
     * Sends and removes every partial whose window has closed at this shard's watermark, followed by the
     * shard's progress for the workloads concerned (so the release step need not wait for the next
     * punctuation), and recomputes the earliest pending close time.
     */
    private void closeWindows() {
        List<KeyValue<String, byte[]>> closed = new ArrayList<>();
        long earliest = Long.MAX_VALUE;
        try (KeyValueIterator<String, byte[]> it = partials.all()) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                WindowKey k = WindowKey.parse(kv.key);
                ActiveWorkload w = cache.byHash(k.contentHash());
                if (w == null || k.closedAt(watermark, w.spec().window().size(), w.spec().window().grace())) {
                    closed.add(kv);
                } else {
                    earliest = Math.min(earliest, k.end(w.spec().window().size()) + w.spec().window().grace().toMillis());
                }
            }
        }
        nextClose = earliest;
        int partition = context.taskId().partition();
        java.util.Set<String> touched = new java.util.TreeSet<>();
        for (KeyValue<String, byte[]> kv : closed) {
            WindowKey k = WindowKey.parse(kv.key);
            onWindowClosed(k);
            context.forward(new Record<>(k.workloadId(),
                    ShardMessage.partial(topic(), partition, k, PartialAggregate.fromBytes(kv.value)).toBytes(),
                    Math.max(0, watermark)), PARTIALS_SINK);
            partials.delete(kv.key);
            stateCache.remove(kv.key);
            countCache.remove(kv.key);
            touched.add(k.workloadId());
        }
        for (String id : touched) {
            context.forward(new Record<>(id, ShardMessage.progress(topic(), partition, watermark).toBytes(),
                    Math.max(0, watermark)), PARTIALS_SINK);
        }
    }

    /** Deletes ledger entries of periods that ended more than the retention ago. */
    private void expireLedger() {
        if (watermark == Long.MIN_VALUE) {
            return;
        }
        for (String id : workloadIds()) {
            ActiveWorkload w = lookupQuietly(id);
            if (w == null) {
                continue;
            }
            long cutoff = Math.floorDiv(watermark, w.periodMillis()) - config.ledgerRetentionPeriods();
            if (cutoff <= 0) {
                continue;
            }
            List<String> old = new ArrayList<>();
            try (KeyValueIterator<String, byte[]> it = ledger.range(ledgerPrefix(id, 0), ledgerPrefix(id, cutoff))) {
                while (it.hasNext()) {
                    old.add(it.next().key);
                }
            }
            old.forEach(ledger::delete);
        }
    }

    /** The ledger key of a device: {@code <workload>|<period, 19 digits>|<device>} (range-scannable by period). */
    protected static String ledgerKey(String workloadId, long period, String deviceId) {
        return ledgerPrefix(workloadId, period) + deviceId;
    }

    private static String ledgerPrefix(String workloadId, long period) {
        String digits = Long.toString(Math.max(0, period));
        StringBuilder sb = new StringBuilder(workloadId.length() + 21 + 16).append(workloadId).append('|');
        for (int i = digits.length(); i < 19; i++) {
            sb.append('0'); // fixed width, so keys sort by period
        }
        return sb.append(digits).append('|').toString();
    }

    private List<String> workloadIds() {
        List<String> ids = new ArrayList<>();
        try (KeyValueIterator<String, String> it = workloads.all()) {
            while (it.hasNext()) {
                KeyValue<String, String> kv = it.next();
                if (WorkloadsProcessor.isSpecKey(kv.key)) {
                    continue;
                }
                ActiveWorkload w = lookupQuietly(kv.key);
                if (w != null && w.mode() == mode()) {
                    ids.add(kv.key);
                }
            }
        }
        return ids;
    }

    private ActiveWorkload lookup(String id) {
        String hash = id == null ? null : workloads.get(id);
        if (hash == null) {
            return null;
        }
        ActiveWorkload w = cache.byHash(hash);
        if (w != null) {
            return w;
        }
        String json = workloads.get(WorkloadsProcessor.specKey(hash));
        return json == null ? null : cache.get(json, hash);
    }

    private ActiveWorkload lookupQuietly(String id) {
        try {
            return lookup(id);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Writes a rejection record and counts it. Never logs payloads or raw values. */
    protected void reject(Record<byte[], byte[]> record, ReportView report, RejectReason reason, String message) {
        metrics.rejected(reason, report == null ? null : report.workloadId());
        RecordMetadata md = context.recordMetadata().orElse(null);
        Rejection r = Rejection.newBuilder()
                .setReasonCode(RejectionReason.valueOf(reason.name()))
                .setMessage(message)
                .setWorkloadId(report == null ? null : report.workloadId())
                .setDeviceId(report == null ? null : report.deviceId())
                .setOriginalTopic(md == null ? topic() : md.topic())
                .setOriginalPartition(md == null ? -1 : md.partition())
                .setOriginalOffset(md == null ? -1 : md.offset())
                .setOriginalKey(record.key() == null ? null : ByteBuffer.wrap(record.key()))
                .setOriginalValue(record.value() == null || !copyOriginalBytes() ? null : ByteBuffer.wrap(record.value()))
                .setRejectedAtStreamTime(Math.max(0, watermark))
                .build();
        context.forward(new Record<Object, Object>(record.key(), r, record.timestamp()), REJECTIONS_SINK);
    }
}

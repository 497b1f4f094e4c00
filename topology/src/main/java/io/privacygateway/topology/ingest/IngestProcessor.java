package io.privacygateway.topology.ingest;

import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.wire.WireFormatException;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.clock.CaughtUpClock;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.state.WriteBehindStore;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.validate.ReportView;
import io.privacygateway.topology.wire.ShardMessage;
import io.privacygateway.topology.workload.Registration;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shard of the gateway: one task per report-topic partition. For each record, in one exactly-once
 * transaction: bound and decode it, check the device's identity (the record key is the device id, the
 * partition is that id's, and in enrolled mode a credential proves it), validate it against the registered
 * workload version, check that its window is open and answered by this version, admit it against the
 * device's budget in exact ε ({@link ResolvedWorkload#admit}, the device SDK's rule too), and add it to the
 * shard's exact aggregate of its window — in place, serialized once per commit, not per report.
 *
 * <p><b>Watermark.</b> A window closes at this shard when its watermark passes the window's end + grace; its
 * partial then goes to the release step, followed by the shard's progress. Local shards take the largest broker
 * append time seen; central shards do not (whether one device reported must not decide when an answer
 * appears). Both advance, while caught up, to the broker's time minus a slack as told by the
 * {@link CaughtUpClock}, which never uses the gateway's wall clock and stands still while the broker cannot be
 * read, so a backlog after an outage is not judged late.
 *
 * <p><b>Nothing is lost, nothing crash-loops.</b> Every record either counts or becomes a bounded
 * {@link Rejections rejection record} and a metric increment, undecodable bytes and defects in processing
 * ({@code PROCESSING_ERROR}) included. A report is decided completely before any state changes, so a defect
 * that throws while deciding leaves nothing half-done. Only infrastructure failures propagate (an unreachable
 * schema registry, a store or producer error), so the stream thread retries the record.
 */
public final class IngestProcessor implements Processor<byte[], byte[], Object, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(IngestProcessor.class);
    public static final String REJECTIONS_SINK = "rejections-sink";
    public static final String PARTIALS_SINK = "partials-sink";
    /** Device ledgers visited per punctuation at most by the sweep that forgets expired charges. */
    static final int EXPIRY_BATCH = 1000;

    private final GatewayConfig config;
    private final ReportMode mode;
    private final WorkloadCatalog catalog;
    private final GatewayMetrics metrics;
    private final CaughtUpClock caughtUp;
    private final LongSupplier monotonicMillis;
    private final IngestStores stores;
    private final String topic;

    private ProcessorContext<Object, Object> context;
    private WriteBehindStore<WindowKey, WindowAggregate> aggregates;
    private WriteBehindStore<String, Long> watermarks;
    private DeviceLedgers budgets;
    private ReportAdmission admission;
    private long watermark = Long.MIN_VALUE;
    private long nextOffset = -1;
    /** The earliest close time of an open window of this shard (MAX_VALUE: none). */
    private long nextClose = Long.MAX_VALUE;
    private final Map<String, Long> progressSentAt = new HashMap<>();
    private long lastHeartbeat;

    IngestProcessor(GatewayConfig config, ReportMode mode, WorkloadCatalog catalog, GatewayMetrics metrics,
            CaughtUpClock caughtUp, LongSupplier monotonicMillis, IngestStores stores) {
        this.config = config;
        this.mode = mode;
        this.catalog = catalog;
        this.metrics = metrics;
        this.caughtUp = caughtUp;
        this.monotonicMillis = monotonicMillis;
        this.stores = stores;
        this.topic = config.reportsTopic(mode.mode());
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.aggregates = context.getStateStore(stores.aggregates());
        this.watermarks = context.getStateStore(stores.watermarks());
        this.budgets = new DeviceLedgers(context.getStateStore(stores.ledgers()), context.getStateStore(stores.forgotten()));
        this.admission = new ReportAdmission(config, mode, catalog, metrics, budgets, aggregates);
        aggregates.loadAll();
        watermarks.loadAll();
        Long wm = watermarks.get(mode.mode().wireName());
        watermark = wm == null ? Long.MIN_VALUE : wm;
        nextOffset = -1;
        progressSentAt.clear();
        nextClose = computeNextClose();
        lastHeartbeat = monotonicMillis.getAsLong();
        context.schedule(config.punctuateEvery(), PunctuationType.WALL_CLOCK_TIME, t -> punctuate());
    }

    /** The task is closed (its partition revoked, or the gateway stopping): its shard's gauge goes with it. */
    @Override
    public void close() {
        if (context != null) {
            metrics.removeWatermarkLag(topic, context.taskId().partition());
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata md = context.recordMetadata().orElse(null);
        if (md != null) {
            nextOffset = md.offset() + 1;
        }
        if (mode.mode() == Mode.LOCAL) {
            advanceWatermark(record.timestamp());
        }
        byte[] value = record.value();
        if (value == null || value.length > config.maxReportBytes()) {
            reject(record, null, RejectReason.MALFORMED, value == null ? "empty record (tombstone)"
                    : "a record of " + value.length + " bytes exceeds the largest report (" + config.maxReportBytes()
                    + " bytes)");
            return;
        }
        ReportView report;
        try {
            report = mode.decode(topic, value);
        } catch (WireFormatException e) {
            // the registry is unreachable: not the record's fault, retry it; but a schema id not checked because a
            // flood of unknown ids spent the listing allowance is refused, so a flood cannot stall the shard
            if (!e.isRecordFault() && e.reason() != WireFormatException.Reason.SCHEMA_NOT_CHECKED) {
                throw e;
            }
            reject(record, null, RejectReason.MALFORMED, e.reason().name() + ": " + e.getMessage());
            return;
        } catch (RuntimeException e) {
            reject(record, null, RejectReason.MALFORMED, "undecodable report: " + e.getClass().getSimpleName());
            return;
        }
        try {
            handle(record, report);
        } catch (KafkaException e) { // StreamsException, WireFormatException (registry unreachable) included
            throw e; // infrastructure: retried with the record
        } catch (RuntimeException e) {
            LOG.error("processing a report of {}-{} at offset {} failed; it is rejected PROCESSING_ERROR", topic,
                    context.taskId().partition(), md == null ? -1 : md.offset(), e);
            reject(record, report, RejectReason.PROCESSING_ERROR, "processing failed: " + e.getClass().getSimpleName());
        }
    }

    private void handle(Record<byte[], byte[]> record, ReportView report) {
        if (admission.admit(record.key(), record.headers(), report, record.timestamp(), watermark,
                context.taskId().partition())) {
            nextClose = Math.min(nextClose, admission.newWindowCloses());
            if (watermark >= nextClose) {
                closeWindows();
            }
        } else {
            reject(record, admission.rejectedWithReport() ? report : null, admission.reason(), admission.message());
        }
    }

    private void punctuate() {
        OptionalLong broker = caughtUp.caughtUpTo(topic, context.taskId().partition(), nextOffset);
        if (broker.isPresent()) {
            advanceWatermark(broker.getAsLong() - config.watermarkSlack().toMillis());
        }
        closeWindows();
        sendProgress();
        if (mode.mode() == Mode.LOCAL) { // one sweep per shard over the ledgers both modes share
            budgets.sweep(LedgerCutoffs.of(catalog, this::watermarkOf), EXPIRY_BATCH,
                    c -> metrics.deviceSpend(c.workloadId(), c.epsilon().doubleValue()));
        }
    }

    /** The shard's watermark of mode {@code m} ({@code Long.MIN_VALUE} if it has none yet). */
    private long watermarkOf(Mode m) {
        if (m == mode.mode()) {
            return watermark;
        }
        Long w = watermarks.get(m.wireName());
        return w == null ? Long.MIN_VALUE : w;
    }

    private void advanceWatermark(long t) {
        if (t > watermark) {
            watermark = t;
            watermarks.put(mode.mode().wireName(), t);
        }
    }

    /** The earliest close time of the open windows held (MAX_VALUE: none). */
    private long computeNextClose() {
        long[] earliest = {Long.MAX_VALUE};
        aggregates.forEach((k, a) -> {
            ResolvedWorkload w = resolve(k.contentHash());
            if (w != null) {
                earliest[0] = Math.min(earliest[0], w.window().closesAt(k.start()));
            } else {
                earliest[0] = Long.MIN_VALUE; // unknown version: let the next close pass handle it
            }
        });
        return earliest[0];
    }

    private ResolvedWorkload resolve(String contentHash) {
        try {
            return catalog.byHash(contentHash);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Sends and removes every partial whose window has closed at this shard's watermark, then the shard's
     * progress for the workloads concerned (so the release step need not wait for the next punctuation), and
     * requests a commit so the release step sees them at once.
     */
    private void closeWindows() {
        if (watermark == Long.MIN_VALUE || watermark < nextClose) {
            return;
        }
        List<WindowKey> closed = new ArrayList<>();
        List<WindowAggregate> values = new ArrayList<>();
        long[] earliest = {Long.MAX_VALUE};
        aggregates.forEach((k, a) -> {
            ResolvedWorkload w = resolve(k.contentHash());
            if (w == null || w.window().closedAt(k.start(), watermark)) {
                closed.add(k);
                values.add(a);
            } else {
                earliest[0] = Math.min(earliest[0], w.window().closesAt(k.start()));
            }
        });
        nextClose = earliest[0];
        if (closed.isEmpty()) {
            return;
        }
        int partition = context.taskId().partition();
        TreeSet<String> touched = new TreeSet<>();
        for (int i = 0; i < closed.size(); i++) {
            WindowKey k = closed.get(i);
            context.forward(new Record<>(k.workloadId(), new ShardMessage.Partial(mode.mode(), partition, k,
                    values.get(i)).toBytes(), Math.max(0, watermark)), PARTIALS_SINK);
            aggregates.delete(k);
            touched.add(k.workloadId());
        }
        for (String id : touched) {
            forwardProgress(id);
        }
        context.commit();
    }

    /**
     * Sends this shard's progress for each workload whose next window close it has passed since it last told the
     * release step, and for all of them every heartbeat interval (workloads of either mode: an earlier version of
     * this shard's mode may still have windows to release).
     */
    private void sendProgress() {
        if (watermark == Long.MIN_VALUE) {
            return;
        }
        long now = monotonicMillis.getAsLong();
        boolean heartbeat = now - lastHeartbeat >= config.progressHeartbeat().toMillis();
        boolean any = false;
        // every workload, whatever its current mode: a version of another mode may still have windows of this mode to
        // release (a new version that moves a workload between modes answers the old mode's window of the switch)
        for (Registration r : catalog.registrations()) {
            ResolvedWorkload w = r.workload();
            Long sent = progressSentAt.get(r.id());
            boolean due = heartbeat || sent == null;
            if (!due) {
                WorkloadSpec.Window win = w.window();
                long lastClosedStart = win.startOf(sent - win.sizeMillis() - win.graceMillis());
                long nextThreshold = win.closesAt(lastClosedStart + win.sizeMillis());
                due = watermark >= nextThreshold;
            }
            if (due) {
                forwardProgress(r.id());
                any = true;
            }
        }
        if (heartbeat) {
            lastHeartbeat = now;
        }
        if (any) {
            context.commit();
        }
        metrics.watermarkLag(topic, context.taskId().partition(), Duration.ofMillis(Math.max(0,
                context.currentSystemTimeMs() - watermark)));
    }

    private void forwardProgress(String workloadId) {
        context.forward(new Record<>(workloadId, new ShardMessage.Progress(mode.mode(), context.taskId().partition(),
                watermark).toBytes(), Math.max(0, watermark)), PARTIALS_SINK);
        progressSentAt.put(workloadId, watermark);
    }

    /** Writes a bounded rejection record and counts it. Never logs payloads or raw values. */
    private void reject(Record<byte[], byte[]> record, ReportView report, RejectReason reason, String message) {
        String workloadId = report == null ? null : report.workloadId();
        try {
            metrics.rejected(reason, workloadId);
        } catch (RuntimeException e) {
            LOG.warn("a metric could not be updated: {}", e.toString());
        }
        RecordMetadata md = context.recordMetadata().orElse(null);
        context.forward(new Record<Object, Object>(Rejections.key(record.key()), Rejections.build(reason, message,
                workloadId, report == null ? null : report.deviceId(), md == null ? topic : md.topic(),
                md == null ? -1 : md.partition(), md == null ? -1 : md.offset(), record.key(), record.value(),
                mode.copiesOriginalValue(), watermark), record.timestamp()), REJECTIONS_SINK);
    }
}

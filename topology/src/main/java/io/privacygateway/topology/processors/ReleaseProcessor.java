package io.privacygateway.topology.processors;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.accounting.PrivacyEvent;
import io.privacygateway.mechanisms.accounting.PrivacyLedger;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.PartialAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.workload.ActiveWorkload;
import io.privacygateway.topology.workload.WorkloadCache;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release step, one task per partition of the internal partials topic (keyed by workload id, so all
 * of a workload's windows meet here). It merges the shards' exact partial aggregates of each window and
 * tracks every shard's progress; once every partition of the workload's report topic has passed a
 * window's end + grace, the window is released exactly once, in the same transaction that deletes its
 * aggregate and records the release: estimation and projection or chaining (local mode) or noise,
 * projection and purification (central mode), error bars, and the answer record. Released windows are
 * remembered so a partial arriving afterwards (which the shards' watermarks make impossible) could never
 * cause a second release; it would be counted in {@code pgw.windows.discarded}.
 */
public final class ReleaseProcessor implements Processor<String, byte[], String, WindowAnswer> {
    private static final Logger LOG = LoggerFactory.getLogger(ReleaseProcessor.class);
    public static final String ANSWERS_SINK = "answers-sink";

    private final GatewayConfig config;
    private final WorkloadCache cache;
    private final GatewayMetrics metrics;
    private final CentralReleaser central;
    private final String workloadsStoreName;
    private final String mergedStoreName;
    private final String progressStoreName;
    private final String releasedStoreName;
    private final String accountingStoreName;
    private ProcessorContext<String, WindowAnswer> context;
    private KeyValueStore<String, String> workloads;
    private KeyValueStore<String, byte[]> merged;
    private KeyValueStore<String, Long> progress;
    private KeyValueStore<String, Long> released;
    private KeyValueStore<String, byte[]> accounting;

    public ReleaseProcessor(GatewayConfig config, WorkloadCache cache, GatewayMetrics metrics, CentralReleaser central,
            String workloadsStore, String mergedStore, String progressStore, String releasedStore,
            String accountingStore) {
        this.config = config;
        this.cache = cache;
        this.metrics = metrics;
        this.central = central;
        this.workloadsStoreName = workloadsStore;
        this.mergedStoreName = mergedStore;
        this.progressStoreName = progressStore;
        this.releasedStoreName = releasedStore;
        this.accountingStoreName = accountingStore;
    }

    @Override
    public void init(ProcessorContext<String, WindowAnswer> context) {
        this.context = context;
        workloads = context.getStateStore(workloadsStoreName);
        merged = context.getStateStore(mergedStoreName);
        progress = context.getStateStore(progressStoreName);
        released = context.getStateStore(releasedStoreName);
        accounting = context.getStateStore(accountingStoreName);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        ShardMessage msg = ShardMessage.fromBytes(record.value());
        String workloadId = record.key();
        if (msg.kind() == ShardMessage.Kind.PARTIAL) {
            String key = msg.window().asString();
            if (released.get(key) != null) {
                metrics.discarded(workloadId, "partial-after-release");
                LOG.error("a partial for the already released window {} arrived from {}-{}; not counted", key,
                        msg.sourceTopic(), msg.sourcePartition());
                return;
            }
            byte[] prior = merged.get(key);
            PartialAggregate sum = prior == null ? msg.partial() : PartialAggregate.fromBytes(prior).plus(msg.partial());
            merged.put(key, sum.toBytes());
        } else {
            String key = progressKey(workloadId, msg.sourceTopic(), msg.sourcePartition());
            Long prior = progress.get(key);
            if (prior == null || msg.watermark() > prior) {
                progress.put(key, msg.watermark());
            }
        }
        releaseReady(workloadId, record.timestamp());
    }

    private void releaseReady(String workloadId, long streamTime) {
        List<KeyValue<String, byte[]>> ready = new ArrayList<>();
        try (KeyValueIterator<String, byte[]> it = merged.prefixScan(workloadId + "#", new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, byte[]> kv = it.next();
                WindowKey k = WindowKey.parse(kv.key);
                ActiveWorkload w = resolve(k);
                if (w == null) {
                    metrics.discarded(workloadId, "unknown-version");
                    LOG.warn("window {} belongs to a workload version this gateway no longer knows; not released", kv.key);
                    ready.add(new KeyValue<>(kv.key, null));
                    continue;
                }
                if (k.closedAt(minimumProgress(w), w.spec().window().size(), w.spec().window().grace())) {
                    ready.add(kv);
                }
            }
        }
        for (KeyValue<String, byte[]> kv : ready) {
            merged.delete(kv.key);
            if (kv.value == null) {
                continue;
            }
            WindowKey k = WindowKey.parse(kv.key);
            release(resolve(k), k, PartialAggregate.fromBytes(kv.value), streamTime);
            released.put(kv.key, k.start());
        }
        pruneReleased(workloadId);
    }

    private void release(ActiveWorkload w, WindowKey window, PartialAggregate agg, long streamTime) {
        if (agg.n() < 1) {
            return;
        }
        Answer a;
        if (w.mode() == Mode.LOCAL) {
            a = w.local().release().release(agg.state(), agg.n());
        } else if (central != null) {
            a = central.release(w, agg.state(), agg.n());
        } else {
            metrics.discarded(w.id(), "central-mode-disabled");
            return;
        }
        double cumulative = 0;
        if (w.mode() == Mode.CENTRAL) {
            byte[] stored = accounting.get(w.id());
            PrivacyLedger ledger = stored == null ? new PrivacyLedger() : PrivacyLedger.fromBytes(stored);
            ledger.append(PrivacyEvent.of(a.mechanism().wireName(), PrivacyCost.pure(a.epsilon()),
                    Instant.ofEpochMilli(window.end(w.spec().window().size())),
                    Map.of("n", (double) a.n(), "windowStart", (double) window.start())));
            accounting.put(w.id(), ledger.toBytes());
            cumulative = ledger.spentPure();
        }
        WindowAnswer record = AnswerRecords.toRecord(a, w, window, cumulative, streamTime);
        context.forward(new Record<>(w.id(), record, window.end(w.spec().window().size())), ANSWERS_SINK);
        metrics.published(w.id(), w.mode().wireName());
    }

    /** The smallest watermark over every partition of the workload's report topic (MIN_VALUE if one is missing). */
    private long minimumProgress(ActiveWorkload w) {
        String topic = w.mode() == Mode.LOCAL ? config.localReportsTopic() : config.centralReportsTopic();
        int partitions = w.mode() == Mode.LOCAL ? config.localPartitions() : config.centralPartitions();
        long min = Long.MAX_VALUE;
        for (int p = 0; p < partitions; p++) {
            Long wm = progress.get(progressKey(w.id(), topic, p));
            if (wm == null) {
                return Long.MIN_VALUE;
            }
            min = Math.min(min, wm);
        }
        return min;
    }

    private ActiveWorkload resolve(WindowKey k) {
        ActiveWorkload w = cache.byHash(k.contentHash());
        if (w != null) {
            return w;
        }
        String json = workloads.get(WorkloadsProcessor.specKey(k.contentHash()));
        if (json == null) {
            return null;
        }
        try {
            return cache.get(json, k.contentHash());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Forgets release markers of windows far behind every shard (they can no longer receive partials). */
    private void pruneReleased(String workloadId) {
        List<String> old = new ArrayList<>();
        try (KeyValueIterator<String, Long> it = released.prefixScan(workloadId + "#", new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, Long> kv = it.next();
                WindowKey k = WindowKey.parse(kv.key);
                ActiveWorkload w = cache.byHash(k.contentHash());
                if (w == null) {
                    continue;
                }
                Duration size = w.spec().window().size();
                long keep = 10 * size.toMillis() + w.spec().window().grace().toMillis();
                long min = minimumProgress(w);
                if (min != Long.MIN_VALUE && k.end(size) + keep < min) {
                    old.add(kv.key);
                }
            }
        }
        old.forEach(released::delete);
    }

    static String progressKey(String workloadId, String topic, int partition) {
        return workloadId + "|" + topic + "|" + partition;
    }
}

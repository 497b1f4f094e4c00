package io.privacygateway.topology;

import io.privacygateway.topology.processors.CentralIngestProcessor;
import io.privacygateway.topology.processors.CentralReleaser;
import io.privacygateway.topology.processors.IngestProcessor;
import io.privacygateway.topology.processors.LocalIngestProcessor;
import io.privacygateway.topology.processors.ReleaseProcessor;
import io.privacygateway.topology.processors.WorkloadsProcessor;
import io.privacygateway.topology.workload.WorkloadCache;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Builds the gateway's Kafka Streams topology from a configuration (kept apart from any {@code main}).
 *
 * <pre>
 *  workloads topic ──► [global store: workload id → resolved spec]
 *  local reports ──► local-ingest  (decode, validate, ledger, exact shard aggregate) ─┐
 *  central reports ─► central-ingest (decode, validate, contribution limit, ledger, counts) ─┤
 *        │ rejections ──► rejections topic                                             │ partials + progress
 *        ▼                                                                             ▼ (keyed by workload)
 *                                   partials topic ──► release (merge, wait for every shard, release once)
 *                                                                  └──► answers topic
 * </pre>
 * Every store is changelogged; with {@code processing.guarantee=exactly_once_v2} (the gateway's default)
 * the ledger update, the aggregation and the records that depend on them commit in one transaction.
 */
public final class GatewayTopologyFactory {
    public static final String WORKLOADS_STORE = "workloads";

    private GatewayTopologyFactory() {}

    /**
     * @param central how central-mode windows are released (noise and purification), or {@code null}
     *     to count and discard them (central mode disabled)
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Topology build(GatewayConfig cfg, GatewaySerdes serdes, GatewayMetrics metrics, WorkloadCache cache,
            CentralReleaser central) {
        Topology t = new Topology();
        t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(WORKLOADS_STORE), Serdes.String(),
                        Serdes.String()).withLoggingDisabled(),
                "workloads-source", new StringDeserializer(), new ByteArrayDeserializer(), cfg.workloadsTopic(),
                "workloads-processor",
                () -> new WorkloadsProcessor(WORKLOADS_STORE, cfg.workloadsTopic(), serdes.workloads(), cache, metrics));

        t.addSource("local-source", new ByteArrayDeserializer(), new ByteArrayDeserializer(), cfg.localReportsTopic());
        t.addProcessor("local-ingest", () -> new LocalIngestProcessor(cfg, cache, metrics, serdes.localReports(),
                WORKLOADS_STORE, "local-ledger", "local-partials", "local-watermark"), "local-source");
        t.addStateStore(ledgerStore("local-ledger"), "local-ingest");
        t.addStateStore(bytesStore("local-partials", false), "local-ingest");
        t.addStateStore(longStore("local-watermark"), "local-ingest");

        t.addSource("central-source", new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                cfg.centralReportsTopic());
        t.addProcessor("central-ingest", () -> new CentralIngestProcessor(cfg, cache, metrics, serdes.centralReports(),
                WORKLOADS_STORE, "central-ledger", "central-partials", "central-watermark", "central-contributions"),
                "central-source");
        t.addStateStore(ledgerStore("central-ledger"), "central-ingest");
        t.addStateStore(bytesStore("central-partials", false), "central-ingest");
        t.addStateStore(longStore("central-watermark"), "central-ingest");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("central-contributions"),
                Serdes.String(), Serdes.Integer()).withCachingDisabled(), "central-ingest");

        t.addSink(IngestProcessor.REJECTIONS_SINK, cfg.rejectionsTopic(), (Serializer) new ByteArraySerializer(),
                (Serializer) serdes.rejections(), "local-ingest", "central-ingest");
        t.addSink(IngestProcessor.PARTIALS_SINK, cfg.partialsTopic(), (Serializer) new StringSerializer(),
                (Serializer) new ByteArraySerializer(), "local-ingest", "central-ingest");

        t.addSource("partials-source", new StringDeserializer(), new ByteArrayDeserializer(), cfg.partialsTopic());
        t.addProcessor("release", () -> new ReleaseProcessor(cfg, cache, metrics, central, WORKLOADS_STORE,
                "release-merged", "release-progress", "release-released", "release-accounting"), "partials-source");
        t.addStateStore(bytesStore("release-merged", false), "release");
        t.addStateStore(longStore("release-progress"), "release");
        t.addStateStore(longStore("release-released"), "release");
        t.addStateStore(bytesStore("release-accounting", true), "release");
        t.addSink(ReleaseProcessor.ANSWERS_SINK, cfg.answersTopic(), new StringSerializer(), serdes.answers(),
                "release");
        return t;
    }

    /**
     * A device ledger: persistent, and <em>not</em> cached. Ledger keys are written about once per report
     * (one device, one period), so a cache would only fill up, and Kafka Streams evicts from the store being
     * written when the thread cache is full; that would keep flushing the small, hot window aggregates to
     * their changelog on every report.
     */
    private static StoreBuilder<KeyValueStore<String, byte[]>> ledgerStore(String name) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), Serdes.ByteArray())
                .withCachingDisabled();
    }

    private static StoreBuilder<KeyValueStore<String, byte[]>> bytesStore(String name, boolean persistent) {
        KeyValueBytesStoreSupplier s = persistent ? Stores.persistentKeyValueStore(name)
                : Stores.inMemoryKeyValueStore(name);
        return Stores.keyValueStoreBuilder(s, Serdes.String(), Serdes.ByteArray()).withCachingEnabled();
    }

    private static StoreBuilder<KeyValueStore<String, Long>> longStore(String name) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), Serdes.Long())
                .withCachingEnabled();
    }
}

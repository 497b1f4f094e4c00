package io.privacygateway.topology.service;

import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.topology.answers.AnswersStore;
import io.privacygateway.topology.answers.AnswersStoreProcessor;
import io.privacygateway.topology.clock.CaughtUpClock;
import io.privacygateway.topology.ingest.IngestProcessor;
import io.privacygateway.topology.ingest.IngestSupplier;
import io.privacygateway.topology.ingest.ReportMode;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.topology.release.ReleaseProcessor;
import io.privacygateway.topology.release.ReleaseSupplier;
import io.privacygateway.topology.workload.Registration;
import io.privacygateway.topology.workload.WorkloadCatalog;
import io.privacygateway.topology.workload.WorkloadsProcessor;
import java.util.function.LongSupplier;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds the gateway's Kafka Streams topology from its parts (kept apart from any {@code main}). Each processor
 * supplier declares the stores it owns.
 *
 * <pre>
 *  workloads topic ──► [global store + catalog: workload id → active version, specs by content hash]
 *  local reports ──► local ingest  ─┐ (identity, validation, device budget in exact ε, window aggregate)
 *  central reports ─► central ingest ┤── rejections topic (bounded records, reason codes)
 *                                    └─► &lt;applicationId&gt;-partials (window partials + shard progress, by workload)
 *                                            └─► release (merge, wait for every shard, every scheduled window once)
 *                                                   ├──► answers topic
 *                                                   └──► synthetic topic (wide workloads with central.synthetic)
 *  answers topic ──► [global answers store (GatewayConfig.answersStore): every retained answer, for the answers API]
 * </pre>
 * Every store is changelogged; with {@code processing.guarantee=exactly_once_v2} (the gateway's default) the
 * budget update, the aggregation and the records that depend on them commit in one transaction.
 */
public final class GatewayTopologyFactory {
    public static final String WORKLOADS_STORE = "workloads";

    private GatewayTopologyFactory() {}

    /**
     * The parts a topology is built from.
     *
     * @param config topics, partitions, timing, device authentication
     * @param serdes the wire-format (de)serializers
     * @param metrics the meters
     * @param catalog the instance's workload catalog (shared with the global thread)
     * @param central how central windows are released (secret noise)
     * @param caughtUp how idle shards learn the broker's time
     * @param monotonicMillis a monotonic clock (heartbeats), never the wall clock
     */
    public record Parts(GatewayConfig config, GatewaySerdes serdes, GatewayMetrics metrics, WorkloadCatalog catalog,
            CentralReleaser central, CaughtUpClock caughtUp, LongSupplier monotonicMillis) {}

    /**
     * Whether a budget (a workload id or {@code group:<name>}) is charged by central reports: a workload one of
     * whose versions this instance has seen is central (its ledger charges may be of that version), or a group
     * with a central member.
     */
    static boolean countsCentralReports(WorkloadCatalog catalog, String budget) {
        if (budget == null) {
            return false;
        }
        if (!budget.startsWith("group:")) {
            for (Registration r : catalog.history(budget)) {
                if (r.workload() != null && r.workload().mode() == Mode.CENTRAL) {
                    return true;
                }
            }
            Registration r = catalog.current(budget);
            return r != null && r.workload() != null && r.workload().mode() == Mode.CENTRAL;
        }
        for (Registration r : catalog.registrations()) {
            if (r.workload().mode() == Mode.CENTRAL && r.workload().group().isPresent()
                    && r.workload().group().get().budgetKey().equals(budget)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Topology build(Parts p) {
        GatewayConfig cfg = p.config();
        p.metrics().registeredIds(id -> p.catalog().current(id) != null);
        p.metrics().centralCounts(cfg.exactCentralCounts(), budget -> countsCentralReports(p.catalog(), budget));
        Topology t = new Topology();
        t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(WORKLOADS_STORE), Serdes.String(),
                        Serdes.String()).withLoggingDisabled(),
                "workloads-source", new StringDeserializer(), new ByteArrayDeserializer(), cfg.workloadsTopic(),
                "workloads-processor",
                () -> new WorkloadsProcessor(WORKLOADS_STORE, cfg.workloadsTopic(), p.serdes().workloads(), p.catalog(),
                        p.metrics()));

        if (cfg.answersStore()) {
            // RocksDB: the whole retained history, on disk; global: every instance answers every query itself
            t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(AnswersStore.NAME),
                            Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled(),
                    "answers-store-source", new StringDeserializer(), new ByteArrayDeserializer(), cfg.answersTopic(),
                    "answers-store-processor",
                    () -> new AnswersStoreProcessor(AnswersStore.NAME, cfg.answersTopic(), p.serdes().answersReader(),
                            cfg.answersRetentionMs()));
        }

        t.addSource("local-source", new ByteArrayDeserializer(), new ByteArrayDeserializer(), cfg.localReportsTopic());
        t.addProcessor("local-ingest", new IngestSupplier(cfg, new ReportMode.LocalReports(p.serdes().localReports()),
                p.catalog(), p.metrics(), p.caughtUp(), p.monotonicMillis()), "local-source");
        t.addSource("central-source", new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                cfg.centralReportsTopic());
        t.addProcessor("central-ingest", new IngestSupplier(cfg,
                new ReportMode.CentralReports(p.serdes().centralReports()), p.catalog(), p.metrics(), p.caughtUp(),
                p.monotonicMillis()), "central-source");
        // one device ledger per shard for both modes: both ingest processors share these stores (one task owns
        // partition p of both report topics)
        for (var store : IngestSupplier.sharedStores()) {
            t.addStateStore(store, "local-ingest", "central-ingest");
        }

        t.addSink(IngestProcessor.REJECTIONS_SINK, cfg.rejectionsTopic(), (Serializer) new ByteArraySerializer(),
                (Serializer) p.serdes().rejections(), "local-ingest", "central-ingest");
        t.addSink(IngestProcessor.PARTIALS_SINK, cfg.partialsTopic(), (Serializer) new StringSerializer(),
                (Serializer) new ByteArraySerializer(), "local-ingest", "central-ingest");

        t.addSource("partials-source", new StringDeserializer(), new ByteArrayDeserializer(), cfg.partialsTopic());
        t.addProcessor("release", new ReleaseSupplier(cfg, p.catalog(), p.metrics(), p.central(), p.monotonicMillis()), "partials-source");
        t.addSink(ReleaseProcessor.ANSWERS_SINK, cfg.answersTopic(), new StringSerializer(),
                (Serializer) p.serdes().answers(), "release");
        t.addSink(ReleaseProcessor.SYNTHETIC_SINK, cfg.syntheticTopic(), new StringSerializer(),
                (Serializer) p.serdes().synthetic(), "release");
        return t;
    }
}

package io.privacygateway.topology.ingest;

import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.clock.CaughtUpClock;
import io.privacygateway.topology.state.StateSerdes;
import io.privacygateway.topology.state.WriteBehindStoreBuilder;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Supplies the ingest processor of one mode and declares the store it owns (open window aggregates: live objects,
 * written once per commit); the device ledgers (RocksDB), forgotten times and watermarks are shared by both modes
 * ({@link #sharedStores()}). All are changelogged.
 */
public final class IngestSupplier implements ProcessorSupplier<byte[], byte[], Object, Object> {
    private final GatewayConfig config;
    private final ReportMode mode;
    private final WorkloadCatalog catalog;
    private final GatewayMetrics metrics;
    private final CaughtUpClock caughtUp;
    private final LongSupplier monotonicMillis;
    private final IngestStores names;

    public IngestSupplier(GatewayConfig config, ReportMode mode, WorkloadCatalog catalog, GatewayMetrics metrics,
            CaughtUpClock caughtUp, LongSupplier monotonicMillis) {
        this.config = config;
        this.mode = mode;
        this.catalog = catalog;
        this.metrics = metrics;
        this.caughtUp = caughtUp;
        this.monotonicMillis = monotonicMillis;
        this.names = IngestStores.of(mode.mode());
    }

    @Override
    public Processor<byte[], byte[], Object, Object> get() {
        return new IngestProcessor(config, mode, catalog, metrics, caughtUp, monotonicMillis, names);
    }

    /** The mode's own stores (the shared ones are {@link #sharedStores()}, connected to both modes' processors). */
    @Override
    public Set<StoreBuilder<?>> stores() {
        return Set.of(
                WriteBehindStoreBuilder.live(names.aggregates(), StateSerdes.WINDOW_KEY, StateSerdes.WINDOW_AGGREGATE));
    }

    /** The stores the local and the central ingest of a shard share: device ledgers, forgotten times, watermarks. */
    public static List<StoreBuilder<?>> sharedStores() {
        return List.of(
                WriteBehindStoreBuilder.persistent(IngestStores.LEDGERS, StateSerdes.STRING, StateSerdes.DEVICE_LEDGER),
                WriteBehindStoreBuilder.live(IngestStores.FORGOTTEN, StateSerdes.STRING,
                        Serdes.Long()),
                WriteBehindStoreBuilder.live(IngestStores.WATERMARKS, StateSerdes.STRING,
                        Serdes.Long()));
    }
}

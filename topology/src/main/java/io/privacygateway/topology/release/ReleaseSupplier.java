package io.privacygateway.topology.release;

import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.state.StateSerdes;
import io.privacygateway.topology.state.WriteBehindStoreBuilder;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/** Supplies the release processor and declares the stores it owns (all changelogged, typed). */
public final class ReleaseSupplier implements ProcessorSupplier<String, byte[], String, Object> {
    private final GatewayConfig config;
    private final WorkloadCatalog catalog;
    private final GatewayMetrics metrics;
    private final CentralReleaser central;
    private final LongSupplier monotonicMillis;
    private final ReleaseStores names = ReleaseStores.DEFAULT;

    public ReleaseSupplier(GatewayConfig config, WorkloadCatalog catalog, GatewayMetrics metrics,
            CentralReleaser central, LongSupplier monotonicMillis) {
        this.config = config;
        this.catalog = catalog;
        this.metrics = metrics;
        this.central = central;
        this.monotonicMillis = monotonicMillis;
    }

    @Override
    public Processor<String, byte[], String, Object> get() {
        return new ReleaseProcessor(config, catalog, metrics, central, names, monotonicMillis);
    }

    @Override
    public Set<StoreBuilder<?>> stores() {
        return Set.of(
                WriteBehindStoreBuilder.live(names.merged(), StateSerdes.WINDOW_KEY, StateSerdes.WINDOW_AGGREGATE),
                WriteBehindStoreBuilder.live(names.progress(), StateSerdes.STRING, Serdes.Long()),
                WriteBehindStoreBuilder.live(names.schedules(), StateSerdes.STRING,
                        StateSerdes.of(ReleaseSchedule::toBytes, ReleaseSchedule::fromBytes)),
                WriteBehindStoreBuilder.live(names.accounts(), StateSerdes.STRING,
                        StateSerdes.of(ReleaseAccount::toBytes, ReleaseAccount::fromBytes)),
                WriteBehindStoreBuilder.live(names.horizons(), StateSerdes.HORIZON_KEY, StateSerdes.WINDOW_AGGREGATE),
                WriteBehindStoreBuilder.live(names.runningTotals(), StateSerdes.STRING, Serdes.ByteArray()));
    }
}

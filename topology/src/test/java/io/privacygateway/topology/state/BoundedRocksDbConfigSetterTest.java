package io.privacygateway.topology.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayMetrics;
import io.privacygateway.topology.service.GatewaySerdes;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.service.GatewayTopologyFactory;
import io.privacygateway.topology.clock.CaughtUpClock;
import io.privacygateway.topology.ingest.IngestStores;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.topology.workload.WorkloadCatalog;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway's streams configuration installs {@link BoundedRocksDbConfigSetter}: its RocksDB stores (the device
 * ledgers of the real topology, and any other) report the configured shared cache's capacity, not Kafka Streams'
 * 50 MiB per store, and two stores read the same cache. No timing or RSS assertion (the benchmark measures those).
 */
class BoundedRocksDbConfigSetterTest {

    static Properties gatewayStreamsConfig(RocksDbMemory memory, Path stateDir, String applicationId) {
        GatewayConfig cfg = GatewayConfig.builder(1, 1).applicationId(applicationId).rocksDbMemory(memory).build();
        GatewaySettings s = new GatewaySettings("unused:9092", "http://127.0.0.1:1", cfg, (short) 1, 1, stateDir,
                "at_least_once", Map.of(), Map.of());
        return GatewayService.streamsProperties(s);
    }

    /** The values of one RocksDB property metric of Kafka Streams, per store. */
    static Map<String, Object> rocksDbMetric(TopologyTestDriver d, String name) {
        Map<String, Object> perStore = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : d.metrics().entrySet()) {
            MetricName n = e.getKey();
            if (n.name().equals(name) && n.tags().containsKey("rocksdb-state-id")) {
                perStore.put(n.tags().get("rocksdb-state-id"), e.getValue().metricValue());
            }
        }
        return perStore;
    }

    @Test
    void theRealTopologysLedgerStoreUsesTheConfiguredSharedCache(@TempDir Path dir) {
        RocksDbMemory memory = new RocksDbMemory(20L << 20, 2L << 20, true); // a size no other test uses
        Properties p = gatewayStreamsConfig(memory, dir, "rocksdb-topology-test");
        assertThat(p.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)).isEqualTo(BoundedRocksDbConfigSetter.class);
        GatewayConfig cfg = GatewayConfig.builder(1, 1).applicationId("rocksdb-topology-test").rocksDbMemory(memory)
                .build();
        CaughtUpClock clock = (topic, partition, next) -> OptionalLong.of(0);
        var topology = GatewayTopologyFactory.build(new GatewayTopologyFactory.Parts(cfg,
                GatewaySerdes.withRegistry(SchemaRegistryClient.forUrl("http://127.0.0.1:1")),
                new GatewayMetrics(new SimpleMeterRegistry()), new WorkloadCatalog(),
                CentralReleaser.withSecret(new SeededRandomBits(1)), clock, () -> 0L));
        try (TopologyTestDriver d = new TopologyTestDriver(topology, p)) {
            assertThat(BoundedRocksDbConfigSetter.usage(memory).stores()).contains(IngestStores.LEDGERS);
            assertThat(rocksDbMetric(d, "block-cache-capacity")).containsEntry(IngestStores.LEDGERS,
                    java.math.BigInteger.valueOf(20L << 20));
        }
        assertThat(BoundedRocksDbConfigSetter.usage(memory).stores()).isEmpty(); // closed: forgotten, cache kept
    }

    @Test
    void twoStoresShareOneCacheAndItsUsage(@TempDir Path dir) {
        RocksDbMemory memory = new RocksDbMemory(18L << 20, 2L << 20, true);
        StreamsBuilder b = new StreamsBuilder();
        for (String name : new String[] {"first", "second"}) {
            b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.Bytes(),
                    Serdes.ByteArray()).withLoggingDisabled());
        }
        b.stream("in", org.apache.kafka.streams.kstream.Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .process(() -> new org.apache.kafka.streams.processor.api.Processor<byte[], byte[], Void, Void>() {
            @Override
            public void process(org.apache.kafka.streams.processor.api.Record<byte[], byte[]> r) {}
        }, "first", "second");
        try (TopologyTestDriver d = new TopologyTestDriver(b.build(), gatewayStreamsConfig(memory, dir, "two-stores"))) {
            KeyValueStore<Bytes, byte[]> first = d.getKeyValueStore("first");
            KeyValueStore<Bytes, byte[]> second = d.getKeyValueStore("second");
            for (int i = 0; i < 20_000; i++) {
                first.put(Bytes.wrap(("device-" + i).getBytes()), new byte[64]);
            }
            first.flush(); // an SST file: its index and filter blocks go to the shared cache when read
            for (int i = 0; i < 20_000; i += 7) {
                assertThat(first.get(Bytes.wrap(("device-" + i).getBytes()))).hasSize(64);
            }
            assertThat(second.get(Bytes.wrap("absent".getBytes()))).isNull();
            BoundedRocksDbConfigSetter.Usage u = BoundedRocksDbConfigSetter.usage(memory);
            assertThat(u.stores()).containsExactlyInAnyOrder("first", "second");
            assertThat(u.cacheBytes()).isPositive().isLessThanOrEqualTo(18L << 20);
            Map<String, Object> capacity = rocksDbMetric(d, "block-cache-capacity");
            assertThat(capacity).containsEntry("first", java.math.BigInteger.valueOf(18L << 20))
                    .containsEntry("second", java.math.BigInteger.valueOf(18L << 20));
            // one cache: the store that holds nothing reports the usage of the one that filled it
            Map<String, Object> usage = rocksDbMetric(d, "block-cache-usage");
            assertThat(usage.get("second")).isEqualTo(usage.get("first"));
            assertThat(((java.math.BigInteger) usage.get("second")).longValue()).isPositive();
        }
    }

    @Test
    void badSizesFailNamingTheField() {
        assertThatThrownBy(() -> new RocksDbMemory(8L << 20, 1L << 20, true)).hasMessageStartingWith("rocksdb.blockCache");
        assertThatThrownBy(() -> new RocksDbMemory(64L << 20, 40L << 20, true))
                .hasMessageStartingWith("rocksdb.writeBuffers");
        assertThatThrownBy(() -> RocksDbMemory.parseSize("rocksdb.blockCache", "lots"))
                .hasMessageStartingWith("rocksdb.blockCache");
        assertThat(RocksDbMemory.parseSize("f", "256MiB")).isEqualTo(256L << 20);
        assertThat(RocksDbMemory.parseSize("f", "1048576")).isEqualTo(1L << 20);
    }
}

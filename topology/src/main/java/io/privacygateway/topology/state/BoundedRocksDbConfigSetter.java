package io.privacygateway.topology.state;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the memory of every RocksDB store of the process (the pattern of the Kafka Streams memory-management
 * guide): all stores share one LRU block cache of {@link RocksDbMemory#blockCacheBytes()} (strict capacity unless
 * configured otherwise) that also holds their index and filter blocks (high priority, so data blocks are evicted
 * first), and one {@link WriteBufferManager} charges their memtables to that cache, flushing when together they
 * reach {@link RocksDbMemory#writeBufferBytes()}. Without it, Kafka Streams gives each store its own 50 MiB cache
 * and up to three 16 MiB memtables, and keeps index and filter blocks outside any cache, growing with the data.
 *
 * <p>Kafka Streams creates one instance per store and reads the sizes from the Streams configuration
 * ({@link RocksDbMemory#streamsConfig()}, set by {@code GatewayService.streamsProperties}). The cache and the
 * manager of one size live as long as the process and are shared by every store configured with that size (a
 * process runs one gateway, so in practice one pair); {@link #close} releases only what this instance owns, which
 * is nothing beyond its record of the store: the shared objects are never closed under another store.
 */
public final class BoundedRocksDbConfigSetter implements RocksDBConfigSetter {
    /** Index and filter blocks go to the high-priority pool: up to this share of the cache. */
    static final double HIGH_PRIORITY_POOL_RATIO = 0.1;
    private static final long MAX_MEMTABLE_BYTES = 16L << 20;
    private static final Map<RocksDbMemory, Shared> SHARED = new ConcurrentHashMap<>();

    /** The cache and manager of one size, and the stores configured with them. */
    private record Shared(Cache cache, WriteBufferManager writeBuffers, Set<String> stores) {}

    private Shared shared;

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        RocksDbMemory memory = RocksDbMemory.fromStreamsConfig(configs);
        shared = SHARED.computeIfAbsent(memory, m -> {
            Cache cache = new LRUCache(m.blockCacheBytes(), -1, m.strictCapacity(), HIGH_PRIORITY_POOL_RATIO);
            return new Shared(cache, new WriteBufferManager(m.writeBufferBytes(), cache),
                    ConcurrentHashMap.newKeySet());
        });
        // the table configuration Kafka Streams installed (it exposes its cache to the store's metrics)
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(shared.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(shared.writeBuffers());
        options.setWriteBufferSize(Math.min(MAX_MEMTABLE_BYTES, memory.writeBufferBytes() / 4));
        options.setMaxWriteBufferNumber(3);
        options.setTableFormatConfig(table);
        shared.stores().add(storeName);
    }

    /** Forgets the store; the shared cache and write-buffer manager stay open for the other stores. */
    @Override
    public void close(String storeName, Options options) {
        if (shared != null) {
            shared.stores().remove(storeName);
        }
    }

    /**
     * What the process's stores of one size share (tests, benchmark): the block cache's usage and pinned usage in
     * bytes and the stores currently configured with it; {@code null} if no store was configured with that size.
     */
    public static Usage usage(RocksDbMemory memory) {
        Shared s = SHARED.get(memory);
        return s == null ? null : new Usage(s.cache().getUsage(), s.cache().getPinnedUsage(), Set.copyOf(s.stores()));
    }

    /**
     * @param cacheBytes the shared cache's usage (RocksDB's {@code rocksdb.block-cache-usage} of every store)
     * @param pinnedBytes its pinned usage
     * @param stores the stores configured with it and not yet closed
     */
    public record Usage(long cacheBytes, long pinnedBytes, Set<String> stores) {}
}

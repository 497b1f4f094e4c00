package io.privacygateway.topology.state;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory every RocksDB store of one gateway process may use, together (gateway.yaml's {@code rocksdb}):
 * one block cache shared by all stores, which also holds their index and filter blocks and is charged with their
 * memtables through one write-buffer manager ({@link BoundedRocksDbConfigSetter}).
 *
 * <p>The defaults fit the container of {@code deploy/k8s/statefulset.yaml}: a 2 GiB memory limit, of which the JVM
 * heap takes 75 % ({@code -XX:MaxRAMPercentage=75}, 1.5 GiB); of the 512 MiB left, RocksDB gets 256 MiB (memtables
 * included), the rest stays for metaspace, code cache, thread stacks and direct buffers. A pod with a different
 * limit scales both sizes with it (docs/operations.md, "Memory").
 *
 * @param blockCacheBytes capacity of the shared block cache, memtables included (at least 16 MiB)
 * @param writeBufferBytes the part of the cache the memtables of all stores may take together (at least 1 MiB,
 *     at most half the cache)
 * @param strictCapacity whether the cache refuses inserts beyond its capacity (true: memory stays bounded; a read
 *     then fails only if more than the whole cache is pinned at once) or lets pinned blocks exceed it
 */
public record RocksDbMemory(long blockCacheBytes, long writeBufferBytes, boolean strictCapacity) {
    /** Defaults derived from the 2 GiB container limit of {@code deploy/k8s/statefulset.yaml}. */
    public static final RocksDbMemory DEFAULTS = new RocksDbMemory(256L << 20, 64L << 20, true);
    /** Streams configuration keys that carry these values to {@link BoundedRocksDbConfigSetter}. */
    public static final String BLOCK_CACHE_CONFIG = "privacy.gateway.rocksdb.block.cache.bytes";
    public static final String WRITE_BUFFERS_CONFIG = "privacy.gateway.rocksdb.write.buffers.bytes";
    public static final String STRICT_CAPACITY_CONFIG = "privacy.gateway.rocksdb.strict.capacity";
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB)?");

    public RocksDbMemory {
        if (blockCacheBytes < 16L << 20) {
            throw new IllegalArgumentException("rocksdb.blockCache must be at least 16MiB, got " + format(blockCacheBytes));
        }
        if (writeBufferBytes < 1L << 20 || writeBufferBytes > blockCacheBytes / 2) {
            throw new IllegalArgumentException("rocksdb.writeBuffers must be in [1MiB, rocksdb.blockCache / 2 = "
                    + format(blockCacheBytes / 2) + "], got " + format(writeBufferBytes));
        }
    }

    /** The values as Streams configuration entries (read back by {@link #fromStreamsConfig}). */
    public Map<String, Object> streamsConfig() {
        return Map.of(BLOCK_CACHE_CONFIG, Long.toString(blockCacheBytes), WRITE_BUFFERS_CONFIG,
                Long.toString(writeBufferBytes), STRICT_CAPACITY_CONFIG, Boolean.toString(strictCapacity));
    }

    /** The values a Streams configuration carries; {@link #DEFAULTS} for absent ones. */
    public static RocksDbMemory fromStreamsConfig(Map<String, ?> configs) {
        Object cache = configs.get(BLOCK_CACHE_CONFIG);
        Object buffers = configs.get(WRITE_BUFFERS_CONFIG);
        Object strict = configs.get(STRICT_CAPACITY_CONFIG);
        return new RocksDbMemory(cache == null ? DEFAULTS.blockCacheBytes : Long.parseLong(cache.toString()),
                buffers == null ? DEFAULTS.writeBufferBytes : Long.parseLong(buffers.toString()),
                strict == null ? DEFAULTS.strictCapacity : Boolean.parseBoolean(strict.toString()));
    }

    /**
     * A size as written in gateway.yaml: bytes ({@code 268435456}) or a number with a binary unit ({@code 512KiB},
     * {@code 256MiB}, {@code 2GiB}).
     *
     * @throws IllegalArgumentException naming {@code field} when the text is not such a size
     */
    public static long parseSize(String field, String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(field + " must be a size such as 256MiB, 512KiB, 1GiB or a number of"
                    + " bytes, got \"" + text + "\"");
        }
        int shift = m.group(2) == null ? 0 : switch (m.group(2)) {
            case "KiB" -> 10;
            case "MiB" -> 20;
            case "GiB" -> 30;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " is too large: \"" + text + "\"");
        }
    }

    /** {@code 256MiB}, {@code 1536KiB}, {@code 12345B}. */
    public static String format(long bytes) {
        if (bytes > 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GiB";
        }
        if (bytes > 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MiB";
        }
        if (bytes > 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "KiB";
        }
        return String.format(Locale.ROOT, "%dB", bytes);
    }
}

package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.budget.Charge;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.ingest.IngestStores;
import io.privacygateway.topology.state.BoundedRocksDbConfigSetter;
import io.privacygateway.topology.state.RocksDbMemory;
import io.privacygateway.topology.state.StateSerdes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code privacy-gateway bench memory}: grows the budget store (the device ledgers) to many devices and prints the
 * process's resident memory and RocksDB's block-cache usage against the container limit the Kubernetes files
 * declare, with the gateway's {@link BoundedRocksDbConfigSetter} and, as the baseline, with Kafka Streams' defaults.
 *
 * <p>What runs: the ledger stores of {@code --stores} partitions (a pod holding all partitions of
 * {@code deploy/k8s/configmap.yaml}), each the RocksDB store the gateway builds
 * ({@code Stores.persistentKeyValueStore}), opened by Kafka Streams (a {@link TopologyTestDriver}) with the
 * gateway's real streams configuration ({@link GatewayService#streamsProperties}); the baseline removes only
 * {@code rocksdb.config.setter}. Every device gets a ledger with one charge, written as the ledger is (a read, then
 * a write, keys and values encoded by the gateway's serdes), with a commit (store flush) every 100 ms as
 * {@code commit.interval.ms} does (a Kafka Streams 4.3 commit: {@code StateStore.commit}); then random reads of existing ledgers (a returning device's next report). The
 * stores are driven directly, not through the report path, and without changelogs (the driver would keep every
 * changelog record on the heap). Each configuration runs in its own JVM so that one's freed memory is not counted
 * in the other's resident size.
 */
@Command(name = "memory", mixinStandardHelpOptions = true,
        description = {"Grows the budget store (the device ledgers of --stores partitions, one charge per device) with",
            "the gateway's bounded RocksDB memory and with Kafka Streams' defaults (each in its own JVM) and prints",
            "resident memory (VmRSS) and RocksDB's block-cache usage against the declared container limit."})
public final class MemoryBenchCommand extends BenchOptions.Subcommand {
    static final Pattern K8S_LIMIT = Pattern.compile("limits:\\s*\\n(?:\\s+cpu:.*\\n)?\\s+memory:\\s*(\\d+)(Mi|Gi)");

    @Option(names = "--devices", defaultValue = "600000",
            description = "Devices (ledgers) written (default ${DEFAULT-VALUE}: about a minute for both runs).")
    long devices;

    @Option(names = "--large", description = "10^7 devices (about 8 minutes on an idle 2-core machine).")
    boolean large;

    @Option(names = "--stores", defaultValue = "6",
            description = "Ledger stores: the partitions one pod holds (default ${DEFAULT-VALUE}, all of deploy/k8s).")
    int stores;

    @Option(names = "--reads", defaultValue = "0.5",
            description = "Random reads after the writes, as a fraction of the devices (default ${DEFAULT-VALUE}).")
    double reads;

    @Option(names = "--block-cache", defaultValue = "256MiB", description = "rocksdb.blockCache (default ${DEFAULT-VALUE}).")
    String blockCache;

    @Option(names = "--write-buffers", defaultValue = "64MiB",
            description = "rocksdb.writeBuffers (default ${DEFAULT-VALUE}).")
    String writeBuffers;

    @Option(names = "--child-heap", defaultValue = "256m",
            description = "Heap of each measuring JVM, committed and touched at start (-Xms = -Xmx, AlwaysPreTouch)"
                    + " so that RSS − heap is what lives off the heap (default ${DEFAULT-VALUE}).")
    String childHeap;

    @Option(names = "--only", description = "bounded or baseline: run one configuration only.")
    String only;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = out();
        long n = large ? 10_000_000L : devices;
        RocksDbMemory memory = new RocksDbMemory(RocksDbMemory.parseSize("--block-cache", blockCache),
                RocksDbMemory.parseSize("--write-buffers", writeBuffers), true);
        long limit = declaredLimit();
        long heap = limit / 4 * 3;
        o.printf(Locale.ROOT, "bench memory: %d devices (one charge each) in %d ledger stores, %.2f reads per device"
                + " after the writes, a commit every 100 ms; each configuration in its own JVM (heap %s, pre-touched), %d cores%n",
                n, stores, reads, childHeap, Runtime.getRuntime().availableProcessors());
        o.printf("declared container limit %s (deploy/k8s/statefulset.yaml); the image's heap ceiling is 75%% of it"
                + " (%s), leaving %s for everything off the heap; rocksdb: blockCache %s, writeBuffers %s, strict%n",
                RocksDbMemory.format(limit), RocksDbMemory.format(heap), RocksDbMemory.format(limit - heap),
                RocksDbMemory.format(memory.blockCacheBytes()), RocksDbMemory.format(memory.writeBufferBytes()));
        o.printf(Locale.ROOT, "command: bench memory --devices %d --stores %d --reads %s --block-cache %s"
                + " --write-buffers %s --child-heap %s%n", n, stores, reads, blockCache, writeBuffers, childHeap);
        o.println("| configuration | phase | devices | seconds | VmRSS | VmHWM | heap used | RSS − heap (off-heap)"
                + " | block-cache usage | pinned | table readers outside the cache | memtables | SST files |");
        o.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        o.flush();
        int code = 0;
        for (String config : List.of("bounded", "baseline")) {
            if (only != null && !only.equals(config)) {
                continue;
            }
            code |= child(o, config, n, memory);
        }
        o.printf("off-heap allowance (limit − heap ceiling) %s: compare it with \"RSS − heap (off-heap)\"%n",
                RocksDbMemory.format(limit - heap));
        o.flush();
        return code;
    }

    /** The memory limit of the gateway container in deploy/k8s/statefulset.yaml (2 GiB if the file is absent). */
    static long declaredLimit() {
        for (Path p : List.of(Path.of("deploy/k8s/statefulset.yaml"), Path.of("../deploy/k8s/statefulset.yaml"))) {
            try {
                Matcher m = K8S_LIMIT.matcher(Files.readString(p));
                if (m.find()) {
                    return Long.parseLong(m.group(1)) << (m.group(2).equals("Gi") ? 30 : 20);
                }
            } catch (IOException e) {
                // try the next location
            }
        }
        return 2L << 30;
    }

    private int child(PrintWriter o, String config, long n, RocksDbMemory memory) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xms" + childHeap, "-Xmx" + childHeap, "-XX:+AlwaysPreTouch", "-cp", System.getProperty("java.class.path"),
                Child.class.getName(), config, Long.toString(n), Integer.toString(stores), Double.toString(reads),
                Long.toString(memory.blockCacheBytes()), Long.toString(memory.writeBufferBytes()));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                o.println(line);
                o.flush();
            }
        }
        int exit = p.waitFor();
        if (exit != 0) {
            o.printf("%s: the measuring JVM exited with %d%n", config, exit);
        }
        return exit == 0 ? 0 : 1;
    }

    /** The measuring JVM: {@code config devices stores reads blockCacheBytes writeBufferBytes}. */
    public static final class Child {
        private Child() {}

        public static void main(String[] args) throws Exception {
            String config = args[0];
            long n = Long.parseLong(args[1]);
            int stores = Integer.parseInt(args[2]);
            double reads = Double.parseDouble(args[3]);
            RocksDbMemory memory = new RocksDbMemory(Long.parseLong(args[4]), Long.parseLong(args[5]), true);
            boolean bounded = config.equals("bounded");
            Path dir = Files.createTempDirectory("pgw-bench-memory");
            try {
                run(config, bounded, n, stores, reads, memory, dir);
            } finally {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
            System.exit(0);
        }

        static void run(String config, boolean bounded, long n, int stores, double reads, RocksDbMemory memory,
                Path dir) {
            GatewayConfig cfg = GatewayConfig.builder(stores, stores).applicationId("bench-memory")
                    .rocksDbMemory(memory).build();
            Properties p = GatewayService.streamsProperties(new GatewaySettings("unused:9092", "http://unused:8081",
                    cfg, (short) 1, 1, dir, "exactly_once_v2", Map.of(), Map.of()));
            if (!bounded) {
                p.remove(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
            }
            StreamsBuilder b = new StreamsBuilder();
            String[] names = new String[stores];
            for (int i = 0; i < stores; i++) {
                names[i] = IngestStores.LEDGERS + "-" + i;
                b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(names[i]), Serdes.Bytes(),
                        Serdes.ByteArray()).withLoggingDisabled());
            }
            b.stream("unused", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                    .process(() -> new Processor<byte[], byte[], Void, Void>() {
                        @Override
                        public void process(Record<byte[], byte[]> r) {}
                    }, names);
            byte[][] values = ledgers();
            var keySer = StateSerdes.STRING.serializer();
            long t0 = System.nanoTime();
            try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
                List<KeyValueStore<Bytes, byte[]>> kv = new ArrayList<>();
                for (String name : names) {
                    kv.add(d.getKeyValueStore(name));
                }
                long nextCommit = System.nanoTime() + 100_000_000L;
                long step = Math.max(1, n / 5);
                for (long i = 0; i < n; i++) {
                    String device = "device-" + mix(i);
                    Bytes key = Bytes.wrap(keySer.serialize(null, device));
                    KeyValueStore<Bytes, byte[]> s = kv.get((int) Math.floorMod(device.hashCode(), stores));
                    s.get(key); // the ledger's read before its write (a new device: absent)
                    s.put(key, values[(int) (i & 15)]);
                    if ((i & 1023) == 0 && System.nanoTime() >= nextCommit) {
                        kv.forEach(st -> st.commit(Map.of()));
                        nextCommit = System.nanoTime() + 100_000_000L;
                    }
                    if ((i + 1) % step == 0) {
                        row(config, "writes", i + 1, t0, d, bounded, memory);
                    }
                }
                kv.forEach(st -> st.commit(Map.of()));
                SplittableRandom rnd = new SplittableRandom(7);
                long r = (long) (reads * n);
                for (long j = 0; j < r; j++) {
                    String device = "device-" + mix(rnd.nextLong(n));
                    Bytes key = Bytes.wrap(keySer.serialize(null, device));
                    kv.get((int) Math.floorMod(device.hashCode(), stores)).get(key);
                }
                row(config, "after " + r + " random reads", n, t0, d, bounded, memory);
            }
        }

        /** A bijection of [0, 10^10) keeps keys distinct while scattering them over the key space. */
        static long mix(long i) {
            return Math.floorMod(i * 2_654_435_761L + 12_345L, 10_000_000_000L);
        }

        /** 16 encoded ledgers of one charge each (a day's period of one workload, one slot). */
        static byte[][] ledgers() {
            byte[][] out = new byte[16][];
            String version = "9f2c4e7a1b3d5f60718293a4b5c6d7e8f90123456789abcdef0123456789abcd";
            for (int i = 0; i < out.length; i++) {
                BitSet slots = new BitSet();
                slots.set(i);
                Charge c = new Charge("screen-usage", version, null, 1_764_374_400_000L, 1_764_460_800_000L,
                        new BigDecimal("1." + i), slots);
                out[i] = StateSerdes.DEVICE_LEDGER.serializer().serialize(null, DeviceLedger.of(List.of(c), Map.of()));
            }
            return out;
        }

        static void row(String config, String phase, long devices, long t0, TopologyTestDriver d, boolean bounded,
                RocksDbMemory memory) {
            long[] status = procStatus();
            Runtime rt = Runtime.getRuntime();
            long heapCommitted = rt.totalMemory();
            long heapUsed = heapCommitted - rt.freeMemory();
            long cache;
            long pinned;
            if (bounded) { // every store reports the one shared cache: count it once
                cache = max(d, "block-cache-usage");
                pinned = max(d, "block-cache-pinned-usage");
                BoundedRocksDbConfigSetter.Usage u = BoundedRocksDbConfigSetter.usage(memory);
                if (u == null || u.stores().isEmpty()) {
                    throw new IllegalStateException("the bounded configuration did not reach the stores");
                }
            } else {
                cache = sum(d, "block-cache-usage");
                pinned = sum(d, "block-cache-pinned-usage");
            }
            System.out.printf(Locale.ROOT, "| %s | %s | %d | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    bounded ? "bounded (BoundedRocksDbConfigSetter)" : "baseline (Kafka Streams defaults)", phase,
                    devices, (System.nanoTime() - t0) / 1e9, mib(status[0]), mib(status[1]), mib(heapUsed),
                    mib(status[0] - heapCommitted), mib(cache), mib(pinned), mib(sum(d, "estimate-table-readers-mem")),
                    mib(sum(d, "size-all-mem-tables")), mib(sum(d, "total-sst-files-size")));
            System.out.flush();
        }

        static String mib(long bytes) {
            return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
        }

        /** VmRSS and VmHWM of this process, in bytes (from /proc/self/status). */
        static long[] procStatus() {
            long[] out = {-1, -1};
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        out[0] = kib(line);
                    } else if (line.startsWith("VmHWM:")) {
                        out[1] = kib(line);
                    }
                }
            } catch (IOException e) {
                // not Linux: reported as -1
            }
            return out;
        }

        private static long kib(String line) {
            return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }

        static long sum(TopologyTestDriver d, String name) {
            return values(d, name).stream().mapToLong(Long::longValue).sum();
        }

        static long max(TopologyTestDriver d, String name) {
            return values(d, name).stream().mapToLong(Long::longValue).max().orElse(0);
        }

        /** Kafka Streams' RocksDB property metric {@code name} of every store. */
        static List<Long> values(TopologyTestDriver d, String name) {
            List<Long> out = new ArrayList<>();
            for (Map.Entry<MetricName, ? extends Metric> e : d.metrics().entrySet()) {
                if (e.getKey().name().equals(name) && e.getKey().tags().containsKey("rocksdb-state-id")) {
                    Object v = e.getValue().metricValue();
                    out.add(v instanceof BigInteger bi ? bi.longValue() : ((Number) v).longValue());
                }
            }
            return out;
        }
    }
}

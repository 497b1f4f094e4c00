package io.privacygateway.benchmarks;

import io.privacygateway.client.Client;
import io.privacygateway.client.ClientConfig;
import io.privacygateway.client.TransportException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What {@link Client#report} costs the caller's thread (a phone's UI thread must not wait for I/O): check, admit
 * against the device's own ledger, randomize (oue over 64 labels), and queue. {@code syncWrites = false} (the default)
 * stages the charge and the report in memory and leaves the atomic file write to the sender ({@link Client#sync()});
 * {@code syncWrites = true} writes and fsyncs before returning: the baseline of the same run. The transport never
 * accepts anything (nothing is sent), and the queue is emptied of its own accord every 500 reports by reopening the
 * client on a fresh directory, so the file written stays small.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar ClientReportBenchmark -wi 2 -w 1 -i 3 -r 2 -f 1}; the store
 * lives in {@code java.io.tmpdir} (set {@code -Djava.io.tmpdir=} on the JMH command line to measure another disk).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ClientReportBenchmark {
    @Param({"false", "true"})
    public boolean syncWrites;

    private static final int PER_CLIENT = 500;
    private Path root;
    private Client client;
    private int reports;
    private int opened;
    private WorkloadSpec spec;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        root = Files.createTempDirectory("pgw-client-bench");
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            labels.add("l" + i);
        }
        spec = WorkloadSpecParser.parse(Map.of("id", "bench", "version", 1, "family", "histogram",
                "domain", Map.of("labels", labels), "mechanism", "oue", "epsilonPerReport", 0.001,
                "budget", Map.of("epsilonPerPeriod", 1.0, "period", "1d"), "window", Map.of("size", "1h")));
        open();
    }

    private void open() throws Exception {
        if (client != null) {
            client.close();
        }
        ClientConfig cfg = ClientConfig.builder("bench-device-" + opened, root.resolve("c" + opened++))
                .workload(spec).syncWrites(syncWrites).sendInBackground(false).maxQueued(PER_CLIENT + 1, 1L << 30)
                .transport(batch -> {
                    throw new TransportException(TransportException.Kind.RETRY, "BENCH", 0, "not sending", null);
                }).build();
        client = Client.create(cfg);
        client.ready().get(60, TimeUnit.SECONDS);
        reports = 0;
    }

    @Benchmark
    public Object report() throws Exception {
        if (reports == PER_CLIENT) {
            open();
        }
        return client.report("bench", "l" + (reports++ & 63));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        client.close();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}

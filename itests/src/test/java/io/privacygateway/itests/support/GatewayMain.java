package io.privacygateway.itests.support;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.topology.workload.Registration;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A gateway process for the fault tests: starts {@link GatewayService} (exactly-once v2) from {@code key=value}
 * arguments, prints {@value #READY} once it is RUNNING, then every 250 ms the workloads it has loaded
 * ({@code WORKLOAD id=hash}, when they change) and a {@code METRICS} line: Kafka Streams state, accepted and
 * rejected counters, answers published, and the heap (used now, and occupied after the last garbage collection).
 * It runs until it is killed; SIGTERM closes the gateway cleanly.
 *
 * <p>Arguments: {@code bootstrap, registry, app, state, prefix, local} (local partitions), and optionally
 * {@code central} (central partitions, default 1), {@code instance} (the static-membership id of the main
 * consumer, default the application id: instances of one application need distinct ids), {@code slackMs,
 * punctuateMs, skewMs, maxReportBytes}, {@code releaser} ({@code secure}, the default, or {@code seeded}: the
 * test-only {@link SeededCentralReleaser}), and {@code kafka.<property>=<value>} passed to every Kafka client
 * (SASL settings). With static membership a restarted process takes over its partitions without waiting for
 * the killed member's session to expire.
 */
public final class GatewayMain {
    public static final String READY = "GATEWAY READY";

    private GatewayMain() {}

    static Map<String, String> parse(List<String> args) {
        Map<String, String> a = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return a;
    }

    /** The settings a process started with these {@code key=value} arguments runs with. */
    public static GatewaySettings settings(List<String> args) {
        Map<String, String> a = parse(args);
        GatewayConfig.Builder b = GatewayConfig.builder(Integer.parseInt(a.get("local")),
                        Integer.parseInt(a.getOrDefault("central", a.get("local"))))
                .topicPrefix(a.get("prefix")).applicationId(a.get("app"))
                .maxFutureSkew(Duration.ofMillis(Long.parseLong(a.getOrDefault("skewMs", "120000"))))
                .watermarkSlack(Duration.ofMillis(Long.parseLong(a.getOrDefault("slackMs", "500"))))
                .punctuateEvery(Duration.ofMillis(Long.parseLong(a.getOrDefault("punctuateMs", "100"))))
                .exactCentralCounts(true); // the status lines count every accepted report, central ones included
        if (a.containsKey("maxReportBytes")) {
            b.maxReportBytes(Integer.parseInt(a.get("maxReportBytes")));
        }
        Map<String, String> kafka = new HashMap<>();
        a.forEach((k, v) -> {
            if (k.startsWith("kafka.")) {
                kafka.put(k.substring("kafka.".length()), v);
            }
        });
        kafka.put("main.consumer.group.instance.id", a.getOrDefault("instance", a.get("app")));
        kafka.put("main.consumer.session.timeout.ms", "10000");
        kafka.put("main.consumer.heartbeat.interval.ms", "1000");
        return new GatewaySettings(a.get("bootstrap"), a.get("registry"), b.build(), (short) 1, 1,
                Path.of(a.get("state")), "exactly_once_v2", kafka, Map.of());
    }

    /** Heap occupied after the last collection of each heap pool (bytes). */
    static long heapAfterLastGc() {
        long afterGc = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage u = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            afterGc += u == null ? 0 : u.getUsed();
        }
        return afterGc;
    }

    /**
     * Commands on standard input: {@code gc} runs a full collection and prints {@code HEAP n=<k> live=<bytes>
     * max=<bytes>} (the heap the process really retains). When standard input ends (the test JVM that started
     * this process is gone) the process halts, so no gateway outlives its test.
     */
    private static void commands() {
        try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                java.nio.charset.StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = in.readLine()) != null) {
                if (line.trim().equals("gc")) {
                    System.gc();
                    java.lang.management.MemoryUsage h = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
                    System.out.println("HEAP n=" + (++n) + " live=" + h.getUsed() + " max=" + h.getMax());
                    System.out.flush();
                }
            }
        } catch (java.io.IOException e) {
            // the parent went away
        }
        Runtime.getRuntime().halt(3);
    }

    /** The central releaser the arguments ask for. */
    static CentralReleaser releaser(List<String> args) {
        return "seeded".equals(parse(args).get("releaser")) ? SeededCentralReleaser.INSTANCE : CentralReleaser.secure();
    }

    public static void main(String[] args) throws Exception {
        GatewaySettings s = settings(List.of(args));
        long t0 = System.nanoTime();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayService gateway = GatewayService.start(s, meters, releaser(List.of(args)), Duration.ofSeconds(120));
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "gateway-shutdown"));
        System.out.printf("%s pid=%d after %.1f s%n", READY, ProcessHandle.current().pid(), (System.nanoTime() - t0) / 1e9);
        System.out.flush();
        Thread commands = new Thread(GatewayMain::commands, "commands");
        commands.setDaemon(true);
        commands.start();
        Map<String, String> known = Map.of();
        while (true) {
            Thread.sleep(250);
            Map<String, String> now = new TreeMap<>();
            for (Registration r : gateway.catalog().registrations()) {
                if (!r.deleted()) {
                    now.put(r.id(), r.contentHash());
                }
            }
            if (!now.equals(known)) {
                now.forEach((id, hash) -> System.out.println("WORKLOAD " + id + "=" + hash));
                known = now;
            }
            StringBuilder m = new StringBuilder("METRICS state=").append(gateway.streams().state());
            long accepted = 0;
            for (Counter c : meters.find("pgw.reports.accepted").counters()) {
                accepted += (long) c.count();
            }
            m.append(" accepted=").append(accepted);
            Map<String, Long> rejected = new TreeMap<>();
            for (Counter c : meters.find("pgw.reports.rejected").counters()) {
                rejected.merge(c.getId().getTag("reason"), (long) c.count(), Long::sum);
            }
            rejected.forEach((reason, n) -> m.append(" rejected[").append(reason).append("]=").append(n));
            long published = 0;
            for (Counter c : meters.find("pgw.answers.published").counters()) {
                published += (long) c.count();
            }
            m.append(" published=").append(published);
            m.append(" heapUsed=").append(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed())
                    .append(" heapAfterGc=").append(heapAfterLastGc());
            System.out.println(m);
            System.out.flush();
        }
    }
}

package io.privacygateway.itests.support;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import io.privacygateway.topology.GatewayTopologyFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * A gateway process for the crash-recovery test: starts {@link GatewayService} (local mode only,
 * exactly-once v2, one stream thread) from {@code key=value} arguments, prints {@value #READY} once it is
 * RUNNING, then every 250 ms the workloads it has loaded ({@code WORKLOAD id=hash}, when they change) and
 * its counters ({@code METRICS ...}). It runs until it is killed; SIGTERM closes the gateway cleanly.
 *
 * <p>Arguments: {@code bootstrap, registry, app, state, prefix, partitions, idleMs, slackMs, punctuateMs,
 * skewMs}. The main consumer uses static membership ({@code group.instance.id = app}), so a restarted
 * process takes over its partitions without waiting for the killed member's session to expire.
 */
public final class GatewayMain {
    public static final String READY = "GATEWAY READY";

    private GatewayMain() {}

    /** The settings a process started with these {@code key=value} arguments runs with. */
    public static GatewaySettings settings(List<String> args) {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        GatewayConfig cfg = GatewayConfig.builder(Integer.parseInt(a.get("partitions")), 1).topicPrefix(a.get("prefix"))
                .applicationId(a.get("app")).maxFutureSkew(Duration.ofMillis(Long.parseLong(a.get("skewMs"))))
                .watermarkSlack(Duration.ofMillis(Long.parseLong(a.get("slackMs"))))
                .punctuateEvery(Duration.ofMillis(Long.parseLong(a.get("punctuateMs")))).build();
        Map<String, String> kafka = Map.of(
                "main.consumer.group.instance.id", a.get("app"),
                "main.consumer.session.timeout.ms", "10000",
                "main.consumer.heartbeat.interval.ms", "1000");
        return new GatewaySettings(a.get("bootstrap"), a.get("registry"), cfg, (short) 1, 1,
                Path.of(a.get("state")), "exactly_once_v2", kafka, Map.of());
    }

    public static void main(String[] args) throws Exception {
        GatewaySettings s = settings(List.of(args));
        long t0 = System.nanoTime();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        GatewayService gateway = GatewayService.start(s, meters, null, Duration.ofSeconds(120));
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "gateway-shutdown"));
        System.out.printf("%s pid=%d after %.1f s%n", READY, ProcessHandle.current().pid(), (System.nanoTime() - t0) / 1e9);
        System.out.flush();
        Map<String, String> known = Map.of();
        while (true) {
            Thread.sleep(250);
            Map<String, String> now = workloads(gateway);
            if (!now.equals(known)) {
                now.forEach((id, hash) -> System.out.println("WORKLOAD " + id + "=" + hash));
                known = now;
            }
            StringBuilder m = new StringBuilder("METRICS state=").append(gateway.streams().state());
            for (Counter c : meters.find("pgw.reports.accepted").counters()) {
                m.append(" accepted=").append((long) c.count());
            }
            for (Counter c : meters.find("pgw.reports.rejected").counters()) {
                m.append(" rejected[").append(c.getId().getTag("reason")).append("]=").append((long) c.count());
            }
            for (Counter c : meters.find("pgw.answers.published").counters()) {
                m.append(" published=").append((long) c.count());
            }
            System.out.println(m);
            System.out.flush();
        }
    }

    private static Map<String, String> workloads(GatewayService g) {
        Map<String, String> out = new TreeMap<>();
        try {
            ReadOnlyKeyValueStore<String, String> store = g.streams().store(StoreQueryParameters.fromNameAndType(
                    GatewayTopologyFactory.WORKLOADS_STORE, QueryableStoreTypes.keyValueStore()));
            try (KeyValueIterator<String, String> it = store.all()) {
                while (it.hasNext()) {
                    KeyValue<String, String> kv = it.next();
                    if (kv.value != null && kv.value.matches("[0-9a-f]{64}")) {
                        out.put(kv.key, kv.value);
                    }
                }
            }
        } catch (RuntimeException e) {
            // not queryable right now
        }
        return out;
    }
}

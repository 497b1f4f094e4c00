package io.privacygateway.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.GatewayConfig;
import io.privacygateway.topology.service.GatewayService;
import java.util.regex.Pattern;

/**
 * The meters a gateway process exposes next to the gateway's own {@code pgw.*} meters (which
 * {@link GatewayService#start} registers through {@code GatewayMetrics} on the registry it is given).
 *
 * <ul>
 *   <li>{@link #bindProcess}: the JVM (memory, garbage collection, threads, class loading) and the process
 *       (CPU, uptime, open file descriptors) — Micrometer's standard binders, so the Prometheus names are the
 *       usual {@code jvm_memory_used_bytes}, {@code jvm_gc_pause_seconds}, {@code process_cpu_usage}, ….
 *   <li>{@link #bindGateway}: every metric of the gateway's Kafka Streams client and of its embedded consumers,
 *       producers and admin client ({@code kafka_stream_…}, {@code kafka_consumer_…}, {@code kafka_producer_…};
 *       new threads' metrics are picked up within a minute), and {@value #REGISTRY_REQUESTS}, the HTTP requests
 *       the gateway's schema registry client has sent (a steady state sends none: schemas are cached by id).
 *   <li>{@link #withoutCentralCounts}: the filter that keeps exact counts of central reports off the registry
 *       unless {@code metrics.exactCentralCounts} is set (docs/operations.md, "Metrics of central workloads").
 * </ul>
 */
public final class MeterBindings {
    /** The schema registry client's request counter (Prometheus: {@code pgw_registry_requests_total}). */
    public static final String REGISTRY_REQUESTS = "pgw.registry.requests";

    /**
     * Kafka meters without a {@code topic} tag that count records or bytes of every topic a client reads or
     * writes (client, node and thread level): they add central reports to everything else.
     */
    private static final Pattern MIXED_COUNTS = Pattern.compile("\\.records?\\.(consumed|lag|lead|per\\.request|send|size)"
            + "|\\.bytes?\\.(consumed|rate|total)|\\.fetch\\.size|\\.thread\\.(process\\.(rate|total|records)|poll\\.records)");
    /** Kafka Streams meters per task, processor node, state store or task and topic: tasks of central shards. */
    private static final Pattern PER_TASK = Pattern.compile("kafka\\.stream\\.(task|processor\\.node|state|topic)\\..*");

    private MeterBindings() {}

    /**
     * The meter filter of a gateway without exact central counts ({@link GatewayConfig#exactCentralCounts()} false):
     * it denies the Kafka client and Kafka Streams meters from which the number of central reports could be read
     * (the gateway's own {@code pgw.*} meters decide this themselves, see {@code GatewayMetrics}).
     *
     * <p>Denied: every Kafka meter whose {@code topic} tag names the central report topic or a changelog of the
     * application's stores ({@code <applicationId>-…-changelog}: the central windows' and the device ledgers, which
     * both modes share, are written per accepted report); every Kafka Streams meter per task, processor node, state
     * store or task and topic (a central shard's task counts its reports); and every Kafka meter without a
     * {@code topic} tag that counts records or bytes (client, node and thread totals, which add central reports to
     * the rest: known local counts could be subtracted). Kept: meters of other topics (the local report topic,
     * partials: one per shard, workload and window, answers, rejections, workloads; their lag and traffic),
     * thread health and latencies, request, poll and commit rates (a request or poll carries any number of
     * records, so their counts are not report counts). Apply it to the registry before any meter is registered.
     */
    public static MeterFilter withoutCentralCounts(GatewayConfig config) {
        String reports = underscored(config.centralReportsTopic());
        String changelogs = underscored(config.applicationId() + "-");
        return MeterFilter.deny(id -> exposesCentralCounts(id, reports, changelogs));
    }

    static boolean exposesCentralCounts(Meter.Id id, String centralReports, String applicationPrefix) {
        String name = id.getName();
        if (!name.startsWith("kafka.")) {
            return false;
        }
        String topic = id.getTag("topic");
        if (topic != null) {
            String t = underscored(topic);
            if (t.equals(centralReports) || t.startsWith(applicationPrefix) && t.endsWith("_changelog")) {
                return true;
            }
        }
        return PER_TASK.matcher(name).matches() || topic == null && MIXED_COUNTS.matcher(name).find();
    }

    /** Kafka tags a topic both as named and with dots made underscores: compare with dots and dashes made '_'. */
    private static String underscored(String topic) {
        return topic.replace('.', '_').replace('-', '_');
    }

    /** Binds the JVM and process meters; closing the result stops the garbage-collection listener. */
    public static AutoCloseable bindProcess(MeterRegistry registry) {
        for (MeterBinder b : new MeterBinder[] {new JvmMemoryMetrics(), new JvmThreadMetrics(),
            new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics(), new FileDescriptorMetrics()}) {
            b.bindTo(registry);
        }
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return gc;
    }

    /**
     * Binds the gateway's Kafka client metrics and its registry client's request count. Closing the result stops
     * the Kafka metrics' refresh and removes the registry counter (call it before or after closing the gateway).
     */
    public static AutoCloseable bindGateway(MeterRegistry registry, GatewayService gateway) {
        KafkaStreamsMetrics kafka = new KafkaStreamsMetrics(gateway.streams());
        kafka.bindTo(registry);
        FunctionCounter requests = FunctionCounter.builder(REGISTRY_REQUESTS, gateway.registry(),
                        SchemaRegistryClient::requestCount)
                .description("HTTP requests sent by the gateway's schema registry client (each attempt on each URL)")
                .register(registry);
        return () -> {
            kafka.close();
            registry.remove(requests);
        };
    }
}

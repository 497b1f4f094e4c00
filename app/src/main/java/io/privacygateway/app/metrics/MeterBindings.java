package io.privacygateway.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
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
import io.privacygateway.topology.GatewayService;

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
 * </ul>
 */
public final class MeterBindings {
    /** The schema registry client's request counter (Prometheus: {@code pgw_registry_requests_total}). */
    public static final String REGISTRY_REQUESTS = "pgw.registry.requests";

    private MeterBindings() {}

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

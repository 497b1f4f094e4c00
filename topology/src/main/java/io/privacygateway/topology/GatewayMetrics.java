package io.privacygateway.topology;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.privacygateway.topology.validate.RejectReason;

/**
 * The gateway's Micrometer meters. Every record the gateway does not count is counted here (and written
 * to the rejections topic): nothing is dropped without a trace.
 *
 * <ul>
 *   <li>{@code pgw.reports.accepted} (tags workload, mode)
 *   <li>{@code pgw.reports.rejected} (tags reason, workload — {@code unknown} when not decodable)
 *   <li>{@code pgw.answers.published} (tags workload, mode)
 *   <li>{@code pgw.windows.discarded} (tags workload, why): windows that could not be released, e.g.
 *       their workload version is no longer known
 *   <li>{@code pgw.workloads.invalid}: workload records that could not be used
 * </ul>
 */
public final class GatewayMetrics {
    private final MeterRegistry registry;
    private final java.util.concurrent.ConcurrentHashMap<String, Counter> counters =
            new java.util.concurrent.ConcurrentHashMap<>();

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A registered counter, looked up once per name and tag values (the hot path never re-registers). */
    private Counter counter(String name, String... tags) {
        String key = name + '|' + String.join("|", tags);
        Counter c = counters.get(key);
        if (c == null) {
            c = counters.computeIfAbsent(key, k -> Counter.builder(name).tags(tags).register(registry));
        }
        return c;
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void accepted(String workload, String mode) {
        counter("pgw.reports.accepted", "workload", workload, "mode", mode).increment();
    }

    public void rejected(RejectReason reason, String workload) {
        counter("pgw.reports.rejected", "reason", reason.name(), "workload", workload == null ? "unknown" : workload)
                .increment();
    }

    public void published(String workload, String mode) {
        counter("pgw.answers.published", "workload", workload, "mode", mode).increment();
    }

    public void discarded(String workload, String why) {
        counter("pgw.windows.discarded", "workload", workload, "why", why).increment();
    }

    public void invalidWorkload() {
        counter("pgw.workloads.invalid").increment();
    }

    /** The current value of a counter (0 if it was never incremented), for tests and the dashboard. */
    public double count(String name, String... tags) {
        Counter c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }
}

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

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void accepted(String workload, String mode) {
        Counter.builder("pgw.reports.accepted").tag("workload", workload).tag("mode", mode).register(registry)
                .increment();
    }

    public void rejected(RejectReason reason, String workload) {
        Counter.builder("pgw.reports.rejected").tag("reason", reason.name())
                .tag("workload", workload == null ? "unknown" : workload).register(registry).increment();
    }

    public void published(String workload, String mode) {
        Counter.builder("pgw.answers.published").tag("workload", workload).tag("mode", mode).register(registry)
                .increment();
    }

    public void discarded(String workload, String why) {
        Counter.builder("pgw.windows.discarded").tag("workload", workload).tag("why", why).register(registry)
                .increment();
    }

    public void invalidWorkload() {
        Counter.builder("pgw.workloads.invalid").register(registry).increment();
    }

    /** The current value of a counter (0 if it was never incremented), for tests and the dashboard. */
    public double count(String name, String... tags) {
        Counter c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }
}

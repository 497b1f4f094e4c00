package io.privacygateway.ingest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.privacygateway.client.ReportEnvelope.Result;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The service's meters. Every refused request is counted in {@code pgw.ingest.refused} (tag {@code reason}, a fixed
 * set of codes: never a device id, address or value), every report's result in {@code pgw.ingest.reports} (tags
 * {@code status} and {@code reason}: the gateway's reason codes), the reports awaiting Kafka in the gauge
 * {@code pgw.ingest.inflight}, and the time from a complete request to its answer in {@code pgw.ingest.request}.
 */
final class IngestMetrics {
    private final MeterRegistry registry;
    private final Map<String, Counter> refused = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Counter>> reports = new ConcurrentHashMap<>(); // status, reason
    final Timer request;

    IngestMetrics(MeterRegistry registry, Supplier<Number> inFlight,
            Supplier<Number> ready) {
        this.registry = registry;
        this.request = Timer.builder("pgw.ingest.request").description("time from a complete POST /v1/reports to its"
                + " answer").publishPercentileHistogram().register(registry);
        Gauge.builder("pgw.ingest.inflight", inFlight).description("reports handed to"
                + " Kafka and not yet acknowledged").register(registry);
        Gauge.builder("pgw.ingest.ready", ready).description("1 when the service is"
                + " ready (catalog loaded, Kafka reachable)").register(registry);
    }

    /** Counts one refused request (reason: a fixed code such as {@code RATE_LIMITED_ADDRESS}). */
    void refused(String reason) {
        refused.computeIfAbsent(reason, r -> Counter.builder("pgw.ingest.refused").tag("reason", r)
                .description("requests refused as a whole").register(registry)).increment();
    }

    /** Counts one report's result. */
    void report(String status, String reason) {
        counter(status, reason).increment();
    }

    /**
     * Counts the results of one batch: each run of equal results with one increment (a batch is mostly one
     * status), each counter found without building a string.
     */
    void reports(Result[] results) {
        int i = 0;
        while (i < results.length) {
            Result r = results[i];
            int j = i + 1;
            while (j < results.length && results[j].status() == r.status()
                    && results[j].reason().equals(r.reason())) {
                j++;
            }
            counter(r.status().name(), r.reason()).increment(j - i);
            i = j;
        }
    }

    private Counter counter(String status, String reason) {
        Map<String, Counter> byReason = reports.computeIfAbsent(status, k -> new ConcurrentHashMap<>());
        Counter c = byReason.get(reason);
        if (c == null) {
            c = byReason.computeIfAbsent(reason, r -> Counter.builder("pgw.ingest.reports").tag("status", status)
                    .tag("reason", r).description("reports by result").register(registry));
        }
        return c;
    }

    /** The count of refused requests with {@code reason} (tests). */
    double refusedCount(String reason) {
        Counter c = refused.get(reason);
        return c == null ? 0 : c.count();
    }

    /** The count of reports with this result (tests). */
    double reportCount(String status, String reason) {
        Counter c = reports.getOrDefault(status, Map.of()).get(reason);
        return c == null ? 0 : c.count();
    }
}

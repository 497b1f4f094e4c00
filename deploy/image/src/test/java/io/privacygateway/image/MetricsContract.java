package io.privacygateway.image;

import java.util.Set;
import java.util.TreeSet;

/**
 * The Prometheus series the dashboard and the alerts may use: what the gateway exposes on
 * {@code /metrics} (Micrometer's Prometheus naming: dots become underscores, counters end in
 * {@code _total}, timers in {@code _seconds} with {@code _bucket/_count/_sum/_max}, summaries have
 * {@code _count/_sum/_max}), the Kafka client and Kafka Streams metrics that Micrometer's
 * {@code KafkaStreamsMetrics} binder derives from Kafka's own ({@code "kafka." + group + "." + name}
 * with {@code -metrics} dropped from the group and dashes made dots: group
 * {@code consumer-fetch-manager-metrics}, metric {@code records-lag-max} gives
 * {@code kafka_consumer_fetch_manager_records_lag_max}), Micrometer's JVM and process binders, and
 * Prometheus' own {@code up}.
 */
final class MetricsContract {
    private MetricsContract() {}

    /** The gateway's own series, each of which the dashboard must show. */
    static final Set<String> GATEWAY = Set.of(
            "pgw_reports_accepted_total",           // {workload, mode}
            "pgw_reports_rejected_total",           // {reason, workload}
            "pgw_answers_published_total",          // {workload, mode}
            "pgw_epsilon_charged_total",            // {workload, mode}: ε charged to devices
            "pgw_central_cumulative_epsilon",       // {workload}: gauge
            "pgw_release_latency_seconds_bucket",   // {workload, mode, le}: window end + grace -> answer written
            "pgw_release_latency_seconds_count",
            "pgw_release_latency_seconds_sum",
            "pgw_window_reports_count",             // summary of reports per window
            "pgw_window_reports_sum",
            "pgw_watermark_lag_seconds",            // {topic, partition}: gauge
            "pgw_release_failed_total",             // {workload}: windows without their answer
            "pgw_release_overrun_total",            // {workload}: central releases past their delay
            "pgw_release_overdue_seconds",          // {workload}: gauge, how late the oldest unanswered window is
            "pgw_device_spend_bucket",              // {budget, le}: fixed buckets of ε per device and period
            "pgw_ingest_refused_total",             // ingestion service {reason}
            "pgw_ingest_inflight",                  // ingestion service: reports awaiting Kafka
            "pgw_ingest_ready");                    // ingestion service: 1 when ready

    /** Further components of the gateway's timer and summary that the dashboard may use. */
    static final Set<String> GATEWAY_EXTRA = Set.of(
            "pgw_release_latency_seconds_max", "pgw_window_reports", "pgw_window_reports_max",
            "pgw_device_spend_count", "pgw_device_spend_sum", "pgw_device_spend_max", "pgw_windows_discarded_total",
            "pgw_workloads_invalid_total", "pgw_partials_invalid_total", "pgw_registry_requests_total",
            "pgw_ingest_reports_total", "pgw_ingest_request_seconds_bucket", "pgw_ingest_request_seconds_count",
            "pgw_ingest_request_seconds_sum", "pgw_ingest_request_seconds_max");

    /** Recording rules of deploy/prometheus/alerts.yml (policy values the alerts and the dashboard compare with). */
    static final Set<String> RECORDED = Set.of("pgw:central_epsilon_cap");

    /** Kafka client and Kafka Streams metrics through Micrometer's KafkaStreamsMetrics. */
    static final Set<String> KAFKA = Set.of(
            "kafka_consumer_fetch_manager_records_lag",
            "kafka_consumer_fetch_manager_records_lag_max",
            "kafka_stream_thread_commit_latency_avg",
            "kafka_stream_thread_commit_latency_max",
            // a share of time, not a count: record counts of a thread include central reports and are not
            // exposed by default (metrics.exactCentralCounts)
            "kafka_stream_thread_process_ratio",
            "kafka_stream_alive_stream_threads");

    /** Micrometer's JVM and process binders. */
    static final Set<String> JVM = Set.of(
            "jvm_memory_used_bytes", "jvm_memory_max_bytes", "jvm_memory_committed_bytes",
            "jvm_gc_pause_seconds_sum", "jvm_gc_pause_seconds_count", "jvm_gc_pause_seconds_max",
            "jvm_threads_live_threads", "process_cpu_usage", "system_cpu_usage", "system_cpu_count",
            "process_uptime_seconds", "process_files_open_files");

    static final Set<String> PROMETHEUS = Set.of("up");

    static Set<String> allowed() {
        Set<String> all = new TreeSet<>();
        all.addAll(GATEWAY);
        all.addAll(GATEWAY_EXTRA);
        all.addAll(KAFKA);
        all.addAll(JVM);
        all.addAll(PROMETHEUS);
        all.addAll(RECORDED);
        return all;
    }
}

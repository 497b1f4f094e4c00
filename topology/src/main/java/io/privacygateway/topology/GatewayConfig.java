package io.privacygateway.topology;

import java.time.Duration;

/**
 * What the topology needs to know about its deployment (validated: every bad value is reported with
 * the field name).
 *
 * @param topicPrefix prefix of every topic name (e.g. {@code "pgw."} gives {@code pgw.answers})
 * @param maxFutureSkew how far an event time may lie after the broker's append time
 * @param maxEventAge how far an event time may lie before the broker's append time
 * @param idleAfter a shard that has processed no record for this long (gateway clock) advances its
 *     watermark by the clock, so an idle partition never blocks the release of a window
 * @param watermarkSlack how far behind the gateway clock an idle shard's watermark stays (covers clock
 *     differences between brokers and the gateway)
 * @param punctuateEvery how often shards check for closed windows and publish progress
 * @param localPartitions partitions of the local-report topic (a window is released once every one of
 *     them has passed the window's end + grace)
 * @param centralPartitions partitions of the central-report topic
 * @param ledgerRetentionPeriods budget periods a device's ledger is kept after the period ends
 *     (duplicates are rejected within this retention)
 */
public record GatewayConfig(String topicPrefix, Duration maxFutureSkew, Duration maxEventAge, Duration idleAfter,
        Duration watermarkSlack, Duration punctuateEvery, int localPartitions, int centralPartitions,
        int ledgerRetentionPeriods) {

    public GatewayConfig {
        if (topicPrefix == null || !topicPrefix.matches("[A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("topicPrefix must match [A-Za-z0-9._-]*, got " + topicPrefix);
        }
        positive("maxFutureSkew", maxFutureSkew);
        positive("maxEventAge", maxEventAge);
        positive("idleAfter", idleAfter);
        nonNegative("watermarkSlack", watermarkSlack);
        positive("punctuateEvery", punctuateEvery);
        if (localPartitions < 1) {
            throw new IllegalArgumentException("localPartitions must be >= 1, got " + localPartitions);
        }
        if (centralPartitions < 1) {
            throw new IllegalArgumentException("centralPartitions must be >= 1, got " + centralPartitions);
        }
        if (ledgerRetentionPeriods < 1) {
            throw new IllegalArgumentException("ledgerRetentionPeriods must be >= 1, got " + ledgerRetentionPeriods);
        }
    }

    /** Defaults: prefix {@code pgw.}, skew 1 min, age 1 h, idle after 10 s, slack 5 s, every 1 s, retention 2. */
    public static GatewayConfig defaults(int localPartitions, int centralPartitions) {
        return new GatewayConfig("pgw.", Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofSeconds(10),
                Duration.ofSeconds(5), Duration.ofSeconds(1), localPartitions, centralPartitions, 2);
    }

    private static void positive(String field, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(field + " must be a positive duration, got " + d);
        }
    }

    private static void nonNegative(String field, Duration d) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(field + " must be a duration >= 0, got " + d);
        }
    }

    public String workloadsTopic() {
        return topicPrefix + "workloads";
    }

    public String localReportsTopic() {
        return topicPrefix + "reports.local";
    }

    public String centralReportsTopic() {
        return topicPrefix + "reports.central";
    }

    public String answersTopic() {
        return topicPrefix + "answers";
    }

    public String rejectionsTopic() {
        return topicPrefix + "rejections";
    }

    /** The internal topic carrying shard partials and progress to the release step (keyed by workload). */
    public String partialsTopic() {
        return topicPrefix + "partials";
    }
}

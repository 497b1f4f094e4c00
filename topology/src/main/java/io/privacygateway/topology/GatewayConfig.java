package io.privacygateway.topology;

import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.topology.identity.DeviceAuthentication;
import io.privacygateway.topology.state.RocksDbMemory;
import java.time.Duration;
import java.util.Objects;

/**
 * What the topology needs to know about its deployment, validated at construction (every bad value is
 * reported with its field name).
 *
 * @param topicPrefix prefix of the public topics (e.g. {@code "pgw."} gives {@code pgw.answers})
 * @param applicationId the Kafka Streams application id: the gateway's internal topics are named after it
 *     ({@code <applicationId>-partials}, {@code <applicationId>-clock}), as Kafka Streams names its own, so two
 *     deployments never read each other's internal data
 * @param maxFutureSkew how far an event time may lie after the broker's append time
 * @param maxEventAge how far an event time may lie before the broker's append time
 * @param watermarkSlack how far behind the broker's time an idle, caught-up shard's watermark stays (covers
 *     clock differences between brokers)
 * @param punctuateEvery how often shards check for closed windows and the release step for releases due
 * @param progressHeartbeat how often a shard repeats its progress even when no window closed (recovery after
 *     rebalances)
 * @param localPartitions partitions of the local-report topic (a window is released once every one of them
 *     has passed the window's end + grace)
 * @param centralPartitions partitions of the central-report topic
 * @param maxReportBytes the largest report record accepted (larger ones are rejected {@code MALFORMED})
 * @param partialsRetention retention of the internal partials topic (what recovery after an outage needs)
 * @param centralReportsRetention retention of the central report topic the gateway creates (it holds raw
 *     values: keep it as short as recovery after an outage needs)
 * @param authentication how devices prove their identity ({@link DeviceAuthentication.Open} or enrolled)
 * @param centralReleaseDelay a central answer is written this long (or its mechanism's minimum, if longer) after its
 *     window was found due (on a monotonic clock); the computation runs off the stream thread meanwhile, so the time
 *     an answer appears depends on no workload's data; a computation still running then is replaced by the window's
 *     data-independent fallback (counted in {@code pgw.release.overrun}), so it should exceed the longest release
 *     computation
 * @param exactCentralCounts whether the meters that count one central workload's reports exactly are registered
 *     ({@code pgw.reports.accepted}, {@code pgw.epsilon.charged}, {@code pgw.window.reports} and
 *     {@code pgw.device.spend} of central workloads; {@code metrics.exactCentralCounts} in {@code gateway.yaml}).
 *     Off by default: a central answer publishes a noisy n, and these meters would give the exact one to whoever
 *     can read the unauthenticated metrics endpoint (docs/operations.md, "Metrics of central workloads")
 * @param answersRetentionMs {@code retention.ms} of the answers topic when the gateway creates it: {@link #FOREVER}
 *     ({@code -1}, the default: every published answer is kept, like the privacy it cost) or a positive number of
 *     milliseconds ({@code retention.answers} in {@code gateway.yaml}; docs/operations.md, "Retention of answers")
 * @param answersStore whether the topology keeps every answer of the answers topic in a global store that the answers
 *     API queries ({@link io.privacygateway.topology.answers.AnswersStore}); on when {@code answers.port} is set in
 *     {@code gateway.yaml}. The gateway's principal then needs Read on the answers topic (docs/acls.md)
 * @param rocksDbMemory the memory all RocksDB stores of the process share ({@code rocksdb} in {@code gateway.yaml};
 *     {@link io.privacygateway.topology.state.BoundedRocksDbConfigSetter})
 */
public record GatewayConfig(String topicPrefix, String applicationId, Duration maxFutureSkew, Duration maxEventAge,
        Duration watermarkSlack, Duration punctuateEvery, Duration progressHeartbeat, int localPartitions,
        int centralPartitions, int maxReportBytes, Duration partialsRetention, Duration centralReportsRetention,
        DeviceAuthentication authentication, Duration centralReleaseDelay, boolean exactCentralCounts,
        long answersRetentionMs, boolean answersStore, RocksDbMemory rocksDbMemory) {
    /** {@link #answersRetentionMs} that keeps answers forever (Kafka's {@code retention.ms=-1}). */
    public static final long FOREVER = -1;

    public GatewayConfig {
        if (topicPrefix == null || !topicPrefix.matches("[A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("topicPrefix must match [A-Za-z0-9._-]*, got " + topicPrefix);
        }
        if (applicationId == null || !applicationId.matches("[A-Za-z0-9._-]{1,200}")) {
            throw new IllegalArgumentException("applicationId must match [A-Za-z0-9._-]{1,200}, got " + applicationId);
        }
        positive("maxFutureSkew", maxFutureSkew);
        positive("maxEventAge", maxEventAge);
        nonNegative("watermarkSlack", watermarkSlack);
        positive("punctuateEvery", punctuateEvery);
        positive("progressHeartbeat", progressHeartbeat);
        positive("partialsRetention", partialsRetention);
        positive("centralReportsRetention", centralReportsRetention);
        if (localPartitions < 1) {
            throw new IllegalArgumentException("localPartitions must be >= 1, got " + localPartitions);
        }
        if (centralPartitions < 1) {
            throw new IllegalArgumentException("centralPartitions must be >= 1, got " + centralPartitions);
        }
        if (centralPartitions != localPartitions) {
            throw new IllegalArgumentException("centralPartitions (" + centralPartitions + ") must equal localPartitions ("
                    + localPartitions + "): a device's budget is one ledger across both modes, kept by the task that"
                    + " owns the same partition of both report topics");
        }
        if (maxReportBytes < 256 || maxReportBytes > 1 << 20) {
            throw new IllegalArgumentException("maxReportBytes must be in [256, 1048576], got " + maxReportBytes);
        }
        Objects.requireNonNull(authentication, "authentication");
        nonNegative("centralReleaseDelay", centralReleaseDelay);
        if (answersRetentionMs != FOREVER && answersRetentionMs < 1) {
            throw new IllegalArgumentException("answersRetention must be forever (-1) or a positive duration, got "
                    + answersRetentionMs + " ms");
        }
        Objects.requireNonNull(rocksDbMemory, "rocksDbMemory");
    }

    /** Defaults: see {@link Builder}. */
    public static GatewayConfig defaults(int localPartitions, int centralPartitions) {
        return builder(localPartitions, centralPartitions).build();
    }

    /**
     * A builder with the defaults: prefix {@code pgw.}, application id {@code privacy-gateway}, skew 1 min, age
     * 1 h, slack 2 s, punctuation every 100 ms, heartbeat 5 s, reports up to 64 KiB, partials and central reports
     * kept 1 day, open device identities, central answers written 200 ms after their computation started, no
     * exact central counts among the meters, answers kept forever, no answers store, RocksDB memory {@link RocksDbMemory#DEFAULTS}.
     */
    public static Builder builder(int localPartitions, int centralPartitions) {
        return new Builder(localPartitions, centralPartitions);
    }

    public Builder toBuilder() {
        return new Builder(localPartitions, centralPartitions).topicPrefix(topicPrefix).applicationId(applicationId)
                .maxFutureSkew(maxFutureSkew).maxEventAge(maxEventAge).watermarkSlack(watermarkSlack)
                .punctuateEvery(punctuateEvery).progressHeartbeat(progressHeartbeat).maxReportBytes(maxReportBytes)
                .partialsRetention(partialsRetention).centralReportsRetention(centralReportsRetention)
                .authentication(authentication).centralReleaseDelay(centralReleaseDelay)
                .exactCentralCounts(exactCentralCounts).answersRetentionMs(answersRetentionMs)
                .answersStore(answersStore).rocksDbMemory(rocksDbMemory);
    }

    /** A mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private String topicPrefix = "pgw.";
        private String applicationId = "privacy-gateway";
        private Duration maxFutureSkew = Duration.ofMinutes(1);
        private Duration maxEventAge = Duration.ofHours(1);
        private Duration watermarkSlack = Duration.ofSeconds(2);
        private Duration punctuateEvery = Duration.ofMillis(100);
        private Duration progressHeartbeat = Duration.ofSeconds(5);
        private int localPartitions;
        private int centralPartitions;
        private int maxReportBytes = 64 * 1024;
        private Duration partialsRetention = Duration.ofDays(1);
        private Duration centralReportsRetention = Duration.ofDays(1);
        private DeviceAuthentication authentication = DeviceAuthentication.OPEN;
        private Duration centralReleaseDelay = Duration.ofMillis(200);
        private boolean exactCentralCounts;
        private long answersRetentionMs = FOREVER;
        private boolean answersStore;
        private RocksDbMemory rocksDbMemory = RocksDbMemory.DEFAULTS;

        private Builder(int localPartitions, int centralPartitions) {
            this.localPartitions = localPartitions;
            this.centralPartitions = centralPartitions;
        }

        public Builder topicPrefix(String v) {
            topicPrefix = v;
            return this;
        }

        public Builder applicationId(String v) {
            applicationId = v;
            return this;
        }

        public Builder maxFutureSkew(Duration v) {
            maxFutureSkew = v;
            return this;
        }

        public Builder maxEventAge(Duration v) {
            maxEventAge = v;
            return this;
        }

        public Builder watermarkSlack(Duration v) {
            watermarkSlack = v;
            return this;
        }

        public Builder punctuateEvery(Duration v) {
            punctuateEvery = v;
            return this;
        }

        public Builder progressHeartbeat(Duration v) {
            progressHeartbeat = v;
            return this;
        }

        public Builder partitions(int local, int central) {
            localPartitions = local;
            centralPartitions = central;
            return this;
        }

        public Builder maxReportBytes(int v) {
            maxReportBytes = v;
            return this;
        }

        public Builder partialsRetention(Duration v) {
            partialsRetention = v;
            return this;
        }

        public Builder centralReportsRetention(Duration v) {
            centralReportsRetention = v;
            return this;
        }

        public Builder authentication(DeviceAuthentication v) {
            authentication = v;
            return this;
        }

        public Builder centralReleaseDelay(Duration v) {
            centralReleaseDelay = v;
            return this;
        }

        public Builder exactCentralCounts(boolean v) {
            exactCentralCounts = v;
            return this;
        }

        /** {@code retention.ms} of the answers topic the gateway creates: {@link #FOREVER} or positive. */
        public Builder answersRetentionMs(long v) {
            answersRetentionMs = v;
            return this;
        }

        /** Whether the topology keeps the answers store the answers API reads. */
        public Builder answersStore(boolean v) {
            answersStore = v;
            return this;
        }

        public Builder rocksDbMemory(RocksDbMemory v) {
            rocksDbMemory = v;
            return this;
        }

        public GatewayConfig build() {
            return new GatewayConfig(topicPrefix, applicationId, maxFutureSkew, maxEventAge, watermarkSlack,
                    punctuateEvery, progressHeartbeat, localPartitions, centralPartitions, maxReportBytes,
                    partialsRetention, centralReportsRetention, authentication, centralReleaseDelay,
                    exactCentralCounts, answersRetentionMs, answersStore, rocksDbMemory);
        }
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

    /** The synthetic records of wide workloads that declare {@code central.synthetic} (one record per window). */
    public String syntheticTopic() {
        return topicPrefix + "synthetic";
    }

    public String rejectionsTopic() {
        return topicPrefix + "rejections";
    }

    /**
     * The internal topic carrying shard partials and progress to the release step (keyed by workload): exact,
     * un-noised central counts, readable and writable by the gateway's principal only.
     */
    public String partialsTopic() {
        return applicationId + "-partials";
    }

    /** The internal topic the gateway appends probes to, to read the broker's time. */
    public String clockTopic() {
        return applicationId + "-clock";
    }

    /** The report topic of a mode. */
    public String reportsTopic(Mode mode) {
        return mode == Mode.LOCAL ? localReportsTopic() : centralReportsTopic();
    }

    /** The partitions of a mode's report topic. */
    public int partitions(Mode mode) {
        return mode == Mode.LOCAL ? localPartitions : centralPartitions;
    }
}

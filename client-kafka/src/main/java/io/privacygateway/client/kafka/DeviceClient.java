package io.privacygateway.client.kafka;

import io.privacygateway.client.Client;
import io.privacygateway.client.DeviceAdmission;
import io.privacygateway.client.DeviceBudget;
import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.DeviceWorkloads;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.InMemoryDeviceBudget;
import io.privacygateway.client.Outcome;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.client.WorkloadBinding;
import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.device.DeviceWorkload;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The synchronous, Kafka-backed device client (simulations, relays, tests, the demo; phones use {@link Client}):
 * one device reporting values for one resolved workload. For each value,
 * {@link #report} encodes it into the workload's universe, checks the device's own budget, randomizes it
 * with the protocol the gateway runs too (local mode) or wraps the raw value (central mode), and sends the
 * Avro report keyed by the device id.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>A value outside the domain is never sent ({@link Outcome.Status#INVALID_VALUE}).
 *   <li>The device never sends a report its budget does not pay for: it runs the gateway's own admission
 *       rule through the SDK's one admission routine ({@link DeviceAdmission}: {@code WorkloadRules.admit}, exact ε,
 *       across workload versions, modes, period lengths and budget groups) on its own {@link DeviceBudget}, and uses each sequence number (local) or window slot {@code [0, L)} (central) at
 *       most once. So a report from this client is rejected by the gateway only for reasons outside the
 *       device's control: the workload was replaced by a new version ({@code VERSION_MISMATCH}), the device
 *       clock is more than the gateway's allowed skew away from the broker's ({@code CLOCK_SKEW}), or the report
 *       arrived after its window closed ({@code LATE}).
 *   <li>The budget slot is recorded in the {@link DeviceBudget} before the report is handed to the
 *       producer, and stays used even if sending fails.
 *   <li>Secret randomness comes only from the given {@link RandomBits} ({@link SecureRandomBits} unless a
 *       simulation or test injects another); public coins come from the report's coordinates.
 *   <li>Time is read only from the injected {@link Clock}.
 *   <li>Nothing is logged; values and payloads never appear in outcomes or exceptions.
 * </ul>
 *
 * <p>Thread-safe: reports of one client are serialized. Several clients (devices) may share a producer
 * and one {@link DeviceWorkload} (protocols are cached per content hash, see {@link DeviceWorkloads}). Clients built with
 * {@link Builder#producer} do not own the producer; {@link Builder#producerConfigs} makes one that
 * {@link #close} closes.
 */
public final class DeviceClient implements AutoCloseable {
    private final String deviceId;
    private final WorkloadBinding workload;
    private final KafkaTransport transport;
    private final String topic;
    private final Clock clock;
    private final RandomBits secret;
    private final DeviceBudget budget;
    private final long retentionMillis;
    /** The last {@value #RECENT_KEPT} reports handed to the producer, for {@link #resend}. */
    private final LinkedHashMap<ReportCoordinates, DeviceReport> recent = new LinkedHashMap<>();

    /** How long a device keeps a charge after its interval ended, unless configured otherwise: 31 days. */
    public static final Duration DEFAULT_RETENTION = DeviceAdmission.DEFAULT_RETENTION;

    /** How many recently sent reports {@link #resend} can send again. */
    public static final int RECENT_KEPT = 16;

    private DeviceClient(Builder b, WorkloadBinding workload, Producer<String, SpecificRecord> producer,
            boolean ownsProducer) {
        this.deviceId = b.deviceId;
        this.workload = workload;
        this.transport = new KafkaTransport(producer, b.topics, b.credential, Duration.ofSeconds(30), ownsProducer);
        this.topic = workload.mode() == Mode.LOCAL ? b.topics.localReports() : b.topics.centralReports();
        this.clock = b.clock;
        this.secret = b.secret;
        this.budget = b.budget;
        this.retentionMillis = b.retention.toMillis();
        // a client of a workload in a budget group records on the device that the workload is a member
        DeviceAdmission.joinGroup(budget, workload.rules(), clock.millis(), retentionMillis);
    }

    /** A builder for a device reporting for a resolved workload spec. */
    public static Builder builder(String deviceId, WorkloadSpec resolvedSpec) {
        return new Builder(deviceId, resolvedSpec);
    }

    /**
     * Reports one value.
     *
     * @param rawValue the value as written in a values file: a label, a number (buckets), or
     *     comma-separated 0/1 attributes; for a heavy-hitters workload the string itself (1 to
     *     {@code domain.strings.maxBytes} UTF-8 bytes, no U+0000), taken as it is (not trimmed); a value outside
     *     the domain is refused ({@link Outcome.Status#INVALID_VALUE}) before any budget is spent, with a message
     *     that never repeats it
     * @return what happened; {@link Outcome#delivery()} tells when the broker acknowledged a sent report
     * @throws IllegalStateException if the clock reads before the epoch (periods are non-negative)
     */
    public synchronized Outcome report(String rawValue) {
        try {
            workload.checkValue(Objects.requireNonNull(rawValue, "rawValue"));
        } catch (InvalidValueException e) {
            return refused(Outcome.Status.INVALID_VALUE, null,
                    "the value is not in the domain of workload " + workload.id());
        }
        return admitAndSend((c, now) -> workload.report(rawValue, c, now, secret));
    }

    /**
     * Reports one vector (family mean over a ball or a box: one real per coordinate, in the order of
     * {@code domain.ball.coordinates} or {@code domain.box.coordinates}). A vector outside the domain (its length, a
     * non-finite coordinate, a coordinate outside the box, a norm above the ball's radius) is refused
     * ({@link Outcome.Status#INVALID_VALUE}) before any budget is spent, with a message that names the rule and the
     * coordinate but never repeats a coordinate's value; so is any vector on a workload that is not a vector mean.
     * The array is not kept.
     *
     * @param value the vector
     * @return what happened, as {@link #report(String)}
     * @throws IllegalStateException if the clock reads before the epoch (periods are non-negative)
     */
    public synchronized Outcome report(double[] value) {
        WorkloadBinding w = workload;
        if (!w.takesVectors()) {
            return refused(Outcome.Status.INVALID_VALUE, null, "workload " + w.id() + " ("
                    + w.describeValues() + ") does not take vector values: report(double[]) is for the mean of a"
                    + " ball or a box");
        }
        double[] v = Objects.requireNonNull(value, "value").clone();
        try {
            w.checkVector(v);
        } catch (InvalidValueException e) { // the message names the rule and the coordinate, never its value
            return refused(Outcome.Status.INVALID_VALUE, null,
                    "the vector is not in the domain of workload " + w.id() + ": " + e.getMessage());
        }
        return admitAndSend((c, now) -> w.report(v, c, now, secret));
    }

    /** The report of a checked value at the given coordinates and time (randomized for a local workload). */
    @FunctionalInterface
    private interface ReportMaker {
        DeviceReport make(ReportCoordinates coords, long now) throws InvalidValueException;
    }

    /** Admits a checked value against the budget and sends its record (see {@link #report(String)}). */
    private Outcome admitAndSend(ReportMaker maker) {
        long now = clock.millis();
        DeviceAdmission.Admitted admitted;
        synchronized (budget) { // clients of one device share its ledger: read, admit and record as one step
            DeviceAdmission.Decision d = DeviceAdmission.admit(DeviceAdmission.current(budget, now, retentionMillis),
                    workload.rules(), deviceId, now);
            if (d instanceof DeviceAdmission.Refused r) {
                Outcome.Status status = r.reason() == BudgetLedger.Refusal.CONTRIBUTION_LIMIT
                        ? Outcome.Status.CONTRIBUTION_LIMIT : Outcome.Status.BUDGET_EXHAUSTED;
                return refused(status, Instant.ofEpochMilli(now), r.message());
            }
            admitted = (DeviceAdmission.Admitted) d;
            // recorded before the record is made and sent: a crash after this can only waste budget
            budget.record(admitted.updated());
        }
        ReportCoordinates coords = admitted.coordinates();
        DeviceReport report;
        try {
            report = maker.make(coords, now);
        } catch (InvalidValueException e) { // checked above: the value does not change between the two calls
            throw new IllegalStateException("a value that passed its check was refused by the protocol", e);
        }
        recent.put(coords, report);
        if (recent.size() > RECENT_KEPT) {
            recent.remove(recent.keySet().iterator().next());
        }
        return send(report, coords, Instant.ofEpochMilli(now));
    }

    /**
     * Sends a recent report again, byte for byte the same record (same coordinates, payload and event time),
     * for example after its delivery failed. This costs no privacy (the bytes reveal nothing new) and no
     * budget; if the first copy did reach the gateway, the gateway counts one and rejects the other as a
     * {@code DUPLICATE}. A copy that arrives after the report's window closed is rejected as {@code LATE}.
     *
     * @param previous an outcome of this client with coordinates ({@link Outcome.Status#SENT} or
     *     {@link Outcome.Status#SEND_FAILED}) among its last {@value #RECENT_KEPT} reports
     * @throws IllegalArgumentException if the report is not among them
     */
    public synchronized Outcome resend(Outcome previous) {
        DeviceReport report = previous.coordinates() == null ? null : recent.get(previous.coordinates());
        if (report == null) {
            throw new IllegalArgumentException("not one of the last " + RECENT_KEPT + " reports of device "
                    + deviceId + ": " + previous.coordinates());
        }
        return send(report, previous.coordinates(), previous.eventTime());
    }

    private static Outcome refused(Outcome.Status status, Instant eventTime, String detail) {
        return new Outcome(status, null, eventTime, null, detail);
    }

    private Outcome send(DeviceReport report, ReportCoordinates coords, Instant eventTime) {
        CompletableFuture<RecordMetadata> delivery;
        try {
            delivery = transport.produce(report);
        } catch (RuntimeException e) {
            return new Outcome(Outcome.Status.SEND_FAILED, coords, eventTime, CompletableFuture.failedFuture(e),
                    "the producer refused the report: " + e.getClass().getSimpleName());
        }
        return new Outcome(Outcome.Status.SENT, coords, eventTime, delivery, "sent to " + topic);
    }

    /**
     * How many more reports (local) or newly paid windows (central) the device's budget allows in the current
     * period: {@code ⌊(budget − spent) / ε⌋} in exact arithmetic, also bounded by the unused sequence numbers.
     */
    public synchronized int remainingInCurrentPeriod() {
        long now = clock.millis();
        return DeviceAdmission.remaining(current(now), workload.rules(), now);
    }

    /**
     * The exact ε this device has spent of its budget group's budget in the current period (every charge its ledger
     * holds of the group's members it knows or made under the group's name, in every version and mode), or empty
     * if the workload belongs to no group.
     */
    public synchronized Optional<BigDecimal> groupSpentInCurrentPeriod() {
        long now = clock.millis();
        return DeviceAdmission.groupSpent(current(now), workload.rules(), now);
    }

    /** The exact ε this device has spent of the current period's budget (all versions and modes of the workload). */
    public synchronized BigDecimal spentInCurrentPeriod() {
        long now = clock.millis();
        return DeviceAdmission.spent(current(now), workload.rules(), now);
    }

    private DeviceLedger current(long now) {
        synchronized (budget) {
            return DeviceAdmission.current(budget, now, retentionMillis);
        }
    }

    /** The device id (the report key, and the key of the device's budget entries at the gateway). */
    public String deviceId() {
        return deviceId;
    }

    /** The resolved workload this client reports for. */
    public DeviceWorkload workload() {
        return workload.device();
    }

    /** The topic reports go to. */
    public String topic() {
        return topic;
    }

    /** Flushes the producer (waits until every sent report is acknowledged or failed). */
    public void flush() {
        transport.flush();
    }

    /** Closes the producer if this client created it. */
    @Override
    public void close() {
        transport.close();
    }

    /**
     * Builds a {@link DeviceClient}. Required: a producer ({@link #producer} or {@link #producerConfigs})
     * and a clock. Defaults: {@link SecureRandomBits}, a fresh {@link InMemoryDeviceBudget}, the default
     * topic names.
     */
    public static final class Builder {
        private final String deviceId;
        private final WorkloadSpec spec;
        private Producer<String, SpecificRecord> producer;
        private Map<String, ?> producerConfigs;
        private String registryUrl;
        private Clock clock;
        private RandomBits secret;
        private DeviceBudget budget;
        private Duration retention = DEFAULT_RETENTION;
        private GatewayTopics topics = GatewayTopics.defaults();
        private String credential;

        private Builder(String deviceId, WorkloadSpec spec) {
            if (deviceId == null || deviceId.isBlank()) {
                throw new IllegalArgumentException("deviceId must be a non-empty string");
            }
            this.deviceId = deviceId;
            this.spec = Objects.requireNonNull(spec, "spec");
        }

        /**
         * A shared producer (not closed by the client). It must write values with the project's wire-format
         * serializer, as the producers of {@link ReportProducers#avro} do.
         */
        public Builder producer(Producer<String, SpecificRecord> producer) {
            this.producer = Objects.requireNonNull(producer, "producer");
            return this;
        }

        /** Creates the client's own producer ({@link ReportProducers#avro(Map, String)}), closed with the client. */
        public Builder producerConfigs(Map<String, ?> kafkaConfig, String registryUrl) {
            this.producerConfigs = Objects.requireNonNull(kafkaConfig, "kafkaConfig");
            this.registryUrl = Objects.requireNonNull(registryUrl, "registryUrl");
            return this;
        }

        /** The clock giving event times (and hence periods and windows). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The secret randomness. Production devices keep the default ({@link SecureRandomBits}); seeded
         * sources are for simulations and tests only.
         */
        public Builder secretRandomness(RandomBits secret) {
            this.secret = Objects.requireNonNull(secret, "secret");
            return this;
        }

        /** Where the device keeps its budget (default: a fresh {@link InMemoryDeviceBudget}). */
        public Builder budget(DeviceBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * How long the device keeps a charge after its interval ended (default {@link #DEFAULT_RETENTION}). A
         * charge forgotten earlier than a later version's period needs makes the device refuse that period's
         * reports (it never guesses), so keep it at least the longest budget period the device reports under.
         */
        public Builder retention(Duration retention) {
            this.retention = DeviceAdmission.checkRetention(retention);
            return this;
        }

        /** The gateway's topic names (default {@link GatewayTopics#defaults()}). */
        public Builder topics(GatewayTopics topics) {
            this.topics = Objects.requireNonNull(topics, "topics");
            return this;
        }

        /**
         * The device's enrollment credential ({@code DeviceCredential.issue}), sent in a header with every report;
         * required by gateways that run with enrolled devices.
         */
        public Builder credential(String credential) {
            this.credential = Objects.requireNonNull(credential, "credential");
            return this;
        }

        /**
         * Builds the client (and its protocol, once per workload version per process).
         *
         * @throws IllegalArgumentException if the spec is unresolved ({@code auto}) or unusable
         * @throws IllegalStateException if no producer or clock was given
         */
        public DeviceClient build() {
            if (clock == null) {
                throw new IllegalStateException("a clock is required (Clock.systemUTC() on a real device)");
            }
            if ((producer == null) == (producerConfigs == null)) {
                throw new IllegalStateException("exactly one of producer(...) or producerConfigs(...) is required");
            }
            if (secret == null) {
                secret = new SecureRandomBits();
            }
            if (budget == null) {
                budget = new InMemoryDeviceBudget();
            }
            WorkloadBinding w = WorkloadBinding.of(spec);
            if (producer != null) {
                return new DeviceClient(this, w, producer, false);
            }
            return new DeviceClient(this, w, ReportProducers.avro(producerConfigs, registryUrl), true);
        }
    }
}

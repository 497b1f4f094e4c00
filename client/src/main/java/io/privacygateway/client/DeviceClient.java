package io.privacygateway.client;

import io.privacygateway.client.DeviceBudget.Charge;
import io.privacygateway.client.DeviceBudget.PeriodUsage;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The device SDK: one device reporting values for one resolved workload. For each value,
 * {@link #report} encodes it into the workload's universe, checks the device's own budget, randomizes it
 * with the protocol the gateway runs too (local mode) or wraps the raw value (central mode), and sends the
 * Avro report keyed by the device id.
 *
 * <p><b>Guarantees.</b>
 * <ul>
 *   <li>A value outside the domain is never sent ({@link Outcome.Status#INVALID_VALUE}).
 *   <li>The device never sends a report its budget does not pay for: per budget period
 *       {@code ⌊eventTime / period⌋} it uses sequence numbers {@code 0, 1, ...} below the gateway's limit
 *       ({@link WorkloadRuntime#slotsPerPeriod()}), never twice, and the ε it is charged, summed as the
 *       gateway's ledger sums it, stays within {@code budget.epsilonPerPeriod}. Central mode: at most L
 *       contributions per window, the first of which is charged the release ε. So a report from this
 *       client is rejected by the gateway only for reasons outside the device's control: the workload was
 *       replaced by a new version ({@code VERSION_MISMATCH}), the device clock is more than the gateway's
 *       allowed skew away from the broker's ({@code CLOCK_SKEW}), or the report arrived after its window
 *       closed ({@code LATE}).
 *   <li>The budget slot is recorded in the {@link DeviceBudget} before the report is handed to the
 *       producer, and stays used even if sending fails.
 *   <li>Secret randomness comes only from the given {@link RandomBits} ({@link SecureRandomBits} unless a
 *       simulation or test injects another); public coins come from the report's coordinates.
 *   <li>Time is read only from the injected {@link Clock}.
 *   <li>Nothing is logged; values and payloads never appear in outcomes or exceptions.
 * </ul>
 *
 * <p>Thread-safe: reports of one client are serialized. Several clients (devices) may share a producer
 * and one {@link WorkloadRuntime} (protocols are cached per content hash). Clients built with
 * {@link Builder#producer} do not own the producer; {@link Builder#producerConfigs} makes one that
 * {@link #close} closes.
 */
public final class DeviceClient implements AutoCloseable {
    private final String deviceId;
    private final WorkloadRuntime workload;
    private final Producer<String, SpecificRecord> producer;
    private final boolean ownsProducer;
    private final String topic;
    private final Clock clock;
    private final RandomBits secret;
    private final DeviceBudget budget;
    /** The last {@value #RECENT_KEPT} reports handed to the producer, for {@link #resend}. */
    private final LinkedHashMap<ReportCoordinates, SpecificRecord> recent = new LinkedHashMap<>();

    /** How many recently sent reports {@link #resend} can send again. */
    public static final int RECENT_KEPT = 16;

    private DeviceClient(Builder b, WorkloadRuntime workload, Producer<String, SpecificRecord> producer,
            boolean ownsProducer) {
        this.deviceId = b.deviceId;
        this.workload = workload;
        this.producer = producer;
        this.ownsProducer = ownsProducer;
        this.topic = workload.mode() == Mode.LOCAL ? b.topics.localReports() : b.topics.centralReports();
        this.clock = b.clock;
        this.secret = b.secret;
        this.budget = b.budget;
    }

    /** A builder for a device reporting for a resolved workload spec. */
    public static Builder builder(String deviceId, WorkloadSpec resolvedSpec) {
        return new Builder(deviceId, resolvedSpec);
    }

    /**
     * Reports one value.
     *
     * @param rawValue the value as written in a values file: a label, a number (buckets), or
     *     comma-separated 0/1 attributes
     * @return what happened; {@link Outcome#delivery()} tells when the broker acknowledged a sent report
     * @throws IllegalStateException if the clock reads before the epoch (periods are non-negative)
     */
    public synchronized Outcome report(String rawValue) {
        int x;
        try {
            x = workload.encode(Objects.requireNonNull(rawValue, "rawValue"));
        } catch (InvalidValueException e) {
            return Outcome.refused(Outcome.Status.INVALID_VALUE, null,
                    "the value is not in the domain of workload " + workload.id());
        }
        long now = clock.millis();
        if (now < 0) {
            throw new IllegalStateException("the device clock reads " + now + " ms, before the epoch");
        }
        Instant eventTime = Instant.ofEpochMilli(now);
        WorkloadSpec s = workload.spec();
        long period = workload.periodOf(now);
        PeriodUsage used = budget.usage(workload.id(), period);
        double eps = s.epsilonPerCharge().value();
        double cap = s.budget().epsilonPerPeriod().value();
        int sequence = used.nextSequence();
        if (sequence >= workload.slotsPerPeriod()) {
            return Outcome.refused(Outcome.Status.BUDGET_EXHAUSTED, eventTime, "all " + workload.slotsPerPeriod()
                    + " report slots of period " + period + " are used");
        }
        long window = Charge.NO_WINDOW;
        double charged = eps;
        if (workload.mode() == Mode.CENTRAL) {
            window = workload.windowStartOf(now);
            int made = budget.contributions(workload.id(), window);
            int limit = s.central().contributionsPerWindow();
            if (made >= limit) {
                return Outcome.refused(Outcome.Status.CONTRIBUTION_LIMIT, eventTime, "the device already made its "
                        + limit + " contribution(s) to the window starting at " + Instant.ofEpochMilli(window));
            }
            if (made > 0) {
                charged = 0.0; // the window is paid for by its first contribution
            }
        }
        if (charged > 0 && used.paidCharges() >= s.reportsPerPeriod()) {
            return Outcome.refused(Outcome.Status.BUDGET_EXHAUSTED, eventTime, "spent " + used.spentEpsilon()
                    + " of " + cap + " in period " + period + " (" + used.paidCharges() + " paid charges of "
                    + s.reportsPerPeriod() + ")");
        }
        ReportCoordinates coords = new ReportCoordinates(deviceId, period, sequence);
        SpecificRecord record = workload.mode() == Mode.LOCAL
                ? Reports.local(workload, coords, now, workload.protocol().randomize(x, coords, secret))
                : Reports.central(workload, coords, now, rawValue.trim());
        budget.record(workload.id(), new Charge(period, sequence, charged, window));
        recent.put(coords, record);
        if (recent.size() > RECENT_KEPT) {
            recent.remove(recent.keySet().iterator().next());
        }
        return send(record, coords, eventTime);
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
        SpecificRecord record = previous.coordinates() == null ? null : recent.get(previous.coordinates());
        if (record == null) {
            throw new IllegalArgumentException("not one of the last " + RECENT_KEPT + " reports of device "
                    + deviceId + ": " + previous.coordinates());
        }
        return send(record, previous.coordinates(), previous.eventTime());
    }

    private Outcome send(SpecificRecord record, ReportCoordinates coords, Instant eventTime) {
        CompletableFuture<RecordMetadata> delivery = new CompletableFuture<>();
        try {
            producer.send(new ProducerRecord<>(topic, deviceId, record), (md, e) -> {
                if (e != null) {
                    delivery.completeExceptionally(e);
                } else {
                    delivery.complete(md);
                }
            });
        } catch (RuntimeException e) {
            delivery.completeExceptionally(e);
            return new Outcome(Outcome.Status.SEND_FAILED, coords, eventTime, delivery,
                    "the producer refused the report: " + e.getClass().getSimpleName());
        }
        return new Outcome(Outcome.Status.SENT, coords, eventTime, delivery, "sent to " + topic);
    }

    /** How many more reports (local) or newly paid windows (central) this device's budget allows in the current period. */
    public synchronized int remainingInCurrentPeriod() {
        long period = workload.periodOf(clock.millis());
        PeriodUsage used = budget.usage(workload.id(), period);
        return Math.max(0, Math.min(workload.slotsPerPeriod() - used.nextSequence(),
                workload.spec().reportsPerPeriod() - used.paidCharges()));
    }

    /** The device id (the report key and the gateway's ledger key). */
    public String deviceId() {
        return deviceId;
    }

    /** The resolved workload this client reports for. */
    public WorkloadRuntime workload() {
        return workload;
    }

    /** The topic reports go to. */
    public String topic() {
        return topic;
    }

    /** Flushes the producer (waits until every sent report is acknowledged or failed). */
    public void flush() {
        producer.flush();
    }

    /** Closes the producer if this client created it. */
    @Override
    public void close() {
        if (ownsProducer) {
            producer.close();
        }
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
        private GatewayTopics topics = GatewayTopics.defaults();

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

        /** The gateway's topic names (default {@link GatewayTopics#defaults()}). */
        public Builder topics(GatewayTopics topics) {
            this.topics = Objects.requireNonNull(topics, "topics");
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
            WorkloadRuntime w = WorkloadRuntime.of(spec);
            if (producer != null) {
                return new DeviceClient(this, w, producer, false);
            }
            return new DeviceClient(this, w, ReportProducers.avro(producerConfigs, registryUrl), true);
        }
    }
}

package io.privacygateway.simulator;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.Outcome;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.simulator.Reports;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Realistic report traffic from a simulated fleet of devices, built on the device SDK ({@link DeviceClient}).
 *
 * <p><b>The fleet.</b> {@code devices} devices with ids {@code <prefix><i>}. For each workload, every device
 * holds one value drawn once from the workload's {@link ValueDistribution} (Zipf over labels or buckets and
 * correlated attributes for marginals by default) and its own budget. A configurable fraction of the
 * devices misbehaves, each in one way ({@link ReportKind}), assigned round-robin over the chosen kinds.
 *
 * <p><b>A turn</b> is one device's attempt to report for one workload: workloads take turns round-robin,
 * and for each workload devices take turns in a seeded random order, every device once per cycle (so with
 * {@code devices} turns per workload every device reports once). An honest device reports its value through
 * its {@link DeviceClient} (which refuses locally once the device's budget is spent). A misbehaving device:
 * <ul>
 *   <li>{@link ReportKind#DUPLICATE}: reports validly, then immediately {@linkplain DeviceClient#resend resends}
 *       the same record;
 *   <li>{@link ReportKind#OVER_BUDGET}: sends a correctly randomized report with a sequence number at or
 *       beyond its budget's slots;
 *   <li>{@link ReportKind#GARBAGE}: sends 1–48 random bytes whose first byte is not the wire format's magic
 *       byte, through the byte producer;
 *   <li>{@link ReportKind#WRONG_EPSILON} / {@link ReportKind#WRONG_MECHANISM}: a report claiming twice the
 *       workload's ε / another mechanism (local workloads; for central ones these devices behave honestly);
 *   <li>{@link ReportKind#LATE} / {@link ReportKind#CLOCK_SKEW}: reports through a {@link DeviceClient} whose
 *       clock runs {@code lateBy} behind / {@code skewBy} ahead of the simulator's.
 * </ul>
 *
 * <p><b>Time and pacing.</b> Every event time comes from the injected {@link Clock}. {@link #step} takes
 * turns at once (a test or a virtual-time driver controls the clock). {@link #start} takes turns on a
 * background thread at {@code turnsPerSecond}: turn {@code k} (from 0) is due at
 * {@code start + k / rate} on the clock; when the clock is behind, the thread waits with the injected
 * {@link Sleeper} (real time by default; a virtual-time sleeper advances the clock instead), and when it is
 * late it catches up without waiting. {@link #stop} ends the run cleanly after the current turn, flushes the
 * producers and returns the counts.
 *
 * <p><b>Truth.</b> Every valid report (including the original of a duplicate) is recorded in the
 * {@link TruthRecorder} with its window, so estimates can be printed next to the true values.
 *
 * <p>Values and device choices use a seeded public generator (synthetic data is not secret); reports are
 * randomized with the secret randomness given ({@link SecureRandomBits} by default). The producers are the
 * caller's (never closed here). Turns are serialized; {@link #stats} and {@link #truth} may be read at
 * any time from any thread.
 */
public final class FleetSimulator implements AutoCloseable {
    private final Producer<String, SpecificRecord> reports;
    private final Producer<String, byte[]> raw;
    private final Clock clock;
    private final GatewayTopics topics;
    private final RandomBits secret;
    private final SplittableRandom rng;
    private final Sleeper sleeper;
    private final double turnsPerSecond;
    private final long maxTurns;
    private final Duration lateBy;
    private final Duration skewBy;
    private final List<Device> devices = new ArrayList<>();
    private final List<Slot> slots = new ArrayList<>();
    private final TruthRecorder truth = new TruthRecorder();

    private final AtomicLong turns = new AtomicLong();
    private final Map<ReportKind, AtomicLong> sent = new EnumMap<>(ReportKind.class);
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong invalid = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    private final Object lock = new Object();
    private volatile boolean stopping;
    private volatile CountDownLatch stopSignal = new CountDownLatch(1);
    private volatile Thread thread;
    private volatile Throwable failure;

    /** One workload the fleet reports for. */
    private static final class Slot {
        final ResolvedWorkload workload;
        final ValueDistribution values;
        final int[] order;
        long cursor;

        Slot(ResolvedWorkload workload, ValueDistribution values, int[] order) {
            this.workload = workload;
            this.values = values;
            this.order = order;
        }
    }

    /** One simulated device. */
    private static final class Device {
        final String id;
        final ReportKind behaviour;
        final Map<String, PerWorkload> state = new HashMap<>();

        Device(String id, ReportKind behaviour) {
            this.id = id;
            this.behaviour = behaviour;
        }
    }

    /** A device's state for one workload. */
    private static final class PerWorkload {
        final DeviceClient client;
        final String value;
        int extraSequence;

        PerWorkload(DeviceClient client, String value) {
            this.client = client;
            this.value = value;
        }
    }

    private FleetSimulator(Builder b) {
        this.reports = b.reports;
        this.raw = b.raw;
        this.clock = b.clock;
        this.topics = b.topics;
        this.secret = b.secret == null ? new SecureRandomBits() : b.secret;
        this.rng = new SplittableRandom(b.seed);
        this.turnsPerSecond = b.turnsPerSecond;
        this.maxTurns = b.maxTurns;
        this.lateBy = b.lateBy;
        this.skewBy = b.skewBy;
        for (ReportKind k : ReportKind.values()) {
            sent.put(k, new AtomicLong());
        }
        int n = b.devices;
        ReportKind[] behaviour = new ReportKind[n];
        Arrays.fill(behaviour, ReportKind.VALID);
        int bad = (int) Math.round(b.misbehavingFraction * n);
        if (bad > 0) {
            int[] perm = permutation(n);
            List<ReportKind> kinds = new ArrayList<>(b.misbehaviours);
            for (int i = 0; i < bad; i++) {
                behaviour[perm[i]] = kinds.get(i % kinds.size());
            }
        }
        for (int i = 0; i < n; i++) {
            devices.add(new Device(b.deviceIdPrefix + i, behaviour[i]));
        }
        for (Map.Entry<WorkloadSpec, ValueDistribution> e : b.workloads.entrySet()) {
            ResolvedWorkload w = Workloads.resolve(e.getKey());
            ValueDistribution d = e.getValue() == null ? ValueDistributions.defaultFor(w) : e.getValue();
            slots.add(new Slot(w, d, permutation(n)));
        }
        this.sleeper = b.sleeper != null ? b.sleeper
                : d -> stopSignal.await(Math.max(1, d.toMillis()), TimeUnit.MILLISECONDS);
    }

    private int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /**
     * A builder.
     *
     * @param reports a report producer writing the wire format (see
     *     {@link io.privacygateway.client.ReportProducers#avro})
     * @param clock the clock every event time is read from
     */
    public static Builder builder(Producer<String, SpecificRecord> reports, Clock clock) {
        return new Builder(reports, clock);
    }

    /**
     * Takes {@code count} turns now, without pacing.
     *
     * @return the counts so far
     * @throws IllegalStateException while a paced run is going on
     */
    public FleetStats step(int count) {
        synchronized (lock) {
            if (thread != null && thread.isAlive()) {
                throw new IllegalStateException("a paced run is going on: stop() it first");
            }
            for (int i = 0; i < count; i++) {
                turn();
            }
        }
        return stats();
    }

    /**
     * Starts the paced run on a background (daemon) thread. It ends after {@code maxTurns} turns, or when
     * {@link #stop} is called.
     *
     * @throws IllegalStateException if a run is already going on
     */
    public void start() {
        synchronized (lock) {
            if (thread != null && thread.isAlive()) {
                throw new IllegalStateException("already running");
            }
            stopping = false;
            failure = null;
            stopSignal = new CountDownLatch(1);
            thread = new Thread(this::run, "fleet-simulator");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void run() {
        long startMillis = clock.millis();
        long done = 0;
        try {
            while (!stopping && (maxTurns < 0 || done < maxTurns)) {
                long due = startMillis + (long) Math.floor(done * 1000.0 / turnsPerSecond);
                long now = clock.millis();
                if (now < due) {
                    sleeper.sleep(Duration.ofMillis(due - now));
                    continue;
                }
                synchronized (lock) {
                    turn();
                }
                done++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure = e;
        }
    }

    /** Whether a paced run is going on. */
    public boolean running() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    /**
     * Waits up to {@code timeout} for a paced run to end by itself (after {@code maxTurns} turns).
     *
     * @return whether it has ended
     */
    public boolean await(Duration timeout) throws InterruptedException {
        Thread t = thread;
        if (t == null) {
            return true;
        }
        t.join(Math.max(1, timeout.toMillis()));
        return !t.isAlive();
    }

    /**
     * Stops a paced run after its current turn (idempotent), flushes the producers and returns the counts.
     *
     * @throws IllegalStateException if the run failed (the cause is attached)
     */
    public FleetStats stop() {
        stopping = true;
        stopSignal.countDown();
        Thread t = thread;
        if (t != null) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        flush();
        Throwable f = failure;
        if (f != null) {
            throw new IllegalStateException("the simulation failed: " + f, f);
        }
        return stats();
    }

    /** Flushes the producers: every record sent so far is acknowledged or has failed. */
    public void flush() {
        reports.flush();
        if (raw != null) {
            raw.flush();
        }
    }

    /** Counts so far. */
    public FleetStats stats() {
        Map<ReportKind, Long> m = new EnumMap<>(ReportKind.class);
        sent.forEach((k, v) -> m.put(k, v.get()));
        return new FleetStats(turns.get(), m, refused.get(), invalid.get(), failed.get());
    }

    /** The true values of the valid reports sent so far. */
    public TruthRecorder truth() {
        return truth;
    }

    /** The device ids of the fleet, in index order. */
    public List<String> deviceIds() {
        return devices.stream().map(d -> d.id).toList();
    }

    /** How a device behaves ({@link ReportKind#VALID} for an honest one). */
    public ReportKind behaviourOf(String deviceId) {
        for (Device d : devices) {
            if (d.id.equals(deviceId)) {
                return d.behaviour;
            }
        }
        throw new IllegalArgumentException("no device " + deviceId + " in this fleet");
    }

    /** Stops (see {@link #stop}); does not close the producers. */
    @Override
    public void close() {
        stop();
    }

    // ---- one turn ----

    private void turn() {
        Slot slot = slots.get((int) (turns.getAndIncrement() % slots.size()));
        Device d = devices.get(slot.order[(int) (slot.cursor++ % slot.order.length)]);
        PerWorkload st = d.state.computeIfAbsent(slot.workload.contentHash(), h -> newState(d, slot));
        boolean local = slot.workload.mode() == Mode.LOCAL;
        switch (d.behaviour) {
            case DUPLICATE -> {
                Outcome o = honest(slot, st);
                if (o != null && o.sent()) {
                    track(st.client.resend(o), ReportKind.DUPLICATE);
                }
            }
            case OVER_BUDGET -> overBudget(slot, d, st);
            case GARBAGE -> garbage(slot, d);
            case WRONG_EPSILON, WRONG_MECHANISM -> {
                if (local) {
                    tampered(slot, d, st, d.behaviour);
                } else {
                    honest(slot, st);
                }
            }
            case LATE, CLOCK_SKEW -> {
                Outcome o = st.client.report(st.value);
                if (o.status() == Outcome.Status.INVALID_VALUE) {
                    invalid.incrementAndGet();
                } else if (o.coordinates() == null) {
                    refused.incrementAndGet();
                } else {
                    track(o, d.behaviour);
                }
            }
            default -> honest(slot, st);
        }
    }

    private PerWorkload newState(Device d, Slot slot) {
        Clock c = switch (d.behaviour) {
            case LATE -> Clock.offset(clock, lateBy != null ? lateBy.negated() : defaultLateBy(slot.workload).negated());
            case CLOCK_SKEW -> Clock.offset(clock, skewBy);
            default -> clock;
        };
        DeviceClient client = DeviceClient.builder(d.id, slot.workload.spec()).producer(reports).topics(topics)
                .clock(c).secretRandomness(secret).build();
        return new PerWorkload(client, slot.values.sample(rng));
    }

    /** 3 × (window + grace): the window has closed at a shard that has seen current traffic. */
    static Duration defaultLateBy(ResolvedWorkload w) {
        return w.spec().window().size().plus(w.spec().window().grace()).multipliedBy(3);
    }

    /** An honest report; returns its outcome (null if the value was invalid). */
    private Outcome honest(Slot slot, PerWorkload st) {
        boolean open = slot.workload.spec().family().isOpenDomain(); // heavy-hitters: strings, no universe index
        LocalWorkload.Vectors vectors = slot.workload instanceof LocalWorkload l
                && l.values() instanceof LocalWorkload.Vectors v ? v : null; // vector means: real vectors
        int x = 0;
        double[] vector = null;
        try {
            if (vectors != null) {
                vector = vectors.parse(st.value);
                vectors.checkVector(vector);
            } else if (open) {
                slot.workload.checkValue(st.value);
            } else {
                x = slot.workload.encode(st.value);
            }
        } catch (InvalidValueException e) {
            invalid.incrementAndGet();
            return null;
        }
        Outcome o = vector != null ? st.client.report(vector) : st.client.report(st.value);
        switch (o.status()) {
            case SENT -> {
                if (vector != null) {
                    truth.recordVector(slot.workload, o.eventTime().toEpochMilli(), vector);
                } else if (open) {
                    truth.recordString(slot.workload, o.eventTime().toEpochMilli(), st.value);
                } else {
                    truth.record(slot.workload, o.eventTime().toEpochMilli(), x);
                }
                track(o, ReportKind.VALID);
            }
            case SEND_FAILED -> track(o, ReportKind.VALID);
            case INVALID_VALUE -> invalid.incrementAndGet();
            default -> refused.incrementAndGet();
        }
        return o;
    }

    private void track(Outcome o, ReportKind kind) {
        sent.get(kind).incrementAndGet();
        if (o.status() == Outcome.Status.SEND_FAILED) {
            failed.incrementAndGet();
        } else {
            o.delivery().whenComplete((md, e) -> {
                if (e != null) {
                    failed.incrementAndGet();
                }
            });
        }
    }

    private void overBudget(Slot slot, Device d, PerWorkload st) {
        ResolvedWorkload w = slot.workload;
        long now = clock.millis();
        int sequence = w.slots() + (st.extraSequence++ % 1024);
        ReportCoordinates c = new ReportCoordinates(d.id, w.periodOf(now).index(), sequence);
        SpecificRecord r;
        if (w.mode() == Mode.LOCAL) {
            r = Reports.local(w, c, now, localPayload(w, st.value, c));
        } else {
            r = Reports.central(w, c, now, st.value);
        }
        send(topicOf(w), d.id, r, ReportKind.OVER_BUDGET);
    }

    private void tampered(Slot slot, Device d, PerWorkload st, ReportKind kind) {
        ResolvedWorkload w = slot.workload;
        long now = clock.millis();
        ReportCoordinates c = new ReportCoordinates(d.id, w.periodOf(now).index(), 0);
        LocalReport r = Reports.local(w, c, now, localPayload(w, st.value, c));
        LocalReport.Builder b = LocalReport.newBuilder(r);
        if (kind == ReportKind.WRONG_EPSILON) {
            b.setEpsilon(2 * r.getEpsilon());
        } else {
            String declared = w.spec().mechanism().wireName();
            b.setMechanism(declared.equals(MechanismId.GRR.wireName()) ? MechanismId.OUE.wireName()
                    : MechanismId.GRR.wireName());
        }
        send(topicOf(w), d.id, b.build(), kind);
    }

    private void garbage(Slot slot, Device d) {
        byte[] bytes = new byte[1 + rng.nextInt(48)];
        rng.nextBytes(bytes);
        bytes[0] = (byte) (1 + rng.nextInt(255)); // never the wire format's magic byte 0
        CompletableFuture<RecordMetadata> f = new CompletableFuture<>();
        try {
            raw.send(new ProducerRecord<>(topicOf(slot.workload), d.id, bytes), (md, e) -> complete(f, md, e));
        } catch (RuntimeException e) {
            f.completeExceptionally(e);
        }
        count(f, ReportKind.GARBAGE);
    }

    private void send(String topic, String key, SpecificRecord r, ReportKind kind) {
        CompletableFuture<RecordMetadata> f = new CompletableFuture<>();
        try {
            reports.send(new ProducerRecord<>(topic, key, r), (md, e) -> complete(f, md, e));
        } catch (RuntimeException e) {
            f.completeExceptionally(e);
        }
        count(f, kind);
    }

    private static void complete(CompletableFuture<RecordMetadata> f, RecordMetadata md, Exception e) {
        if (e != null) {
            f.completeExceptionally(e);
        } else {
            f.complete(md);
        }
    }

    private void count(CompletableFuture<RecordMetadata> f, ReportKind kind) {
        sent.get(kind).incrementAndGet();
        f.whenComplete((md, e) -> {
            if (e != null) {
                failed.incrementAndGet();
            }
        });
    }

    /**
     * The payload of a misbehaving device's report (sent past the budget, or tampered with afterwards): its value
     * randomized by the real device code, or an all-zero payload of the protocol's length if the value is invalid (the
     * gateway refuses such reports before reading their payload).
     */
    private byte[] localPayload(ResolvedWorkload w, String value, ReportCoordinates c) {
        LocalWorkload l = (LocalWorkload) w;
        try {
            return l.randomize(value, c, secret);
        } catch (InvalidValueException e) {
            return new byte[l.accumulator().payloadBytes()];
        }
    }

    private String topicOf(ResolvedWorkload w) {
        return w.mode() == Mode.LOCAL ? topics.localReports() : topics.centralReports();
    }

    /**
     * Builds a {@link FleetSimulator}. Defaults: 1,000 devices named {@code device-<i>}, 100 turns per
     * second, no turn limit, no misbehaving devices, a random seed, {@link SecureRandomBits}, the default
     * topic names, {@code lateBy} = 3 × (window + grace) of each workload, {@code skewBy} = 5 minutes.
     */
    public static final class Builder {
        private final Producer<String, SpecificRecord> reports;
        private final Clock clock;
        private Producer<String, byte[]> raw;
        private GatewayTopics topics = GatewayTopics.defaults();
        private int devices = 1000;
        private String deviceIdPrefix = "device-";
        private final Map<WorkloadSpec, ValueDistribution> workloads = new LinkedHashMap<>();
        private double turnsPerSecond = 100;
        private long maxTurns = -1;
        private double misbehavingFraction;
        private final EnumSet<ReportKind> misbehaviours = EnumSet.noneOf(ReportKind.class);
        private long seed = new SplittableRandom().nextLong();
        private RandomBits secret;
        private Sleeper sleeper;
        private Duration lateBy;
        private Duration skewBy = Duration.ofMinutes(5);

        private Builder(Producer<String, SpecificRecord> reports, Clock clock) {
            this.reports = Objects.requireNonNull(reports, "reports");
            this.clock = Objects.requireNonNull(clock, "clock");
        }

        /** The number of devices (>= 1). */
        public Builder devices(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("devices must be >= 1, got " + count);
            }
            this.devices = count;
            return this;
        }

        /** Device ids are {@code prefix + index} (use distinct prefixes for fleets sharing a gateway). */
        public Builder deviceIdPrefix(String prefix) {
            if (prefix == null) {
                throw new IllegalArgumentException("prefix is required");
            }
            this.deviceIdPrefix = prefix;
            return this;
        }

        /** A resolved workload with its default value distribution ({@link ValueDistributions#defaultFor}). */
        public Builder workload(WorkloadSpec resolved) {
            workloads.put(Objects.requireNonNull(resolved, "resolved"), null);
            return this;
        }

        /** A resolved workload with a value distribution. */
        public Builder workload(WorkloadSpec resolved, ValueDistribution values) {
            workloads.put(Objects.requireNonNull(resolved, "resolved"), Objects.requireNonNull(values, "values"));
            return this;
        }

        /** The pace of {@link #start}: device turns per second overall (> 0). */
        public Builder turnsPerSecond(double rate) {
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("turnsPerSecond must be a positive number, got " + rate);
            }
            this.turnsPerSecond = rate;
            return this;
        }

        /** Ends a paced run after this many turns (negative: no limit). */
        public Builder maxTurns(long turns) {
            this.maxTurns = turns;
            return this;
        }

        /**
         * Makes a fraction of the devices misbehave, each in one of the given ways (round-robin).
         *
         * @throws IllegalArgumentException if the fraction is outside [0, 1], no kind is given, or
         *     {@link ReportKind#VALID} is given
         */
        public Builder misbehaving(double fraction, ReportKind... kinds) {
            if (!(fraction >= 0 && fraction <= 1)) {
                throw new IllegalArgumentException("fraction must lie in [0, 1], got " + fraction);
            }
            if (fraction > 0 && kinds.length == 0) {
                throw new IllegalArgumentException("name at least one kind of misbehaviour");
            }
            misbehaviours.clear();
            for (ReportKind k : kinds) {
                if (!k.misbehaviour()) {
                    throw new IllegalArgumentException("VALID is not a misbehaviour");
                }
                misbehaviours.add(k);
            }
            this.misbehavingFraction = fraction;
            return this;
        }

        /** The producer for {@link ReportKind#GARBAGE} (required if garbage is enabled). */
        public Builder rawProducer(Producer<String, byte[]> raw) {
            this.raw = Objects.requireNonNull(raw, "raw");
            return this;
        }

        /** The gateway's topic names. */
        public Builder topics(GatewayTopics topics) {
            this.topics = Objects.requireNonNull(topics, "topics");
            return this;
        }

        /** The seed of the public generator (values, device order, misbehaving devices, garbage bytes). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The secret randomness of the devices' randomizers (a seeded source makes a run reproducible). */
        public Builder secretRandomness(RandomBits secret) {
            this.secret = Objects.requireNonNull(secret, "secret");
            return this;
        }

        /** How a paced run waits for the clock (default: real time). */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /** How far behind the clock of a {@link ReportKind#LATE} device runs (default 3 × (window + grace)). */
        public Builder lateBy(Duration d) {
            this.lateBy = positive("lateBy", d);
            return this;
        }

        /** How far ahead the clock of a {@link ReportKind#CLOCK_SKEW} device runs (default 5 minutes). */
        public Builder skewBy(Duration d) {
            this.skewBy = positive("skewBy", d);
            return this;
        }

        private static Duration positive(String name, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
            }
            return d;
        }

        /**
         * Builds the simulator (and the workloads' protocols).
         *
         * @throws IllegalStateException if no workload is given, or garbage is enabled without a byte producer
         */
        public FleetSimulator build() {
            if (workloads.isEmpty()) {
                throw new IllegalStateException("add at least one workload");
            }
            if (misbehavingFraction > 0 && misbehaviours.contains(ReportKind.GARBAGE) && raw == null) {
                throw new IllegalStateException("GARBAGE needs a rawProducer(...)");
            }
            return new FleetSimulator(this);
        }
    }
}

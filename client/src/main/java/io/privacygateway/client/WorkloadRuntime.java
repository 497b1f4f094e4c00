package io.privacygateway.client;

import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A resolved workload as a device runs it: the spec, the materialized {@link Workload} (universe and
 * answer vectors, for {@code encode}), its content hash and, in local mode, the {@link LocalProtocol} the
 * gateway runs too. Immutable and thread-safe.
 *
 * <p>Instances are cached per content hash ({@link #of}): building a protocol can take about a second
 * (chaining builds nets), so every device of a process that reports for one workload version shares one.
 * At most {@value #CACHE_LIMIT} versions are kept; beyond that an arbitrary older entry is dropped (it is
 * rebuilt if needed).
 */
public final class WorkloadRuntime {
    /** How many workload versions the process-wide cache keeps. */
    public static final int CACHE_LIMIT = 32;
    private static final Map<String, CompletableFuture<WorkloadRuntime>> CACHE = new ConcurrentHashMap<>();

    private final WorkloadSpec spec;
    private final Workload workload;
    private final LocalProtocol protocol;

    private WorkloadRuntime(WorkloadSpec spec, Workload workload, LocalProtocol protocol) {
        this.spec = spec;
        this.workload = workload;
        this.protocol = protocol;
    }

    /**
     * The runtime of a resolved spec, built once per content hash.
     *
     * @throws IllegalArgumentException if the spec names {@code auto} (resolve it with
     *     {@code Planner.resolve} or {@link WorkloadRegistrar#register} first) or its local pipeline cannot
     *     be built (for example an α so large that every value rounds to the same point)
     */
    public static WorkloadRuntime of(WorkloadSpec spec) {
        if (spec.mechanism() == MechanismId.AUTO) {
            throw new IllegalArgumentException("workload " + spec.id() + " names mechanism auto: devices need the"
                    + " resolved spec (WorkloadRegistrar.register or fetch returns it)");
        }
        String hash = CanonicalForm.contentHash(spec);
        CompletableFuture<WorkloadRuntime> mine = new CompletableFuture<>();
        CompletableFuture<WorkloadRuntime> existing = CACHE.putIfAbsent(hash, mine);
        if (existing == null) {
            trim(hash);
            try {
                mine.complete(build(spec));
            } catch (RuntimeException | Error e) {
                CACHE.remove(hash, mine);
                mine.completeExceptionally(e);
                throw e;
            }
            return mine.join();
        }
        try {
            return existing.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    private static WorkloadRuntime build(WorkloadSpec spec) {
        Workload w = Workload.of(spec);
        LocalProtocol p = spec.mode() == Mode.LOCAL ? LocalPipeline.of(w).protocol() : null;
        return new WorkloadRuntime(spec, w, p);
    }

    private static void trim(String keep) {
        Iterator<String> it = CACHE.keySet().iterator();
        while (CACHE.size() > CACHE_LIMIT && it.hasNext()) {
            String k = it.next();
            if (!k.equals(keep)) {
                it.remove();
            }
        }
    }

    /** The resolved spec. */
    public WorkloadSpec spec() {
        return spec;
    }

    /** The materialized workload (universe, queries, answer vectors). */
    public Workload workload() {
        return workload;
    }

    /** The workload id. */
    public String id() {
        return spec.id();
    }

    /** Lower-case hex SHA-256 of the spec's canonical form: keys the public coins; every report carries it. */
    public String contentHash() {
        return workload.contentHash();
    }

    /** Local or central. */
    public Mode mode() {
        return spec.mode();
    }

    /**
     * The protocol devices and gateway share (local mode).
     *
     * @throws IllegalStateException in central mode (devices send raw values to a trusted gateway)
     */
    public LocalProtocol protocol() {
        if (protocol == null) {
            throw new IllegalStateException("workload " + spec.id() + " is central-mode: it has no local protocol");
        }
        return protocol;
    }

    /** The budget period in milliseconds. */
    public long periodMillis() {
        return spec.budget().period().toMillis();
    }

    /** The tumbling window size in milliseconds. */
    public long windowMillis() {
        return spec.window().size().toMillis();
    }

    /** The budget period index of an event time: {@code ⌊t / period⌋}. */
    public long periodOf(long eventTimeMillis) {
        return Math.floorDiv(eventTimeMillis, periodMillis());
    }

    /** The start of the window containing an event time: {@code ⌊t / size⌋·size} (windows align to the epoch). */
    public long windowStartOf(long eventTimeMillis) {
        long s = windowMillis();
        return Math.floorDiv(eventTimeMillis, s) * s;
    }

    /**
     * The sequence numbers the gateway accepts per period: {@code [0, slots)}. Local mode: the reports a
     * device's budget pays for ({@link WorkloadSpec#reportsPerPeriod()}). Central mode: L contribution slots
     * for each window of a period, {@code L · max(1, ⌊period / window⌋)}. The same rule as the gateway's
     * {@code ReportValidator.slots}.
     */
    public int slotsPerPeriod() {
        if (spec.mode() == Mode.LOCAL) {
            return spec.reportsPerPeriod();
        }
        long windowsPerPeriod = Math.max(1, periodMillis() / windowMillis());
        long slots = (long) spec.central().contributionsPerWindow() * windowsPerPeriod;
        return (int) Math.min(Integer.MAX_VALUE, slots);
    }

    /** The universe index of a raw value (see {@link Workload#encode}). */
    public int encode(String raw) throws InvalidValueException {
        return workload.encode(raw);
    }
}

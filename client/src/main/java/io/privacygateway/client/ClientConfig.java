package io.privacygateway.client;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;

/**
 * What {@link Client#create} needs. Required: the device id, the directory of the device store, at least one
 * resolved workload spec, and a transport ({@link Builder#endpoint} for HTTPS, or {@link Builder#transport}). Bad
 * values fail in the builder, naming the field.
 */
public final class ClientConfig {
    final String deviceId;
    final Path directory;
    final Map<String, WorkloadSpec> workloads;
    final Transport transport;
    final Clock clock;
    final RandomBits secret;
    final DoubleSupplier jitter;
    final Backoff backoff;
    final Duration retention;
    final int maxQueuedReports;
    final long maxQueuedBytes;
    final boolean sendInBackground;
    final boolean syncWrites;
    final Executor buildExecutor;

    private ClientConfig(Builder b) {
        this.deviceId = b.deviceId;
        this.directory = b.directory;
        this.workloads = Collections.unmodifiableMap(new LinkedHashMap<>(b.workloads));
        this.transport = b.transport;
        this.clock = b.clock;
        this.secret = b.secret == null ? new SecureRandomBits() : b.secret;
        this.jitter = b.jitter == null ? defaultJitter() : b.jitter; // public jitter, not secret
        this.backoff = b.backoff;
        this.retention = b.retention;
        this.maxQueuedReports = b.maxQueuedReports;
        this.maxQueuedBytes = b.maxQueuedBytes;
        this.sendInBackground = b.sendInBackground;
        this.syncWrites = b.syncWrites;
        this.buildExecutor = b.buildExecutor;
    }

    /**
     * The default jitter: uniform in [0, 1) from a {@link SecureRandom} of its own. The jitter is public timing noise,
     * not a secret, but it comes from the same kind of source as the TypeScript SDK's ({@code crypto}), so no SDK
     * class draws from {@code java.util.Random}.
     */
    private static DoubleSupplier defaultJitter() {
        SecureRandom random = new SecureRandom();
        return () -> random.nextDouble();
    }

    /**
     * A builder.
     *
     * @param deviceId the device's stable pseudonymous id (the report key and the budget key at the gateway)
     * @param directory the app's private directory for the device store ({@link FileDeviceStore}); created if
     *     absent; one client at a time per directory
     */
    public static Builder builder(String deviceId, Path directory) {
        return new Builder(deviceId, directory);
    }

    /** The device id. */
    public String deviceId() {
        return deviceId;
    }

    /** The store directory. */
    public Path directory() {
        return directory;
    }

    /** Builds a {@link ClientConfig}. */
    public static final class Builder {
        private final String deviceId;
        private final Path directory;
        private final Map<String, WorkloadSpec> workloads = new LinkedHashMap<>();
        private Transport transport;
        private Clock clock = Clock.systemUTC();
        private RandomBits secret;
        private DoubleSupplier jitter;
        private Backoff backoff = Backoff.DEFAULT;
        private Duration retention = DeviceAdmission.DEFAULT_RETENTION;
        private int maxQueuedReports = FileDeviceStore.DEFAULT_MAX_REPORTS;
        private long maxQueuedBytes = FileDeviceStore.DEFAULT_MAX_BYTES;
        private boolean sendInBackground = true;
        private boolean syncWrites;
        private Executor buildExecutor;

        private Builder(String deviceId, Path directory) {
            if (deviceId == null || deviceId.trim().isEmpty()) {
                throw new IllegalArgumentException("deviceId must be a non-empty string");
            }
            ReportCoordinates.check(deviceId, 0, 0);
            if (directory == null) {
                throw new IllegalArgumentException("directory is required (the app's private storage)");
            }
            this.deviceId = deviceId;
            this.directory = directory;
        }

        /**
         * A workload the device reports for: a resolved spec (no {@code mechanism: auto}), as served by
         * {@code GET /v1/workloads/{id}}. Its protocol is built off the caller's thread ({@link Client#ready}).
         */
        public Builder workload(WorkloadSpec resolvedSpec) {
            Objects.requireNonNull(resolvedSpec, "workload");
            if (resolvedSpec.mechanism() == MechanismId.AUTO) {
                throw new IllegalArgumentException("workload " + resolvedSpec.id() + ": mechanism auto is not"
                        + " resolved; give the spec the gateway serves");
            }
            if (workloads.putIfAbsent(resolvedSpec.id(), resolvedSpec) != null) {
                throw new IllegalArgumentException("workload " + resolvedSpec.id() + " is given twice");
            }
            return this;
        }

        /** Several workloads ({@link #workload}). */
        public Builder workloads(List<WorkloadSpec> specs) {
            new ArrayList<>(specs).forEach(this::workload);
            return this;
        }

        /** The HTTPS ingestion endpoint and the device's credential (an {@link HttpTransport} with defaults). */
        public Builder endpoint(String baseUrl, String credential) {
            HttpTransport.Builder b = HttpTransport.builder(baseUrl);
            if (credential != null) {
                b.credential(credential);
            }
            return transport(b.build());
        }

        /** Any transport (closed with the client). */
        public Builder transport(Transport transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
            return this;
        }

        /** The clock giving event times (default {@link Clock#systemUTC()}). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Secret randomness; keep the default ({@link SecureRandomBits}) on real devices. */
        public Builder secretRandomness(RandomBits secret) {
            this.secret = Objects.requireNonNull(secret, "secretRandomness");
            return this;
        }

        /**
         * Public randomness of the backoff's jitter, uniform in [0, 1) (default: a {@link SecureRandom} of its own;
         * public, not secret).
         */
        public Builder jitter(DoubleSupplier jitter) {
            this.jitter = Objects.requireNonNull(jitter, "jitter");
            return this;
        }

        /** The resend backoff (default {@link Backoff#DEFAULT}). */
        public Builder backoff(Backoff backoff) {
            this.backoff = Objects.requireNonNull(backoff, "backoff");
            return this;
        }

        /** How long charges are kept after their interval ended (default 31 days; at least the longest period). */
        public Builder retention(Duration retention) {
            this.retention = DeviceAdmission.checkRetention(retention);
            return this;
        }

        /** Bounds of the offline queue (defaults 1000 reports, 4 MiB). */
        public Builder maxQueued(int reports, long bytes) {
            if (reports < 1) {
                throw new IllegalArgumentException("maxQueuedReports must be >= 1, got " + reports);
            }
            if (bytes < 1) {
                throw new IllegalArgumentException("maxQueuedBytes must be >= 1, got " + bytes);
            }
            this.maxQueuedReports = reports;
            this.maxQueuedBytes = bytes;
            return this;
        }

        /**
         * Whether a background thread sends the queue (default true). With false, nothing is sent until the app calls
         * {@link Client#sendNow()} (e.g. from Android's WorkManager).
         */
        public Builder sendInBackground(boolean on) {
            this.sendInBackground = on;
            return this;
        }

        /**
         * Whether {@link Client#report} writes the charge and the report to disk before it returns (one fsync per
         * report: milliseconds on a phone's flash). Default false: {@code report} does no I/O (microseconds) and the
         * background sender, or {@link Client#sync()}, writes every report staged since the last write in one atomic
         * write before sending any of them. Either way a report is never sent before its charge is on disk.
         */
        public Builder syncWrites(boolean on) {
            this.syncWrites = on;
            return this;
        }

        /**
         * Where the workloads' protocols are built (default: the client's own daemon thread). Never the UI thread:
         * a build can take about a second.
         */
        public Builder buildExecutor(Executor executor) {
            this.buildExecutor = Objects.requireNonNull(executor, "buildExecutor");
            return this;
        }

        /**
         * @throws IllegalStateException naming the field if no workload or no transport was given
         */
        public ClientConfig build() {
            if (workloads.isEmpty()) {
                throw new IllegalStateException("workloads: at least one workload is required");
            }
            if (transport == null) {
                throw new IllegalStateException("transport: endpoint(...) or transport(...) is required");
            }
            return new ClientConfig(this);
        }
    }
}

package io.privacygateway.client;

import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** Workload specs and a settable clock for the SDK's tests (no YAML on the device side). */
final class TestSpecs {
    static final long T0 = 1_800_000_000_000L; // a minute boundary

    private TestSpecs() {}

    /** A local grr histogram over {a, b, c}: ε per report {@code eps}, budget {@code budget} a day, 1-minute windows. */
    static WorkloadSpec local(String id, double eps, double budget) {
        return WorkloadSpecParser.parse(Map.of(
                "id", id,
                "version", 1,
                "family", "histogram",
                "domain", Map.of("labels", List.of("a", "b", "c")),
                "mechanism", "grr",
                "epsilonPerReport", eps,
                "budget", Map.of("epsilonPerPeriod", budget, "period", "1d"),
                "window", Map.of("size", "1m", "grace", "10s")));
    }

    /** A clock tests move by hand. */
    static final class MovableClock extends Clock {
        private volatile long now;

        MovableClock(long now) {
            this.now = now;
        }

        void set(long t) {
            now = t;
        }

        void advance(long ms) {
            now += ms;
        }

        @Override
        public long millis() {
            return now;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}

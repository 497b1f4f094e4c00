package io.privacygateway.harness.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that tests set and advance by hand, in UTC, with millisecond resolution. Thread-safe: a test
 * thread may move it while the code under test (a device SDK, a dashboard, a simulator) reads it on
 * another. The one copy for every module's tests.
 */
public final class MutableClock extends Clock {
    private final AtomicLong millis;

    public MutableClock(long epochMillis) {
        this.millis = new AtomicLong(epochMillis);
    }

    public MutableClock(Instant start) {
        this(start.toEpochMilli());
    }

    public void set(long epochMillis) {
        millis.set(epochMillis);
    }

    public void set(Instant t) {
        set(t.toEpochMilli());
    }

    public void advance(Duration d) {
        millis.addAndGet(d.toMillis());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
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

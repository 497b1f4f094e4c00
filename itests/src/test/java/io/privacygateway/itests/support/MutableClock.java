package io.privacygateway.itests.support;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A device clock the test sets (the SDK reads event times only from its clock). */
public final class MutableClock extends Clock {
    private volatile long millis;

    public MutableClock(long millis) {
        this.millis = millis;
    }

    public void set(long millis) {
        this.millis = millis;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }
}

package io.privacygateway.topology.clock;

import java.util.OptionalLong;

/**
 * Tells a shard how far it may advance its watermark when reports stop arriving, without trusting the
 * gateway's own clock: a shard whose partition is <b>caught up</b> — everything appended to it before broker
 * time {@code T} has been processed — may treat {@code T} as its watermark (minus a slack for clock differences
 * between brokers). When the end offsets or the broker's time cannot be read (a broker outage, a network
 * partition), nothing is returned and idle watermarks stand still, so a backlog that arrives later is never
 * judged late by a clock that kept running; a jump of the gateway's wall clock changes nothing.
 */
public interface CaughtUpClock extends AutoCloseable {

    /**
     * The broker time up to which {@code topic}-{@code partition} is known to be processed by a shard whose next
     * offset is {@code nextOffset} ({@code -1} if it has processed nothing since it started), or empty if that
     * is not known now.
     */
    OptionalLong caughtUpTo(String topic, int partition, long nextOffset);

    @Override
    default void close() {}

    /** A clock that never reports progress (idle watermarks never advance: tests of lateness, or no broker). */
    CaughtUpClock NEVER = (topic, partition, next) -> OptionalLong.empty();
}

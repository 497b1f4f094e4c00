package io.privacygateway.app.metrics;

import io.privacygateway.topology.service.GatewayService;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Keeps a long-running command from becoming a zombie: waits until either a stop is requested (Ctrl-C) or the
 * gateway's streams client reaches a terminal state — ERROR (it shut itself down, for instance after
 * {@link GatewayService#MAX_REPLACEMENTS} thread failures within {@link GatewayService#REPLACEMENT_WINDOW}) or
 * NOT_RUNNING (it was closed) — and in the second case says in one line what failed.
 *
 * <p>The streams client allows one state listener, which must be set before it starts; {@link GatewayService}
 * starts it, so the state is polled instead (every {@code pollEvery}).
 */
public final class GatewayWatch {
    private final Supplier<KafkaStreams.State> state;
    private final Supplier<Throwable> failure;
    private final Duration pollEvery;

    /**
     * @param state the streams client's state
     * @param failure why the gateway shut itself down, or {@code null} (see {@link GatewayService#failure()})
     * @param pollEvery how often the state is read
     */
    public GatewayWatch(Supplier<KafkaStreams.State> state, Supplier<Throwable> failure, Duration pollEvery) {
        this.state = Objects.requireNonNull(state, "state");
        this.failure = Objects.requireNonNull(failure, "failure");
        if (pollEvery.isNegative() || pollEvery.isZero()) {
            throw new IllegalArgumentException("pollEvery must be > 0, got " + pollEvery);
        }
        this.pollEvery = pollEvery;
    }

    /** A watch on a running gateway, polling every 200 ms. */
    public static GatewayWatch of(GatewayService gateway) {
        return new GatewayWatch(() -> gateway.streams().state(), gateway::failure, Duration.ofMillis(200));
    }

    /**
     * Waits for {@code stop} or a terminal state of the streams client.
     *
     * @return empty when {@code stop} was counted down first, else the line saying what failed
     */
    public Optional<String> await(CountDownLatch stop) throws InterruptedException {
        while (true) {
            Optional<String> failed = check();
            if (stop.getCount() == 0) {
                return Optional.empty();
            }
            if (failed.isPresent()) {
                return failed;
            }
            if (stop.await(pollEvery.toNanos(), TimeUnit.NANOSECONDS)) {
                return Optional.empty();
            }
        }
    }

    /** The line saying what failed if the streams client is in a terminal state (ERROR, NOT_RUNNING) now. */
    public Optional<String> check() {
        KafkaStreams.State s = state.get();
        return s == KafkaStreams.State.ERROR || s == KafkaStreams.State.NOT_RUNNING
                ? Optional.of(describe(s, failure.get())) : Optional.empty();
    }

    /** Why the gateway shut itself down, or {@code null}. */
    public Throwable failure() {
        return failure.get();
    }

    /** The line printed when the streams client is found in the terminal state {@code s}. */
    public static String describe(KafkaStreams.State s, Throwable cause) {
        StringBuilder b = new StringBuilder("the gateway stopped: its Kafka Streams client is ").append(s.name());
        if (cause != null) {
            b.append(s == KafkaStreams.State.ERROR ? " after a stream thread failed more than "
                    + GatewayService.MAX_REPLACEMENTS + " times within " + minutes(GatewayService.REPLACEMENT_WINDOW)
                    : "").append("; last failure: ").append(Failures.oneLine(cause));
        } else if (s == KafkaStreams.State.ERROR) {
            b.append(" (a fatal error in the Kafka Streams client; the log above has the details)");
        } else {
            b.append(" (it was shut down while the command was running)");
        }
        return b.toString();
    }

    private static String minutes(Duration d) {
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " minutes" : d.toSeconds() + " seconds";
    }
}

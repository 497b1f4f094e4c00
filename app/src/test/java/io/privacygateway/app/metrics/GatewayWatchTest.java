package io.privacygateway.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.streams.KafkaStreams.State;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/**
 * The watch that keeps {@code run} from becoming a zombie, driven through scripted streams states (the real
 * NOT_RUNNING case, a closed streams client, is in {@code RunCommandTest}).
 */
class GatewayWatchTest {

    /** States read one after the other; the last one repeats. */
    static java.util.function.Supplier<State> script(State... states) {
        Deque<State> q = new ArrayDeque<>(List.of(states));
        return () -> q.size() > 1 ? q.removeFirst() : q.peekFirst();
    }

    @Test
    void anErrorStateAfterRepeatedThreadFailuresEndsTheWaitWithOneLineNamingTheFailure() throws Exception {
        StreamsException failure = new StreamsException("task 0_1 failed",
                new SchemaRegistryException("GET /schemas/ids/7 at http://registry:8081",
                        SchemaRegistryException.NO_RESPONSE, 0, "java.net.ConnectException",
                        new java.net.ConnectException()));
        GatewayWatch watch = new GatewayWatch(script(State.RUNNING, State.REBALANCING, State.RUNNING,
                State.PENDING_ERROR, State.ERROR), () -> failure, Duration.ofMillis(1));
        Optional<String> line = watch.await(new CountDownLatch(1));
        assertThat(line).isPresent();
        assertThat(line.get()).doesNotContain("\n")
                .startsWith("the gateway stopped: its Kafka Streams client is ERROR after a stream thread failed more"
                        + " than 10 times within 5 minutes; last failure: StreamsException: task 0_1 failed")
                .contains("GET /schemas/ids/7 at http://registry:8081 -> no response");
    }

    @Test
    void notRunningAndErrorWithoutACauseAreNamedToo() throws Exception {
        assertThat(new GatewayWatch(script(State.RUNNING, State.PENDING_SHUTDOWN, State.NOT_RUNNING), () -> null,
                Duration.ofMillis(1)).await(new CountDownLatch(1))).hasValue("the gateway stopped: its Kafka Streams"
                        + " client is NOT_RUNNING (it was shut down while the command was running)");
        assertThat(new GatewayWatch(script(State.ERROR), () -> null, Duration.ofMillis(1)).check().orElseThrow())
                .contains("ERROR (a fatal error");
    }

    @Test
    void aStopRequestEndsTheWaitWithoutAFailureEvenWhenTheGatewayIsBeingClosed() throws Exception {
        CountDownLatch stop = new CountDownLatch(1);
        stop.countDown();
        // the shutdown hook counts down first and then closes the gateway
        assertThat(new GatewayWatch(script(State.NOT_RUNNING), () -> null, Duration.ofMillis(1)).await(stop)).isEmpty();
        CountDownLatch later = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            later.countDown();
        });
        t.start();
        assertThat(new GatewayWatch(script(State.RUNNING), () -> null, Duration.ofMillis(5)).await(later)).isEmpty();
        t.join();
    }

    @Test
    void livenessStatesAreNotFailures() {
        for (State s : new State[] {State.CREATED, State.REBALANCING, State.RUNNING, State.PENDING_SHUTDOWN,
            State.PENDING_ERROR}) {
            assertThat(new GatewayWatch(() -> s, () -> null, Duration.ofMillis(1)).check()).as(s.name()).isEmpty();
        }
    }

    @Test
    void failuresAreToldInOneLineWithTheirRootCause() {
        Exception e = new ExecutionException(new IllegalStateException("publishing workload w failed:\nbroker gone",
                new org.apache.kafka.common.errors.TimeoutException("Expiring 1 record(s)")));
        assertThat(Failures.oneLine(e)).isEqualTo("publishing workload w failed: broker gone (cause: TimeoutException:"
                + " Expiring 1 record(s))");
        assertThat(Failures.oneLine(new java.util.concurrent.TimeoutException())).isEqualTo("TimeoutException");
        assertThat(Failures.oneLine(new IllegalStateException("registry down", new java.net.ConnectException())))
                .isEqualTo("registry down");
        assertThat(Failures.oneLine(new RuntimeException(new java.net.ConnectException())))
                .isEqualTo("RuntimeException: java.net.ConnectException");
        assertThat(Failures.oneLine(new RuntimeException((String) null, new java.net.ConnectException())))
                .isEqualTo("RuntimeException (cause: ConnectException)");
        assertThat(Failures.oneLine(new RuntimeException("x".repeat(5000)))).hasSize(Failures.MAX_LINE);
        assertThat(Failures.causedBy(e, org.apache.kafka.common.KafkaException.class)).isTrue();
        assertThat(Failures.causedBy(e, java.io.IOException.class)).isFalse();
    }
}

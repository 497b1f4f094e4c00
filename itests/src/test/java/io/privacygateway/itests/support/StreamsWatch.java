package io.privacygateway.itests.support;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * Samples a running gateway's Kafka Streams state and stream-thread names every 10 ms, to show that it
 * never left RUNNING and that no stream thread died and was replaced (a replaced thread gets a new name).
 */
public final class StreamsWatch implements AutoCloseable {
    private final KafkaStreams streams;
    private final Set<String> states = new ConcurrentSkipListSet<>();
    private final Set<String> threads = new ConcurrentSkipListSet<>();
    private final Set<String> threadsAtStart;
    private final Thread sampler;
    private volatile boolean stop;

    StreamsWatch(KafkaStreams streams) {
        this.streams = streams;
        this.threadsAtStart = threadNames();
        sample();
        this.sampler = new Thread(() -> {
            while (!stop) {
                sample();
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "streams-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        states.add(streams.state().name());
        threads.addAll(threadNames());
    }

    private Set<String> threadNames() {
        Set<String> names = new TreeSet<>();
        for (ThreadMetadata t : streams.metadataForLocalThreads()) {
            names.add(t.threadName());
        }
        return names;
    }

    /** Every state observed. */
    public Set<String> statesSeen() {
        return new TreeSet<>(states);
    }

    /** The stream threads at the start. */
    public Set<String> threadsAtStart() {
        return threadsAtStart;
    }

    /** Every stream-thread name observed. */
    public Set<String> threadsSeen() {
        return new TreeSet<>(threads);
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        sampler.join(1000);
        sample();
    }
}

package io.privacygateway.itests.support;

import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportProducers;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.simulator.Reports;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Steady, valid report traffic for the fault tests, in real time: at the start of every window (plus
 * {@link #SEND_DELAY_MILLIS}) one burst, in which each of {@code devices} devices sends one local report (a fresh
 * sequence number of its period, payload randomized with secret randomness) and one central report (slot 0 of
 * the window) with event times inside that window. Every report is within the device's budget, so a correct
 * gateway accepts all of them; the reports are kept for the {@link Oracle}. The producer is idempotent
 * ({@code acks=all}) and rides out broker outages of up to 3 minutes (it buffers and retries, reconnecting every
 * 100 ms at most).
 */
public final class Traffic implements AutoCloseable {
    public static final long SEND_DELAY_MILLIS = 150;
    private final Producer<String, SpecificRecord> producer;
    private final GatewayTopics topics;
    private final LocalWorkload local;
    private final CentralWorkload central;
    private final List<String> labels;
    private final int devices;
    private final String prefix;
    private final long windowMillis;
    private final SecureRandomBits secret = new SecureRandomBits();
    private final Random values;
    private final Map<String, Integer> nextSequence = new HashMap<>();
    private final List<SpecificRecord> sent = new ArrayList<>();
    private final List<Future<RecordMetadata>> deliveries = new ArrayList<>();
    private final Object lock = new Object();
    private Thread thread;
    private volatile boolean stop;
    private int bursts;
    private long lastWindow = Long.MIN_VALUE;
    private volatile Throwable failure;

    /**
     * @param local a local workload whose domain is labels (or {@code null})
     * @param central a central workload over the same labels (or {@code null})
     */
    public Traffic(Map<String, Object> kafka, SchemaRegistryClient registry, GatewayTopics topics,
            ResolvedWorkload local, ResolvedWorkload central, int devices, String devicePrefix, long seed) {
        Map<String, Object> p = new HashMap<>(kafka);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 180_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 180_000);
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 100);
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50);
        this.producer = ReportProducers.avro(p, registry);
        this.topics = topics;
        this.local = (LocalWorkload) local;
        this.central = (CentralWorkload) central;
        ResolvedWorkload any = local != null ? local : central;
        this.labels = any.workload().queryLabels();
        this.devices = devices;
        this.prefix = devicePrefix;
        this.windowMillis = any.window().sizeMillis();
        this.values = new Random(seed);
    }

    /** Starts the bursts, the first for the window starting at {@code firstWindow}. */
    public Traffic start(long firstWindow) {
        thread = new Thread(() -> run(firstWindow), "traffic-" + prefix);
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run(long firstWindow) {
        try {
            for (long s = firstWindow; !stop; s += windowMillis) {
                long wait = s + SEND_DELAY_MILLIS - System.currentTimeMillis(); // tests pick windows by wall clock
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                if (stop) {
                    break;
                }
                burst(s);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void burst(long s) {
        for (int i = 0; i < devices; i++) {
            String device = prefix + i;
            long t = s + 200 + (i * 37L) % Math.max(1, windowMillis - 400);
            String label = labels.get(values.nextInt(labels.size()));
            if (local != null) {
                long period = local.periodOf(t).index();
                int seq = nextSequence.merge(device + "@" + period, 1, Integer::sum) - 1;
                ReportCoordinates c = new ReportCoordinates(device, period, seq);
                int index;
                try {
                    index = local.workload().encode(label);
                } catch (io.privacygateway.mechanisms.workload.InvalidValueException e) {
                    throw new IllegalStateException(e);
                }
                send(topics.localReports(), device, Reports.local(local, c, t, local.protocol().randomize(index, c,
                        secret)));
            }
            if (central != null) {
                ReportCoordinates c = new ReportCoordinates(device, central.periodOf(t).index(), 0);
                send(topics.centralReports(), device, Reports.central(central, c, t, label));
            }
        }
        producer.flush();
        synchronized (lock) {
            bursts++;
            lastWindow = s;
            lock.notifyAll();
        }
    }

    private void send(String topic, String device, SpecificRecord r) {
        Future<RecordMetadata> f = producer.send(new ProducerRecord<>(topic, device, r));
        synchronized (lock) {
            sent.add(r);
            deliveries.add(f);
        }
    }

    /** Waits until the next burst has been flushed to the broker; returns the burst count. */
    public int awaitBurst(Duration timeout) throws InterruptedException {
        synchronized (lock) {
            int seen = bursts;
            long deadline = System.nanoTime() + timeout.toNanos();
            while (bursts == seen) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new AssertionError("no traffic burst within " + timeout);
                }
                lock.wait(left);
            }
            return bursts;
        }
    }

    /**
     * Stops after the burst in progress, waits until every report was acknowledged by the broker, and returns
     * every report sent.
     */
    public List<SpecificRecord> stop() throws Exception {
        stop = true; // not interrupted: a flush in progress (a broker outage) completes
        thread.join(200_000);
        producer.flush();
        List<Future<RecordMetadata>> all;
        synchronized (lock) {
            all = new ArrayList<>(deliveries);
        }
        for (Future<RecordMetadata> f : all) {
            f.get(200, TimeUnit.SECONDS);
        }
        if (failure != null) {
            throw new AssertionError("the traffic thread failed", failure);
        }
        synchronized (lock) {
            return new ArrayList<>(sent);
        }
    }

    /** The window of the last burst. */
    public long lastWindow() {
        synchronized (lock) {
            return lastWindow;
        }
    }

    public int bursts() {
        synchronized (lock) {
            return bursts;
        }
    }

    @Override
    public void close() {
        stop = true;
        if (thread != null) {
            thread.interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}

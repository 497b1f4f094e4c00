package io.privacygateway.demo;

import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.HttpTransport;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.client.TransportException;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The simulated fleet's way to the HTTPS ingestion service: a Kafka {@code Producer} facade (what the fleet
 * simulator's devices write to) that turns each report record back into the SDK's {@link DeviceReport} and posts
 * batches of up to {@value #BATCH} with the SDK's {@link HttpTransport}, from one background thread. A report's
 * callback completes when the service answered: {@code ACCEPTED} or {@code DUPLICATE} as acknowledged, {@code REJECTED}
 * with an {@link InvalidRecordException} naming the reason, {@code RETRY} and transport failures are sent again (at
 * most 5 times). Only {@code send} and {@code flush} are meaningful; the rest is {@link MockProducer}'s.
 */
final class HttpReportProducer extends MockProducer<String, SpecificRecord> {
    static final int BATCH = 200;
    private final HttpTransport transport;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>(100_000);
    private final Thread sender;
    private volatile boolean closed;

    private record Pending(DeviceReport report, String topic, Callback callback, CompletableFuture<RecordMetadata> done,
            int attempt) {}

    HttpReportProducer(String baseUrl) {
        super(false, null, null, null);
        this.transport = HttpTransport.builder(baseUrl).maxBatch(BATCH).build();
        this.sender = new Thread(this::run, "demo-http-fleet");
        this.sender.setDaemon(true);
        this.sender.start();
    }

    static DeviceReport toDeviceReport(SpecificRecord value) {
        if (value instanceof LocalReport r) {
            ByteBuffer b = r.getPayload().duplicate();
            byte[] payload = new byte[b.remaining()];
            b.get(payload);
            return new DeviceReport(DeviceReport.Kind.LOCAL, r.getWorkloadId(), r.getWorkloadVersion(),
                    r.getContentHash(), r.getDeviceId(), r.getPeriod(), r.getSequence(), r.getEventTime().toEpochMilli(),
                    r.getMechanism(), r.getEpsilon(), payload, null, r.getProtocolVersion());
        }
        CentralReport r = (CentralReport) value;
        return new DeviceReport(DeviceReport.Kind.CENTRAL, r.getWorkloadId(), r.getWorkloadVersion(), r.getContentHash(),
                r.getDeviceId(), r.getPeriod(), r.getSequence(), r.getEventTime().toEpochMilli(), null, 0, null,
                r.getValue(), 0);
    }

    @Override
    public synchronized Future<RecordMetadata> send(ProducerRecord<String, SpecificRecord> record, Callback callback) {
        CompletableFuture<RecordMetadata> done = new CompletableFuture<>();
        Pending p = new Pending(toDeviceReport(record.value()), record.topic(), callback, done, 0);
        if (closed || !queue.offer(p)) {
            fail(p, new TimeoutException("the HTTP relay's queue is full"));
        }
        return done;
    }

    private void run() {
        List<Pending> batch = new ArrayList<>(BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.clear();
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                post(batch);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void post(List<Pending> batch) throws InterruptedException {
        List<DeviceReport> reports = batch.stream().map(Pending::report).toList();
        List<ReportEnvelope.Result> results;
        try {
            results = transport.send(reports);
        } catch (TransportException e) {
            if (e.kind() == TransportException.Kind.PERMANENT) {
                batch.forEach(p -> fail(p, new InvalidRecordException(e.reason())));
            } else {
                Thread.sleep(Math.max(100, Math.min(2000, e.retryAfterMillis())));
                batch.forEach(this::again);
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            ReportEnvelope.Result r = results.get(i);
            switch (r.status()) {
                case ACCEPTED, DUPLICATE -> {
                    RecordMetadata md = new RecordMetadata(new TopicPartition(p.topic(), 0), -1, 0,
                            System.currentTimeMillis(), -1, -1);
                    if (p.callback() != null) {
                        p.callback().onCompletion(md, null);
                    }
                    p.done().complete(md);
                }
                case REJECTED -> fail(p, new InvalidRecordException(r.reason()));
                case RETRY -> again(p);
            }
        }
    }

    private void again(Pending p) {
        if (p.attempt() >= 5 || !queue.offer(new Pending(p.report(), p.topic(), p.callback(), p.done(),
                p.attempt() + 1))) {
            fail(p, new TimeoutException("not taken by the ingestion service"));
        }
    }

    private static void fail(Pending p, RuntimeException e) {
        if (p.callback() != null) {
            p.callback().onCompletion(null, e);
        }
        p.done().completeExceptionally(e);
    }

    @Override
    public synchronized void flush() {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!queue.isEmpty() && System.nanoTime() < end) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    @Override
    public void close(Duration timeout) {
        closed = true;
        try {
            sender.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sender.interrupt();
        transport.close();
        super.close(timeout);
    }
}

package io.privacygateway.client.kafka;

import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.client.Transport;
import io.privacygateway.client.TransportException;
import io.privacygateway.schemas.identity.DeviceCredential;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The Kafka transport of the device SDK (servers and relays, not phones): each report becomes the Avro record the
 * gateway reads ({@link KafkaReports}), keyed by the device id on the local or central report topic, with the device
 * credential header, on a producer of {@code ReportProducers#avro} (idempotent, {@code acks=all}). A report is
 * {@code ACCEPTED} once the broker acknowledged it; a retriable Kafka error or a timeout is {@code RETRY} (the
 * resend, if the first copy landed after all, is a {@code DUPLICATE} at the gateway, counted once); any other error
 * (serialization, authorization) is {@code REJECTED} with reason {@code KAFKA_<ExceptionName>}.
 */
public final class KafkaTransport implements Transport {
    private final Producer<String, SpecificRecord> producer;
    private final GatewayTopics topics;
    private final byte[] credential;
    private final Duration timeout;
    private final boolean ownsProducer;

    /**
     * @param producer a report producer ({@code ReportProducers.avro})
     * @param topics the gateway's topics
     * @param credential the device credential header value, or null
     * @param timeout how long {@link #send} waits for the acknowledgements of a batch
     * @param ownsProducer whether {@link #close} closes the producer
     */
    public KafkaTransport(Producer<String, SpecificRecord> producer, GatewayTopics topics, String credential,
            Duration timeout, boolean ownsProducer) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topics = Objects.requireNonNull(topics, "topics");
        this.credential = credential == null ? null : credential.getBytes(StandardCharsets.UTF_8);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.ownsProducer = ownsProducer;
    }

    /** The topic of a report. */
    public String topicOf(DeviceReport r) {
        return r.kind() == DeviceReport.Kind.LOCAL ? topics.localReports() : topics.centralReports();
    }

    /** Hands one report to the producer; the future completes with the broker's acknowledgement. */
    public CompletableFuture<RecordMetadata> produce(DeviceReport r) {
        CompletableFuture<RecordMetadata> f = new CompletableFuture<>();
        RecordHeaders headers = new RecordHeaders();
        if (credential != null) {
            headers.add(DeviceCredential.HEADER, credential);
        }
        producer.send(new ProducerRecord<>(topicOf(r), null, r.deviceId(), KafkaReports.record(r), headers),
                (md, e) -> {
                    if (e != null) {
                        f.completeExceptionally(e);
                    } else {
                        f.complete(md);
                    }
                });
        return f;
    }

    @Override
    public List<ReportEnvelope.Result> send(List<DeviceReport> batch) throws TransportException {
        List<CompletableFuture<RecordMetadata>> acks = new ArrayList<>(batch.size());
        for (DeviceReport r : batch) {
            try {
                acks.add(produce(r));
            } catch (RuntimeException e) {
                acks.add(CompletableFuture.failedFuture(e));
            }
        }
        long end = System.nanoTime() + timeout.toNanos();
        List<ReportEnvelope.Result> out = new ArrayList<>(batch.size());
        for (CompletableFuture<RecordMetadata> a : acks) {
            try {
                a.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                out.add(new ReportEnvelope.Result(ReportEnvelope.Status.ACCEPTED, "", 0));
            } catch (TimeoutException e) {
                out.add(new ReportEnvelope.Result(ReportEnvelope.Status.RETRY, "", 0));
            } catch (ExecutionException e) {
                out.add(classify(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportException(TransportException.Kind.RETRY, "INTERRUPTED", 0, "interrupted", e);
            }
        }
        return out;
    }

    private static ReportEnvelope.Result classify(Throwable e) {
        if (e instanceof RetriableException || e instanceof org.apache.kafka.common.errors.TimeoutException) {
            return new ReportEnvelope.Result(ReportEnvelope.Status.RETRY, "", 0);
        }
        return new ReportEnvelope.Result(ReportEnvelope.Status.REJECTED, "KAFKA_" + e.getClass().getSimpleName(), 0);
    }

    /** Flushes the producer. */
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        if (ownsProducer) {
            producer.close();
        }
    }
}

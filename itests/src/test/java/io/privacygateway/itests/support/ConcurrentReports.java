package io.privacygateway.itests.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.ReportProducers;
import io.privacygateway.schemas.avro.LocalReport;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** Local reports sent to a gateway from several producers at once, to race its budget checks. */
public final class ConcurrentReports {
    private ConcurrentReports() {}

    /**
     * Sends {@code reports} to the gateway's local reports topic from {@code threads} threads released together,
     * each with its own producer (thread {@code k} sends reports {@code k, k + threads, …}), keyed by device id,
     * and runs {@code meanwhile} alongside from the same release. Returns where every report was written; asserts
     * that every send was acknowledged.
     */
    public static Map<LocalReport, RecordMetadata> send(TestGateway g, List<LocalReport> reports, int threads,
            Runnable meanwhile) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Map<LocalReport, RecordMetadata>>> results = new ArrayList<>();
        String topic = g.topics().localReports();
        for (int th = 0; th < threads; th++) {
            int me = th;
            results.add(pool.submit(() -> {
                Map<LocalReport, RecordMetadata> out = new IdentityHashMap<>();
                List<Future<RecordMetadata>> futures = new ArrayList<>();
                List<LocalReport> mine = new ArrayList<>();
                try (Producer<String, SpecificRecord> p = ReportProducers.avro(g.cluster.kafkaConfig(),
                        g.cluster.registryClient)) {
                    p.partitionsFor(topic);
                    go.await();
                    for (int i = me; i < reports.size(); i += threads) {
                        LocalReport r = reports.get(i);
                        mine.add(r);
                        futures.add(p.send(new ProducerRecord<>(topic, r.getDeviceId(), r)));
                    }
                    p.flush();
                    for (int i = 0; i < mine.size(); i++) {
                        out.put(mine.get(i), futures.get(i).get(30, TimeUnit.SECONDS));
                    }
                }
                return out;
            }));
        }
        Future<?> side = pool.submit(() -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                return;
            }
            meanwhile.run();
        });
        go.countDown();
        Map<LocalReport, RecordMetadata> all = new IdentityHashMap<>();
        for (Future<Map<LocalReport, RecordMetadata>> f : results) {
            all.putAll(f.get(60, TimeUnit.SECONDS));
        }
        side.get(60, TimeUnit.SECONDS);
        pool.shutdown();
        assertThat(all).hasSize(reports.size());
        return all;
    }

    /** As {@link #send(TestGateway, List, int, Runnable)} with nothing alongside. */
    public static Map<LocalReport, RecordMetadata> send(TestGateway g, List<LocalReport> reports, int threads)
            throws Exception {
        return send(g, reports, threads, () -> { });
    }
}

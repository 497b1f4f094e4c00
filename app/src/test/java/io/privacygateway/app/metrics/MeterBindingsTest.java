package io.privacygateway.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.privacygateway.topology.GatewayConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which Kafka meters {@link MeterBindings#withoutCentralCounts} keeps off the registry (names as Micrometer's). */
class MeterBindingsTest {
    private static final GatewayConfig CONFIG = GatewayConfig.builder(1, 1).topicPrefix("p.").applicationId("app")
            .build();

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        // per topic: the central report topic (both spellings) and the stores' changelogs are denied
        "kafka.consumer.fetch.manager.records.consumed.total | p.reports.central | false",
        "kafka.consumer.fetch.manager.records.lag.max        | p_reports_central | false",
        "kafka.producer.topic.record.send.total              | app-central-device-budgets-changelog | false",
        "kafka.consumer.fetch.manager.records.lag.max        | p.reports.local   | true",
        "kafka.consumer.fetch.manager.records.consumed.total | p.reports.local   | true",
        "kafka.producer.topic.record.send.total              | app-device-ledgers-changelog | false",
        "kafka.consumer.fetch.manager.records.lag.max        | app_ledger_forgotten_changelog | false",
        "kafka.consumer.fetch.manager.records.lag.max        | app-partials      | true",
        "kafka.producer.topic.record.send.total              | p.answers         | true",
        // per task, processor node, store, task and topic: denied
        "kafka.stream.task.process.total                     | -                 | false",
        "kafka.stream.processor.node.process.total           | -                 | false",
        "kafka.stream.state.num.keys                         | -                 | false",
        "kafka.stream.topic.records.consumed.total           | p.reports.local   | false",
        // totals over every topic: denied
        "kafka.consumer.fetch.manager.records.consumed.total | -                 | false",
        "kafka.consumer.fetch.manager.records.lag.max        | -                 | false",
        "kafka.consumer.incoming.byte.total                  | -                 | false",
        "kafka.producer.record.send.total                    | -                 | false",
        "kafka.stream.thread.process.total                   | -                 | false",
        "kafka.stream.thread.poll.records.max                | -                 | false",
        // health, latencies, requests: kept; other meters are not this filter's business
        "kafka.stream.alive.stream.threads                   | -                 | true",
        "kafka.stream.thread.commit.latency.avg              | -                 | true",
        "kafka.stream.thread.poll.total                      | -                 | true",
        "kafka.producer.request.total                        | -                 | true",
        "pgw.reports.accepted                                | -                 | true",
        "jvm.memory.used                                     | -                 | true",
    })
    void centralCountsAreKeptOffTheRegistry(String name, String topic, boolean kept) {
        SimpleMeterRegistry r = new SimpleMeterRegistry();
        r.config().meterFilter(MeterBindings.withoutCentralCounts(CONFIG));
        Counter.Builder b = Counter.builder(name).tag("client_id", "c");
        if (topic != null) {
            b.tag("topic", topic);
        }
        b.register(r).increment();
        assertThat(r.find(name).counters()).as(name + " " + topic).hasSize(kept ? 1 : 0);
    }
}

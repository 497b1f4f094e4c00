package io.privacygateway.harness.testing;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** Kafka client configurations that tests build again and again. Every map is a fresh, mutable copy. */
public final class ClientConfigs {
    private ClientConfigs() {}

    /** Only {@code bootstrap.servers}. */
    public static Map<String, Object> bootstrap(String bootstrapServers) {
        Map<String, Object> m = new HashMap<>();
        m.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return m;
    }

    /**
     * {@code base} plus what a downstream reader of the gateway sets: {@code isolation.level=read_committed}
     * (only records of committed transactions) and no offset commits (tests read without a consumer group).
     */
    public static Map<String, Object> readCommitted(Map<String, Object> base) {
        Map<String, Object> m = new HashMap<>(base);
        m.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        m.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return m;
    }
}

package io.privacygateway.harness;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Topic creation shared by both kinds of harness. */
final class Topics {

    /** How long to wait for the broker to create a topic and elect its leaders. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private Topics() {
    }

    static Map<String, String> compactedConfig(boolean compacted) {
        return compacted ? Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT) : Map.of();
    }

    /**
     * Creates {@code name} with replication factor 1 and waits until each partition's leader serves it.
     * An existing topic with the same partition count is accepted as is. Connects with the admin client's
     * settings (bootstrap, SASL).
     */
    static void create(Map<String, Object> clientConfig, String name, int partitions, Map<String, String> configs) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, not " + partitions);
        }
        Map<String, Object> adminConfig = new HashMap<>(clientConfig);
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try (Admin admin = Admin.create(adminConfig)) {
            NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(configs);
            try {
                admin.createTopics(List.of(topic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            awaitLeaders(admin, name, partitions, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + name, e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("Could not create topic " + name + ": " + cause, cause);
        }
    }

    private static void awaitLeaders(Admin admin, String name, int partitions, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        while (true) {
            try {
                TopicDescription description = admin.describeTopics(Set.of(name)).allTopicNames()
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(name);
                List<TopicPartitionInfo> infos = description.partitions();
                if (infos.size() != partitions) {
                    throw new IllegalStateException("Topic " + name + " exists with " + infos.size()
                            + " partitions, not " + partitions);
                }
                if (infos.stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    // The metadata cache names the leader slightly before the leader's replica
                    // manager takes the partition on; a first produce would then get
                    // NOT_LEADER_OR_FOLLOWER (retried, but logged). ListOffsets is answered by the
                    // partition's leader itself, and the admin client retries it quietly.
                    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                    infos.forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest()));
                    long remainingMs = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                    admin.listOffsets(latest).all().get(remainingMs, TimeUnit.MILLISECONDS);
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("partitions of " + name + " have no leader after " + TIMEOUT);
            }
            Thread.sleep(20);
        }
    }
}

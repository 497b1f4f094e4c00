package io.privacygateway.itests.support;

import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * One gateway deployment of a fault test: its own application id, topic prefix and work directory (state
 * directories and child logs), gateway processes ({@link ChildGateway}) started with the same arguments, and what
 * the test reads back (answers by window, rejections, activation times). The deployment's topics and schemas are
 * prepared once before the first process starts ({@link Deployment}).
 */
public final class FaultRig {
    public final String name;
    public final String app;
    public final GatewayTopics topics;
    public final Path work;
    private final Map<String, Object> kafka;
    private final String bootstrap;
    private final String registryUrl;
    private final SchemaRegistryClient registry;
    private final List<String> extra;

    private FaultRig(String name, Map<String, Object> kafka, String bootstrap, String registryUrl,
            SchemaRegistryClient registry, Path workRoot, List<String> extra) throws Exception {
        String run = Long.toString(System.currentTimeMillis(), 36);
        this.name = name;
        this.app = "it-" + name + "-" + run;
        this.topics = new GatewayTopics("it." + name + "." + run + ".");
        this.work = Files.createDirectories(workRoot.resolve(name + "-" + run));
        this.kafka = new HashMap<>(kafka);
        this.bootstrap = bootstrap;
        this.registryUrl = registryUrl;
        this.registry = registry;
        this.extra = List.copyOf(extra);
    }

    /**
     * A deployment on a broker.
     *
     * @param extra further {@code key=value} arguments of every process ({@code local=…} and {@code central=…}
     *     partitions are required; see {@link GatewayMain})
     */
    public static FaultRig create(String name, Map<String, Object> kafka, String bootstrap, String registryUrl,
            SchemaRegistryClient registry, Path workRoot, String... extra) throws Exception {
        FaultRig rig = new FaultRig(name, kafka, bootstrap, registryUrl, registry, workRoot, List.of(extra));
        Deployment.prepare(GatewayMain.settings(rig.args("prepare")), registry);
        return rig;
    }

    /** A deployment on the shared cluster of the ITs. */
    public static FaultRig create(String name, ItCluster c, String... extra) throws Exception {
        return create(name, c.kafkaConfig(), c.kafka.bootstrapServers(), c.registry.ccompatUrl(), c.registryClient,
                c.workDir(), extra);
    }

    /** The arguments of the process with static-membership id {@code instance} (state under the work directory). */
    public List<String> args(String instance) {
        List<String> a = new ArrayList<>(List.of("bootstrap=" + bootstrap, "registry=" + registryUrl, "app=" + app,
                "state=" + work.resolve("state-" + instance), "prefix=" + topics.prefix(), "instance=" + instance,
                "releaser=seeded"));
        a.addAll(extra);
        return a;
    }

    /** Starts a gateway process (logging to {@code <instance>.log} in the work directory). */
    public ChildGateway start(String label, String instance) throws Exception {
        return ChildGateway.start(label, args(instance), work.resolve(instance + ".log"));
    }

    /** Starts a gateway process with its own maximum heap. */
    public ChildGateway start(String label, String instance, String maxHeap) throws Exception {
        return ChildGateway.start(label, args(instance), work.resolve(instance + ".log"), maxHeap);
    }

    /** Parses, resolves and publishes a workload file; returns the resolved spec. */
    public WorkloadSpec register(String yaml) throws Exception {
        try (WorkloadRegistrar r = WorkloadRegistrar.create(kafka, registry, topics)) {
            return r.register(WorkloadFiles.parse(yaml, name));
        }
    }

    /** Waits until the gateway process has loaded the workload version. */
    public static void awaitLoaded(ChildGateway g, WorkloadSpec spec) throws InterruptedException {
        g.awaitLine("WORKLOAD " + spec.id() + "=" + CanonicalForm.contentHash(spec), Duration.ofSeconds(60));
    }

    /** The broker time the version became active. */
    public long activatedAt(WorkloadSpec spec) {
        return Registrations.activatedAt(kafka, registry, topics.workloads(), spec.id(), CanonicalForm.contentHash(spec));
    }

    /** Answers of a workload for the windows {@code starts}, read until each has one or the timeout passes. */
    public Map<Long, List<WindowAnswer>> answersFor(String workloadId, Collection<Long> starts, Duration timeout) {
        return Answers.byWindow(kafka, registry, topics.answers(), workloadId, starts, timeout);
    }

    /** Every answer of a workload now, by window start. */
    public NavigableMap<Long, List<WindowAnswer>> answers(String workloadId) {
        return Answers.all(kafka, registry, topics.answers(), workloadId);
    }

    /** Every rejection on the deployment's rejections topic now. */
    public List<Rejection> rejections() {
        return TopicReader.readValues(kafka, registry, topics.rejections(), Rejection.class, x -> true, l -> true,
                Duration.ofSeconds(30));
    }

    /** The windows from {@code first} through {@code last}, in steps of {@code size}. */
    public static List<Long> windows(long first, long last, long size) {
        List<Long> out = new ArrayList<>();
        for (long s = first; s <= last; s += size) {
            out.add(s);
        }
        return out;
    }
}

package io.privacygateway.itests.support;

import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.client.Workloads;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.schemas.testing.AvroTopicReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import org.apache.avro.specific.SpecificRecord;

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

    /** A local and a central workload of the deployment: the registered specs and their resolved forms. */
    public record Served(WorkloadSpec localSpec, WorkloadSpec centralSpec, ResolvedWorkload local,
            ResolvedWorkload central) {}

    /**
     * Registers a local and a central workload file, waits until every gateway process in {@code gateways} has
     * loaded both, and resolves them.
     */
    public Served serve(String localYaml, String centralYaml, Collection<ChildGateway> gateways) throws Exception {
        WorkloadSpec localSpec = register(localYaml);
        WorkloadSpec centralSpec = register(centralYaml);
        for (ChildGateway g : gateways) {
            awaitLoaded(g, localSpec);
            awaitLoaded(g, centralSpec);
        }
        return new Served(localSpec, centralSpec, Workloads.resolve(localSpec), Workloads.resolve(centralSpec));
    }

    /** As {@link #serve(String, String, Collection)} with one gateway process. */
    public Served serve(String localYaml, String centralYaml, ChildGateway gateway) throws Exception {
        return serve(localYaml, centralYaml, List.of(gateway));
    }

    /**
     * The fault tests' check: waits until every window of both workloads from the first window an oracle sees
     * through {@code last} is answered (or the timeouts pass), waits several punctuations more (a second release
     * of any window would show then), and checks the published answers against oracles of what was {@code sent}
     * ({@link Oracle#verify}: every window answered once, bit for bit the oracle's). Returns the numbers of local
     * and central windows checked.
     */
    public int[] verify(Served w, List<SpecificRecord> sent, long last, long windowSize, String label)
            throws InterruptedException {
        Oracle lo = new Oracle(w.local(), activatedAt(w.localSpec())).addAll(sent);
        Oracle co = new Oracle(w.central(), activatedAt(w.centralSpec())).addAll(sent);
        answersFor(w.local().id(), windows(lo.firstWindow(), last, windowSize), Duration.ofSeconds(120));
        answersFor(w.central().id(), windows(co.firstWindow(), last, windowSize), Duration.ofSeconds(60));
        Thread.sleep(1500);
        int lw = lo.verify(answers(w.local().id()), last, label);
        int cw = co.verify(answers(w.central().id()), last, label);
        return new int[] {lw, cw};
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
        return AvroTopicReader.readValues(kafka, registry, topics.rejections(), Rejection.class, x -> true, l -> true,
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

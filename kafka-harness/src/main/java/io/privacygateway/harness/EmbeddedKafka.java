package io.privacygateway.harness;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import kafka.server.BrokerServer;
import kafka.server.ControllerServer;
import kafka.server.FaultHandlerFactory;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.server.Server$;
import kafka.server.SharedServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.raft.QuorumConfig;
import org.apache.kafka.server.ServerSocketFactory;
import org.apache.kafka.server.fault.FaultHandler;
import org.apache.kafka.server.fault.LoggingFaultHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * A single-node Kafka cluster (one KRaft process acting as broker and controller) running inside
 * this JVM, from the Kafka jars: no Docker, no scripts, no fixed ports or paths.
 *
 * <p>What {@link #start()} does, as {@code kafka-storage.sh format} followed by
 * {@code kafka-server-start.sh} would, but in-process: creates a temporary directory, binds two
 * server sockets on {@code 127.0.0.1} with kernel-chosen ports (broker listener {@code PLAINTEXT}
 * and controller listener {@code CONTROLLER}), formats the directory with a fresh cluster id,
 * and starts {@code ControllerServer} and {@code BrokerServer} over one {@code SharedServer}
 * exactly as {@code kafka.server.KafkaRaftServer} does. It returns once the broker is unfenced and
 * accepting requests.
 *
 * <p>The sockets are bound before the configuration is written and handed to Kafka through its
 * {@link ServerSocketFactory} hook, so there is no window in which another process or another
 * harness in this JVM could take the port. The controller quorum ({@code controller.quorum.voters})
 * names that pre-bound controller port.
 *
 * <p>Differences from {@code KafkaRaftServer}: a fatal fault is logged and recorded
 * ({@link #fatalFault()}) instead of halting the JVM; no JMX app-info MBean and no MX4J; the
 * broker configuration is {@link #defaultBrokerConfig()} (single broker, exactly-once, small
 * buffers) plus the caller's overrides.
 *
 * <p>{@link #close()} shuts the broker then the controller down and deletes the directory. A JVM
 * shutdown hook closes every instance still open, so Ctrl-C leaves neither threads nor files
 * behind; directories left by a JVM that was killed outright are removed by the next start.
 *
 * <p><b>Restart.</b> {@link #stop()} shuts the broker and controller down but keeps the data directory;
 * {@link #restart()} starts them again on the same log directories, cluster id and ports (so clients keep their
 * {@code bootstrap.servers} and reconnect by themselves): a broker bounce or an outage of any length.
 *
 * <p><b>Authentication and ACLs.</b> {@link #start(Sasl, Map)} starts a broker whose client and controller
 * listeners both require SASL/PLAIN ({@code SASL_PLAINTEXT}) with the given users, and whose authorizer is KRaft's
 * {@code StandardAuthorizer} with the given super user; {@link #clientConfig(String)} gives the client settings of
 * one user.
 *
 * <p>Several instances may run in one JVM at once; each has its own ports, directory and cluster
 * id. (Kafka's Yammer metrics are one JVM-wide registry, so broker-side JMX metrics of
 * concurrent instances are merged; nothing else is shared.)
 */
public final class EmbeddedKafka implements KafkaHarness {

    static {
        HarnessLogging.applyQuietDefaults();
    }

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

    /** The node id of the single broker+controller. */
    public static final int NODE_ID = 1;
    /** Name of the client listener. */
    public static final String BROKER_LISTENER = "PLAINTEXT";
    /** Name of the controller (KRaft quorum) listener. */
    public static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** Name of the client listener of a broker started with {@link #start(Sasl, Map)}. */
    public static final String SASL_LISTENER = "SASL_PLAINTEXT";
    /** The KRaft authorizer a broker started with {@link #start(Sasl, Map)} runs. */
    public static final String STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

    /**
     * SASL/PLAIN users of a broker and which of them is the super user (the broker authenticates to itself and
     * to its controller as the super user; it may do anything, every other user only what ACLs allow).
     *
     * @param passwords user name to password
     * @param superUser one of the users
     */
    public record Sasl(Map<String, String> passwords, String superUser) {
        public Sasl {
            passwords = Collections.unmodifiableMap(new TreeMap<>(passwords));
            if (!passwords.containsKey(superUser)) {
                throw new IllegalArgumentException("the super user " + superUser + " must be one of the users");
            }
            for (String u : passwords.keySet()) {
                if (!u.matches("[A-Za-z0-9_.-]+") || !passwords.get(u).matches("[A-Za-z0-9_.-]+")) {
                    throw new IllegalArgumentException("user names and passwords must match [A-Za-z0-9_.-]+: " + u);
                }
            }
        }

        /** The client-side JAAS line of a user. */
        public String jaas(String user) {
            String password = passwords.get(user);
            if (password == null) {
                throw new IllegalArgumentException("unknown user " + user);
            }
            return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user
                    + "\" password=\"" + password + "\";";
        }

        /** The server-side JAAS line: the super user's own credentials and every user's password. */
        String serverJaas() {
            StringBuilder b = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required")
                    .append(" username=\"").append(superUser).append("\" password=\"")
                    .append(passwords.get(superUser)).append('"');
            passwords.forEach((u, pw) -> b.append(" user_").append(u).append("=\"").append(pw).append('"'));
            return b.append(';').toString();
        }
    }

    static final String TEMP_DIR_PREFIX = "pg-embedded-kafka-";
    static final String OWNER_FILE = "owner";
    private static final String LOOPBACK = "127.0.0.1";
    /** Broker shutdown budget; a healthy single node needs well under a second. */
    private static final Duration BROKER_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private final Object lock = new Object();
    private final Path baseDir;
    private final SortedMap<String, String> brokerConfig;
    private final Map<String, ServerSocketChannel> preboundSockets;
    private final String brokerListener;
    private final Sasl sasl;
    /** The port of each listener (kept across restarts). */
    private final Map<String, Integer> listenerPorts = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> fatalFault = new AtomicReference<>();
    private final String clusterId;
    private SharedServer sharedServer;
    private ControllerServer controller;
    private BrokerServer broker;
    private String bootstrapServers;
    private Duration startupTime;
    private Duration shutdownTime;
    private boolean closed;
    /** Whether the servers are up (false between {@link #stop()} and {@link #restart()}). */
    private boolean running;
    /** Whether servers were created and not shut down since (also after a start that failed half-way). */
    private boolean serversUp;
    private boolean formatted;
    private int restarts;

    private EmbeddedKafka(Path baseDir, Map<String, ServerSocketChannel> preboundSockets,
                          SortedMap<String, String> brokerConfig, String brokerListener, Sasl sasl) {
        this.baseDir = baseDir;
        this.preboundSockets = new ConcurrentHashMap<>(preboundSockets);
        preboundSockets.forEach((listener, channel) -> {
            try {
                listenerPorts.put(listener, boundPort(channel));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        this.brokerConfig = brokerConfig;
        this.brokerListener = brokerListener;
        this.sasl = sasl;
        this.clusterId = Uuid.randomUuid().toString();
    }

    /**
     * The tunables every instance gets unless overridden: those of a one-broker cluster that must
     * support transactions and exactly-once, plus modest threads, buffers and segment sizes.
     * (Listeners, quorum voters, node id, roles and directories are set by {@link #start(Map)}.)
     */
    public static SortedMap<String, String> defaultBrokerConfig() {
        SortedMap<String, String> c = new TreeMap<>();
        // One broker: every internal topic has one replica, and one in-sync replica suffices.
        c.put("offsets.topic.replication.factor", "1");
        c.put("offsets.topic.num.partitions", "1");
        c.put("transaction.state.log.replication.factor", "1");
        c.put("transaction.state.log.min.isr", "1");
        c.put("transaction.state.log.num.partitions", "1");
        c.put("share.coordinator.state.topic.replication.factor", "1");
        c.put("share.coordinator.state.topic.min.isr", "1");
        c.put("share.coordinator.state.topic.num.partitions", "1");
        c.put("min.insync.replicas", "1");
        c.put("default.replication.factor", "1");
        c.put("num.partitions", "1");
        // Tests and the demo start consumer groups and Streams apps right away.
        c.put("group.initial.rebalance.delay.ms", "0");
        // Memory and disk: 16 MiB segments with 1 MiB (sparse, memory-mapped) indexes, and a 2 MiB
        // log-cleaner dedupe buffer instead of the default 128 MiB of heap.
        c.put("log.segment.bytes", Integer.toString(16 << 20));
        c.put("log.index.size.max.bytes", Integer.toString(1 << 20));
        c.put("offsets.topic.segment.bytes", Integer.toString(16 << 20));
        c.put("transaction.state.log.segment.bytes", Integer.toString(16 << 20));
        c.put("log.cleaner.dedupe.buffer.size", Integer.toString(2 << 20));
        c.put("log.cleaner.io.buffer.size", Integer.toString(256 << 10));
        c.put("log.cleaner.threads", "1");
        // Threads sized for a small machine (defaults are 3 network, 8 I/O, 10 background).
        c.put("num.network.threads", "2");
        c.put("num.io.threads", "4");
        c.put("background.threads", "4");
        c.put("num.recovery.threads.per.data.dir", "1");
        c.put("num.replica.fetchers", "1");
        // Give up on a start that hangs (e.g. a starved machine) rather than waiting forever.
        c.put("server.max.startup.time.ms", "120000");
        return c;
    }

    /** Starts an instance with {@link #defaultBrokerConfig()}. */
    public static EmbeddedKafka start() {
        return start(Map.of());
    }

    /**
     * Starts an instance; {@code overrides} are broker configs applied over the defaults and over
     * the generated listener, quorum and directory settings (overriding those is at the caller's
     * risk). Blocks until the broker accepts requests.
     *
     * @throws IllegalStateException if the broker does not start; nothing is left behind then
     */
    public static EmbeddedKafka start(Map<String, ?> overrides) {
        return start(null, overrides);
    }

    /**
     * Starts an instance whose client listener ({@value #SASL_LISTENER}) and controller listener require
     * SASL/PLAIN with {@code sasl}'s users, with KRaft's {@code StandardAuthorizer} and {@code sasl}'s super user
     * ({@code allow.everyone.if.no.acl.found=false}: a user other than the super user may do only what an ACL
     * allows). {@code sasl == null} starts a plaintext broker without authorizer, as {@link #start(Map)}.
     */
    public static EmbeddedKafka start(Sasl sasl, Map<String, ?> overrides) {
        long t0 = System.nanoTime();
        ShutdownRegistry.sweepStaleDirectories();
        Path baseDir;
        try {
            baseDir = Files.createTempDirectory(TEMP_DIR_PREFIX);
            Files.writeString(baseDir.resolve(OWNER_FILE), ShutdownRegistry.ownerTag(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a directory for embedded Kafka", e);
        }
        Map<String, ServerSocketChannel> sockets = new LinkedHashMap<>();
        EmbeddedKafka kafka = null;
        String brokerListener = sasl == null ? BROKER_LISTENER : SASL_LISTENER;
        try {
            InetAddress loopback = InetAddress.getByName(LOOPBACK);
            for (String listener : List.of(brokerListener, CONTROLLER_LISTENER)) {
                ServerSocketChannel channel = ServerSocketChannel.open();
                sockets.put(listener, channel);
                channel.configureBlocking(false);
                channel.bind(new InetSocketAddress(loopback, 0));
            }
            int brokerPort = boundPort(sockets.get(brokerListener));
            int controllerPort = boundPort(sockets.get(CONTROLLER_LISTENER));
            String dataDir = baseDir.resolve("data").toAbsolutePath().toString();

            SortedMap<String, String> config = defaultBrokerConfig();
            config.put("process.roles", "broker,controller");
            config.put("node.id", Integer.toString(NODE_ID));
            config.put("controller.quorum.voters", NODE_ID + "@" + LOOPBACK + ":" + controllerPort);
            config.put("listeners", brokerListener + "://" + LOOPBACK + ":" + brokerPort + ","
                    + CONTROLLER_LISTENER + "://" + LOOPBACK + ":" + controllerPort);
            config.put("advertised.listeners", brokerListener + "://" + LOOPBACK + ":" + brokerPort);
            if (sasl == null) {
                config.put("listener.security.protocol.map",
                        BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
            } else {
                config.put("listener.security.protocol.map",
                        SASL_LISTENER + ":SASL_PLAINTEXT," + CONTROLLER_LISTENER + ":SASL_PLAINTEXT");
                config.put("sasl.enabled.mechanisms", "PLAIN");
                config.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
                config.put("sasl.mechanism.controller.protocol", "PLAIN");
                for (String l : List.of(SASL_LISTENER, CONTROLLER_LISTENER)) {
                    String prefix = "listener.name." + l.toLowerCase(Locale.ROOT) + ".plain.";
                    config.put(prefix + "sasl.jaas.config", sasl.serverJaas());
                }
                config.put("authorizer.class.name", STANDARD_AUTHORIZER);
                config.put("super.users", "User:" + sasl.superUser());
                config.put("allow.everyone.if.no.acl.found", "false");
            }
            config.put("inter.broker.listener.name", brokerListener);
            config.put("controller.listener.names", CONTROLLER_LISTENER);
            config.put("log.dirs", dataDir);
            config.put("metadata.log.dir", dataDir);
            overrides.forEach((k, v) -> config.put(k, String.valueOf(v)));

            kafka = new EmbeddedKafka(baseDir, sockets, config, brokerListener, sasl);
            ShutdownRegistry.register(kafka);
            kafka.startServers();
            kafka.startupTime = Duration.ofNanos(System.nanoTime() - t0);
            LOG.info("Embedded Kafka {} up at {} in {} ms (data in {})", kafka.clusterId, kafka.bootstrapServers,
                    kafka.startupTime.toMillis(), baseDir);
            return kafka;
        } catch (Throwable t) {
            if (kafka != null) {
                kafka.close();
            } else {
                sockets.values().forEach(EmbeddedKafka::closeQuietly);
                deleteRecursively(baseDir);
            }
            if (t instanceof Error) {
                throw (Error) t;
            }
            throw new IllegalStateException("Embedded Kafka did not start: " + t, t);
        }
    }

    /**
     * Runs a broker until the JVM is interrupted (Ctrl-C); prints {@code bootstrap.servers} on
     * standard output. Arguments are {@code key=value} broker config overrides.
     */
    public static void main(String[] args) throws InterruptedException {
        Map<String, String> overrides = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                System.err.println("usage: EmbeddedKafka [broker.config=value ...]");
                System.exit(2);
            }
            overrides.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        EmbeddedKafka kafka = start(overrides);
        System.out.println("bootstrap.servers=" + kafka.bootstrapServers());
        System.out.println("data.dir=" + kafka.dataDirectory());
        System.out.println("startup.ms=" + kafka.startupTime().toMillis());
        System.out.flush();
        // The shutdown hook closes the broker on Ctrl-C / SIGTERM.
        Thread.currentThread().join();
    }

    private void startServers() throws Exception {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("closed while starting");
            }
            KafkaConfig config = new KafkaConfig(brokerConfig, false);
            if (!formatted) {
                format(config);
                formatted = true;
            }
            Tuple2<MetaPropertiesEnsemble, BootstrapMetadata> dirs =
                    KafkaRaftServer.initializeLogDirs(config, LOG, "[EmbeddedKafka " + clusterId + "] ");
            Metrics metrics = Server$.MODULE$.initializeMetrics(config, Time.SYSTEM, clusterId);
            sharedServer = new SharedServer(
                    config,
                    dirs._1(),
                    Time.SYSTEM,
                    metrics,
                    CompletableFuture.completedFuture(
                            QuorumConfig.parseVoterConnections(config.quorumConfig().voters())),
                    QuorumConfig.parseBootstrapServers(config.quorumConfig().bootstrapServers()),
                    new RecordingFaultHandlerFactory(),
                    new PreboundSocketFactory());
            controller = new ControllerServer(sharedServer, KafkaRaftServer.configSchema(), dirs._2());
            broker = new BrokerServer(sharedServer);
            serversUp = true;
            // Controller first, then broker: the order KafkaRaftServer uses in combined mode.
            controller.startup();
            broker.startup();
            bootstrapServers = LOOPBACK + ":" + listenerPorts.get(brokerListener);
            running = true;
            Throwable fault = fatalFault.get();
            if (fault != null) {
                throw new IllegalStateException("fatal fault during startup", fault);
            }
        }
    }

    /** {@code kafka-storage.sh format --standalone}-like: meta.properties and bootstrap metadata. */
    private void format(KafkaConfig config) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String dataDir = brokerConfig.get("log.dirs");
        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(out, true, StandardCharsets.UTF_8))
                .setNodeId(config.nodeId())
                .setClusterId(clusterId)
                .setDirectories(List.of(dataDir.split(",")))
                .setMetadataLogDirectory(config.metadataLogDir())
                .setControllerListenerName(CONTROLLER_LISTENER);
        formatter.run();
        LOG.debug("Formatted: {}", out.toString(StandardCharsets.UTF_8).trim());
    }

    @Override
    public EmbeddedKafka closedByCaller() {
        ShutdownRegistry.deregister(this);
        return this;
    }

    @Override
    public Kind kind() {
        return Kind.EMBEDDED;
    }

    /**
     * {@inheritDoc} The address stays the same across {@link #stop()} and {@link #restart()} (and is returned
     * while the broker is stopped: clients keep it and reconnect).
     */
    @Override
    public String bootstrapServers() {
        synchronized (lock) {
            if (bootstrapServers == null || closed) {
                throw new IllegalStateException("Embedded Kafka is not running");
            }
            return bootstrapServers;
        }
    }

    /**
     * {@inheritDoc} For a broker started with {@link #start(Sasl, Map)}: the super user's settings
     * ({@code security.protocol=SASL_PLAINTEXT}, {@code sasl.mechanism=PLAIN}, its JAAS line).
     */
    @Override
    public Map<String, Object> clientConfig() {
        return sasl == null ? KafkaHarness.super.clientConfig() : clientConfig(sasl.superUser());
    }

    /** The client settings of one SASL user of a broker started with {@link #start(Sasl, Map)}. */
    public Map<String, Object> clientConfig(String user) {
        if (sasl == null) {
            throw new IllegalStateException("this broker was started without SASL");
        }
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrapServers());
        c.put("security.protocol", "SASL_PLAINTEXT");
        c.put("sasl.mechanism", "PLAIN");
        c.put("sasl.jaas.config", sasl.jaas(user));
        return c;
    }

    /** The SASL users of this broker, or empty for a plaintext broker. */
    public Optional<Sasl> sasl() {
        return Optional.ofNullable(sasl);
    }

    /** Whether the broker is up: started and not {@linkplain #stop() stopped} or closed. */
    public boolean isRunning() {
        synchronized (lock) {
            return running && !closed;
        }
    }

    /** How many times {@link #restart()} has started the servers again. */
    public int restarts() {
        synchronized (lock) {
            return restarts;
        }
    }

    /**
     * Shuts the broker, then the controller down, as {@link #close()} does, but keeps the data directory and the
     * address: {@link #restart()} brings the same cluster back. Clients see the broker go away (requests time
     * out, producers buffer and retry). Does nothing if already stopped.
     *
     * @throws IllegalStateException if closed
     */
    public void stop() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("Embedded Kafka is closed");
            }
            if (!serversUp) {
                return;
            }
            long t0 = System.nanoTime();
            shutdownServers();
            running = false;
            LOG.info("Embedded Kafka {} stopped (data kept) in {} ms", clusterId, (System.nanoTime() - t0) / 1_000_000);
        }
    }

    /**
     * Starts the broker and controller again on the same log directories, cluster id, node id and ports (stopping
     * them first if they run): every committed record, offset and transaction state is where it was. Blocks until
     * the broker accepts requests again.
     *
     * @throws IllegalStateException if closed, or if a port cannot be bound again within 30 s or the broker does
     *     not start
     */
    public void restart() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("Embedded Kafka is closed");
            }
            stop();
            long t0 = System.nanoTime();
            try {
                for (Map.Entry<String, ServerSocketChannel> e : preboundSockets.entrySet()) {
                    e.setValue(rebind(listenerPorts.get(e.getKey())));
                }
                startServers();
                restarts++;
            } catch (Exception e) {
                throw new IllegalStateException("Embedded Kafka did not restart: " + e, e);
            }
            LOG.info("Embedded Kafka {} restarted at {} in {} ms", clusterId, bootstrapServers,
                    (System.nanoTime() - t0) / 1_000_000);
        }
    }

    /** Binds {@code 127.0.0.1:port} again (SO_REUSEADDR), retrying while the port is still taken. */
    private static ServerSocketChannel rebind(int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            ServerSocketChannel channel = ServerSocketChannel.open();
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                channel.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
                return channel;
            } catch (IOException e) {
                closeQuietly(channel);
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    /** The cluster id this instance was formatted with. */
    public String clusterId() {
        return clusterId;
    }

    /** The effective broker configuration (defaults, generated settings and overrides). */
    public SortedMap<String, String> brokerConfig() {
        return Collections.unmodifiableSortedMap(brokerConfig);
    }

    /** The temporary directory holding the logs; deleted by {@link #close()}. */
    public Path dataDirectory() {
        return baseDir;
    }

    /** Wall time {@link #start(Map)} took, from creating the directory to the broker accepting requests. */
    public Duration startupTime() {
        return startupTime;
    }

    /** Wall time {@link #close()} took, or empty before it ran. */
    public Optional<Duration> shutdownTime() {
        synchronized (lock) {
            return Optional.ofNullable(shutdownTime);
        }
    }

    /**
     * The first fault Kafka reported as fatal (a real broker would have halted the JVM), if any.
     */
    public Optional<Throwable> fatalFault() {
        return Optional.ofNullable(fatalFault.get());
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /**
     * Shuts the broker, then the controller down, waits for their threads, and deletes the data
     * directory. Idempotent and safe from any thread, including the shutdown hook; never throws.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            long t0 = System.nanoTime();
            if (serversUp) {
                shutdownServers();
            }
            running = false;
            // The SocketServer closed the sockets it took over; this closes any it never took.
            preboundSockets.values().forEach(EmbeddedKafka::closeQuietly);
            deleteRecursively(baseDir);
            ShutdownRegistry.deregister(this);
            shutdownTime = Duration.ofNanos(System.nanoTime() - t0);
            LOG.info("Embedded Kafka {} stopped in {} ms", clusterId, shutdownTime.toMillis());
        }
    }

    /** Broker, then controller shutdown, waiting for both; the sockets Kafka took over are closed by it. */
    private void shutdownServers() {
        BrokerServer b = broker;
        ControllerServer c = controller;
        if (b != null) {
            runQuietly("broker shutdown", () -> b.shutdown(BROKER_SHUTDOWN_TIMEOUT));
        }
        if (c != null) {
            runQuietly("controller shutdown", c::shutdown);
        }
        if (b != null) {
            runQuietly("broker awaitShutdown", b::awaitShutdown);
        }
        if (c != null) {
            runQuietly("controller awaitShutdown", c::awaitShutdown);
        }
        preboundSockets.values().forEach(EmbeddedKafka::closeQuietly);
        serversUp = false;
    }

    @Override
    public String toString() {
        return "EmbeddedKafka[" + clusterId + (bootstrapServers == null ? "" : " at " + bootstrapServers)
                + (closed ? ", closed" : "") + "]";
    }

    private static int boundPort(ServerSocketChannel channel) throws IOException {
        return ((InetSocketAddress) channel.getLocalAddress()).getPort();
    }

    private static void runQuietly(String what, ThrowingRunnable action) {
        try {
            action.run();
        } catch (Throwable t) {
            LOG.warn("Embedded Kafka: {} failed", what, t);
        }
    }

    private static void closeQuietly(ServerSocketChannel channel) {
        try {
            channel.close();
        } catch (IOException | RuntimeException e) {
            LOG.debug("closing a server socket", e);
        }
    }

    /** Deletes a directory tree, tolerating files that vanish meanwhile; logs and carries on on failure. */
    static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    if (exc instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw exc;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            LOG.warn("Could not delete {}: {}", root, e.toString());
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Hands Kafka the sockets bound in {@link #start(Map)}, by listener name. */
    private final class PreboundSocketFactory implements ServerSocketFactory {
        private final Set<String> handedOut = ConcurrentHashMap.newKeySet();

        @Override
        public ServerSocketChannel openServerSocket(String listenerName, InetSocketAddress socketAddress,
                                                    int listenBacklogSize, int recvBufferSize) throws IOException {
            ServerSocketChannel channel = preboundSockets.get(listenerName);
            if (channel != null && channel.isOpen() && handedOut.add(listenerName)) {
                return channel;
            }
            // A listener added through overrides, or a re-open: bind as Kafka would.
            return ServerSocketFactory.INSTANCE.openServerSocket(listenerName, socketAddress, listenBacklogSize,
                    recvBufferSize);
        }
    }

    /** Non-fatal faults are logged (as in Kafka); fatal ones are logged and recorded, not halting the JVM. */
    private final class RecordingFaultHandlerFactory implements FaultHandlerFactory {
        @Override
        public FaultHandler build(String name, boolean fatal, Runnable action) {
            if (!fatal) {
                return new LoggingFaultHandler(name, action);
            }
            return (failureMessage, cause) -> {
                RuntimeException e = new RuntimeException(failureMessage, cause);
                fatalFault.compareAndSet(null, e);
                LOG.error("Embedded Kafka {}: fatal fault in {}: {}", clusterId, name, failureMessage, cause);
                if (action != null) {
                    try {
                        action.run();
                    } catch (RuntimeException ex) {
                        LOG.error("fault action failed", ex);
                    }
                }
                return e;
            };
        }
    }

    /**
     * Open instances, closed by a JVM shutdown hook; and removal of directories left by JVMs that
     * died without running their hooks.
     */
    static final class ShutdownRegistry {
        private static final Set<EmbeddedKafka> OPEN = ConcurrentHashMap.newKeySet();
        private static boolean hookInstalled;

        private ShutdownRegistry() {
        }

        static synchronized void register(EmbeddedKafka kafka) {
            if (!hookInstalled) {
                Thread hook = new Thread(ShutdownRegistry::closeAll, "embedded-kafka-shutdown-hook");
                Runtime.getRuntime().addShutdownHook(hook);
                hookInstalled = true;
            }
            OPEN.add(kafka);
        }

        static void deregister(EmbeddedKafka kafka) {
            OPEN.remove(kafka);
        }

        static Set<EmbeddedKafka> open() {
            return Set.copyOf(OPEN);
        }

        private static void closeAll() {
            for (EmbeddedKafka kafka : Set.copyOf(OPEN)) {
                // Straight to stderr: the logging backend may itself be shutting down.
                System.err.println("Shutting down " + kafka);
                kafka.close();
            }
        }

        /** {@code pid@host}, written into each data directory. */
        static String ownerTag() {
            return ProcessHandle.current().pid() + "@" + hostName();
        }

        private static String hostName() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                return "unknown";
            }
        }

        /**
         * Deletes {@code pg-embedded-kafka-*} directories in the temp directory whose owner process,
         * on this host, no longer runs (a JVM killed with SIGKILL cannot run its hook).
         */
        static void sweepStaleDirectories() {
            Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
            String host = hostName();
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, TEMP_DIR_PREFIX + "*")) {
                for (Path dir : dirs) {
                    Path owner = dir.resolve(OWNER_FILE);
                    if (!Files.isRegularFile(owner)) {
                        continue;
                    }
                    String tag = Files.readString(owner, StandardCharsets.UTF_8).trim();
                    int at = tag.indexOf('@');
                    if (at < 0 || !tag.substring(at + 1).equals(host)) {
                        continue;
                    }
                    long pid;
                    try {
                        pid = Long.parseLong(tag.substring(0, at));
                    } catch (NumberFormatException e) {
                        continue;
                    }
                    boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                    if (!alive) {
                        LOG.info("Removing {} left by process {}, which is gone", dir, pid);
                        deleteRecursively(dir);
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("Could not sweep stale embedded Kafka directories", e);
            }
        }
    }
}

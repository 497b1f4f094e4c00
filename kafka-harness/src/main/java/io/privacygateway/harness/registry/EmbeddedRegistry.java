package io.privacygateway.harness.registry;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Apicurio Registry (in-memory storage) running as a child JVM on 127.0.0.1, exposing the
 * Confluent Schema Registry REST API at {@link #ccompatUrl()}.
 *
 * <p>The registry is the runnable jar built by the {@code deploy/registry} module
 * ({@code deploy/registry/target/quarkus-app/quarkus-run.jar}); see {@link #locateJar()} for how
 * it is found. Typical use:
 *
 * <pre>{@code
 * try (EmbeddedRegistry registry = EmbeddedRegistry.start()) {
 *     String url = registry.ccompatUrl(); // http://127.0.0.1:NNNNN/apis/ccompat/v7
 *     ...
 * }
 * }</pre>
 *
 * <p><b>Port.</b> The child is started with {@code quarkus.http.port=0}, so the kernel picks a free
 * port at bind time, and the port is read from Quarkus' start-up line
 * {@code "... Listening on: http://127.0.0.1:NNNNN"}. Picking a port beforehand with
 * {@code new ServerSocket(0)} and passing it in would leave a window between closing that socket
 * and the child binding, in which another process on this machine (parallel builds, Kafka
 * brokers started by other tests) can take the port; binding to port 0 has no such race. The
 * start-up line is produced by Quarkus itself at INFO level, and its logger's level is forced to
 * INFO on the command line, so it cannot be configured away.
 *
 * <p><b>Readiness.</b> {@link #start()} returns only once {@code GET /apis/ccompat/v7/subjects}
 * answered 200. If the child exits, or the timeout passes first, the child is stopped and a
 * {@link RegistryStartException} is thrown carrying the last lines of its output.
 *
 * <p><b>Lifetime.</b> {@link #close()} stops the child (SIGTERM, then SIGKILL after a grace
 * period) together with any processes it started, and waits for it. A JVM shutdown hook does the
 * same if the JVM exits (normally or on Ctrl-C) without {@code close()}. A parent killed with
 * SIGKILL runs no hook; the child then outlives it.
 *
 * <p><b>Isolation.</b> The child gets a minimal environment (Apicurio reads many variables with
 * generic names such as {@code LOG_LEVEL} or {@code HTTP_PORT}) and runs in the jar's directory,
 * so a developer's shell or working directory cannot change the registry's behaviour.
 *
 * <p>Instances are thread-safe.
 */
public final class EmbeddedRegistry implements AutoCloseable {

    /** System property naming the runner jar; checked first. */
    public static final String JAR_PROPERTY = "privacygateway.registry.jar";
    /** Environment variable naming the runner jar; checked second. */
    public static final String JAR_ENV = "PRIVACYGATEWAY_REGISTRY_JAR";
    /** Where the runner jar lies relative to the repository root; searched upward for last. */
    public static final Path JAR_IN_REPOSITORY =
            Path.of("deploy", "registry", "target", "quarkus-app", "quarkus-run.jar");
    /** The command that builds the runner jar, run from the repository root. */
    public static final String BUILD_COMMAND = "mvn -B -pl deploy/registry package";

    /** Path of the Confluent-compatible API, relative to the registry's root URL. */
    public static final String CCOMPAT_PATH = "/apis/ccompat/v7";
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(120);
    /** Default JVM options of the child: a fast start (C1 only) and a small footprint. */
    public static final List<String> DEFAULT_JVM_OPTIONS =
            List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xms64m", "-Xmx512m");

    private static final String HOST = "127.0.0.1";
    private static final Pattern LISTENING =
            Pattern.compile("Listening on: http://127\\.0\\.0\\.1:(\\d+)");
    private static final int LOG_TAIL_LINES = 80;
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** Environment variables passed on to the child; everything else is dropped. */
    private static final List<String> ENV_PASSED_ON =
            List.of("PATH", "HOME", "USER", "LANG", "LC_ALL", "TZ", "TMPDIR", "SystemRoot", "TEMP", "TMP");

    private final Process process;
    private final Thread outputPump;
    private final Deque<String> logTail;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final int port;

    private EmbeddedRegistry(Process process, Thread outputPump, Deque<String> logTail,
            Thread shutdownHook, int port) {
        this.process = process;
        this.outputPump = outputPump;
        this.logTail = logTail;
        this.shutdownHook = shutdownHook;
        this.port = port;
    }

    /** Starts a registry with the defaults: jar from {@link #locateJar()}, 120 s timeout. */
    public static EmbeddedRegistry start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The port the registry listens on, on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The registry's root URL, e.g. {@code http://127.0.0.1:NNNNN}. */
    public String baseUrl() {
        return "http://" + HOST + ":" + port;
    }

    /** The Confluent-compatible API, e.g. {@code http://127.0.0.1:NNNNN/apis/ccompat/v7}. */
    public String ccompatUrl() {
        return baseUrl() + CCOMPAT_PATH;
    }

    /** The child process' id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the child process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines the child printed (stdout and stderr), oldest first. */
    public List<String> recentOutput() {
        synchronized (logTail) {
            return List.copyOf(logTail);
        }
    }

    /**
     * Hands stopping the child at JVM exit to the caller: removes this registry's exit hook, so an application
     * that closes its clients first (in its own shutdown path) is not cut off from a registry that a
     * concurrently running hook already stopped. The caller must then close it itself, also on Ctrl-C.
     *
     * @return this registry
     */
    public EmbeddedRegistry closedByCaller() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException jvmAlreadyShuttingDown) {
            // the hook is running or will run
        }
        return this;
    }

    /** Stops the child process and its descendants and waits for them. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException jvmAlreadyShuttingDown) {
            // The hook is running or will run; stopping twice is harmless.
        }
        stop(process);
        joinQuietly(outputPump, Duration.ofSeconds(5));
    }

    @Override
    public String toString() {
        return "EmbeddedRegistry[pid=" + process.pid() + ", " + ccompatUrl()
                + (process.isAlive() ? "" : ", stopped") + "]";
    }

    // ------------------------------------------------------------------------------------------
    // Locating the jar

    /**
     * Finds the runner jar: the file named by the system property {@value #JAR_PROPERTY}, else by
     * the environment variable {@value #JAR_ENV}, else {@link #JAR_IN_REPOSITORY} under the
     * current directory or its nearest ancestor that has it.
     *
     * @throws IllegalStateException with instructions, if there is no such file
     */
    public static Path locateJar() {
        return locateJar(System.getProperty(JAR_PROPERTY), System.getenv(JAR_ENV),
                Path.of("").toAbsolutePath());
    }

    static Path locateJar(String propertyValue, String envValue, Path startDirectory) {
        if (propertyValue != null && !propertyValue.isBlank()) {
            return requireFile(Path.of(propertyValue.trim()), "system property " + JAR_PROPERTY);
        }
        if (envValue != null && !envValue.isBlank()) {
            return requireFile(Path.of(envValue.trim()), "environment variable " + JAR_ENV);
        }
        for (Path dir = startDirectory.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(JAR_IN_REPOSITORY);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("The Apicurio Registry runner jar was not found: neither the "
                + "system property " + JAR_PROPERTY + " nor the environment variable " + JAR_ENV
                + " is set, and no " + JAR_IN_REPOSITORY + " exists under " + startDirectory
                + " or any directory above it. " + howToBuild());
    }

    private static Path requireFile(Path path, String source) {
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException("The " + source + " names the Apicurio Registry runner jar "
                    + path.toAbsolutePath() + ", which is not a file. " + howToBuild());
        }
        return path;
    }

    private static String howToBuild() {
        return "Build it from the repository root with `" + BUILD_COMMAND + "` (it appears as "
                + JAR_IN_REPOSITORY + "), or point " + JAR_PROPERTY + " / " + JAR_ENV + " at it.";
    }

    // ------------------------------------------------------------------------------------------
    // Starting

    /** Options for starting a registry. */
    public static final class Builder {
        private Path jar;
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private final List<String> jvmOptions = new ArrayList<>(DEFAULT_JVM_OPTIONS);
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private Path logFile;

        private Builder() {
            // Deliberately NOT setting registry.ccompat.use-canonical-hash=true, although it would
            // make Apicurio, like Confluent, give one id to schemas differing only in formatting:
            // in Apicurio 2.4.2 it also sorts record fields alphabetically in the stored schema
            // and treats a different field order as the same schema, which breaks Avro's binary
            // encoding (field order is the wire order). See the module README.
        }

        /** The runner jar; default {@link #locateJar()}. */
        public Builder jar(Path jar) {
            this.jar = Objects.requireNonNull(jar, "jar");
            return this;
        }

        /** How long to wait for the registry to answer; default 120 s. */
        public Builder startupTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("startup timeout must be positive: " + timeout);
            }
            this.startupTimeout = timeout;
            return this;
        }

        /** Replaces the child's JVM options (default {@link #DEFAULT_JVM_OPTIONS}). */
        public Builder jvmOptions(List<String> options) {
            jvmOptions.clear();
            jvmOptions.addAll(options);
            return this;
        }

        /**
         * Sets a configuration property of the registry (a {@code -D} option of the child), e.g.
         * {@code quarkus.log.level}. The host and port cannot be changed.
         */
        public Builder property(String key, String value) {
            if (key.equals("quarkus.http.host") || key.equals("quarkus.http.port")) {
                throw new IllegalArgumentException(key + " is fixed: 127.0.0.1, port chosen at bind time");
            }
            properties.put(key, Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Adds an environment variable of the child (its environment is otherwise minimal). */
        public Builder environment(String name, String value) {
            environment.put(name, Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Also writes everything the child prints to this file (created or truncated). */
        public Builder logFile(Path file) {
            this.logFile = file;
            return this;
        }

        /**
         * Starts the registry and waits until its Confluent-compatible API answers.
         *
         * @throws RegistryStartException if it could not be started, died, or did not answer in time
         * @throws IllegalStateException if the jar cannot be found
         */
        public EmbeddedRegistry start() {
            Path jarPath = (jar != null ? requireFile(jar, "jar option") : locateJar()).toAbsolutePath();
            List<String> command = command(jarPath);
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(jarPath.getParent().toFile())
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.PIPE);
            Map<String, String> env = pb.environment();
            Map<String, String> kept = new LinkedHashMap<>();
            for (String name : ENV_PASSED_ON) {
                String value = env.get(name);
                if (value != null) {
                    kept.put(name, value);
                }
            }
            env.clear();
            env.putAll(kept);
            env.putAll(environment);

            BufferedWriter logWriter = openLog(logFile);
            Process process;
            try {
                process = pb.start();
            } catch (IOException e) {
                closeQuietly(logWriter);
                throw new RegistryStartException("Could not start the registry: " + String.join(" ", command), e);
            }
            // The child never reads its input; closing it tells it nothing but frees the pipe.
            closeQuietly(process.getOutputStream());

            Deque<String> tail = new ArrayDeque<>();
            CompletableFuture<Integer> portFuture = new CompletableFuture<>();
            Thread pump = new Thread(() -> pumpOutput(process, tail, portFuture, logWriter),
                    "embedded-registry-output-" + process.pid());
            pump.setDaemon(true);
            pump.start();

            Thread hook = new Thread(() -> stop(process), "embedded-registry-shutdown-" + process.pid());
            long startNanos = System.nanoTime();
            try {
                Runtime.getRuntime().addShutdownHook(hook);
                int port = awaitReady(process, portFuture, tail, startNanos, command);
                return new EmbeddedRegistry(process, pump, tail, hook, port);
            } catch (RuntimeException | Error e) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException | IllegalArgumentException ignored) {
                    // shutting down (the hook stops the process), or the hook was never added
                }
                stop(process);
                joinQuietly(pump, Duration.ofSeconds(5));
                throw e;
            }
        }

        private List<String> command(Path jarPath) {
            List<String> command = new ArrayList<>();
            command.add(javaExecutable());
            command.addAll(jvmOptions);
            command.add("-Dquarkus.http.host=" + HOST);
            command.add("-Dquarkus.http.port=0");
            // The "Listening on:" line is how the port is found: keep its logger at INFO whatever
            // the registry's own log level is.
            command.add("-Dquarkus.log.category.\"io.quarkus.bootstrap.runner.Timing\".level=INFO");
            command.add("-Dquarkus.log.console.enable=true");
            for (Map.Entry<String, String> p : properties.entrySet()) {
                command.add("-D" + p.getKey() + "=" + p.getValue());
            }
            command.add("-jar");
            command.add(jarPath.toString());
            return command;
        }

        private int awaitReady(Process process, CompletableFuture<Integer> portFuture, Deque<String> tail,
                long startNanos, List<String> command) {
            long deadline = startNanos + startupTimeout.toNanos();
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(2))
                    .version(HttpClient.Version.HTTP_1_1)
                    .build();
            Integer port = null;
            String lastProblem = "no \"Listening on:\" line printed yet";
            while (true) {
                if (!process.isAlive()) {
                    // Let the pump read what the child printed before it died.
                    waitForOutputEnd(portFuture);
                    throw failure("The registry process exited with code " + exitValue(process)
                            + " before it answered", tail, startNanos, command);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw failure("The registry did not answer within " + startupTimeout.toSeconds()
                            + " s (" + lastProblem + ")", tail, startNanos, command);
                }
                if (port == null) {
                    port = portFuture.getNow(null);
                    if (port == null) {
                        sleep(50);
                        continue;
                    }
                    if (port < 0) { // output ended without a port: the process is exiting
                        sleep(50);
                        port = null;
                        continue;
                    }
                }
                URI probe = URI.create("http://" + HOST + ":" + port + CCOMPAT_PATH + "/subjects");
                try {
                    HttpResponse<String> response = client.send(
                            HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() == 200) {
                        return port;
                    }
                    lastProblem = "GET " + probe + " answered " + response.statusCode() + ": "
                            + abbreviate(response.body());
                } catch (IOException e) {
                    lastProblem = "GET " + probe + " failed: " + e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RegistryStartException("Interrupted while waiting for the registry", e);
                }
                sleep(100);
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Helpers

    private static void pumpOutput(Process process, Deque<String> tail, CompletableFuture<Integer> port,
            BufferedWriter logWriter) {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > LOG_TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
                if (!port.isDone()) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
                if (logWriter != null) {
                    try {
                        logWriter.write(line);
                        logWriter.newLine();
                        logWriter.flush();
                    } catch (IOException e) {
                        closeQuietly(logWriter);
                        logWriter = null;
                    }
                }
            }
        } catch (IOException e) {
            // The stream closes when the process is destroyed; nothing more to read.
        } finally {
            port.complete(-1);
            closeQuietly(logWriter);
        }
    }

    /** Stops the process tree: a polite SIGTERM first, SIGKILL for whatever is left. */
    private static void stop(Process process) {
        List<ProcessHandle> descendants = new ArrayList<>();
        try {
            process.descendants().forEach(descendants::add);
        } catch (SecurityException | UnsupportedOperationException ignored) {
            // best effort
        }
        process.destroy();
        boolean exited = waitFor(process, STOP_GRACE);
        if (!exited) {
            process.destroyForcibly();
            waitFor(process, STOP_GRACE);
        }
        for (ProcessHandle child : descendants) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }

    private static boolean waitFor(Process process, Duration timeout) {
        boolean interrupted = false;
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                try {
                    return process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true; // finish stopping first; re-assert below
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void waitForOutputEnd(CompletableFuture<Integer> portFuture) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        // The pump completes the future (with -1 if it never saw the port) when output ends.
        while (!portFuture.isDone() && System.nanoTime() - deadline < 0) {
            sleep(20);
        }
        sleep(50);
    }

    private static RegistryStartException failure(String what, Deque<String> tail, long startNanos,
            List<String> command) {
        List<String> lines;
        synchronized (tail) {
            lines = new ArrayList<>(tail);
        }
        StringBuilder sb = new StringBuilder(what)
                .append(" (after ").append(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos))
                .append(" ms).\nCommand: ").append(String.join(" ", command))
                .append("\nLast ").append(lines.size()).append(" lines of its output:");
        for (String line : lines) {
            sb.append("\n  | ").append(line);
        }
        return new RegistryStartException(sb.toString(), lines);
    }

    private static String exitValue(Process process) {
        try {
            return Integer.toString(process.exitValue());
        } catch (IllegalThreadStateException e) {
            return "?";
        }
    }

    static String javaExecutable() {
        boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        Path java = Path.of(System.getProperty("java.home"), "bin", windows ? "java.exe" : "java");
        if (Files.isExecutable(java)) {
            return java.toString();
        }
        Optional<String> current = ProcessHandle.current().info().command();
        return current.orElse("java");
    }

    private static BufferedWriter openLog(Path file) {
        if (file == null) {
            return null;
        }
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the registry log " + file, e);
        }
    }

    private static String abbreviate(String s) {
        String oneLine = s.replaceAll("\\s+", " ");
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryStartException("Interrupted while waiting for the registry", e);
        }
    }

    private static void joinQuietly(Thread thread, Duration timeout) {
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // nothing useful to do
        }
    }

    /** The registry could not be started, died during start-up, or did not answer in time. */
    public static final class RegistryStartException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient List<String> output;

        RegistryStartException(String message, Throwable cause) {
            super(message, cause);
            this.output = List.of();
        }

        RegistryStartException(String message, List<String> output) {
            super(message);
            this.output = List.copyOf(output);
        }

        /** The last lines the child printed before the failure, oldest first. */
        public List<String> output() {
            return output == null ? Collections.emptyList() : output;
        }
    }
}

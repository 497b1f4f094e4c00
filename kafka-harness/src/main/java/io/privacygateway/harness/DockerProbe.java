package io.privacygateway.harness;

import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Decides, quickly and quietly, whether the Testcontainers path can be used.
 *
 * <p>Asked directly on a machine without Docker, Testcontainers' {@code isDockerAvailable()} walks
 * all its strategies and logs each failure at ERROR with a stack trace ("Could not find a valid
 * Docker environment"). So it is asked only when there is reason to believe a daemon runs:
 * <ol>
 *   <li>Testcontainers must be on the class path (it is an optional dependency of this module);</li>
 *   <li>if {@code DOCKER_HOST} (or {@code docker.host} in {@code ~/.testcontainers.properties})
 *       names a non-unix endpoint ({@code tcp://}, {@code npipe://}, {@code ssh://}), the user has
 *       configured Docker explicitly and Testcontainers is asked;</li>
 *   <li>otherwise the daemon socket ({@code DOCKER_HOST=unix://...}, or the first existing of the
 *       usual locations: {@code /var/run/docker.sock}, rootless, Docker Desktop, Colima, Rancher
 *       Desktop, Podman) must answer {@code GET /_ping} with 200 within {@value #PING_TIMEOUT_MS} ms;
 *       only then is Testcontainers asked.</li>
 * </ol>
 * The result is computed once per JVM.
 */
public final class DockerProbe {

    static final long PING_TIMEOUT_MS = 2000;
    private static final AtomicReference<Result> CACHED = new AtomicReference<>();

    /** The outcome and a one-line reason, for logs. */
    public record Result(boolean available, String reason) {
    }

    private DockerProbe() {
    }

    /** Whether a container harness can be started (cached after the first call). */
    public static Result probe() {
        Result result = CACHED.get();
        if (result == null) {
            result = compute();
            CACHED.compareAndSet(null, result);
            result = CACHED.get();
        }
        return result;
    }

    /** Whether Testcontainers' Kafka module is on the class path. */
    public static boolean testcontainersPresent() {
        try {
            ClassLoader loader = DockerProbe.class.getClassLoader();
            Class.forName("org.testcontainers.DockerClientFactory", false, loader);
            Class.forName("org.testcontainers.kafka.KafkaContainer", false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static Result compute() {
        if (!testcontainersPresent()) {
            return new Result(false, "Testcontainers is not on the class path");
        }
        Optional<String> configured = configuredDockerHost();
        Path socket;
        if (configured.isPresent()) {
            URI uri;
            try {
                uri = URI.create(configured.get());
            } catch (IllegalArgumentException e) {
                return askTestcontainers("Docker host " + configured.get() + " is configured");
            }
            if (!"unix".equals(uri.getScheme())) {
                return askTestcontainers("Docker host " + configured.get() + " is configured");
            }
            socket = Path.of(uri.getPath());
        } else {
            Optional<Path> found = candidateSockets().stream().filter(Files::exists).findFirst();
            if (found.isEmpty()) {
                return new Result(false, "no Docker daemon socket found");
            }
            socket = found.get();
        }
        Optional<String> pingFailure = ping(socket, Duration.ofMillis(PING_TIMEOUT_MS));
        if (pingFailure.isPresent()) {
            return new Result(false, "Docker socket " + socket + " does not answer: " + pingFailure.get());
        }
        return askTestcontainers("Docker answers on " + socket);
    }

    private static Result askTestcontainers(String why) {
        try {
            if (ContainerKafka.dockerAvailable()) {
                return new Result(true, why + "; Testcontainers found a usable Docker environment");
            }
            return new Result(false, why + ", but Testcontainers found no usable Docker environment");
        } catch (RuntimeException | LinkageError e) {
            return new Result(false, why + ", but Testcontainers failed: " + e);
        }
    }

    /** {@code DOCKER_HOST}, else {@code docker.host} from {@code ~/.testcontainers.properties}. */
    static Optional<String> configuredDockerHost() {
        String env = System.getenv("DOCKER_HOST");
        if (env != null && !env.isBlank()) {
            return Optional.of(env.trim());
        }
        Path props = Path.of(System.getProperty("user.home", "."), ".testcontainers.properties");
        if (Files.isRegularFile(props)) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(props)) {
                p.load(in);
                String host = p.getProperty("docker.host");
                if (host != null && !host.isBlank()) {
                    return Optional.of(host.trim());
                }
            } catch (IOException e) {
                // ignore: unreadable file, fall through to the socket search
            }
        }
        return Optional.empty();
    }

    /** Where Docker-compatible daemons put their socket, most common first. */
    static List<Path> candidateSockets() {
        Set<Path> paths = new LinkedHashSet<>();
        paths.add(Path.of("/var/run/docker.sock"));
        paths.add(Path.of("/run/docker.sock"));
        String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
        if (runtimeDir != null && !runtimeDir.isBlank()) {
            paths.add(Path.of(runtimeDir, "docker.sock"));
            paths.add(Path.of(runtimeDir, "podman", "podman.sock"));
        }
        uid().ifPresent(uid -> {
            paths.add(Path.of("/run/user/" + uid, "docker.sock"));
            paths.add(Path.of("/run/user/" + uid, "podman", "podman.sock"));
        });
        String home = System.getProperty("user.home");
        if (home != null) {
            paths.add(Path.of(home, ".docker", "run", "docker.sock"));
            paths.add(Path.of(home, ".docker", "desktop", "docker.sock"));
            paths.add(Path.of(home, ".colima", "default", "docker.sock"));
            paths.add(Path.of(home, ".colima", "docker.sock"));
            paths.add(Path.of(home, ".rd", "docker.sock"));
        }
        return new ArrayList<>(paths);
    }

    private static Optional<Integer> uid() {
        try {
            return Optional.of((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Sends {@code GET /_ping} over the unix socket. Empty if the daemon answered 200, else why not.
     */
    static Optional<String> ping(Path socket, Duration timeout) {
        AtomicReference<SocketChannel> channelRef = new AtomicReference<>();
        CompletableFuture<String> answer = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                channelRef.set(ch);
                ch.connect(UnixDomainSocketAddress.of(socket));
                ch.write(ByteBuffer.wrap("GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII)));
                ByteBuffer buf = ByteBuffer.allocate(512);
                while (buf.hasRemaining() && ch.read(buf) >= 0) {
                    String soFar = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
                    if (soFar.contains("\r\n")) {
                        break;
                    }
                }
                answer.complete(new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII));
            } catch (IOException | RuntimeException e) {
                answer.completeExceptionally(e);
            }
        }, "docker-probe");
        t.setDaemon(true);
        t.start();
        try {
            String response = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            String statusLine = response.lines().findFirst().orElse("");
            if (statusLine.startsWith("HTTP/1.") && statusLine.contains(" 200")) {
                return Optional.empty();
            }
            return Optional.of(statusLine.isEmpty() ? "empty response" : statusLine);
        } catch (TimeoutException e) {
            SocketChannel ch = channelRef.get();
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // best effort: unblocks the probe thread
                }
            }
            return Optional.of("no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            return Optional.of(String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }
}

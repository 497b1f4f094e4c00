package io.privacygateway.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Docker probe against fake daemons on a unix socket: fast, bounded, and exact about 200. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // the fake daemons only need to be open during the try blocks
class DockerProbeTest {

    @TempDir
    Path dir;

    @Test
    void missingSocketFailsAtOnce() {
        long t0 = System.nanoTime();
        Optional<String> failure = DockerProbe.ping(dir.resolve("nothing.sock"), Duration.ofSeconds(2));
        assertThat(failure).isPresent();
        assertThat(elapsedMs(t0)).isLessThan(1000);
    }

    @Test
    void answeringDaemonPasses() throws Exception {
        Path socket = dir.resolve("ok.sock");
        try (FakeDaemon daemon = new FakeDaemon(socket, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK")) {
            assertThat(DockerProbe.ping(socket, Duration.ofSeconds(2))).isEmpty();
        }
    }

    @Test
    void erroringDaemonFails() throws Exception {
        Path socket = dir.resolve("err.sock");
        try (FakeDaemon daemon = new FakeDaemon(socket, "HTTP/1.1 500 Internal Server Error\r\n\r\n")) {
            assertThat(DockerProbe.ping(socket, Duration.ofSeconds(2))).hasValueSatisfying(
                    reason -> assertThat(reason).contains("500"));
        }
    }

    @Test
    void silentDaemonTimesOut() throws Exception {
        Path socket = dir.resolve("silent.sock");
        try (FakeDaemon daemon = new FakeDaemon(socket, null)) {
            long t0 = System.nanoTime();
            assertThat(DockerProbe.ping(socket, Duration.ofMillis(500))).hasValueSatisfying(
                    reason -> assertThat(reason).contains("no answer"));
            assertThat(elapsedMs(t0)).isBetween(400L, 2000L);
        }
    }

    @Test
    void probeIsQuickAndCached() {
        long t0 = System.nanoTime();
        DockerProbe.Result first = DockerProbe.probe();
        long firstMs = elapsedMs(t0);
        assertThat(first.reason()).isNotBlank();
        if (!first.available()) {
            // Without a daemon the answer must not cost Testcontainers' multi-second strategy walk.
            assertThat(firstMs).isLessThan(DockerProbe.PING_TIMEOUT_MS + 1000);
        }
        t0 = System.nanoTime();
        assertThat(DockerProbe.probe()).isSameAs(first);
        assertThat(elapsedMs(t0)).isLessThan(50);
    }

    @Test
    void candidateSocketsIncludeTheStandardOne() {
        assertThat(DockerProbe.candidateSockets()).first().isEqualTo(Path.of("/var/run/docker.sock"));
    }

    private static long elapsedMs(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** Accepts one connection on a unix socket and writes {@code response} (or nothing, if null). */
    private static final class FakeDaemon implements AutoCloseable {
        private final ServerSocketChannel server;
        private final Thread thread;

        FakeDaemon(Path socket, String response) throws IOException {
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            thread = new Thread(() -> {
                try (SocketChannel client = server.accept()) {
                    client.read(ByteBuffer.allocate(1024));
                    if (response == null) {
                        Thread.sleep(10_000);
                    } else {
                        client.write(ByteBuffer.wrap(response.getBytes(StandardCharsets.US_ASCII)));
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the test
                }
            }, "fake-docker-daemon");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws IOException {
            thread.interrupt();
            server.close();
        }
    }
}

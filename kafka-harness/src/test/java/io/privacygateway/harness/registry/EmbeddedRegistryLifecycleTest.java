package io.privacygateway.harness.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.harness.registry.EmbeddedRegistry.RegistryStartException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedRegistryLifecycleTest {

    @TempDir
    Path tmp;

    @Test
    void closeStopsTheProcessAndFreesThePort() {
        EmbeddedRegistry registry = EmbeddedRegistry.builder()
                .logFile(logFile("closeStopsTheProcessAndFreesThePort"))
                .start();
        long pid = registry.pid();
        int port = registry.port();
        assertThat(registry.isAlive()).isTrue();
        assertThat(ProcessHandle.of(pid)).hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue());
        assertThat(registry.recentOutput()).anySatisfy(line -> assertThat(line).contains("Listening on:"));

        registry.close();
        registry.close(); // idempotent

        assertThat(registry.isAlive()).isFalse();
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
        assertThatThrownBy(() -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            }
        }).isInstanceOf(ConnectException.class);
    }

    @Test
    void aChildThatDiesReportsItsExitCodeAndOutput() throws IOException {
        Path notAJar = Files.writeString(tmp.resolve("broken.jar"), "this is not a zip file");

        assertThatThrownBy(() -> EmbeddedRegistry.builder().jar(notAJar).startupTimeout(Duration.ofSeconds(60)).start())
                .isInstanceOf(RegistryStartException.class)
                .hasMessageContaining("exited with code 1")
                .hasMessageContaining("broken.jar")
                .satisfies(e -> assertThat(((RegistryStartException) e).output())
                        .anySatisfy(line -> assertThat(line).containsIgnoringCase("jar")));
    }

    @Test
    void aChildThatNeverAnswersTimesOutAndIsStopped() throws IOException {
        // A "registry" that prints nothing and sleeps: the start must give up and kill it.
        Path sleeper = Files.writeString(tmp.resolve("Sleeper.java"),
                "public class Sleeper { public static void main(String[] a) throws Exception {"
                        + " System.out.println(\"pretending to start\"); Thread.sleep(600_000); } }");
        Path jar = SleeperJar.build(sleeper, tmp);
        long before = System.nanoTime();

        assertThatThrownBy(() -> EmbeddedRegistry.builder().jar(jar).startupTimeout(Duration.ofSeconds(3)).start())
                .isInstanceOf(RegistryStartException.class)
                .hasMessageContaining("did not answer within 3 s")
                .hasMessageContaining("pretending to start");
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(30));
        Optional<ProcessHandle> leftover = ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().orElse("").contains(jar.toString()))
                .filter(ProcessHandle::isAlive)
                .findAny();
        assertThat(leftover).isEmpty();
    }

    private static Path logFile(String name) {
        String dir = System.getProperty("privacygateway.registry.log.dir");
        return dir == null ? null : Path.of(dir, EmbeddedRegistryLifecycleTest.class.getSimpleName() + "-" + name + ".log");
    }
}

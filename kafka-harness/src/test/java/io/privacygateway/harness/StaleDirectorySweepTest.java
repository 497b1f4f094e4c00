package io.privacygateway.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** Directories of JVMs killed without running their shutdown hooks are removed by the next start. */
class StaleDirectorySweepTest {

    @Test
    void removesDirectoriesOfDeadOwnersOnly() throws Exception {
        Process finished = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        finished.waitFor();
        String host = EmbeddedKafka.ShutdownRegistry.ownerTag().replaceFirst("^\\d+@", "");

        Path dead = fakeDir(finished.pid() + "@" + host);
        Path alive = fakeDir(EmbeddedKafka.ShutdownRegistry.ownerTag());
        Path otherHost = fakeDir(finished.pid() + "@some-other-host");
        Path noOwner = Files.createTempDirectory(EmbeddedKafka.TEMP_DIR_PREFIX);
        try {
            EmbeddedKafka.ShutdownRegistry.sweepStaleDirectories();
            assertThat(Files.exists(dead)).isFalse();
            assertThat(Files.exists(alive)).isTrue();
            assertThat(Files.exists(otherHost)).isTrue();
            assertThat(Files.exists(noOwner)).isTrue();
        } finally {
            for (Path p : new Path[] {dead, alive, otherHost, noOwner}) {
                EmbeddedKafka.deleteRecursively(p);
            }
        }
    }

    private static Path fakeDir(String owner) throws Exception {
        Path dir = Files.createTempDirectory(EmbeddedKafka.TEMP_DIR_PREFIX);
        Files.writeString(dir.resolve(EmbeddedKafka.OWNER_FILE), owner, StandardCharsets.UTF_8);
        Files.createDirectories(dir.resolve("data").resolve("topic-0"));
        Files.writeString(dir.resolve("data").resolve("topic-0").resolve("00000000000000000000.log"), "x");
        return dir;
    }
}

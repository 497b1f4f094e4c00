package io.privacygateway.harness.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedRegistryLocateJarTest {

    @TempDir
    Path tmp;

    private Path file(String relative) throws IOException {
        Path p = tmp.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, "not really a jar");
    }

    @Test
    void systemPropertyComesFirst() throws IOException {
        Path fromProperty = file("a/runner.jar");
        Path fromEnv = file("b/runner.jar");
        file("repo/" + EmbeddedRegistry.JAR_IN_REPOSITORY);

        assertThat(EmbeddedRegistry.locateJar(fromProperty.toString(), fromEnv.toString(), tmp.resolve("repo")))
                .isEqualTo(fromProperty);
    }

    @Test
    void environmentVariableComesSecond() throws IOException {
        Path fromEnv = file("b/runner.jar");
        file("repo/" + EmbeddedRegistry.JAR_IN_REPOSITORY);

        assertThat(EmbeddedRegistry.locateJar(null, fromEnv.toString(), tmp.resolve("repo"))).isEqualTo(fromEnv);
        assertThat(EmbeddedRegistry.locateJar("  ", fromEnv.toString(), tmp.resolve("repo"))).isEqualTo(fromEnv);
    }

    @Test
    void searchesUpwardFromTheStartDirectory() throws IOException {
        Path jar = file("repo/" + EmbeddedRegistry.JAR_IN_REPOSITORY);
        Path moduleDir = Files.createDirectories(tmp.resolve("repo/schemas/src"));

        assertThat(EmbeddedRegistry.locateJar(null, null, moduleDir)).isEqualTo(jar);
        assertThat(EmbeddedRegistry.locateJar(null, null, tmp.resolve("repo"))).isEqualTo(jar);
    }

    @Test
    void missingJarSaysHowToBuildIt() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty/module"));

        assertThatThrownBy(() -> EmbeddedRegistry.locateJar(null, null, empty))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mvn -B -pl deploy/registry package")
                .hasMessageContaining(EmbeddedRegistry.JAR_PROPERTY)
                .hasMessageContaining(EmbeddedRegistry.JAR_ENV);
    }

    @Test
    void explicitPathToNothingIsAnErrorNotAFallback() throws IOException {
        file("repo/" + EmbeddedRegistry.JAR_IN_REPOSITORY);
        String missing = tmp.resolve("nowhere/runner.jar").toString();

        assertThatThrownBy(() -> EmbeddedRegistry.locateJar(missing, null, tmp.resolve("repo")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(EmbeddedRegistry.JAR_PROPERTY)
                .hasMessageContaining("nowhere")
                .hasMessageContaining("mvn -B -pl deploy/registry package");
        assertThatThrownBy(() -> EmbeddedRegistry.locateJar(null, missing, tmp.resolve("repo")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(EmbeddedRegistry.JAR_ENV);
    }
}

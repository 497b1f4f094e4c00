package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One version everywhere it is written (docs/release.md; {@code bin/set-version} writes them all): every module's
 * pom, the image tags of the Compose and Kubernetes files and of docs/deploy.md, the TypeScript SDK's package.json
 * and package-lock.json, and the licence the release is published under.
 */
class ReleaseVersionTest {

    private static final Pattern PROJECT_VERSION = Pattern.compile("(?m)^  <version>([^<]+)</version>$");
    private static final Pattern PARENT_VERSION = Pattern.compile(
            "<parent>\\s*<groupId>io\\.privacygateway</groupId>\\s*<artifactId>[^<]+</artifactId>\\s*<version>([^<]+)</version>");
    private static final Pattern IMAGE_TAG = Pattern.compile("(?:privacy-gateway:|newTag: )([0-9][^\\s\"'`]*)");

    private static String rootVersion() {
        Matcher m = PROJECT_VERSION.matcher(RepoFiles.read(RepoFiles.root().resolve("pom.xml")));
        assertThat(m.find()).as("the root pom's version").isTrue();
        return m.group(1);
    }

    @Test
    void everyPomImageTagAndTheTypeScriptPackageCarryTheRootVersion() throws IOException {
        String version = rootVersion();
        assertThat(version).matches("[0-9]+\\.[0-9]+\\.[0-9]+(-SNAPSHOT)?");
        List<String> wrong = new ArrayList<>();
        Path root = RepoFiles.root();
        try (Stream<Path> poms = Files.walk(root, 3)) {
            for (Path pom : poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
                    .toList()) {
                String text = RepoFiles.read(pom);
                Matcher parent = PARENT_VERSION.matcher(text);
                Matcher own = PROJECT_VERSION.matcher(text);
                String found = parent.find() ? parent.group(1) : own.find() ? own.group(1) : null;
                if (!version.equals(found)) {
                    wrong.add(root.relativize(pom) + ": " + found);
                }
            }
        }
        for (String file : List.of("deploy/compose/compose.yaml", "deploy/k8s/kustomization.yaml",
                "deploy/k8s/statefulset.yaml", "deploy/k8s-ingest/kustomization.yaml", "deploy/k8s-ingest/deployment.yaml",
                "docs/deploy.md")) {
            Matcher m = IMAGE_TAG.matcher(RepoFiles.read(root.resolve(file)));
            while (m.find()) {
                if (!m.group(1).equals(version)) {
                    wrong.add(file + ": image tag " + m.group(1));
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        Path sdk = root.resolve("sdk/typescript");
        if (!json.readTree(sdk.resolve("package.json").toFile()).path("version").asText().equals(version)) {
            wrong.add("sdk/typescript/package.json");
        }
        if (!json.readTree(sdk.resolve("package-lock.json").toFile()).path("version").asText()
                .equals(json.readTree(sdk.resolve("package.json").toFile()).path("version").asText())) {
            wrong.add("sdk/typescript/package-lock.json");
        }
        assertThat(wrong).as("files whose version is not the root pom's " + version).isEmpty();
    }

    @Test
    void theReleaseIsApacheLicensedInEveryPlaceAToolReadsIt() throws IOException {
        Path root = RepoFiles.root();
        assertThat(RepoFiles.read(root.resolve("LICENSE"))).contains("Apache License").contains("Version 2.0, January 2004");
        assertThat(RepoFiles.read(root.resolve("pom.xml"))).contains("<name>Apache-2.0</name>");
        assertThat(new ObjectMapper().readTree(root.resolve("sdk/typescript/package.json").toFile()).path("license").asText())
                .isEqualTo("Apache-2.0");
        assertThat(root.resolve("NOTICE")).exists();
    }
}

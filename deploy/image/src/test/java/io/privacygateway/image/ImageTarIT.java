package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image tar {@code mvn package} wrote (deploy/image/target/privacy-gateway-image.tar): its config
 * (entrypoint, command, user, ports, volume), its layers (intact, the application jar and its
 * classpath, a {@code java} binary and the libraries it loads, the user's passwd entry) and what was
 * left out (the embedded broker's jars).
 */
class ImageTarIT {
    /**
     * Jars of a broker, of the demo, the simulator, the benchmarks or the tests: none may be in the image (nor, since
     * the demo and the bench commands left it, on the app module's runtime class path).
     */
    static final Pattern NOT_PRODUCTION = Pattern.compile("(simulator|demo|benchmarks|jmh-core|junit-jupiter.*|"
            + "assertj-core|testcontainers.*|slf4j-nop)-[0-9].*\\.jar");
    static final Pattern BROKER_ONLY = Pattern.compile("(kafka-harness|kafka_2\\.13|kafka-server|kafka-server-common"
            + "|kafka-metadata|kafka-raft|kafka-storage|kafka-storage-api|kafka-group-coordinator|kafka-group-coordinator-api"
            + "|kafka-transaction-coordinator|kafka-coordinator-common|kafka-share-coordinator|kafka-tools-api|scala-library"
            + "|scala-reflect|scala-logging_2\\.13|argparse4j|jopt-simple|jose4j|metrics-core|re2j|commons-validator"
            + "|commons-beanutils|commons-digester|commons-logging|commons-collections|pcollections"
            + "|caffeine|hash4j|jackson-dataformat-csv|jackson-datatype-jdk8)-[0-9].*\\.jar");

    static Path tar;
    static ImageTar image;
    static Map<String, ImageTar.Entry> fs;

    @BeforeAll
    static void read() throws IOException {
        tar = ImageTar.location();
        image = ImageTar.open(tar);
        fs = image.fileSystem(tar);
    }

    static JsonNode cfg() {
        return image.config.get("config");
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void theConfigRunsTheGatewayAsANonRootUser() {
        assertThat(image.manifest.get(0).get("RepoTags").get(0).asText()).isEqualTo(System.getProperty("privacygateway.image.name"));
        assertThat(image.config.get("os").asText()).isEqualTo("linux");
        assertThat(image.config.get("architecture").asText()).isEqualTo("amd64");
        List<String> entrypoint = strings(cfg().get("Entrypoint"));
        assertThat(entrypoint.get(0)).isEqualTo("/opt/java/bin/java");
        assertThat(entrypoint.get(entrypoint.size() - 1)).isEqualTo("io.privacygateway.app.Main");
        assertThat(entrypoint).containsSequence("-cp", "@/app/jib-classpath-file");
        assertThat(strings(cfg().get("Cmd"))).containsExactly("run", "--config", "/etc/privacy-gateway/gateway.yaml");
        String user = cfg().get("User").asText();
        assertThat(user).matches("\\d+:\\d+");
        assertThat(user).doesNotStartWith("0:");
        assertThat(cfg().get("ExposedPorts").has("9464/tcp")).isTrue();
        assertThat(cfg().get("ExposedPorts").has("8443/tcp")).as("ingest").isTrue();
        assertThat(cfg().get("ExposedPorts").has("9465/tcp")).as("ingest metrics").isTrue();
        assertThat(cfg().get("Volumes").has("/var/lib/privacy-gateway")).isTrue();
        assertThat(strings(cfg().get("Env"))).contains("JAVA_HOME=/opt/java");
    }

    @Test
    void everyLayerIsIntact() throws IOException {
        assertThat(image.diffIds(tar)).isEqualTo(strings(image.config.get("rootfs").get("diff_ids")));
    }

    @Test
    void theLayersHoldJavaItsLibrariesTheAppAndItsUser() throws IOException {
        assertThat(fs.get("/opt/java/bin/java")).satisfies(e -> assertThat(e.executable()).isTrue());
        assertThat(fs.get("/lib64/ld-linux-x86-64.so.2")).satisfies(e -> assertThat(e.executable()).isTrue());
        for (String lib : List.of("/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libz.so.1",
                "/opt/java/lib/server/libjvm.so", "/opt/java/lib/libjli.so", "/opt/java/lib/security/cacerts")) {
            assertThat(fs).containsKey(lib);
        }
        assertThat(fs.get("/opt/java/lib/security/cacerts").size()).as("a trust store with CA certificates").isGreaterThan(10_000);
        assertThat(fs).containsKey("/app/libs/" + appJar());
        assertThat(fs).containsKey("/app/classes/io/privacygateway/image/HealthProbe.class");
        assertThat(fs).containsKey("/usr/share/doc/privacy-gateway/native-libraries.txt");

        // the config's user exists, with a home directory the image has
        String uid = cfg().get("User").asText().split(":")[0];
        String line = readFile("/etc/passwd").lines().filter(l -> l.split(":")[2].equals(uid)).findFirst()
                .orElseThrow(() -> new AssertionError("no /etc/passwd entry for uid " + uid));
        assertThat(fs).containsKey(line.split(":")[5]);

        // writable where the gateway writes; no set-uid files; everything owned by root
        assertThat(fs.get("/tmp").mode() & 0777).isEqualTo(0777);
        assertThat(fs.get("/var/lib/privacy-gateway").mode() & 0777).isEqualTo(0777);
        assertThat(fs.values()).allSatisfy(e -> {
            assertThat(e.mode() & 06000).as(e.path()).isZero();
            assertThat(e.uid()).as(e.path()).isZero();
        });
        // the default configuration is the one in the sources
        assertThat(readFile("/etc/privacy-gateway/gateway.yaml"))
                .isEqualTo(RepoFiles.read(RepoFiles.deploy("image/src/main/jib/etc/privacy-gateway/gateway.yaml")));
    }

    @Test
    void theClasspathIsTheAppsRuntimeClasspathWithoutTheBroker() throws IOException {
        List<String> classpath = List.of(readFile("/app/jib-classpath-file").trim().split(":"));
        for (String entry : classpath) {
            assertThat(fs).as("classpath entry " + entry).containsKey(entry);
        }
        Set<String> jars = classpath.stream().filter(e -> e.startsWith("/app/libs/"))
                .map(e -> e.substring("/app/libs/".length())).collect(Collectors.toCollection(TreeSet::new));
        // the application's logging: SLF4J on Log4j 2 with the JSON Template Layout (PGW_LOG_FORMAT), one provider
        assertThat(jars).contains(appJar()).anyMatch(j -> j.startsWith("log4j-slf4j2-impl-"))
                .anyMatch(j -> j.startsWith("log4j-layout-template-json-")).noneMatch(j -> j.startsWith("slf4j-simple-"));
        assertThat(jars).anyMatch(j -> j.startsWith("kafka-streams-")).anyMatch(j -> j.startsWith("rocksdbjni-"));
        assertThat(jars).noneMatch(j -> BROKER_ONLY.matcher(j).matches());
        assertThat(jars).noneMatch(j -> NOT_PRODUCTION.matcher(j).matches());

        Path appLib = Path.of(System.getProperty("privacygateway.app.lib", "../../app/target/lib"));
        assumeTrue(Files.isDirectory(appLib), "the app module's target/lib is not built: comparison skipped");
        Set<String> appJars;
        try (Stream<Path> s = Files.list(appLib)) {
            appJars = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(appJars).as("the production command line's own runtime class path")
                .noneMatch(j -> BROKER_ONLY.matcher(j).matches() || NOT_PRODUCTION.matcher(j).matches());
        Set<String> expected = new TreeSet<>(appJars);
        expected.add(appJar());
        assertThat(jars).isEqualTo(expected);
    }

    /**
     * The application's jar: named by the app module's finalName when Maven builds it in the same
     * reactor (as it must: mvn -pl deploy/image -am ...), {@code app-VERSION.jar} when it came from a
     * local repository (a stale copy, possibly).
     */
    static String appJar() {
        return fs.containsKey("/app/libs/privacy-gateway.jar") ? "privacy-gateway.jar"
                : fs.keySet().stream().filter(f -> f.matches("/app/libs/app-[0-9][^/]*\\.jar")).findFirst()
                        .map(f -> f.substring("/app/libs/".length())).orElse("privacy-gateway.jar");
    }

    static String readFile(String path) {
        byte[] b = image.smallFiles.get(path);
        if (b == null) {
            throw new AssertionError(path + " is not in the image (or larger than 64 KiB)");
        }
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }
}

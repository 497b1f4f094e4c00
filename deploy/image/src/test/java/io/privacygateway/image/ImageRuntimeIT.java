package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.privacygateway.app.run.GatewayConfigFile;
import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.harness.registry.EmbeddedRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.LinkOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the image's own files without Docker: the layers are extracted into a directory, and commands
 * run there as a container runtime would run them ({@link ImageProcess}: own mount and PID namespaces,
 * chroot, the image's user, working directory and environment). Checks that the JRE and the shared
 * libraries copied into the image are complete (java starts, RocksDB, Snappy, zstd and LZ4 load, TLS
 * and the CA certificates work), that the command line works, and that the image's command runs the
 * gateway against a real broker and registry, as its non-root user, and stops cleanly on SIGTERM.
 *
 * <p>Needs root (namespaces, mounts, chroot), as CI and the development machines have; skipped with a
 * message otherwise.
 */
class ImageRuntimeIT {
    static Path root;
    static JsonNode config;
    static List<String> entrypoint;
    static String user;
    static String workDir;
    static Map<String, String> env;

    @BeforeAll
    static void extract() throws Exception {
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        Path work = Path.of(System.getProperty("privacygateway.image.work", "target/image-it")).toAbsolutePath();
        root = work.resolve("rootfs");
        deleteTree(root);
        Path tar = ImageTar.location();
        ImageTar image = ImageTar.open(tar);
        image.extract(tar, root);
        config = image.config.get("config");
        entrypoint = new ArrayList<>();
        config.get("Entrypoint").forEach(n -> entrypoint.add(n.asText()));
        user = config.get("User").asText();
        workDir = config.get("WorkingDir").asText();
        env = new LinkedHashMap<>();
        config.get("Env").forEach(n -> {
            String s = n.asText();
            env.put(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
        });
        // Can this machine create the namespaces and mounts at all? (Not a check of the image: a failure
        // of the image's own files must fail the tests below, not skip them.)
        Optional<Path> unshare = Tools.find("unshare");
        assumeTrue(unshare.isPresent() && Tools.find("sh").isPresent() && Tools.find("env").isPresent(),
                "unshare (util-linux) is missing: the image's runtime is not tested");
        Path probeRoot = Files.createDirectories(work.resolve("probe"));
        Files.createDirectories(probeRoot.resolve("dev"));
        Files.createDirectories(probeRoot.resolve("proc"));
        Tools.Result probe = Tools.run(work, Map.of(), List.of(unshare.get().toString(), "--mount", "--pid", "--fork",
                "--kill-child", "sh", "-c", "mount --rbind /dev \"$1/dev\" && mount -t proc proc \"$1/proc\"", "sh",
                probeRoot.toString()));
        assumeTrue(probe.exitCode() == 0,
                () -> "this machine does not let the tests create mount and PID namespaces (needs root): " + probe.output());
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    static Tools.Result inImage(List<String> command, Duration timeout) throws Exception {
        return ImageProcess.run(root, user, workDir, env, command, timeout);
    }

    /** The image's entrypoint followed by {@code args}, like {@code docker run IMAGE args...}. */
    static List<String> withEntrypoint(String... args) {
        List<String> cmd = new ArrayList<>(entrypoint);
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void javaRunsAsTheImagesUser() throws Exception {
        Tools.Result r = inImage(List.of("/opt/java/bin/java", "-XshowSettings:properties", "-version"), Duration.ofSeconds(60));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("user.name = gateway", "user.home = /var/lib/privacy-gateway",
                "java.home = /opt/java", "java.specification.version = 17");
    }

    @Test
    void theNativeLibrariesOfTheGatewaysDependenciesLoad() throws Exception {
        Path smoke = root.resolve("smoke/io/privacygateway/image");
        Files.createDirectories(smoke);
        Path classes = Path.of(NativeSmoke.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Files.copy(classes.resolve("io/privacygateway/image/NativeSmoke.class"), smoke.resolve("NativeSmoke.class"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String classpath = Files.readString(root.resolve("app/jib-classpath-file")).trim() + ":/smoke";
        Tools.Result r = inImage(List.of("/opt/java/bin/java", "-Djava.io.tmpdir=/tmp", "-cp", classpath,
                NativeSmoke.class.getName()), Duration.ofSeconds(120));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains(NativeSmoke.OK + " user=gateway");
    }

    @Test
    void theCommandLineWorks() throws Exception {
        Tools.Result version = inImage(withEntrypoint("--version"), Duration.ofSeconds(60));
        assertThat(version.exitCode()).as(version.output()).isZero();
        assertThat(version.output()).contains("privacy-gateway 0.1.0");

        Files.createDirectories(root.resolve("smoke"));
        Files.copy(RepoFiles.root().resolve("examples/screen-usage.yaml"), root.resolve("smoke/screen-usage.yaml"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Tools.Result plan = inImage(withEntrypoint("plan", "--workload", "/smoke/screen-usage.yaml", "--n", "1000"),
                Duration.ofSeconds(120));
        assertThat(plan.exitCode()).as(plan.output()).isZero();
        assertThat(plan.output()).contains("screen-usage");
    }

    /** Whether the application's gateway.yaml reader knows the {@code metrics:} block yet. */
    static boolean appKnowsMetrics() {
        try {
            GatewayConfigFile.parse(Map.of("bootstrapServers", "b:1", "schemaRegistryUrl", "http://r:1",
                    "metrics", Map.of("host", "127.0.0.1", "port", 1)));
            return true;
        } catch (GatewayConfigFile.ConfigException e) {
            if (e.getMessage().startsWith("metrics:")) {
                return false;
            }
            throw e;
        }
    }

    @Test
    void theImagesCommandRunsTheGatewayAndStopsCleanly() throws Exception {
        boolean metrics = appKnowsMetrics();
        int metricsPort;
        try (ServerSocket s = new ServerSocket(0)) {
            metricsPort = s.getLocalPort();
        }
        long t0 = System.nanoTime();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(); EmbeddedRegistry registry = EmbeddedRegistry.start()) {
            log(t0, "broker and registry started");
            // the image's default file, pointed at this broker and registry
            String yaml = "bootstrapServers: " + kafka.bootstrapServers() + "\n"
                    + "schemaRegistryUrl: " + registry.ccompatUrl() + "\n"
                    + "applicationId: image-it\n"
                    + "partitions: {local: 2, central: 2}\n"
                    + "stateDir: /var/lib/privacy-gateway/state\n"
                    + (metrics ? "metrics: {host: 127.0.0.1, port: " + metricsPort + "}\n" : "");
            Files.writeString(root.resolve("etc/privacy-gateway/gateway.yaml"), yaml);
            Files.createDirectories(root.resolve("smoke"));
            Files.copy(RepoFiles.root().resolve("examples/screen-usage.yaml"), root.resolve("smoke/screen-usage.yaml"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);

            Tools.Result register = inImage(withEntrypoint("register", "--config", "/etc/privacy-gateway/gateway.yaml",
                    "--workload", "/smoke/screen-usage.yaml"), Duration.ofSeconds(180));
            assertThat(register.exitCode()).as(register.output()).isZero();
            log(t0, "register (in the image) done");

            List<String> cmd = new ArrayList<>(entrypoint);
            config.get("Cmd").forEach(n -> cmd.add(n.asText()));
            try (ImageProcess gateway = ImageProcess.start(root, user, workDir, env, cmd)) {
                boolean running = gateway.awaitLine(l -> l.startsWith("privacy gateway running"), Duration.ofSeconds(180));
                assertThat(running).as(gateway.output()).isTrue();
                log(t0, "gateway (the image's command) running");
                if (metrics) {
                    // the same check the Compose healthcheck makes, from inside the image
                    List<String> probe = List.of("/opt/java/bin/java", "-cp", "/app/classes", HealthProbe.class.getName(),
                            "http://127.0.0.1:" + metricsPort + "/health/ready");
                    boolean ready = false;
                    for (int i = 0; i < 30 && !ready; i++) {
                        ready = inImage(probe, Duration.ofSeconds(30)).exitCode() == 0;
                        if (!ready) {
                            Thread.sleep(1000);
                        }
                    }
                    assertThat(ready).as("/health/ready inside the image\n" + gateway.output()).isTrue();
                }
                // state written by the image's user on the state volume
                Path state = root.resolve("var/lib/privacy-gateway/state/image-it");
                assertThat(state).isDirectory();
                PosixFileAttributes a = Files.readAttributes(state, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                assertThat(a.owner().getName()).isIn("10001", uidName());

                // SIGTERM, as `docker stop` and Kubernetes send: the shutdown hook closes Kafka Streams
                long stop = System.nanoTime();
                Optional<Integer> exit = gateway.stop(Duration.ofSeconds(60));
                log(stop, "gateway stopped after SIGTERM, exit " + exit.orElse(null));
                System.out.println("---- gateway output ----\n" + gateway.output() + "\n------------------------");
                assertThat(exit).as("stopped within the 60 s grace period\n" + gateway.output()).isPresent();
                assertThat(exit.get()).as(gateway.output()).isIn(0, 143);
                assertThat(gateway.output()).doesNotContain("Exception in thread \"main\"");
            }
        }
    }

    /**
     * The command the Compose service and the Kubernetes Deployment give the image ({@code ingest --config
     * /etc/privacy-gateway/ingest.yaml}) starts the ingestion service inside the image, as its user: it answers on
     * its device port and its operations port (the probe the Compose healthcheck and Kubernetes use) and stops on
     * SIGTERM.
     */
    @Test
    void theImageRunsTheIngestServiceWithTheDeployFilesArguments() throws Exception {
        int port;
        int metricsPort;
        try (ServerSocket s = new ServerSocket(0); ServerSocket t = new ServerSocket(0)) {
            port = s.getLocalPort();
            metricsPort = t.getLocalPort();
        }
        long t0 = System.nanoTime();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(); EmbeddedRegistry registry = EmbeddedRegistry.start()) {
            String yaml = "bootstrapServers: " + kafka.bootstrapServers() + "\n"
                    + "schemaRegistryUrl: " + registry.ccompatUrl() + "\n"
                    + "topicPrefix: pgw.\n"
                    + "listen: {host: 127.0.0.1, port: " + port + "}\n"
                    + "devices: {enrollment: required, keys: {k1: \"" + java.util.Base64.getEncoder()
                    .encodeToString(new byte[32]) + "\"}}\n"
                    + "metrics: {host: 127.0.0.1, port: " + metricsPort + "}\n";
            Files.writeString(root.resolve("etc/privacy-gateway/ingest.yaml"), yaml);
            try (ImageProcess ingest = ImageProcess.start(root, user, workDir, env, withEntrypoint("ingest",
                    "--config", "/etc/privacy-gateway/ingest.yaml"))) {
                boolean up = ingest.awaitLine(l -> l.startsWith("ingest: http://127.0.0.1:" + port + "/v1/reports"),
                        Duration.ofSeconds(180));
                assertThat(up).as(ingest.output()).isTrue();
                log(t0, "ingest (in the image) listening");
                List<String> probe = List.of("/opt/java/bin/java", "-cp", "/app/classes", HealthProbe.class.getName(),
                        "http://127.0.0.1:" + metricsPort + "/health/live");
                assertThat(inImage(probe, Duration.ofSeconds(60)).exitCode()).as(ingest.output()).isZero();
                java.net.http.HttpResponse<String> doc = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port
                                + "/v1/workloads")).timeout(Duration.ofSeconds(10)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(doc.statusCode()).as(doc.body()).isIn(200, 503); // 503 NOT_READY until the catalog loads
                Optional<Integer> exit = ingest.stop(Duration.ofSeconds(30));
                log(t0, "ingest stopped after SIGTERM, exit " + exit.orElse(null));
                assertThat(exit).as(ingest.output()).isPresent();
                assertThat(exit.get()).as(ingest.output()).isIn(0, 143);
            }
        }
    }

    static void log(long since, String what) {
        System.out.printf("[image-it] %-45s %6.1f s%n", what, (System.nanoTime() - since) / 1e9);
    }

    /** The host's name for uid 10001, if it has one. */
    static String uidName() {
        try {
            return Files.readAllLines(Path.of("/etc/passwd")).stream().filter(l -> l.split(":")[2].equals("10001"))
                    .map(l -> l.split(":")[0]).findFirst().orElse("10001");
        } catch (IOException e) {
            return "10001";
        }
    }
}

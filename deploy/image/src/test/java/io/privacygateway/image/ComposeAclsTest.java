package io.privacygateway.image;

import static io.privacygateway.harness.testing.OneShotClients.readAll;
import static io.privacygateway.harness.testing.OneShotClients.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.harness.EmbeddedKafka;
import io.privacygateway.harness.testing.AclFile;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Compose stack's Kafka access control, from its one source, {@code deploy/kafka/acls.txt}: the broker runs
 * the KRaft authorizer and denies what no ACL allows; the one-shot {@code kafka-acls} service's own command (taken
 * from compose.yaml, run by {@code sh} with a recording stand-in for kafka-acls.sh) turns every line of the file
 * into exactly the bindings {@link AclFile} reads from it; and those bindings, applied to a real in-JVM broker with
 * {@code StandardAuthorizer}, let a device append reports and nothing else, and give the gateway, the ingestion
 * service, the registrar and answer readers what they need (the operator creates the topics with the stack's own
 * {@code gateway.yaml}, as Compose's {@code register} does).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ComposeAclsTest {
    static final String LOCAL = "pgw.reports.local";
    static final String CENTRAL = "pgw.reports.central";

    static Map<String, Object> compose() {
        return RepoFiles.yaml(ComposeFilesTest.COMPOSE);
    }

    @Test
    void theBrokerDeniesWhatNoAclAllowsAndEveryClientWaitsForTheAcls() {
        Map<String, Object> compose = compose();
        Map<String, Object> kenv = RepoFiles.map(ComposeFilesTest.service(compose, "kafka").get("environment"), "env");
        assertThat(kenv).containsEntry("KAFKA_AUTHORIZER_CLASS_NAME", EmbeddedKafka.STANDARD_AUTHORIZER)
                .containsEntry("KAFKA_SUPER_USERS", "User:admin")
                .containsEntry("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND", "false");
        // no listener without authentication (the controller's included)
        String map = String.valueOf(kenv.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"));
        for (String l : map.split(",")) {
            assertThat(l).endsWith(":SASL_PLAINTEXT");
        }
        Map<String, Object> init = ComposeFilesTest.service(compose, "kafka-acls");
        assertThat(init.get("image")).isEqualTo(ComposeFilesTest.service(compose, "kafka").get("image"));
        assertThat(init.get("restart")).isEqualTo("no");
        assertThat(ComposeFilesTest.mounts(init)).contains("../kafka:/etc/kafka-acls:ro");
        for (String client : List.of("registry", "register", "gateway", "ingest")) {
            Map<String, Object> deps = RepoFiles.map(ComposeFilesTest.service(compose, client).get("depends_on"), client);
            Object initDep = deps.containsKey("kafka-acls") ? deps.get("kafka-acls")
                    : RepoFiles.map(deps.get("register"), "register"); // the ACLs are in place before register ends
            assertThat(String.valueOf(initDep)).as(client).contains("service_completed_successfully");
        }
        for (String client : List.of("gateway", "ingest")) {
            assertThat(RepoFiles.map(ComposeFilesTest.service(compose, client).get("depends_on"), client))
                    .as(client).containsKey("kafka-acls");
        }
    }

    @Test
    void theInitServiceAppliesEveryLineOfTheAclFile(@TempDir Path tmp) throws IOException {
        Path sh = Tools.require("sh", "dash");
        Map<String, Object> init = ComposeFilesTest.service(compose(), "kafka-acls");
        assertThat(RepoFiles.list(init.get("entrypoint"), "entrypoint")).containsExactly("/bin/sh", "-c");
        String command = String.valueOf(RepoFiles.list(init.get("command"), "command").get(0));
        // as the container sees it: Compose turns $$ into $; the mounted directory and /tmp are the test's
        String local = command.replace("$$", "$").replace("/etc/kafka-acls", RepoFiles.deploy("kafka").toString())
                .replace("/tmp/admin.properties", tmp.resolve("admin.properties").toString())
                .replace("/bin/sh ", sh + " ");
        Path calls = tmp.resolve("calls");
        Path stub = Files.writeString(tmp.resolve("kafka-acls.sh"),
                "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '" + calls + "'\necho END >> '" + calls + "'\n");
        stub.toFile().setExecutable(true);
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_ADMIN_PASSWORD", "s3cret-admin");
        env.put("KAFKA_ACLS", stub.toString());
        Tools.Result r = Tools.run(tmp, env, List.of(sh.toString(), "-c", local));
        assertThat(r.exitCode()).as(r.output()).isZero();

        // the admin client configuration it wrote: the super user's, readable by its owner only
        Path props = tmp.resolve("admin.properties");
        assertThat(Files.readAllLines(props)).contains("security.protocol=SASL_PLAINTEXT", "sasl.mechanism=PLAIN",
                "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\""
                        + " password=\"s3cret-admin\";");
        assertThat(Files.getPosixFilePermissions(props)).containsOnly(PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE);

        // what kafka-acls.sh was asked to add, call by call, is exactly the file's bindings
        Set<AclBinding> asked = new HashSet<>();
        List<String> args = new ArrayList<>();
        for (String a : Files.readAllLines(calls)) {
            if (!a.equals("END")) {
                args.add(a);
                continue;
            }
            asked.addAll(bindings(args, props.toString()));
            args.clear();
        }
        List<AclBinding> file = AclFile.read(RepoFiles.root());
        assertThat(asked).containsExactlyInAnyOrderElementsOf(Set.copyOf(file));
        assertThat(file).hasSameSizeAs(Set.copyOf(file)); // no line repeats another
    }

    @Test
    void aMalformedLineStopsTheInitNamingIt(@TempDir Path tmp) throws IOException {
        Path sh = Tools.require("sh", "dash");
        Path bad = Files.writeString(tmp.resolve("acls.txt"), "# ok\nUser:device topic literal pgw.reports.local\n");
        Map<String, String> env = Map.of("KAFKA_ACLS", "/bin/true");
        Tools.Result r = Tools.run(tmp, env, List.of(sh.toString(), RepoFiles.deploy("kafka/apply-acls.sh").toString(),
                bad.toString(), "kafka:9092", "x.properties"));
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.output()).contains("acls.txt:2: expected 5 fields");
        assertThatThrownBy(() -> AclFile.parse("User:device topic literal pgw.reports.local Wirte\n"))
                .hasMessageContaining("unknown operation Wirte");
    }

    /** The bindings of one kafka-acls.sh --add call. */
    static List<AclBinding> bindings(List<String> args, String commandConfig) {
        String principal = null, pattern = "literal", resource = null;
        List<String> names = new ArrayList<>(), ops = new ArrayList<>();
        assertThat(args).contains("--add");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--add" -> { }
                case "--bootstrap-server" -> assertThat(args.get(++i)).isEqualTo("kafka:9092");
                case "--command-config" -> assertThat(args.get(++i)).isEqualTo(commandConfig);
                case "--allow-principal" -> principal = args.get(++i);
                case "--resource-pattern-type" -> pattern = args.get(++i);
                case "--operation" -> ops.add(args.get(++i));
                case "--topic", "--group", "--transactional-id" -> {
                    assertThat(resource == null || resource.equals(a.substring(2))).as(args.toString()).isTrue();
                    resource = a.substring(2);
                    names.add(args.get(++i));
                }
                default -> throw new AssertionError("unexpected kafka-acls.sh argument " + a + " in " + args);
            }
        }
        List<AclBinding> out = new ArrayList<>();
        for (String n : names) {
            for (String op : ops) {
                out.add(AclFile.binding("call " + args, principal, resource, pattern, n, op));
            }
        }
        return out;
    }

    @Test
    void onABrokerWithTheAuthorizerADeviceOnlyAppendsReports() throws Exception {
        Map<String, String> users = new HashMap<>();
        for (String u : List.of("admin", "gateway", "device", "ingest", "registrar", "consumer", "registry")) {
            users.put(u, u + "-pw");
        }
        try (EmbeddedKafka kafka = EmbeddedKafka.start(new EmbeddedKafka.Sasl(users, "admin"), Map.of())) {
            try (Admin admin = Admin.create(kafka.clientConfig())) {
                admin.createAcls(AclFile.read(RepoFiles.root())).all().get(30, TimeUnit.SECONDS);
            }
            // Compose's register creates the topics as the operator, from the stack's gateway.yaml ...
            GatewayService.ensureTopics(composeSettings(kafka, "admin"));
            // ACLs reach the authorizer through the metadata log: the device's first append may come too early
            awaitSend(kafka.clientConfig("device"), LOCAL);
            // ... then the gateway's own start-up check of the topics passes as the gateway, and register's as
            // the registrar (k8s' register Job), with nothing but the file's ACLs
            GatewayService.ensureTopics(composeSettings(kafka, "gateway"));
            GatewayService.ensureTopics(composeSettings(kafka, "registrar"));
            // and no principal but the operator may create the public topics
            try (Admin admin = Admin.create(kafka.clientConfig("gateway"))) {
                assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains(LOCAL, CENTRAL,
                        "pgw.workloads", "privacy-gateway-partials");
            }

            // a device appends reports to both report topics ...
            send(kafka.clientConfig("device"), CENTRAL, "device-central");
            // ... and can neither read them nor write the answers or workloads topics
            assertThatThrownBy(() -> readAll(kafka.clientConfig("device"), LOCAL, 1))
                    .isInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> readAll(kafka.clientConfig("device"), "pgw.answers", 1))
                    .isInstanceOf(TopicAuthorizationException.class);
            for (String t : List.of("pgw.answers", "pgw.workloads", "privacy-gateway-partials")) {
                assertThatThrownBy(() -> send(kafka.clientConfig("device"), t, "forged")).as(t)
                        .hasRootCauseInstanceOf(AuthorizationException.class);
            }

            // the ingestion service relays reports and reads the workloads, and reads no report
            send(kafka.clientConfig("ingest"), LOCAL, "ingest-local");
            send(kafka.clientConfig("admin"), "pgw.workloads", "a-workload");
            assertThat(readAll(kafka.clientConfig("ingest"), "pgw.workloads", 1)).containsExactly("a-workload");
            assertThatThrownBy(() -> readAll(kafka.clientConfig("ingest"), LOCAL, 1))
                    .isInstanceOf(TopicAuthorizationException.class);

            // the gateway reads the reports and writes answers, but cannot forge reports
            assertThat(readAll(kafka.clientConfig("gateway"), LOCAL, 2)).contains("ingest-local");
            send(kafka.clientConfig("gateway"), "pgw.answers", "an-answer");
            assertThatThrownBy(() -> send(kafka.clientConfig("gateway"), LOCAL, "forged"))
                    .hasRootCauseInstanceOf(AuthorizationException.class);

            // an answer reader reads answers, and nothing of the reports
            assertThat(readAll(kafka.clientConfig("consumer"), "pgw.answers", 1)).containsExactly("an-answer");
            assertThatThrownBy(() -> readAll(kafka.clientConfig("consumer"), CENTRAL, 1))
                    .isInstanceOf(TopicAuthorizationException.class);
        }
    }

    /** deploy/compose/gateway.yaml with the test broker's address, connecting as {@code user}. */
    static GatewaySettings composeSettings(EmbeddedKafka kafka, String user) {
        String text = RepoFiles.read(ComposeFilesTest.DIR.resolve("gateway.yaml"))
                .replace("bootstrapServers: kafka:9092", "bootstrapServers: " + kafka.bootstrapServers());
        return GatewayYaml.check(text, Map.of("KAFKA_USERNAME", user, "KAFKA_PASSWORD", user + "-pw"))
                .loaded().settings();
    }

    private static void awaitSend(Map<String, Object> config, String topic) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                send(config, topic, "device-local");
                return;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }
}

package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.harness.testing.AclFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/compose/}: the Compose file as docker-compose reads it (no daemon is needed for
 * {@code config}), and what the stack needs to work, checked on the file itself.
 */
class ComposeFilesTest {
    static final Path DIR = RepoFiles.deploy("compose");
    static final Path COMPOSE = DIR.resolve("compose.yaml");
    static final Set<String> SECRETS = Set.of("KAFKA_ADMIN_PASSWORD", "KAFKA_GATEWAY_PASSWORD", "KAFKA_DEVICE_PASSWORD",
            "KAFKA_INGEST_PASSWORD", "KAFKA_REGISTRY_PASSWORD",
            "GRAFANA_ADMIN_PASSWORD", "PGW_ENROLLMENT_KEY", "PGW_INGEST_TLS_PASSWORD");

    static Map<String, Object> services(Map<String, Object> compose) {
        return RepoFiles.map(compose.get("services"), "services");
    }

    static Map<String, Object> service(Map<String, Object> compose, String name) {
        return RepoFiles.map(services(compose).get(name), "service " + name);
    }

    /**
     * The values of .env.example, as a user who copied it would have them, and the gateway's KAFKA_PASSWORD as
     * compose.yaml sets it from them.
     */
    static Map<String, String> exampleEnv() throws IOException {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(DIR.resolve(".env.example"))) {
            p.load(in);
        }
        Map<String, String> env = new HashMap<>();
        p.forEach((k, v) -> env.put(String.valueOf(k), String.valueOf(v)));
        env.put("KAFKA_PASSWORD", env.get("KAFKA_GATEWAY_PASSWORD"));
        return env;
    }

    @Test
    void dockerComposeAcceptsTheFileAndResolvesIt(@TempDir Path tmp) throws IOException {
        Path compose = Tools.require("docker-compose", "docker-compose");
        Path envFile = Files.copy(DIR.resolve(".env.example"), tmp.resolve("env"));
        Map<String, String> clean = new HashMap<>();
        SECRETS.forEach(s -> clean.put(s, null));
        Tools.Result r = Tools.run(DIR, clean,
                List.of(compose.toString(), "-f", COMPOSE.toString(), "--env-file", envFile.toString(), "config"));
        assertThat(r.exitCode()).as(r.output()).isZero();
        Map<String, Object> resolved = RepoFiles.yaml(r.output().substring(r.output().indexOf("services:")));
        checkStack(resolved, true);
        Map<String, Object> gatewayEnv = RepoFiles.map(service(resolved, "gateway").get("environment"), "gateway env");
        assertThat(gatewayEnv).containsEntry("KAFKA_PASSWORD", exampleEnv().get("KAFKA_GATEWAY_PASSWORD"))
                .containsEntry("KAFKA_USERNAME", "gateway");
        // the one-shot register creates the topics as the operator
        Map<String, Object> registerEnv = RepoFiles.map(service(resolved, "register").get("environment"), "register env");
        assertThat(registerEnv).containsEntry("KAFKA_PASSWORD", exampleEnv().get("KAFKA_ADMIN_PASSWORD"))
                .containsEntry("KAFKA_USERNAME", "admin");
        Map<String, Object> registryEnv = RepoFiles.map(service(resolved, "registry").get("environment"), "registry env");
        assertThat(String.valueOf(registryEnv.get("REGISTRY_KAFKA_COMMON_SASL_JAAS_CONFIG")))
                .contains("username=\"registry\" password=\"" + exampleEnv().get("KAFKA_REGISTRY_PASSWORD") + "\"");
    }

    @Test
    void theStackDoesNotStartWithoutItsSecrets(@TempDir Path tmp) throws IOException {
        Path compose = Tools.require("docker-compose", "docker-compose");
        Path envFile = Files.writeString(tmp.resolve("env"), "# no passwords\n");
        Map<String, String> clean = new HashMap<>();
        SECRETS.forEach(s -> clean.put(s, null));
        Tools.Result r = Tools.run(DIR, clean,
                List.of(compose.toString(), "-f", COMPOSE.toString(), "--env-file", envFile.toString(), "config"));
        assertThat(r.exitCode()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("set it in deploy/compose/.env");
    }

    @Test
    void theFileItselfHasWhatTheStackNeeds() {
        checkStack(RepoFiles.yaml(COMPOSE), false);
    }

    /** Checks shared by the raw file and docker-compose's resolved view of it. */
    static void checkStack(Map<String, Object> compose, boolean resolved) {
        assertThat(services(compose).keySet()).contains("kafka", "registry", "gateway", "prometheus", "grafana");

        Map<String, Object> kafka = service(compose, "kafka");
        assertThat(kafka.get("image")).isEqualTo("apache/kafka:" + System.getProperty("privacygateway.kafka.version"));
        Map<String, Object> kenv = RepoFiles.map(kafka.get("environment"), "kafka environment");
        // One broker: the internal topics must not ask for more replicas than there are brokers.
        for (String k : List.of("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR",
                "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR")) {
            assertThat(String.valueOf(kenv.get(k))).as(k).isEqualTo("1");
        }
        assertThat(String.valueOf(kenv.get("KAFKA_PROCESS_ROLES"))).isEqualTo("broker,controller");
        String listeners = String.valueOf(kenv.get("KAFKA_LISTENERS"));
        assertThat(listeners).contains("INTERNAL://:9092", "CONTROLLER://:9093");

        // the registry keeps its schemas in Kafka (its journal topic, on the kafka-data volume), as the
        // principal "registry", whose ACLs allow that topic (deploy/kafka/acls.txt)
        Map<String, Object> registry = service(compose, "registry");
        assertThat(registry.get("image")).isEqualTo("apicurio/apicurio-registry-kafkasql:2.4.2.Final");
        Map<String, Object> renv = RepoFiles.map(registry.get("environment"), "registry environment");
        assertThat(renv).containsEntry("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092")
                .containsEntry("REGISTRY_PROPERTIES_PREFIX", "REGISTRY_")
                .containsEntry("REGISTRY_KAFKA_COMMON_SECURITY_PROTOCOL", "SASL_PLAINTEXT")
                .containsEntry("REGISTRY_KAFKA_COMMON_SASL_MECHANISM", "PLAIN");
        assertThat(String.valueOf(renv.get("REGISTRY_KAFKA_COMMON_SASL_JAAS_CONFIG"))).contains("username=\"registry\"");
        assertThat(String.valueOf(kenv.get("KAFKA_LISTENER_NAME_INTERNAL_PLAIN_SASL_JAAS_CONFIG"))).contains("user_registry=");
        assertThat(AclFile.read(RepoFiles.root())).anySatisfy(b -> {
            assertThat(b.entry().principal()).isEqualTo("User:registry");
            assertThat(b.pattern().name()).isEqualTo("kafkasql-journal");
        });
        assertThat(mounts(service(compose, "kafka"))).anySatisfy(m -> assertThat(m).startsWith("kafka-data:"));

        Map<String, Object> gateway = service(compose, "gateway");
        assertThat(gateway.get("image")).isEqualTo(System.getProperty("privacygateway.image.name"));
        assertThat(stopGrace(gateway.get("stop_grace_period"))).isGreaterThan(Duration.ofSeconds(30));
        List<String> mounts = mounts(gateway);
        assertThat(mounts).anySatisfy(m -> assertThat(m).endsWith("gateway.yaml:/etc/privacy-gateway/gateway.yaml:ro"));
        assertThat(mounts).anySatisfy(m -> assertThat(m).startsWith("gateway-state:/var/lib/privacy-gateway"));
        assertThat(String.valueOf(gateway.get("ports"))).contains("9464:9464");
        // Every variable gateway.yaml needs is set in the gateway's environment.
        Map<String, Object> genv = RepoFiles.map(gateway.get("environment"), "gateway environment");
        assertThat(genv.keySet()).containsAll(RepoFiles.requiredVariables(RepoFiles.read(DIR.resolve("gateway.yaml"))));

        Map<String, Object> prometheus = service(compose, "prometheus");
        assertThat(mounts(prometheus)).anySatisfy(m -> assertThat(m).contains(":/etc/prometheus"));
        Map<String, Object> grafana = service(compose, "grafana");
        assertThat(mounts(grafana)).anySatisfy(m -> assertThat(m).contains(":/etc/grafana/provisioning"));
        String dashboardsPath = String.valueOf(RepoFiles.map(RepoFiles.map(RepoFiles.list(
                RepoFiles.yaml(RepoFiles.deploy("grafana/provisioning/dashboards/privacy-gateway.yaml")).get("providers"),
                "providers").get(0), "provider").get("options"), "options").get("path"));
        assertThat(mounts(grafana)).anySatisfy(m -> assertThat(m).contains("privacy-gateway.json:" + dashboardsPath + "/"));

        // Bind-mounted sources exist (relative to deploy/compose/ in the raw file; absolute once resolved).
        for (String name : List.of("kafka-acls", "register", "gateway", "prometheus", "grafana")) {
            for (String m : mounts(service(compose, name))) {
                String source = m.substring(0, m.indexOf(':'));
                if (source.startsWith(".") || source.startsWith("/")) {
                    Path p = resolved ? Path.of(source) : DIR.resolve(source).normalize();
                    assertThat(p).as(name + " mounts " + source).exists();
                }
            }
        }
    }

    static List<String> mounts(Map<String, Object> service) {
        List<String> out = new ArrayList<>();
        for (Object v : RepoFiles.list(service.get("volumes"), "volumes")) {
            String s = String.valueOf(v);
            out.add(s.contains("#") ? s.substring(0, s.indexOf('#')).trim() : s.trim());
        }
        return out;
    }

    static Duration stopGrace(Object v) {
        String s = String.valueOf(v).trim();
        if (s.endsWith("m") && s.length() > 1 && Character.isDigit(s.charAt(s.length() - 2))) {
            return Duration.ofMinutes(Long.parseLong(s.substring(0, s.length() - 1)));
        }
        if (s.endsWith("s")) {
            return Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1)));
        }
        throw new AssertionError("unexpected stop_grace_period " + s);
    }

    @Test
    void gatewayYamlIsAValidGatewayConfigurationOnceItsVariablesAreSet() throws IOException {
        String text = RepoFiles.read(DIR.resolve("gateway.yaml"));
        Map<String, String> env = exampleEnv();
        GatewayYaml.Checked c = GatewayYaml.check(text, env);
        var s = c.loaded().settings();
        assertThat(s.bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(s.schemaRegistryUrl()).isEqualTo("http://registry:8080/apis/ccompat/v7");
        assertThat(s.replicationFactor()).isEqualTo((short) 1);
        assertThat(s.stateDir().toString()).startsWith("/var/lib/privacy-gateway/");
        assertThat(s.processingGuarantee()).isEqualTo("exactly_once_v2");
        assertThat(s.kafkaProperties().get("sasl.jaas.config"))
                .contains("username=\"gateway\" password=\"" + env.get("KAFKA_GATEWAY_PASSWORD") + "\"");
        // Empty user info means "no authentication" to the registry client, not the text "null".
        assertThat(s.registryProperties().get("basic.auth.user.info")).isEmpty();
        assertThat(c.metricsHost()).isEqualTo("0.0.0.0");
        assertThat(c.metricsPort()).isEqualTo(9464);
        // Secrets only through variables: the file itself holds none of the example values.
        assertThat(text).doesNotContain(env.get("KAFKA_GATEWAY_PASSWORD"));
    }

    @Test
    void theImagesDefaultGatewayYamlIsValidWithItsDefaults() {
        Path p = RepoFiles.deploy("image/src/main/jib/etc/privacy-gateway/gateway.yaml");
        GatewayYaml.Checked c = GatewayYaml.check(RepoFiles.read(p), Map.of());
        assertThat(c.loaded().settings().bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(c.loaded().settings().stateDir().toString()).startsWith("/var/lib/privacy-gateway/");
        assertThat(c.metricsPort()).isEqualTo(9464);
        assertThat(c.metricsHost()).isEqualTo("0.0.0.0");
    }
}

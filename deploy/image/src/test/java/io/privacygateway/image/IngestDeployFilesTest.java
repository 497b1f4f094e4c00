package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Service;
import io.privacygateway.app.run.IngestConfigFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingestion service's deploy files: {@code deploy/k8s-ingest/} against the Kubernetes API model (as
 * {@link KubernetesManifestsTest} checks {@code deploy/k8s/}), built by kustomize, its probes on the service's
 * health endpoints and its {@code ingest.yaml} accepted by the service's own parser; the Compose service
 * {@code ingest} with its mounts, ports, secrets and configuration.
 */
class IngestDeployFilesTest {
    static final Path DIR = RepoFiles.deploy("k8s-ingest");

    static Map<String, Object> objects() throws IOException {
        Map<String, Object> out = new HashMap<>();
        try (Stream<Path> s = Files.list(DIR)) {
            for (Path p : s.filter(f -> f.toString().endsWith(".yaml") && !f.getFileName().toString()
                    .equals("kustomization.yaml")).sorted().toList()) {
                for (Map<String, Object> doc : RepoFiles.yamlDocuments(p)) {
                    out.put(doc.get("kind") + "/" + KubernetesManifestsTest.name(doc),
                            KubernetesManifestsTest.validate(doc));
                }
            }
        }
        return out;
    }

    static Map<String, String> env(Path tlsDir) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_SASL_USERNAME", "u");
        env.put("KAFKA_SASL_PASSWORD", "p");
        env.put("KAFKA_GATEWAY_PASSWORD", "p");
        env.put("KAFKA_INGEST_PASSWORD", "p");
        env.put("PGW_INGEST_TLS_PASSWORD", "changeit");
        env.put("PGW_ENROLLMENT_KEY", Base64.getEncoder().encodeToString(new byte[32]));
        return env;
    }

    @Test
    void theKubernetesObjectsMatchTheApiModelAndFitTogether(@TempDir Path tmp) throws Exception {
        Map<String, Object> all = objects();
        assertThat(all.keySet()).containsExactlyInAnyOrder("Deployment/privacy-gateway-ingest",
                "Service/privacy-gateway-ingest", "ConfigMap/privacy-gateway-ingest-config",
                "PodDisruptionBudget/privacy-gateway-ingest", "NetworkPolicy/privacy-gateway-ingest",
                "ServiceMonitor/privacy-gateway-ingest");
        // devices reach the TLS port from anywhere, the metrics port only Prometheus of "monitoring"
        var np = (io.kubernetes.client.openapi.models.V1NetworkPolicy) all.get("NetworkPolicy/privacy-gateway-ingest");
        assertThat(np.getSpec().getIngress()).anySatisfy(r -> {
            assertThat(r.getFrom()).isNullOrEmpty(); // from anywhere
            assertThat(r.getPorts()).singleElement().satisfies(p -> assertThat(p.getPort().getStrValue()).isEqualTo("https"));
        });
        assertThat(np.getSpec().getIngress()).anySatisfy(r -> {
            assertThat(r.getFrom()).singleElement().satisfies(f -> assertThat(f.getNamespaceSelector().getMatchLabels())
                    .containsEntry("kubernetes.io/metadata.name", "monitoring"));
            assertThat(r.getPorts()).singleElement().satisfies(p -> assertThat(p.getPort().getStrValue()).isEqualTo("metrics"));
        });
        @SuppressWarnings("unchecked")
        Map<String, Object> sm = (Map<String, Object>) all.get("ServiceMonitor/privacy-gateway-ingest");
        assertThat(String.valueOf(RepoFiles.map(sm.get("spec"), "spec").get("endpoints"))).contains("port=metrics",
                "path=/metrics");
        V1Deployment d = (V1Deployment) all.get("Deployment/privacy-gateway-ingest");
        V1Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getArgs()).containsExactly("ingest", "--config", "/etc/privacy-gateway/ingest.yaml");
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health/ready");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health/live");
        assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/health/live");
        assertThat(d.getSpec().getReplicas()).isGreaterThanOrEqualTo(2); // stateless: more than one
        V1ConfigMap cm = (V1ConfigMap) all.get("ConfigMap/privacy-gateway-ingest-config");
        String yaml = cm.getData().get("ingest.yaml");
        // every variable the file needs is in the container's environment
        List<String> envNames = new ArrayList<>();
        c.getEnv().forEach(e -> envNames.add(e.getName()));
        assertThat(envNames).containsAll(RepoFiles.requiredVariables(yaml));
        // the service's own parser accepts it (keystore and revocation file: the mounted paths, here stand-ins)
        Path ks = Files.writeString(tmp.resolve("ingest.p12"), "x");
        Path revoked = Files.writeString(tmp.resolve("revoked.txt"), cm.getData().get("revoked.txt"));
        String local = yaml.replace("/etc/privacy-gateway-ingest-tls/ingest.p12", ks.toString())
                .replace("/etc/privacy-gateway/revoked.txt", revoked.toString());
        IngestConfigFile.Loaded loaded = IngestConfigFile.parse(RepoFiles.yaml(local), env(tmp));
        assertThat(loaded.settings().tls()).isNotNull();
        assertThat(loaded.settings().enrollmentKeys()).containsOnlyKeys("k1");
        int metricsPort = loaded.metricsPort();
        assertThat(c.getPorts()).anySatisfy(p -> assertThat(p.getContainerPort()).isEqualTo(metricsPort));
        assertThat(c.getPorts()).anySatisfy(p -> assertThat(p.getContainerPort()).isEqualTo(loaded.settings().port()));
        V1Service svc = (V1Service) all.get("Service/privacy-gateway-ingest");
        assertThat(svc.getSpec().getSelector()).isEqualTo(d.getSpec().getSelector().getMatchLabels());
    }

    @Test
    void kustomizeBuildsTheDirectory() {
        Path kubectl = Tools.require("kubectl", "kubernetes-client");
        Tools.Result r = Tools.run(DIR, Map.of(), List.of(kubectl.toString(), "kustomize", DIR.toString()));
        assertThat(r.exitCode()).as(r.output()).isZero();
        for (Object o : new org.yaml.snakeyaml.Yaml().loadAll(r.output())) {
            KubernetesManifestsTest.validate(RepoFiles.map(o, "document"));
        }
    }

    @Test
    void theComposeServiceRunsIngestWithItsConfigurationAndSecrets(@TempDir Path tmp) throws Exception {
        Path dir = RepoFiles.deploy("compose");
        Map<String, Object> ingest = ComposeFilesTest.service(RepoFiles.yaml(dir.resolve("compose.yaml")), "ingest");
        assertThat(String.valueOf(ingest.get("command"))).contains("ingest", "--config",
                "/etc/privacy-gateway/ingest.yaml");
        List<String> mounts = ComposeFilesTest.mounts(ingest);
        assertThat(mounts).contains("./ingest.yaml:/etc/privacy-gateway/ingest.yaml:ro");
        for (String m : mounts) {
            assertThat(dir.resolve(m.substring(0, m.indexOf(':'))).normalize()).exists();
        }
        assertThat(String.valueOf(ingest.get("ports"))).contains("8443:8443", "9465:9465");
        String text = RepoFiles.read(dir.resolve("ingest.yaml"));
        Map<String, Object> env = RepoFiles.map(ingest.get("environment"), "ingest environment");
        assertThat(env.keySet()).containsAll(RepoFiles.requiredVariables(text));
        assertThat(String.valueOf(ingest.get("healthcheck"))).contains("9465/health/ready");
        Path ks = Files.writeString(tmp.resolve("ingest.p12"), "x");
        IngestConfigFile.Loaded loaded = IngestConfigFile.parse(RepoFiles.yaml(text.replace(
                "/etc/privacy-gateway-ingest-tls/ingest.p12", ks.toString())), env(tmp));
        assertThat(loaded.settings().bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(loaded.metricsPort()).isEqualTo(9465);
    }
}

package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Probe;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/k8s/}: every object is checked against the Kubernetes API's own model (the classes
 * {@code client-java-api} 25 generates from the Kubernetes 1.33 OpenAPI specification: an unknown or
 * misspelt field, a missing required field or a value of the wrong type is an error), kustomize builds
 * the directory when kubectl is installed, and the objects fit together and with the gateway.
 */
class KubernetesManifestsTest {
    static final Path DIR = RepoFiles.deploy("k8s");
    static final Map<String, Class<?>> MODELS = Map.of(
            "apps/v1 StatefulSet", V1StatefulSet.class,
            "v1 Service", V1Service.class,
            "v1 ConfigMap", V1ConfigMap.class,
            "v1 Secret", V1Secret.class,
            "v1 ServiceAccount", V1ServiceAccount.class,
            "policy/v1 PodDisruptionBudget", V1PodDisruptionBudget.class,
            "apps/v1 Deployment", io.kubernetes.client.openapi.models.V1Deployment.class,
            "networking.k8s.io/v1 NetworkPolicy", io.kubernetes.client.openapi.models.V1NetworkPolicy.class,
            "batch/v1 Job", io.kubernetes.client.openapi.models.V1Job.class);
    /** Kinds of custom resources (no API model here): checked field by field in {@link #theServiceMonitorScrapesTheMetricsPort}. */
    static final Set<String> CUSTOM = Set.of("monitoring.coreos.com/v1 ServiceMonitor");
    /** GatewayService.close() gives Kafka Streams this long to close cleanly. */
    static final int GATEWAY_CLOSE_SECONDS = 30;

    static List<Path> manifests() throws IOException {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.filter(p -> p.toString().endsWith(".yaml") && !p.getFileName().toString().equals("kustomization.yaml"))
                    .sorted().collect(Collectors.toList());
        }
    }

    /** Validates one object against the API model and returns it as that model's class. */
    static Object validate(Map<String, Object> doc) {
        String key = doc.get("apiVersion") + " " + doc.get("kind");
        if (CUSTOM.contains(key)) {
            return doc;
        }
        Class<?> model = MODELS.get(key);
        if (model == null) {
            throw new AssertionError("no model for " + key + " (add it to MODELS)");
        }
        String json;
        try {
            json = new ObjectMapper().writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
        try {
            model.getMethod("validateJsonElement", com.google.gson.JsonElement.class).invoke(null, JsonParser.parseString(json));
        } catch (InvocationTargetException e) {
            throw new AssertionError(key + " " + name(doc) + ": " + e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        try {
            return new JSON().deserialize(json, model);
        } catch (RuntimeException e) {
            throw new AssertionError(key + " " + name(doc) + ": " + e.getMessage(), e);
        }
    }

    static String name(Map<String, Object> doc) {
        return String.valueOf(RepoFiles.map(doc.get("metadata"), "metadata").get("name"));
    }

    /** Every object of the directory (the Secrets example included), validated, by kind/name. */
    static Map<String, Object> objects() throws IOException {
        Map<String, Object> out = new HashMap<>();
        for (Path p : manifests()) {
            for (Map<String, Object> doc : RepoFiles.yamlDocuments(p)) {
                out.put(doc.get("kind") + "/" + name(doc), validate(doc));
            }
        }
        return out;
    }

    @Test
    void everyObjectMatchesTheKubernetesApiModel() throws IOException {
        assertThat(objects().keySet()).containsExactlyInAnyOrder("StatefulSet/privacy-gateway", "Service/privacy-gateway",
                "ConfigMap/privacy-gateway-config", "ServiceAccount/privacy-gateway", "PodDisruptionBudget/privacy-gateway",
                "Secret/privacy-gateway-kafka", "Secret/privacy-gateway-registrar",
                "Secret/schema-registry-kafka", "Deployment/schema-registry", "Service/schema-registry",
                "NetworkPolicy/privacy-gateway-metrics", "NetworkPolicy/schema-registry",
                "ServiceMonitor/privacy-gateway", "Job/privacy-gateway-register");
    }

    @Test
    void theModelCheckRejectsMistakes() throws IOException {
        Map<String, Object> good = RepoFiles.yamlDocuments(DIR.resolve("statefulset.yaml")).get(0);
        String text = RepoFiles.read(DIR.resolve("statefulset.yaml"));
        // a misspelt field, a missing required field, a wrong type
        for (String[] edit : List.of(new String[] {"readinessProbe:", "readinesProbe:"},
                new String[] {"  selector:\n    matchLabels:\n      app.kubernetes.io/name: privacy-gateway\n  template:",
                    "  template:"},
                new String[] {"replicas: 2", "replicas: two"},
                new String[] {"- name: gateway\n", "- nme: gateway\n"})) {
            assertThat(text).contains(edit[0]);
            Map<String, Object> bad = RepoFiles.yaml(text.replace(edit[0], edit[1]));
            assertThatThrownBy(() -> validate(bad)).as(edit[1]).isInstanceOf(AssertionError.class);
        }
        validate(good);
    }

    @Test
    void kustomizeBuildsTheDirectory() throws IOException {
        Path kubectl = Tools.require("kubectl", "kubernetes-client");
        Tools.Result r = Tools.run(DIR, Map.of(), List.of(kubectl.toString(), "kustomize", DIR.toString()));
        assertThat(r.exitCode()).as(r.output()).isZero();
        List<String> kinds = new ArrayList<>();
        for (Object o : new org.yaml.snakeyaml.Yaml().loadAll(r.output())) {
            Map<String, Object> doc = RepoFiles.map(o, "document");
            validate(doc);
            kinds.add(doc.get("kind") + "/" + name(doc));
            assertThat(RepoFiles.map(RepoFiles.map(doc.get("metadata"), "metadata").get("labels"), "labels"))
                    .containsEntry("app.kubernetes.io/part-of", "privacy-gateway");
        }
        assertThat(kinds).containsExactlyInAnyOrder("StatefulSet/privacy-gateway", "Service/privacy-gateway",
                "ConfigMap/privacy-gateway-config", "ServiceAccount/privacy-gateway", "PodDisruptionBudget/privacy-gateway",
                "Deployment/schema-registry", "Service/schema-registry", "NetworkPolicy/privacy-gateway-metrics",
                "NetworkPolicy/schema-registry", "ServiceMonitor/privacy-gateway", "Job/privacy-gateway-register");
    }

    @Test
    void theObjectsFitTogetherAndWithTheGateway() throws IOException {
        Map<String, Object> all = objects();
        V1StatefulSet sts = (V1StatefulSet) all.get("StatefulSet/privacy-gateway");
        V1Service svc = (V1Service) all.get("Service/privacy-gateway");
        V1ConfigMap cm = (V1ConfigMap) all.get("ConfigMap/privacy-gateway-config");
        var spec = sts.getSpec();
        var pod = spec.getTemplate().getSpec();
        Map<String, String> podLabels = spec.getTemplate().getMetadata().getLabels();

        // headless Service named by serviceName, selecting the pods
        assertThat(spec.getServiceName()).isEqualTo(svc.getMetadata().getName());
        assertThat(svc.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(podLabels).containsAllEntriesOf(svc.getSpec().getSelector());
        assertThat(podLabels).containsAllEntriesOf(spec.getSelector().getMatchLabels());

        // shutdown longer than the gateway's clean close
        assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThan((long) GATEWAY_CLOSE_SECONDS);

        assertThat(pod.getContainers()).hasSize(1);
        V1Container c = pod.getContainers().get(0);
        assertThat(c.getImage()).isEqualTo(System.getProperty("privacygateway.image.name"));
        assertThat(c.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(c.getResources().getLimits()).containsKeys("memory");

        // gateway.yaml from the ConfigMap, mounted where the image's command reads it
        String gatewayYaml = cm.getData().get("gateway.yaml");
        V1VolumeMount config = mount(c, "/etc/privacy-gateway");
        assertThat(pod.getVolumes()).anySatisfy(v -> {
            assertThat(v.getName()).isEqualTo(config.getName());
            assertThat(v.getConfigMap().getName()).isEqualTo(cm.getMetadata().getName());
        });

        // every variable gateway.yaml uses is set in the container, the Secrets' keys exist
        Map<String, V1EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(V1EnvVar::getName, e -> e));
        assertThat(env.keySet()).containsAll(RepoFiles.variables(gatewayYaml));
        assertThat(env.get("POD_NAME").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        Map<String, String> values = new HashMap<>();
        for (V1EnvVar e : env.values()) {
            var ref = e.getValueFrom() == null ? null : e.getValueFrom().getSecretKeyRef();
            if (ref != null) {
                V1Secret secret = (V1Secret) all.get("Secret/" + ref.getName());
                assertThat(secret).as("Secret " + ref.getName()).isNotNull();
                assertThat(secret.getStringData()).as("Secret " + ref.getName()).containsKey(ref.getKey());
                values.put(e.getName(), secret.getStringData().get(ref.getKey()));
            }
        }
        values.put("POD_NAME", "privacy-gateway-0");

        // the configuration as the gateway reads it
        GatewayYaml.Checked g = GatewayYaml.check(gatewayYaml, values);
        assertThat(g.loaded().settings().kafkaProperties()).containsEntry("main.consumer.group.instance.id",
                "privacy-gateway-0");
        assertThat(g.loaded().settings().kafkaProperties().get("sasl.jaas.config")).contains("password=\"change-me\"");
        // the registry of registry.yaml, in the namespace, over HTTP: no credentials to send in clear
        assertThat(g.loaded().settings().registryProperties()).doesNotContainKey("basic.auth.user.info");
        assertThat(g.metricsHost()).isEqualTo("0.0.0.0");

        // the state directory is on the volumeClaimTemplate
        String stateDir = g.loaded().settings().stateDir().toString();
        assertThat(spec.getVolumeClaimTemplates()).hasSize(1);
        String claim = spec.getVolumeClaimTemplates().get(0).getMetadata().getName();
        V1VolumeMount state = c.getVolumeMounts().stream().filter(m -> m.getName().equals(claim)).findFirst().orElseThrow();
        assertThat(stateDir + "/").startsWith(state.getMountPath() + "/");

        // probes on the gateway's metrics port
        int port = g.metricsPort();
        assertThat(c.getPorts()).anySatisfy(p -> {
            assertThat(p.getName()).isEqualTo("metrics");
            assertThat(p.getContainerPort()).isEqualTo(port);
        });
        checkProbe(c, c.getLivenessProbe(), "/health/live", port);
        checkProbe(c, c.getReadinessProbe(), "/health/ready", port);
        checkProbe(c, c.getStartupProbe(), "/health/live", port);
        assertThat(svc.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getPort()).isEqualTo(port));

        // runs as the image's user, and /tmp is writable with a read-only root file system
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        if (Boolean.TRUE.equals(c.getSecurityContext().getReadOnlyRootFilesystem())) {
            mount(c, "/tmp");
        }
    }

    @Test
    void theServiceMonitorScrapesTheMetricsPort() throws IOException {
        Map<String, Object> all = objects();
        V1Service svc = (V1Service) all.get("Service/privacy-gateway");
        @SuppressWarnings("unchecked")
        Map<String, Object> sm = (Map<String, Object>) all.get("ServiceMonitor/privacy-gateway");
        Map<String, Object> spec = RepoFiles.map(sm.get("spec"), "spec");
        assertThat(spec.keySet()).containsExactlyInAnyOrder("selector", "endpoints");
        Map<String, Object> selector = RepoFiles.map(spec.get("selector"), "selector");
        assertThat(selector.keySet()).containsExactly("matchLabels");
        assertThat(svc.getMetadata().getLabels()).containsAllEntriesOf(
                RepoFiles.map(selector.get("matchLabels"), "matchLabels").entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> String.valueOf(e.getValue()))));
        Map<String, Object> endpoint = RepoFiles.map(RepoFiles.list(spec.get("endpoints"), "endpoints").get(0), "endpoint");
        assertThat(endpoint.keySet()).containsExactlyInAnyOrder("port", "path", "interval");
        assertThat(svc.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getName()).isEqualTo(endpoint.get("port")));
        assertThat(endpoint.get("path")).isEqualTo("/metrics");
        // Prometheus Operator's job label is the Service's name: the job the alerts select
        assertThat(RepoFiles.read(RepoFiles.deploy("prometheus/alerts.yml")))
                .contains("up{job=\"" + svc.getMetadata().getName() + "\"}");
    }

    @Test
    void onlyPrometheusReachesTheMetricsPortAndOnlyTheDeploymentTheRegistry() throws IOException {
        Map<String, Object> all = objects();
        V1StatefulSet sts = (V1StatefulSet) all.get("StatefulSet/privacy-gateway");
        var np = (io.kubernetes.client.openapi.models.V1NetworkPolicy) all.get("NetworkPolicy/privacy-gateway-metrics");
        assertThat(sts.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(np.getSpec().getPodSelector().getMatchLabels());
        assertThat(np.getSpec().getPolicyTypes()).containsExactly("Ingress");
        // the metrics port: one rule, one peer (namespace AND pod: Prometheus of "monitoring" only); no other rule
        // opens it; the answers port (published answers only) to the deployment and labelled readers
        var metricsRules = np.getSpec().getIngress().stream().filter(r -> r.getPorts().stream()
                .anyMatch(p -> "metrics".equals(p.getPort().getStrValue()))).toList();
        assertThat(metricsRules).hasSize(1);
        var rule = metricsRules.get(0);
        assertThat(rule.getFrom()).hasSize(1);
        assertThat(rule.getFrom().get(0).getNamespaceSelector().getMatchLabels())
                .containsEntry("kubernetes.io/metadata.name", "monitoring");
        assertThat(rule.getFrom().get(0).getPodSelector().getMatchLabels()).isNotEmpty();
        assertThat(rule.getPorts()).singleElement().satisfies(p -> assertThat(p.getPort().getStrValue()).isEqualTo("metrics"));
        assertThat(np.getSpec().getIngress()).allSatisfy(r -> {
            assertThat(r.getPorts()).isNotEmpty(); // no rule opens every port
            assertThat(r.getFrom()).isNotEmpty().allSatisfy(peer -> assertThat(peer.getPodSelector()).isNotNull());
        });
        var containerPorts = sts.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().stream()
                .map(io.kubernetes.client.openapi.models.V1ContainerPort::getName).toList();
        assertThat(containerPorts).containsExactlyInAnyOrder("metrics", "answers");
        assertThat(np.getSpec().getIngress().stream().flatMap(r -> r.getPorts().stream())
                .map(p -> p.getPort().getStrValue())).containsExactlyInAnyOrder("metrics", "answers");

        var registry = (io.kubernetes.client.openapi.models.V1Deployment) all.get("Deployment/schema-registry");
        var rnp = (io.kubernetes.client.openapi.models.V1NetworkPolicy) all.get("NetworkPolicy/schema-registry");
        assertThat(registry.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(rnp.getSpec().getPodSelector().getMatchLabels());
        // the gateway's pods and the register Job's are among those let in
        var allowed = rnp.getSpec().getIngress().get(0).getFrom().get(0).getPodSelector().getMatchLabels();
        assertThat(sts.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(allowed);
        var job = (io.kubernetes.client.openapi.models.V1Job) all.get("Job/privacy-gateway-register");
        assertThat(job.getSpec().getTemplate().getMetadata().getLabels()).containsAllEntriesOf(allowed);
    }

    @Test
    void theRegistryKeepsItsSchemasInKafkaAndTheGatewayUsesIt() throws IOException {
        Map<String, Object> all = objects();
        var registry = (io.kubernetes.client.openapi.models.V1Deployment) all.get("Deployment/schema-registry");
        V1Container c = registry.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(c.getImage()).isEqualTo("apicurio/apicurio-registry-kafkasql:2.4.2.Final");
        Map<String, V1EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(V1EnvVar::getName, e -> e));
        assertThat(env).containsKeys("KAFKA_BOOTSTRAP_SERVERS", "REGISTRY_KAFKA_COMMON_SASL_JAAS_CONFIG");
        assertThat(env.get("REGISTRY_PROPERTIES_PREFIX").getValue()).isEqualTo("REGISTRY_");
        // $(VAR) refers to variables defined before it in the list
        List<String> names = c.getEnv().stream().map(V1EnvVar::getName).toList();
        String jaas = env.get("REGISTRY_KAFKA_COMMON_SASL_JAAS_CONFIG").getValue();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\((\\w+)\\)").matcher(jaas);
        int refs = 0;
        while (m.find()) {
            refs++;
            assertThat(names.indexOf(m.group(1))).as(m.group(1)).isBetween(0, names.indexOf("REGISTRY_KAFKA_COMMON_SASL_JAAS_CONFIG"));
        }
        assertThat(refs).isEqualTo(2);
        V1ConfigMap cm = (V1ConfigMap) all.get("ConfigMap/privacy-gateway-config");
        V1Service rs = (V1Service) all.get("Service/schema-registry");
        String url = "http://" + rs.getMetadata().getName() + ":" + rs.getSpec().getPorts().get(0).getPort() + "/apis/ccompat/v7";
        assertThat(cm.getData().get("gateway.yaml")).contains("schemaRegistryUrl: " + url);
    }

    @Test
    void theRegisterJobRunsRegisterWithTheGatewaysConfiguration() throws IOException {
        Map<String, Object> all = objects();
        var job = (io.kubernetes.client.openapi.models.V1Job) all.get("Job/privacy-gateway-register");
        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getRestartPolicy()).isIn("OnFailure", "Never");
        V1Container c = pod.getContainers().get(0);
        assertThat(c.getImage()).isEqualTo(System.getProperty("privacygateway.image.name"));
        assertThat(c.getArgs()).startsWith("register", "--config", "/etc/privacy-gateway/gateway.yaml");
        List<String> workloads = new ArrayList<>();
        for (int i = 0; i < c.getArgs().size() - 1; i++) {
            if (c.getArgs().get(i).equals("--workload")) {
                workloads.add(c.getArgs().get(i + 1));
            }
        }
        assertThat(workloads).isNotEmpty();
        V1VolumeMount wl = c.getVolumeMounts().stream().filter(v -> workloads.get(0).startsWith(v.getMountPath() + "/"))
                .findFirst().orElseThrow();
        for (String w : workloads) {
            // the example files the ConfigMap is created from
            assertThat(RepoFiles.root().resolve("examples").resolve(Path.of(w).getFileName())).exists();
            assertThat(w).startsWith(wl.getMountPath() + "/");
        }
        V1ConfigMap cm = (V1ConfigMap) all.get("ConfigMap/privacy-gateway-config");
        Map<String, V1EnvVar> env = c.getEnv().stream().collect(Collectors.toMap(V1EnvVar::getName, e -> e));
        assertThat(env.keySet()).containsAll(RepoFiles.variables(cm.getData().get("gateway.yaml")));
        for (V1EnvVar e : env.values()) {
            var ref = e.getValueFrom() == null ? null : e.getValueFrom().getSecretKeyRef();
            if (ref != null) {
                V1Secret secret = (V1Secret) all.get("Secret/" + ref.getName());
                assertThat(secret).as("Secret " + ref.getName()).isNotNull();
                assertThat(secret.getStringData()).containsKey(ref.getKey());
            }
        }
        assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getConfigMap().getName()).isEqualTo(cm.getMetadata().getName()));
        if (Boolean.TRUE.equals(c.getSecurityContext().getReadOnlyRootFilesystem())) {
            mount(c, "/tmp");
        }
    }

    static V1VolumeMount mount(V1Container c, String path) {
        return c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError("nothing mounted at " + path));
    }

    static void checkProbe(V1Container c, V1Probe probe, String path, int port) {
        assertThat(probe).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        var p = probe.getHttpGet().getPort();
        if (p.isInteger()) {
            assertThat(p.getIntValue()).isEqualTo(port);
        } else {
            assertThat(c.getPorts()).anySatisfy(cp -> {
                assertThat(cp.getName()).isEqualTo(p.getStrValue());
                assertThat(cp.getContainerPort()).isEqualTo(port);
            });
        }
    }

    @Test
    void theSecretsExampleHoldsNoRealLookingValues() throws IOException {
        for (Map<String, Object> doc : RepoFiles.yamlDocuments(DIR.resolve("secrets.example.yaml"))) {
            Map<String, Object> data = RepoFiles.map(doc.get("stringData"), "stringData");
            assertThat(doc).doesNotContainKey("data");
            data.forEach((k, v) -> {
                if (k.equals("password") || k.equals("user-info")) {
                    assertThat(String.valueOf(v)).as(k).contains("change-me");
                }
            });
        }
        // kubectl apply -k never creates the example Secrets; every resource it names exists
        Set<Object> resources = Set.copyOf(RepoFiles.list(RepoFiles.yaml(DIR.resolve("kustomization.yaml")).get("resources"),
                "resources"));
        assertThat(resources).doesNotContain("secrets.example.yaml");
        assertThat(resources).allSatisfy(r -> assertThat(DIR.resolve(String.valueOf(r))).exists());
    }
}

package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.app.run.GatewayConfigFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a deploy {@code gateway.yaml} the way the gateway does: variables substituted, then the
 * application's own {@link GatewayConfigFile} (every field validated, unknown fields are errors).
 *
 * <p>The {@code metrics:} block ({@code host}, {@code port}: the Prometheus and health endpoint) is
 * checked here in any case; while the application's reader does not know it yet, the rest of the file
 * is read without it, and {@link Checked#metricsKnownToTheApp()} says so.
 */
final class GatewayYaml {
    private GatewayYaml() {}

    record Checked(GatewayConfigFile.Loaded loaded, String metricsHost, int metricsPort, boolean metricsKnownToTheApp) {}

    @SuppressWarnings("unchecked")
    static Checked check(String text, Map<String, String> env) {
        String substituted = RepoFiles.substitute(text, env);
        Map<String, Object> tree;
        try {
            tree = new ObjectMapper(new YAMLFactory()).readValue(substituted, LinkedHashMap.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not YAML after substitution", e);
        }
        Map<String, Object> metrics = RepoFiles.map(tree.get("metrics"), "metrics");
        assertThat(metrics.keySet()).as("metrics settings").containsExactlyInAnyOrder("host", "port");
        String host = String.valueOf(metrics.get("host"));
        int port = Integer.parseInt(String.valueOf(metrics.get("port")));
        try {
            return new Checked(GatewayConfigFile.parse(tree), host, port, true);
        } catch (GatewayConfigFile.ConfigException e) {
            if (!e.getMessage().startsWith("metrics: unknown setting")) {
                throw e;
            }
            Map<String, Object> withoutMetrics = new LinkedHashMap<>(tree);
            withoutMetrics.remove("metrics");
            return new Checked(GatewayConfigFile.parse(withoutMetrics), host, port, false);
        }
    }
}

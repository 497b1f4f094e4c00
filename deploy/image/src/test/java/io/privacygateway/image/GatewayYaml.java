package io.privacygateway.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.app.run.GatewayConfigFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a deploy {@code gateway.yaml} exactly as the gateway does: the application's own
 * {@link GatewayConfigFile} substitutes {@code ${NAME}} variables from {@code env} and validates every field
 * (unknown fields are errors), including the {@code metrics:} block.
 */
final class GatewayYaml {
    private GatewayYaml() {}

    record Checked(GatewayConfigFile.Loaded loaded, String metricsHost, int metricsPort) {}

    @SuppressWarnings("unchecked")
    static Checked check(String text, Map<String, String> env) {
        Map<String, Object> tree;
        try {
            tree = new ObjectMapper(new YAMLFactory()).readValue(text, LinkedHashMap.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not YAML", e);
        }
        GatewayConfigFile.Loaded loaded = GatewayConfigFile.parse(tree, env);
        return new Checked(loaded, loaded.metricsHost(), loaded.metricsPort());
    }
}

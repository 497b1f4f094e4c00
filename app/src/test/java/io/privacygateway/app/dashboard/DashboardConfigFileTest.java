package io.privacygateway.app.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.app.run.GatewayConfigFile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The dashboard's bind host in the gateway's configuration file: 127.0.0.1 unless set, validated when set. */
class DashboardConfigFileTest {
    private static GatewayConfigFile.Loaded load(String dashboard) throws Exception {
        Map<?, ?> m = new ObjectMapper(new YAMLFactory()).readValue("bootstrapServers: b:9092\nschemaRegistryUrl: http://r\n"
                + (dashboard == null ? "" : "dashboard: " + dashboard + "\n"), Map.class);
        return GatewayConfigFile.parse(m);
    }

    @Test
    void theBindHostDefaultsToLoopbackAndCanBeSet() throws Exception {
        assertThat(load(null).dashboardHost()).isEqualTo("127.0.0.1");
        assertThat(load("{port: 8080}").dashboardHost()).isEqualTo("127.0.0.1");
        GatewayConfigFile.Loaded l = load("{port: 8080, host: dashboard.internal}");
        assertThat(l.dashboardPort()).isEqualTo(8080);
        assertThat(l.dashboardHost()).isEqualTo("dashboard.internal");
        assertThatThrownBy(() -> load("{port: 8080, host: 'not a host'}")).hasMessageStartingWith("dashboard.host:")
                .hasMessageContaining("bind host");
        assertThatThrownBy(() -> load("{port: 8080, bind: x}")).hasMessageContaining("unknown setting");
    }
}

package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class HealthProbeTest {
    @Test
    void okOnlyFor2xx() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/health/ready", ex -> {
            ex.sendResponseHeaders(200, 2);
            ex.getResponseBody().write("ok".getBytes());
            ex.close();
        });
        server.createContext("/health/live", ex -> {
            ex.sendResponseHeaders(503, -1);
            ex.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            assertThat(HealthProbe.check(base + "/health/ready", 2000)).isTrue();
            assertThat(HealthProbe.check(base + "/health/live", 2000)).isFalse();
            assertThat(HealthProbe.check(base + "/nothing-here", 2000)).isFalse();
        } finally {
            server.stop(0);
        }
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        assertThat(HealthProbe.check("http://127.0.0.1:" + closed + "/health/ready", 2000)).isFalse();
    }
}

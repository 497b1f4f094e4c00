package io.privacygateway.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.privacygateway.app.dashboard.AnswerHistory;
import io.privacygateway.app.dashboard.DashboardOptions;
import io.privacygateway.app.dashboard.DashboardServer;
import io.privacygateway.app.metrics.HealthCheck;
import io.privacygateway.app.metrics.MetricsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Silent and slow clients (slowloris) against the metrics endpoint and the dashboard: 50 connections that send one
 * byte or nothing must not stop {@code /health/live}, {@code /metrics} or the page (before, two such connections
 * held both metrics threads and one held the dashboard's only thread, forever), and the server closes them after
 * its request timeout. Times are only bounded generously (5 s for an answer), never measured.
 */
class SilentClientsTest {
    private static final int SILENT = 50;
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(5);
    private final List<AutoCloseable> open = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(ANSWER_WITHIN).build();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T remember(T c) {
        open.add(c);
        return c;
    }

    private static final HealthCheck RUNNING = new HealthCheck() {
        @Override
        public Status live() {
            return new Status(true, "RUNNING");
        }

        @Override
        public Status ready() {
            return new Status(true, "RUNNING");
        }
    };

    /** Opens {@code n} connections to the port; every other one sends one byte of a request, then all wait. */
    private List<Socket> silent(int port, int n) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Socket s = remember(new Socket());
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
            if (i % 2 == 0) {
                s.getOutputStream().write('G');
                s.getOutputStream().flush();
            }
            sockets.add(s);
        }
        return sockets;
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).timeout(ANSWER_WITHIN).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void fiftySilentConnectionsStopNeitherTheProbesNorTheMetricsNorTheDashboard() throws Exception {
        Counter.builder("pgw.reports.accepted").tags("workload", "w", "mode", "local").register(registry).increment();
        MetricsServer metrics = remember(MetricsServer.start("127.0.0.1", 0, registry, RUNNING));
        DashboardServer dashboard = remember(DashboardServer.start(DashboardOptions.onPort(0),
                new AnswerHistory(10, Clock.systemUTC()), registry, null, Clock.systemUTC()));
        silent(metrics.port(), SILENT);
        silent(dashboard.port(), SILENT);

        HttpResponse<String> live = get(metrics.base().resolve("health/live"));
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("ok: RUNNING\n");
        assertThat(get(metrics.base().resolve("health/ready")).statusCode()).isEqualTo(200);
        HttpResponse<String> scrape = get(metrics.metricsUrl());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("pgw_reports_accepted_total{mode=\"local\",workload=\"w\"} 1.0");
        HttpResponse<String> page = get(dashboard.url());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("/assets/dashboard.js");
        assertThat(get(dashboard.url().resolve("/api/history")).statusCode()).isEqualTo(200);
    }

    @Test
    void silentConnectionsAreClosedAfterTheRequestTimeout() throws Exception {
        HttpLimits limits = HttpLimits.defaults().withTimeouts(Duration.ofMillis(300));
        MetricsServer metrics = remember(MetricsServer.start("127.0.0.1", 0, registry, RUNNING, limits));
        DashboardServer dashboard = remember(DashboardServer.start(DashboardOptions.onPort(0),
                new AnswerHistory(10, Clock.systemUTC()), registry, null, Clock.systemUTC(), limits));
        List<Socket> sockets = new ArrayList<>(silent(metrics.port(), SILENT));
        sockets.addAll(silent(dashboard.port(), SILENT));
        for (Socket s : sockets) {
            assertThat(closedByServer(s)).as("a silent connection is closed by the server").isTrue();
        }
        // and the servers still answer
        assertThat(get(metrics.base().resolve("health/live")).statusCode()).isEqualTo(200);
        assertThat(get(dashboard.url()).statusCode()).isEqualTo(200);
    }

    @Test
    void aClientThatTricklesItsRequestIsClosedThoughItNeverFallsIdle() throws Exception {
        // idle timeout 30 s: only the request deadline (300 ms) can close this client
        HttpLimits limits = new HttpLimits(Duration.ofMillis(300), Duration.ofSeconds(30), 4096, 16 * 1024,
                16 * 1024, 256, 2, 32);
        MetricsServer metrics = remember(MetricsServer.start("127.0.0.1", 0, registry, RUNNING, limits));
        Socket s = remember(new Socket(InetAddress.getLoopbackAddress(), metrics.port()));
        byte[] request = "GET /health/live HTTP/1.1\r\nHost: x\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n"
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        boolean closed = false;
        for (int i = 0; i < request.length - 2 && !closed; i++) { // never completes the request
            try {
                s.getOutputStream().write(request[i]);
                s.getOutputStream().flush();
                s.setSoTimeout(50);
                closed = s.getInputStream().read() == -1;
            } catch (SocketTimeoutException e) {
                // still open: send the next byte
            } catch (SocketException e) {
                closed = true; // reset: the server closed it
            }
        }
        assertThat(closed || closedByServer(s)).isTrue();
    }

    /** Whether the server closes the connection within 10 s: end of stream or reset, no answer. */
    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(10_000);
        InputStream in = s.getInputStream();
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // connection reset
        }
    }
}

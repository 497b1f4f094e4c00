package io.privacygateway.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The endpoint on its own: formats, content negotiation, probes, 404 and 405. */
class MetricsServerTest {
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final AtomicBoolean live = new AtomicBoolean(true);
    final AtomicBoolean ready = new AtomicBoolean(false);
    final HttpClient http = HttpClient.newHttpClient();
    MetricsServer server;

    @BeforeEach
    void start() throws Exception {
        Counter.builder("pgw.reports.accepted").tags("workload", "w", "mode", "local").register(registry).increment(3);
        Timer.builder("pgw.release.latency").tags("workload", "w", "mode", "local").publishPercentileHistogram()
                .register(registry).record(Duration.ofMillis(250));
        server = MetricsServer.start("127.0.0.1", 0, registry, new HealthCheck() {
            @Override
            public Status live() {
                return new Status(live.get(), live.get() ? "RUNNING" : "ERROR");
            }

            @Override
            public Status ready() {
                return new Status(ready.get(), ready.get() ? "RUNNING" : "REBALANCING");
            }
        });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    HttpResponse<String> get(String path, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.base().resolve(path));
        if (accept != null) {
            b.header("Accept", accept);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(server.base().resolve(path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesThePrometheusTextFormatByDefaultAndOpenMetricsWhenAsked() throws Exception {
        assertThat(server.metricsUrl()).isEqualTo(URI.create("http://127.0.0.1:" + server.port() + "/metrics"));
        HttpResponse<String> text = get("metrics", null);
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.headers().firstValue("Content-Type")).hasValue(MetricsServer.TEXT_004);
        assertThat(text.body()).contains("# TYPE pgw_reports_accepted_total counter")
                .contains("pgw_reports_accepted_total{mode=\"local\",workload=\"w\"} 3.0")
                .contains("pgw_release_latency_seconds_bucket{").doesNotContain("# EOF");

        // what Prometheus itself sends
        HttpResponse<String> om = get("metrics", "application/openmetrics-text;version=1.0.0,"
                + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
        assertThat(om.statusCode()).isEqualTo(200);
        assertThat(om.headers().firstValue("Content-Type")).hasValue(MetricsServer.OPENMETRICS_100);
        assertThat(om.body()).contains("pgw_reports_accepted_total{mode=\"local\",workload=\"w\"} 3.0")
                .endsWith("# EOF\n");

        assertThat(get("metrics", "text/plain").headers().firstValue("Content-Type"))
                .hasValue(MetricsServer.TEXT_004);
    }

    @Test
    void probesFollowTheHealthCheck() throws Exception {
        assertThat(get("health/live", null).statusCode()).isEqualTo(200);
        assertThat(get("health/live", null).body()).isEqualTo("ok: RUNNING\n");
        HttpResponse<String> notReady = get("health/ready", null);
        assertThat(notReady.statusCode()).isEqualTo(503);
        assertThat(notReady.body()).isEqualTo("unavailable: REBALANCING\n");
        ready.set(true);
        assertThat(get("health/ready", null).statusCode()).isEqualTo(200);
        live.set(false);
        assertThat(get("health/live", null).statusCode()).isEqualTo(503);
        assertThat(get("health/live", null).body()).isEqualTo("unavailable: ERROR\n");
    }

    @Test
    void otherPathsAre404AndOtherMethods405AndHeadHasNoBody() throws Exception {
        for (String path : new String[] {"", "metrics/", "metricsx", "health", "health/", "health/started",
            "api/answers", "health/live/x"}) {
            assertThat(get(path, null).statusCode()).as(path).isEqualTo(404);
        }
        assertThat(get("metrics?name[]=pgw_reports_accepted_total", null).statusCode()).isEqualTo(200);
        for (String method : new String[] {"POST", "PUT", "DELETE", "OPTIONS"}) {
            HttpResponse<String> r = send(method, "metrics");
            assertThat(r.statusCode()).as(method).isEqualTo(405);
            assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
        }
        HttpResponse<String> head = send("HEAD", "metrics");
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(send("HEAD", "health/live").statusCode()).isEqualTo(200);
        live.set(false);
        assertThat(send("HEAD", "health/live").statusCode()).isEqualTo(503);
    }

    @Test
    void aTakenPortFailsToStart() throws Exception {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MetricsServer.start("127.0.0.1", server.port(),
                registry, new GatewayHealth())).isInstanceOf(java.net.BindException.class);
    }
}

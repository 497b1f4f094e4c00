package io.privacygateway.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/grafana/} and {@code deploy/prometheus/}: the dashboard reads only the series the
 * gateway, Kafka Streams and the JVM expose ({@link MetricsContract}), shows each of the gateway's own,
 * has the panels an operator needs, its expressions are valid PromQL (promtool), and the provisioning
 * files and the Prometheus configuration agree with it and with Compose.
 */
class GrafanaAndPrometheusTest {
    static final Path DASHBOARD = RepoFiles.deploy("grafana/privacy-gateway.json");

    static JsonNode dashboard() throws IOException {
        return new ObjectMapper().readTree(DASHBOARD.toFile());
    }

    /** Panel title → its expressions (rows have none). */
    static Map<String, List<String>> expressions(JsonNode dashboard) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (JsonNode p : dashboard.get("panels")) {
            if (p.get("type").asText().equals("row")) {
                continue;
            }
            List<String> exprs = new ArrayList<>();
            p.get("targets").forEach(t -> exprs.add(t.get("expr").asText()));
            out.put(p.get("title").asText(), exprs);
        }
        return out;
    }

    @Test
    void theMetricNameExtractionFindsNamesAndSkipsEverythingElse() {
        assertThat(PromQl.metricNames("sum by (workload, mode) (rate(pgw_reports_accepted_total{workload=~\"$workload\"}[$__rate_interval]))"))
                .containsExactly("pgw_reports_accepted_total");
        assertThat(PromQl.metricNames("histogram_quantile(0.95, sum by (le) (rate(a_bucket{x=\"y\"}[5m]))) / clamp_min(b, 1e-9) > 0.2"))
                .containsExactly("a_bucket", "b");
        assertThat(PromQl.metricNames("max(pgw_reports_acepted_total) and on (instance) up == 0"))
                .containsExactly("pgw_reports_acepted_total", "up");
    }

    @Test
    void theDashboardReadsOnlyKnownSeriesAndShowsEveryGatewaySeries() throws IOException {
        Set<String> used = new TreeSet<>();
        Set<String> allowed = MetricsContract.allowed();
        expressions(dashboard()).forEach((title, exprs) -> {
            assertThat(exprs).as(title).isNotEmpty();
            for (String e : exprs) {
                Set<String> names = PromQl.metricNames(e);
                assertThat(names).as(title + ": " + e).isNotEmpty();
                assertThat(allowed).as(title + ": " + e).containsAll(names);
                used.addAll(names);
            }
        });
        assertThat(used).containsAll(MetricsContract.GATEWAY);
    }

    @Test
    void theDashboardHasThePanelsAnOperatorNeeds() throws IOException {
        Map<String, List<String>> panels = expressions(dashboard());
        List<String> all = panels.values().stream().flatMap(List::stream).toList();
        // throughput, rejections by reason, ε spent, release-latency percentiles, consumer lag, JVM heap
        assertThat(all).anyMatch(e -> e.contains("rate(pgw_reports_accepted_total"));
        assertThat(all).anyMatch(e -> e.contains("pgw_reports_rejected_total") && e.contains("by (reason)"));
        assertThat(all).anyMatch(e -> e.contains("pgw_epsilon_charged_total"));
        assertThat(all).anyMatch(e -> e.contains("pgw_central_cumulative_epsilon"));
        for (String q : List.of("0.5", "0.95", "0.99")) {
            assertThat(all).anyMatch(e -> e.startsWith("histogram_quantile(" + q + ",") && e.contains("pgw_release_latency_seconds_bucket"));
        }
        assertThat(all).anyMatch(e -> e.contains("kafka_consumer_fetch_manager_records_lag"));
        assertThat(all).anyMatch(e -> e.contains("jvm_memory_used_bytes{area=\"heap\"}"));
        // failures: windows without an answer, a workload that stopped answering, overruns, the ε cap, ingest refusals
        assertThat(all).anyMatch(e -> e.contains("increase(pgw_release_failed_total"));
        assertThat(all).anyMatch(e -> e.contains("pgw_release_overdue_seconds") && e.contains("by (workload)"));
        assertThat(all).anyMatch(e -> e.contains("increase(pgw_release_overrun_total"));
        assertThat(all).anyMatch(e -> e.contains("pgw_central_cumulative_epsilon") && e.contains("pgw:central_epsilon_cap"));
        assertThat(all).anyMatch(e -> e.contains("pgw_ingest_refused_total") && e.contains("by (reason)"));
        assertThat(all).anyMatch(e -> e.startsWith("histogram_quantile(") && e.contains("pgw_device_spend_bucket"));
    }

    @Test
    void promtoolRunsTheAlertsUnitTestsAndEveryFailureAlertHasOne() {
        Path promtool = Tools.require("promtool", "prometheus");
        Path dir = RepoFiles.deploy("prometheus");
        Tools.Result check = Tools.run(dir, Map.of(), List.of(promtool.toString(), "check", "rules", "alerts.yml"));
        assertThat(check.exitCode()).as(check.output()).isZero();
        Tools.Result r = Tools.run(dir, Map.of(), List.of(promtool.toString(), "test", "rules", "tests/alerts-test.yml"));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS");
        Map<String, Object> tests = RepoFiles.yaml(dir.resolve("tests/alerts-test.yml"));
        Set<String> tested = new TreeSet<>();
        for (Object t : RepoFiles.list(tests.get("tests"), "tests")) {
            Object rules = RepoFiles.map(t, "test").get("alert_rule_test");
            if (rules != null) {
                for (Object a : RepoFiles.list(rules, "alert_rule_test")) {
                    Map<String, Object> at = RepoFiles.map(a, "alert test");
                    if (!RepoFiles.list(at.get("exp_alerts"), "exp_alerts").isEmpty()) {
                        tested.add(String.valueOf(at.get("alertname")));
                    }
                }
            }
        }
        assertThat(tested).contains("PrivacyGatewayReleaseFailed", "PrivacyGatewayWorkloadStoppedAnswering",
                "PrivacyGatewayReleaseOverdue",
                "PrivacyGatewayReleaseOverrun", "PrivacyGatewayCentralEpsilonNearCap",
                "PrivacyGatewayCentralEpsilonCapReached", "PrivacyGatewayIngestBackpressure",
                "PrivacyGatewayIngestRefusalsHigh", "PrivacyGatewayIngestNotReady");
        // and each of them exists in alerts.yml
        String alerts = RepoFiles.read(dir.resolve("alerts.yml"));
        tested.forEach(a -> assertThat(alerts).contains("alert: " + a + "\n"));
    }

    @Test
    void theDashboardLayoutIsSound() throws IOException {
        JsonNode d = dashboard();
        assertThat(d.get("uid").asText()).isEqualTo("privacy-gateway");
        Set<Integer> ids = new HashSet<>();
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode p : d.get("panels")) {
            assertThat(ids.add(p.get("id").asInt())).as("unique panel id " + p.get("id")).isTrue();
            JsonNode g = p.get("gridPos");
            int x = g.get("x").asInt(), y = g.get("y").asInt(), w = g.get("w").asInt(), h = g.get("h").asInt();
            assertThat(x + w).as(p.get("title").asText()).isLessThanOrEqualTo(24);
            for (int[] b : boxes) {
                boolean overlap = x < b[0] + b[2] && b[0] < x + w && y < b[1] + b[3] && b[1] < y + h;
                assertThat(overlap).as(p.get("title").asText() + " overlaps another panel").isFalse();
            }
            boxes.add(new int[] {x, y, w, h});
        }
    }

    @Test
    void theDashboardUsesTheProvisionedDatasource() throws IOException {
        Map<String, Object> ds = RepoFiles.map(RepoFiles.list(RepoFiles.yaml(
                RepoFiles.deploy("grafana/provisioning/datasources/prometheus.yaml")).get("datasources"), "datasources").get(0),
                "datasource");
        assertThat(ds.get("type")).isEqualTo("prometheus");
        // Prometheus is the Compose service of that name, on its default port
        assertThat(ds.get("url")).isEqualTo("http://prometheus:9090");
        assertThat(ComposeFilesTest.services(RepoFiles.yaml(ComposeFilesTest.COMPOSE))).containsKey("prometheus");
        JsonNode d = dashboard();
        JsonNode variable = null;
        for (JsonNode v : d.get("templating").get("list")) {
            if (v.get("type").asText().equals("datasource")) {
                variable = v;
            }
        }
        assertThat(variable).as("a datasource variable").isNotNull();
        assertThat(variable.get("query").asText()).isEqualTo("prometheus");
        assertThat(variable.get("current").get("value").asText()).isEqualTo(ds.get("uid"));
        String ref = "${" + variable.get("name").asText() + "}";
        for (JsonNode p : d.get("panels")) {
            if (p.get("type").asText().equals("row")) {
                continue;
            }
            assertThat(p.get("datasource").get("uid").asText()).as(p.get("title").asText()).isEqualTo(ref);
            p.get("targets").forEach(t -> assertThat(t.get("datasource").get("uid").asText()).isEqualTo(ref));
        }
    }

    @Test
    void promtoolParsesEveryDashboardExpression(@TempDir Path tmp) throws IOException {
        Path promtool = Tools.require("promtool", "prometheus");
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        int i = 0;
        for (List<String> exprs : expressions(dashboard()).values()) {
            for (String e : exprs) {
                rules.append("      - record: dashboard:expr_").append(i++).append("\n        expr: '")
                        .append(PromQl.withoutGrafanaVariables(e).replace("'", "''")).append("'\n");
            }
        }
        Path file = Files.writeString(tmp.resolve("dashboard-rules.yml"), rules);
        Tools.Result r = Tools.run(tmp, Map.of(), List.of(promtool.toString(), "check", "rules", file.toString()));
        assertThat(r.exitCode()).as(r.output() + "\n" + rules).isZero();
        assertThat(r.output()).contains("SUCCESS: " + i + " rules found");
    }

    @Test
    void promtoolAcceptsThePrometheusConfigurationAndItsAlerts() {
        Path promtool = Tools.require("promtool", "prometheus");
        Path dir = RepoFiles.deploy("prometheus");
        Tools.Result r = Tools.run(dir, Map.of(), List.of(promtool.toString(), "check", "config", "prometheus.yml"));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS: 1 rule files found");
        // the ingestion service is scraped where Compose puts it, under the job its alerts select
        assertThat(RepoFiles.read(dir.resolve("prometheus.yml"))).contains("job_name: privacy-gateway-ingest",
                "\"ingest:9465\"");
        assertThat(ComposeFilesTest.services(RepoFiles.yaml(ComposeFilesTest.COMPOSE))).containsKey("ingest");
        assertThat(RepoFiles.read(dir.resolve("alerts.yml"))).contains("up{job=\"privacy-gateway-ingest\"}");
    }

    @Test
    void alertsReadOnlyKnownSeries() {
        Map<String, Object> alerts = RepoFiles.yaml(RepoFiles.deploy("prometheus/alerts.yml"));
        for (Object g : RepoFiles.list(alerts.get("groups"), "groups")) {
            for (Object rule : RepoFiles.list(RepoFiles.map(g, "group").get("rules"), "rules")) {
                String expr = String.valueOf(RepoFiles.map(rule, "rule").get("expr"));
                assertThat(MetricsContract.allowed()).as(expr).containsAll(PromQl.metricNames(expr));
            }
        }
    }

    @Test
    void prometheusScrapesTheGatewayWhereComposePutsIt() throws IOException {
        Map<String, Object> prom = RepoFiles.yaml(RepoFiles.deploy("prometheus/prometheus.yml"));
        Map<String, Object> job = null;
        for (Object j : RepoFiles.list(prom.get("scrape_configs"), "scrape_configs")) {
            if ("privacy-gateway".equals(RepoFiles.map(j, "job").get("job_name"))) {
                job = RepoFiles.map(j, "job");
            }
        }
        assertThat(job).as("a privacy-gateway scrape job").isNotNull();
        assertThat(job.get("metrics_path")).isEqualTo("/metrics");
        String target = String.valueOf(RepoFiles.list(RepoFiles.map(RepoFiles.list(job.get("static_configs"), "static_configs")
                .get(0), "static_config").get("targets"), "targets").get(0));
        String host = target.substring(0, target.indexOf(':'));
        int port = Integer.parseInt(target.substring(target.indexOf(':') + 1));
        assertThat(ComposeFilesTest.services(RepoFiles.yaml(ComposeFilesTest.COMPOSE))).containsKey(host);
        GatewayYaml.Checked g = GatewayYaml.check(RepoFiles.read(ComposeFilesTest.DIR.resolve("gateway.yaml")),
                ComposeFilesTest.exampleEnv());
        assertThat(port).isEqualTo(g.metricsPort());
        // the job name the alerts use
        assertThat(RepoFiles.read(RepoFiles.deploy("prometheus/alerts.yml"))).contains("up{job=\"privacy-gateway\"}");
    }
}

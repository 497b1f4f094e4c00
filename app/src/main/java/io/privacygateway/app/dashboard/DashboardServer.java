package io.privacygateway.app.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.privacygateway.schemas.avro.WindowAnswer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A small dashboard on 127.0.0.1 (JDK HTTP server, no external resources): {@code /} shows the latest
 * answer of every workload with its error bars (and the true values when a truth source is known, as in
 * the demo); {@code /api/answers} and {@code /api/metrics} serve the same as JSON.
 */
public final class DashboardServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;

    private DashboardServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Starts the dashboard.
     *
     * @param port the port on 127.0.0.1 (0 = any free port)
     * @param truth the true mean answers of a workload window, if known (demo), else {@code null}
     */
    public static DashboardServer start(int port, AnswerBoard board, MeterRegistry meters,
            BiFunction<String, Long, double[]> truth) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        s.createContext("/api/answers", ex -> send(ex, "application/json", answersJson(board, truth)));
        s.createContext("/api/metrics", ex -> send(ex, "application/json", metricsJson(meters)));
        s.createContext("/", ex -> {
            try (InputStream in = DashboardServer.class.getResourceAsStream("/dashboard.html")) {
                send(ex, "text/html; charset=utf-8", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        });
        s.start();
        return new DashboardServer(s);
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    static String answersJson(AnswerBoard board, BiFunction<String, Long, double[]> truth) throws IOException {
        ArrayNode arr = JSON.createArrayNode();
        for (Map.Entry<String, WindowAnswer> e : board.latest().entrySet()) {
            WindowAnswer a = e.getValue();
            ObjectNode o = arr.addObject();
            o.put("workload", a.getWorkloadId());
            o.put("version", a.getWorkloadVersion());
            o.put("mode", a.getMode());
            o.put("mechanism", a.getMechanism());
            o.put("epsilon", a.getEpsilon());
            o.put("delta", a.getDelta());
            o.put("cumulativeEpsilon", a.getCumulativeEpsilon());
            o.put("windowStart", a.getWindowStart().toString());
            o.put("windowEnd", a.getWindowEnd().toString());
            o.put("n", a.getN());
            o.put("confidence", a.getConfidence());
            double[] t = truth == null ? null : truth.apply(a.getWorkloadId(), a.getWindowStart().toEpochMilli());
            ArrayNode rows = o.putArray("answers");
            for (int q = 0; q < a.getLabels().size(); q++) {
                ObjectNode r = rows.addObject();
                r.put("label", a.getLabels().get(q));
                r.put("estimate", a.getEstimates().get(q));
                r.put("lower", a.getLower().get(q));
                r.put("upper", a.getUpper().get(q));
                if (t != null && q < t.length) {
                    r.put("true", t[q]);
                }
            }
        }
        return JSON.writeValueAsString(arr);
    }

    static String metricsJson(MeterRegistry meters) throws IOException {
        ArrayNode arr = JSON.createArrayNode();
        for (var m : meters.getMeters()) {
            if (m instanceof Counter c && m.getId().getName().startsWith("pgw.")) {
                ObjectNode o = arr.addObject();
                o.put("name", m.getId().getName());
                ObjectNode tags = o.putObject("tags");
                m.getId().getTags().forEach(t -> tags.put(t.getKey(), t.getValue()));
                o.put("count", c.count());
            }
        }
        return JSON.writeValueAsString(arr);
    }

    private static void send(HttpExchange ex, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", type);
        ex.getResponseHeaders().add("Cache-Control", "no-store");
        ex.sendResponseHeaders(200, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

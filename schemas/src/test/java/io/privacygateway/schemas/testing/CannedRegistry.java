package io.privacygateway.schemas.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.avro.Schema;

/**
 * A JDK HTTP server on loopback that answers canned bodies by path, to play what a real registry
 * does not do on request: bare and HTML 404s from a proxy, 5xx, hanging, trickling or oversized
 * answers. Registry behaviour itself is tested against the real registry.
 */
public final class CannedRegistry implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One canned answer; {@code delayMillis} before the headers, {@code trickleMillis} between body bytes. */
    public record Answer(int status, String contentType, byte[] body, long delayMillis, long trickleMillis) {
        public static Answer json(int status, String json) {
            return new Answer(status, "application/vnd.schemaregistry.v1+json", json.getBytes(StandardCharsets.UTF_8),
                    0, 0);
        }

        public static Answer text(int status, String contentType, String text) {
            return new Answer(status, contentType, text.getBytes(StandardCharsets.UTF_8), 0, 0);
        }

        public static Answer empty(int status) {
            return new Answer(status, null, new byte[0], 0, 0);
        }

        public Answer delayed(long millis) {
            return new Answer(status, contentType, body, millis, trickleMillis);
        }

        public Answer trickled(long millisPerByte) {
            return new Answer(status, contentType, body, delayMillis, millisPerByte);
        }

        @Override
        public String toString() {
            String text = new String(body, StandardCharsets.UTF_8);
            return status + " " + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "canned-registry");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Answer> routes = new ConcurrentHashMap<>();
    private volatile Answer fallback = Answer.empty(404);
    /** Paths asked, in order. */
    public final List<String> paths = new CopyOnWriteArrayList<>();

    private CannedRegistry() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static CannedRegistry start() {
        try {
            return new CannedRegistry();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers {@code path} (exact, without query) with {@code answer}. */
    public CannedRegistry route(String path, Answer answer) {
        routes.put(path, answer);
        return this;
    }

    /** Answers every path without a route with {@code answer} (default: a bare 404). */
    public CannedRegistry fallback(Answer answer) {
        fallback = answer;
        return this;
    }

    public CannedRegistry clearRoutes() {
        routes.clear();
        return this;
    }

    /** Routes a registry that has {@code schema} as version 1 of {@code subject}, with id {@code id}. */
    public CannedRegistry serve(String subject, int id, Schema schema) {
        ObjectNode byId = JSON.createObjectNode().put("schema", schema.toString());
        ObjectNode version = JSON.createObjectNode().put("subject", subject).put("version", 1).put("id", id)
                .put("schema", schema.toString());
        route("/schemas/ids/" + id, Answer.json(200, byId.toString()));
        route("/subjects/" + subject + "/versions", Answer.json(200, "[1]"));
        route("/subjects/" + subject + "/versions/1", Answer.json(200, version.toString()));
        return this;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        paths.add(path);
        Answer a = routes.getOrDefault(path, fallback);
        try (exchange) {
            sleep(a.delayMillis());
            if (a.contentType() != null) {
                exchange.getResponseHeaders().set("Content-Type", a.contentType());
            }
            exchange.sendResponseHeaders(a.status(), a.body().length == 0 ? -1 : a.body().length);
            OutputStream out = exchange.getResponseBody();
            if (a.trickleMillis() == 0) {
                out.write(a.body());
            } else {
                for (byte b : a.body()) {
                    out.write(b);
                    out.flush();
                    sleep(a.trickleMillis());
                }
            }
        } catch (IOException e) {
            // the client went away (it timed out or stopped reading): nothing to do
        }
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}

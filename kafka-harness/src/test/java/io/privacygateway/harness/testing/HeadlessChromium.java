package io.privacygateway.harness.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A headless Chromium driven over the DevTools protocol (JDK HTTP client and WebSocket only), for tests that
 * look at a page as a browser shows it (the dashboard, a page using the TypeScript SDK): load a page, evaluate JavaScript in it, wait for a condition,
 * take a screenshot. Every wait is bounded; {@link #close()} ends the browser process and its children and
 * removes the profile directory.
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where to look for the browser unless {@code -Dprivacygateway.chromium=PATH} names one. */
    private static final List<String> CANDIDATES =
            List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable");

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());

    /** The Chromium binary, if one is installed. */
    public static Optional<Path> find() {
        String configured = System.getProperty("privacygateway.chromium");
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        return CANDIDATES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }

    private HeadlessChromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    /**
     * Starts the browser with an empty profile and a {@code width × height} window, and attaches to its page.
     *
     * @param log where the browser's own output goes
     */
    public static HeadlessChromium start(Path binary, int width, int height, Path log) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("pgw-chromium-profile");
        List<String> cmd = List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--force-color-profile=srgb",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--window-size=" + width + "," + height, "--user-data-dir=" + profile, "about:blank");
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!(Files.isRegularFile(portFile) && Files.readAllLines(portFile).size() >= 2)) {
                if (!p.isAlive()) {
                    throw new IOException("Chromium exited with code " + p.exitValue() + "; see " + log);
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("Chromium did not open its DevTools port within 60 s; see " + log);
                }
                Thread.sleep(100);
            }
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            String wsUrl = null;
            for (JsonNode t : JSON.readTree(list.body())) {
                if ("page".equals(t.path("type").asText())) {
                    wsUrl = t.path("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (wsUrl == null) {
                throw new IOException("Chromium has no page target: " + list.body());
            }
            Holder holder = new Holder();
            WebSocket ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(wsUrl), holder).get(20, TimeUnit.SECONDS);
            HeadlessChromium c = new HeadlessChromium(p, profile, ws);
            holder.owner = c;
            c.call("Page.enable", null);
            c.call("Runtime.enable", null);
            c.call("Log.enable", null);
            return c;
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(p);
            delete(profile);
            throw e;
        } catch (Exception e) {
            stop(p);
            delete(profile);
            throw new IOException("attaching to Chromium failed: " + e, e);
        }
    }

    /** Sends one DevTools command and waits (at most 30 s) for its result. */
    JsonNode call(String method, ObjectNode params) throws IOException {
        int id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        if (params != null) {
            msg.set("params", params);
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        try {
            socket.sendText(msg.toString(), true).get(10, TimeUnit.SECONDS);
            JsonNode r = answer.get(30, TimeUnit.SECONDS);
            if (r.has("error")) {
                throw new IOException(method + " failed: " + r.get("error"));
            }
            return r.path("result");
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(method + " got no answer: " + e, e);
        } finally {
            pending.remove(id);
        }
    }

    /** Loads a page and waits for its load event (or 30 s). */
    public void navigate(String url) throws IOException {
        call("Page.navigate", JSON.createObjectNode().put("url", url));
    }

    /** Evaluates an expression in the page (awaiting a promise) and returns its value as JSON. */
    public JsonNode evaluate(String expression) throws IOException {
        JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new IOException("the page threw: " + r.get("exceptionDetails"));
        }
        return r.path("result").path("value");
    }

    /**
     * Evaluates {@code expression} (which must return a JSON string) every 200 ms until {@code done} accepts
     * the parsed value, and returns it; fails after {@code timeout} with the last value seen.
     */
    public JsonNode waitFor(String expression, Predicate<JsonNode> done, Duration timeout, String what)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object last = null;
        while (true) {
            try {
                String text = evaluate(expression).asText(null);
                JsonNode value = text == null ? null : JSON.readTree(text);
                last = value;
                if (value != null && done.test(value)) {
                    return value;
                }
            } catch (IOException e) {
                last = e.getMessage(); // e.g. the page is still loading
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what
                        + "; last state: " + last + "; page problems: " + problems());
            }
            Thread.sleep(200);
        }
    }

    /** Takes a PNG screenshot of the whole page (its full height at the window's width). */
    public void screenshot(Path file, int width) throws IOException {
        JsonNode metrics = call("Page.getLayoutMetrics", null);
        JsonNode size = metrics.has("cssContentSize") ? metrics.get("cssContentSize") : metrics.get("contentSize");
        int height = (int) Math.ceil(size.path("height").asDouble(900));
        call("Emulation.setDeviceMetricsOverride", JSON.createObjectNode().put("width", width).put("height", height)
                .put("deviceScaleFactor", 1).put("mobile", false));
        try {
            JsonNode shot = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png")
                    .put("captureBeyondViewport", true));
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(file, Base64.getDecoder().decode(shot.path("data").asText()));
        } finally {
            call("Emulation.clearDeviceMetricsOverride", null);
        }
    }

    /** Uncaught page exceptions and console or log errors seen so far. */
    public List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    public void clearProblems() {
        problems.clear();
    }

    private void onMessage(String text) {
        try {
            JsonNode m = JSON.readTree(text);
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = pending.get(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
                return;
            }
            String method = m.path("method").asText();
            JsonNode params = m.path("params");
            if (method.equals("Runtime.exceptionThrown")) {
                problems.add("exception: " + params.path("exceptionDetails").path("exception").path("description")
                        .asText(params.path("exceptionDetails").path("text").asText()));
            } else if (method.equals("Runtime.consoleAPICalled") && params.path("type").asText().equals("error")) {
                problems.add("console.error: " + params.path("args"));
            } else if (method.equals("Log.entryAdded") && params.path("entry").path("level").asText().equals("error")) {
                problems.add("log: " + params.path("entry").path("text").asText() + " "
                        + params.path("entry").path("url").asText());
            }
        } catch (IOException e) {
            problems.add("unreadable DevTools message: " + e);
        }
    }

    /** Collects WebSocket text frames into messages. */
    private static final class Holder implements WebSocket.Listener {
        volatile HeadlessChromium owner;
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                HeadlessChromium c = owner;
                if (c != null) {
                    c.onMessage(text);
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    @Override
    public void close() {
        try {
            socket.sendText("{\"id\":0,\"method\":\"Browser.close\"}", true).get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // the process is stopped below either way
        }
        stop(process);
        delete(profile);
    }

    private static void stop(Process p) {
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory; the OS cleans up eventually
        }
    }
}

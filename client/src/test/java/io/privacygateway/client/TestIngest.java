package io.privacygateway.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * A tiny ingestion endpoint on 127.0.0.1 for the SDK's tests: decodes each batch with {@link ReportEnvelope}, keeps
 * the requests, dedupes reports by coordinates ({@link DeviceReport#dedupeKey}) as the gateway does, and answers
 * from a script (a status code with a Retry-After, or per-report results), ACCEPTED/DUPLICATE by default.
 */
final class TestIngest implements AutoCloseable {
    /** One scripted answer: an HTTP status other than 200, or per-report results. */
    record Reply(int status, String retryAfter, Function<List<DeviceReport>, List<ReportEnvelope.Result>> results) {
        static Reply status(int code, String retryAfter) {
            return new Reply(code, retryAfter, null);
        }

        /** Counts the batch's reports, then never answers (until the server stops): an unacknowledged send. */
        static Reply hang() {
            return new Reply(-1, null, null);
        }

        static Reply results(Function<List<DeviceReport>, List<ReportEnvelope.Result>> f) {
            return new Reply(200, null, f);
        }
    }

    /** A request as received. */
    record Request(Map<String, String> headers, List<DeviceReport> reports) {}

    private final HttpServer server;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private final Deque<Reply> script = new ArrayDeque<>();
    final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    /** Reports counted once per coordinates, in arrival order. */
    final Map<String, DeviceReport> counted = Collections.synchronizedMap(new LinkedHashMap<>());

    TestIngest() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/reports", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    synchronized TestIngest then(Reply r) {
        script.add(r);
        return this;
    }

    private synchronized Reply next() {
        return script.poll();
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            Map<String, String> headers = new LinkedHashMap<>();
            x.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), v.get(0)));
            InputStream in = x.getRequestBody();
            if ("gzip".equals(headers.get("content-encoding"))) {
                in = new GZIPInputStream(in);
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            in.transferTo(body);
            List<DeviceReport> reports;
            try {
                reports = ReportEnvelope.decode(body.toByteArray());
            } catch (ReportEnvelope.Malformed e) {
                x.sendResponseHeaders(400, -1);
                return;
            }
            requests.add(new Request(headers, reports));
            Reply r = next();
            if (r != null && r.status() == -1) {
                reports.forEach(d -> counted.putIfAbsent(d.dedupeKey(), d));
                try {
                    stopped.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            if (r != null && r.status() != 200) {
                if (r.retryAfter() != null) {
                    x.getResponseHeaders().add("Retry-After", r.retryAfter());
                }
                x.sendResponseHeaders(r.status(), -1);
                return;
            }
            List<ReportEnvelope.Result> results = new ArrayList<>();
            if (r != null) {
                results.addAll(r.results().apply(reports));
            } else {
                for (DeviceReport d : reports) {
                    boolean fresh = counted.putIfAbsent(d.dedupeKey(), d) == null;
                    results.add(new ReportEnvelope.Result(fresh ? ReportEnvelope.Status.ACCEPTED
                            : ReportEnvelope.Status.DUPLICATE, "", 0));
                }
            }
            byte[] answer = ReportEnvelope.encodeResults(results);
            x.getResponseHeaders().add("Content-Type", ReportEnvelope.RESULTS_CONTENT_TYPE);
            x.sendResponseHeaders(200, answer.length);
            x.getResponseBody().write(answer);
        }
    }

    /** How many reports arrived over the wire (resends included). */
    int received() {
        synchronized (requests) {
            return requests.stream().mapToInt(r -> r.reports().size()).sum();
        }
    }

    @Override
    public void close() {
        stopped.countDown();
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}

package io.privacygateway.app.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.app.http.HttpEndpoint.Response;
import io.privacygateway.app.http.HttpEndpoint.Work;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The bounds of the shared HTTP server: sizes, connections, worker queue, errors, HEAD, and the limits' checks. */
class HttpEndpointTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private HttpEndpoint start(HttpLimits limits, HttpEndpoint.Handler handler) throws IOException {
        HttpEndpoint e = HttpEndpoint.start("test", HttpEndpoint.DEFAULT_HOST, 0, limits, handler);
        open.add(e);
        return e;
    }

    /** Sends a request as written and reads until the server closes (the request asks it to). */
    private static String raw(int port, String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            try {
                return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (SocketException e) {
                return "reset";
            }
        }
    }

    private static final HttpEndpoint.Handler HELLO = r -> Response.text(200, "hello " + r.method() + "\n");

    @Test
    void oversizedBodiesHeadersAndRequestLinesAreRefused() throws Exception {
        HttpEndpoint e = start(HttpLimits.defaults().withMaxBodyBytes(10), HELLO);
        String ok = raw(e.port(), "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\nConnection: close\r\n\r\n0123456789");
        assertThat(ok).startsWith("HTTP/1.1 200").contains("Cache-Control: no-store")
                .contains("X-Content-Type-Options: nosniff").endsWith("hello POST\n");
        assertThat(raw(e.port(), "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n0123456789A"))
                .startsWith("HTTP/1.1 413");
        assertThat(raw(e.port(), "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "8\r\n01234567\r\n8\r\n01234567\r\n0\r\n\r\n")).startsWith("HTTP/1.1 413");
        String big = "x".repeat(20 * 1024);
        assertThat(raw(e.port(), "GET /x HTTP/1.1\r\nHost: h\r\nX-Big: " + big + "\r\nConnection: close\r\n\r\n"))
                .matches(r -> r.equals("reset") || r.matches("(?s)HTTP/1.[01] 431.*"), "431 or closed");
        assertThat(raw(e.port(), "GET /" + big + " HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"))
                .matches(r -> r.equals("reset") || r.matches("(?s)HTTP/1.[01] 414.*"), "414 or closed");
    }

    @Test
    void headAnswersTheHeadersAndNoBodyAndAThrowingHandlerAnswers500() throws Exception {
        HttpEndpoint e = start(HttpLimits.defaults(), r -> {
            if (r.path().equals("/boom")) {
                throw new IllegalStateException("boom");
            }
            if (r.path().equals("/later")) {
                return new Work(() -> {
                    throw new IOException("later");
                });
            }
            return HELLO.handle(r);
        });
        String head = raw(e.port(), "HEAD /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("content-length: 11").endsWith("\r\n\r\n");
        assertThat(raw(e.port(), "GET /boom HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 500").endsWith("internal error\n").doesNotContain("boom");
        assertThat(raw(e.port(), "GET /later HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 500");
    }

    @Test
    void connectionsBeyondTheLimitAreClosed() throws Exception {
        HttpEndpoint e = start(HttpLimits.defaults().withMaxConnections(2), HELLO);
        Socket a = new Socket(InetAddress.getLoopbackAddress(), e.port());
        Socket b = new Socket(InetAddress.getLoopbackAddress(), e.port());
        open.add(a);
        open.add(b);
        try (Socket c = new Socket(InetAddress.getLoopbackAddress(), e.port())) {
            c.setSoTimeout(10_000);
            int first;
            try {
                c.getOutputStream().write("GET / HTTP/1.1\r\nHost: h\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                first = c.getInputStream().read();
            } catch (SocketException x) {
                first = -1;
            }
            assertThat(first).as("the third connection is closed unanswered").isEqualTo(-1);
        }
        a.close();
        b.close();
        // once they are gone, new connections are answered again
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String r;
        do {
            r = raw(e.port(), "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        } while (!r.startsWith("HTTP/1.1 200") && System.nanoTime() < deadline);
        assertThat(r).startsWith("HTTP/1.1 200");
    }

    @Test
    void workBeyondTheQueueIsAnswered503AndTheProbesOnTheEventLoopStillAnswer() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        HttpLimits limits = new HttpLimits(Duration.ofSeconds(10), Duration.ofSeconds(30), 4096, 16 * 1024, 0, 16, 1, 1);
        HttpEndpoint e = start(limits, r -> r.path().equals("/slow") ? new Work(() -> {
            started.countDown();
            release.await(30, TimeUnit.SECONDS);
            return Response.text(200, "slow\n");
        }) : HELLO.handle(r));
        CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return raw(e.port(), "GET /slow HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
            } catch (IOException x) {
                throw new RuntimeException(x);
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        String busy = raw(e.port(), "GET /slow HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        assertThat(busy).startsWith("HTTP/1.1 503").contains("Retry-After: 1");
        assertThat(raw(e.port(), "GET /quick HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200");
        release.countDown();
        assertThat(slow.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200").endsWith("slow\n");
    }

    @Test
    void limitsOutOfRangeFailNamingTheField() {
        assertThatThrownBy(() -> HttpLimits.defaults().withTimeouts(Duration.ZERO))
                .hasMessageContaining("requestTimeout");
        assertThatThrownBy(() -> HttpLimits.defaults().withMaxConnections(0)).hasMessageContaining("maxConnections");
        assertThatThrownBy(() -> HttpLimits.defaults().withMaxBodyBytes(-1)).hasMessageContaining("maxBodyBytes");
        assertThatThrownBy(() -> HttpEndpoint.start("test", "127.0.0.1", 70_000, HttpLimits.defaults(), HELLO))
                .hasMessageContaining("port");
    }
}

package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link HttpTransport} against a test endpoint on loopback. */
class HttpTransportTest {
    TestIngest ingest;

    @BeforeEach
    void start() throws Exception {
        ingest = new TestIngest();
    }

    @AfterEach
    void stop() {
        ingest.close();
    }

    static DeviceReport report(int seq) {
        return DeviceReport.local("w", 1, "00".repeat(32), new ReportCoordinates("d", 1, seq), TestSpecs.T0, "grr",
                1.0, new byte[] {(byte) seq}, 1);
    }

    @Test
    void postsTheEnvelopeWithTheBearerCredentialAndReadsPerReportResults() throws Exception {
        HttpTransport t = HttpTransport.builder(ingest.baseUrl()).credential("cred-1").gzip(true).build();
        ingest.then(TestIngest.Reply.results(batch -> List.of(
                new ReportEnvelope.Result(ReportEnvelope.Status.ACCEPTED, "", 0),
                new ReportEnvelope.Result(ReportEnvelope.Status.REJECTED, "VERSION_MISMATCH", 0))));
        List<ReportEnvelope.Result> r = t.send(List.of(report(0), report(1)));
        assertThat(r).extracting(ReportEnvelope.Result::status)
                .containsExactly(ReportEnvelope.Status.ACCEPTED, ReportEnvelope.Status.REJECTED);
        assertThat(r.get(1).reason()).isEqualTo("VERSION_MISMATCH");
        TestIngest.Request req = ingest.requests.get(0);
        assertThat(req.headers()).containsEntry("authorization", "Bearer cred-1")
                .containsEntry("content-type", ReportEnvelope.REPORTS_CONTENT_TYPE)
                .containsEntry("content-encoding", "gzip");
        assertThat(req.reports()).containsExactly(report(0), report(1));
    }

    @Test
    void statusCodesMapToRetryTooLargeOrPermanent() {
        HttpTransport t = HttpTransport.builder(ingest.baseUrl()).build();
        ingest.then(TestIngest.Reply.status(429, "7")).then(TestIngest.Reply.status(503, null))
                .then(TestIngest.Reply.status(400, null)).then(TestIngest.Reply.status(401, null))
                .then(TestIngest.Reply.status(413, null));
        assertThatThrownBy(() -> t.send(List.of(report(0)))).isInstanceOfSatisfying(TransportException.class, e -> {
            assertThat(e.kind()).isEqualTo(TransportException.Kind.RETRY);
            assertThat(e.retryAfterMillis()).isEqualTo(7_000);
            assertThat(e.reason()).isEqualTo("HTTP_429");
        });
        assertThatThrownBy(() -> t.send(List.of(report(0)))).isInstanceOfSatisfying(TransportException.class,
                e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.RETRY));
        assertThatThrownBy(() -> t.send(List.of(report(0)))).isInstanceOfSatisfying(TransportException.class,
                e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.PERMANENT));
        assertThatThrownBy(() -> t.send(List.of(report(0)))).isInstanceOfSatisfying(TransportException.class, e -> {
            assertThat(e.kind()).isEqualTo(TransportException.Kind.PERMANENT);
            assertThat(e.reason()).isEqualTo("CREDENTIAL");
        });
        assertThatThrownBy(() -> t.send(List.of(report(0)))).isInstanceOfSatisfying(TransportException.class,
                e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.TOO_LARGE));
    }

    @Test
    void anUnreachableEndpointIsRetryable() throws Exception {
        String url = ingest.baseUrl();
        ingest.close();
        HttpTransport t = HttpTransport.builder(url).build();
        assertThatThrownBy(() -> t.send(List.of(report(0)))).isInstanceOfSatisfying(TransportException.class, e -> {
            assertThat(e.kind()).isEqualTo(TransportException.Kind.RETRY);
            assertThat(e.reason()).isEqualTo("IO");
        });
    }

    @Test
    void retryAfterReadsSecondsAndDates() {
        assertThat(HttpTransport.retryAfterMillis("120", 0)).isEqualTo(120_000);
        assertThat(HttpTransport.retryAfterMillis("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_470_000L))
                .isEqualTo(10_000);
        assertThat(HttpTransport.retryAfterMillis("soon", 0)).isZero();
        assertThat(HttpTransport.retryAfterMillis(null, 0)).isZero();
        assertThat(HttpTransport.retryAfterMillis("99999999", 0)).isEqualTo(86_400_000L);
    }

    @Test
    void plainHttpOnlyOnLoopbackAndBadFieldsAreNamed() {
        assertThatThrownBy(() -> HttpTransport.builder("http://ingest.example.com")).hasMessageContaining("baseUrl");
        assertThatThrownBy(() -> HttpTransport.builder("ftp://x")).hasMessageContaining("baseUrl");
        assertThat(HttpTransport.builder("https://ingest.example.com/").build().endpoint().toString())
                .isEqualTo("https://ingest.example.com/v1/reports");
        assertThatThrownBy(() -> HttpTransport.builder("https://x").credential("a b")).hasMessageContaining("credential");
        assertThatThrownBy(() -> HttpTransport.builder("https://x").maxBatch(0)).hasMessageContaining("maxBatch");
    }
}

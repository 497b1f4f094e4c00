package io.privacygateway.app.answers;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The answers API without a store (no broker): before the gateway runs every query is 503 with {@code Retry-After}
 * (parameters are still checked first), the OpenAPI document is served, other paths are 404, and the content type
 * follows {@code format} or else {@code Accept}, weighing q-values.
 */
class AnswersServerTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void withoutAStoreQueriesAre503AndTheDocumentIsServed() throws Exception {
        try (AnswersServer api = AnswersServer.start(AnswersOptions.onPort(0), () -> null, id -> true)) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(api.answersUrl("screen-usage")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(r.body()).contains("\"error\":\"unavailable\"");
            assertThat(HTTP.send(HttpRequest.newBuilder(api.answersUrl("screen-usage?limit=x")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(400);
            assertThat(HTTP.send(HttpRequest.newBuilder(api.base().resolve("v1/openapi.json")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            assertThat(HTTP.send(HttpRequest.newBuilder(api.base().resolve("metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
            assertThat(api.base().getHost()).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void formatWinsOverAcceptAndAcceptWeighsItsTypes() throws Exception {
        assertThat(AnswersServer.format(null, null)).isEqualTo(AnswersServer.Format.JSON);
        assertThat(AnswersServer.format(null, "*/*")).isEqualTo(AnswersServer.Format.JSON);
        assertThat(AnswersServer.format(null, "text/csv")).isEqualTo(AnswersServer.Format.CSV);
        assertThat(AnswersServer.format(null, "application/json;q=0.5, text/csv")).isEqualTo(AnswersServer.Format.CSV);
        assertThat(AnswersServer.format(null, "application/ndjson")).isEqualTo(AnswersServer.Format.NDJSON);
        assertThat(AnswersServer.format("ndjson", "text/csv")).isEqualTo(AnswersServer.Format.NDJSON);
        assertThat(AnswersServer.format("CSV", null)).isEqualTo(AnswersServer.Format.CSV);
    }
}

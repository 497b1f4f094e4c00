package io.privacygateway.schemas.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A few calls of the Confluent Schema Registry REST API over plain java.net.http. */
final class CcompatClient {

    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    static final ObjectMapper JSON = new ObjectMapper();

    record Response(int status, JsonNode body) {
        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    private final String baseUrl;
    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    CcompatClient(String ccompatUrl) {
        this.baseUrl = ccompatUrl;
    }

    /** POST /subjects/{subject}/versions with {"schema": "<avsc>"}. */
    Response register(String subject, String avsc) {
        return send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(avsc));
    }

    /** GET /schemas/ids/{id}. */
    Response schemaById(long id) {
        return send("GET", "/schemas/ids/" + id, null);
    }

    /** PUT /config/{subject} with {"compatibility": level}. */
    Response setCompatibility(String subject, String level) {
        ObjectNode body = JSON.createObjectNode().put("compatibility", level);
        return send("PUT", "/config/" + encode(subject), body.toString());
    }

    /** GET /config/{subject}. */
    Response compatibility(String subject) {
        return send("GET", "/config/" + encode(subject), null);
    }

    /** POST /compatibility/subjects/{subject}/versions/latest with {"schema": "<avsc>"}. */
    Response checkAgainstLatest(String subject, String avsc) {
        return send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", schemaBody(avsc));
    }

    /** GET /subjects/{subject}/versions. */
    Response versions(String subject) {
        return send("GET", "/subjects/" + encode(subject) + "/versions", null);
    }

    private static String schemaBody(String avsc) {
        // Jackson escapes the schema text into a JSON string.
        return JSON.createObjectNode().put("schema", avsc).toString();
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private Response send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Accept", CONTENT_TYPE);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", CONTENT_TYPE)
                    .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String text = response.body();
            JsonNode json = text == null || text.isBlank() ? JSON.nullNode() : JSON.readTree(text);
            return new Response(response.statusCode(), json);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

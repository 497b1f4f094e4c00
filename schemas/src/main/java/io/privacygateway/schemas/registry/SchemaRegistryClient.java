package io.privacygateway.schemas.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.apache.avro.Schema;

/**
 * A client of the Confluent Schema Registry REST API (v7; Apicurio's {@code /apis/ccompat/v7}
 * speaks it), for Avro schemas, over {@code java.net.http}.
 *
 * <p><b>Caches.</b> Successful answers are cached for the life of the client: schema → id per
 * subject (from {@link #register} and {@link #lookupId}) and id → schema (from {@link #getById} and
 * from registrations). Ids and the schemas behind them never change in a registry, so steady-state
 * serialization and deserialization make no HTTP request; {@link #requestCount()} counts the ones
 * made. Unknown ids are remembered for {@link SchemaRegistryConfig#missingIdCacheTtl()}.
 * {@link #latest}, compatibility checks and configuration are never cached. Cache keys are
 * {@link Schema} objects ({@link Schema#equals}: structure, names and properties, not docs).
 *
 * <p><b>Text sent.</b> Schemas are registered as {@link Schema#toString()}, the compact JSON that
 * Confluent's serializers send too; Apicurio compares schema <em>text</em>, so always sending the
 * same rendering keeps registration idempotent there.
 *
 * <p><b>Errors.</b> Every failure is a {@link SchemaRegistryException} with the HTTP status and
 * Confluent error code and message. Thread-safe.
 */
public final class SchemaRegistryClient implements AutoCloseable {

    /** Content type of the Confluent API. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_MISSING_IDS = 10_000;

    private final SchemaRegistryConfig config;
    private final HttpClient http;
    private final String authorization;
    private final LongSupplier nanoClock;
    private final LongAdder requests = new LongAdder();
    private final Map<String, Map<Schema, Integer>> idsBySubject = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<Integer, Long> missingIdsUntil = new ConcurrentHashMap<>();

    public SchemaRegistryClient(SchemaRegistryConfig config) {
        this(config, System::nanoTime);
    }

    /** With an injected monotonic clock (nanoseconds) for the missing-id cache; for tests. */
    SchemaRegistryClient(SchemaRegistryConfig config, LongSupplier nanoClock) {
        this.config = Objects.requireNonNull(config, "config");
        this.nanoClock = nanoClock;
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER);
        if (config.sslContext() != null) {
            builder.sslContext(config.sslContext());
        }
        this.http = builder.build();
        this.authorization = config.basicAuthUserInfo() == null ? null : "Basic " + Base64.getEncoder()
                .encodeToString(config.basicAuthUserInfo().getBytes(StandardCharsets.UTF_8));
    }

    /** A client for one URL with default settings. */
    public static SchemaRegistryClient forUrl(String url) {
        return new SchemaRegistryClient(SchemaRegistryConfig.of(url));
    }

    /** A client from a Kafka-style config map (see {@link SchemaRegistryConfig} for the keys). */
    public static SchemaRegistryClient fromConfigs(Map<String, ?> configs) {
        return new SchemaRegistryClient(SchemaRegistryConfig.fromMap(configs));
    }

    public SchemaRegistryConfig config() {
        return config;
    }

    /** The Confluent subject of a topic's values under TopicNameStrategy: {@code <topic>-value}. */
    public static String valueSubject(String topic) {
        return topic + "-value";
    }

    /** The Confluent subject of a topic's keys under TopicNameStrategy: {@code <topic>-key}. */
    public static String keySubject(String topic) {
        return topic + "-key";
    }

    // ---- schemas ----------------------------------------------------------------------------------

    /**
     * Registers {@code schema} under {@code subject} (idempotent: an already registered schema
     * keeps its id and adds no version) and returns its id. Cached.
     *
     * @throws SchemaRegistryException 409 if it breaks the subject's compatibility level, 422 if
     *     the registry rejects the schema
     */
    public int register(String subject, Schema schema) {
        Map<Schema, Integer> ids = idsBySubject.computeIfAbsent(subject, s -> new ConcurrentHashMap<>());
        Integer cached = ids.get(schema);
        if (cached != null) {
            return cached;
        }
        ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
        JsonNode answer = send("POST", "/subjects/" + encode(subject) + "/versions", body);
        int id = requiredInt(answer, "id", "POST /subjects/" + subject + "/versions");
        ids.put(schema, id);
        schemasById.putIfAbsent(id, schema);
        missingIdsUntil.remove(id);
        return id;
    }

    /**
     * The id of {@code schema} if it is already registered under {@code subject}, without
     * registering it. Cached.
     *
     * @throws SchemaRegistryException 404 with 40401 (no such subject) or 40403 (not registered)
     */
    public int lookupId(String subject, Schema schema) {
        Map<Schema, Integer> ids = idsBySubject.computeIfAbsent(subject, s -> new ConcurrentHashMap<>());
        Integer cached = ids.get(schema);
        if (cached != null) {
            return cached;
        }
        ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
        JsonNode answer = send("POST", "/subjects/" + encode(subject), body);
        int id = requiredInt(answer, "id", "POST /subjects/" + subject);
        ids.put(schema, id);
        schemasById.putIfAbsent(id, schema);
        return id;
    }

    /**
     * The schema with registry id {@code id}. Cached; an unknown id is remembered as unknown for
     * the configured TTL (and answered without a request meanwhile).
     *
     * @throws SchemaRegistryException 404 with 40403 if there is no such id
     */
    public Schema getById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        String request = "GET /schemas/ids/" + id;
        Long until = missingIdsUntil.get(id);
        if (until != null) {
            if (nanoClock.getAsLong() - until < 0) {
                throw new SchemaRegistryException(request + " (cached)", 404, SchemaRegistryException.SCHEMA_NOT_FOUND,
                        "schema id " + id + " was not found recently", null);
            }
            missingIdsUntil.remove(id, until);
        }
        JsonNode answer;
        try {
            answer = send("GET", "/schemas/ids/" + id, null);
        } catch (SchemaRegistryException e) {
            if (e.isNotFound() && !config.missingIdCacheTtl().isZero()) {
                if (missingIdsUntil.size() >= MAX_MISSING_IDS) {
                    missingIdsUntil.clear();
                }
                missingIdsUntil.put(id, nanoClock.getAsLong() + config.missingIdCacheTtl().toNanos());
            }
            throw e;
        }
        Schema schema = parse(requiredText(answer, "schema", request), request);
        Schema previous = schemasById.putIfAbsent(id, schema);
        return previous != null ? previous : schema;
    }

    /** The latest version of {@code subject}. Not cached. */
    public RegisteredSchema latest(String subject) {
        return version(subject, "latest");
    }

    /** Version {@code version} (1, 2, ...) of {@code subject}. Not cached. */
    public RegisteredSchema version(String subject, int version) {
        return version(subject, Integer.toString(version));
    }

    private RegisteredSchema version(String subject, String version) {
        String path = "/subjects/" + encode(subject) + "/versions/" + version;
        JsonNode answer = send("GET", path, null);
        String request = "GET " + path;
        int id = requiredInt(answer, "id", request);
        Schema schema = parse(requiredText(answer, "schema", request), request);
        Schema previous = schemasById.putIfAbsent(id, schema);
        return new RegisteredSchema(subject, id, requiredInt(answer, "version", request),
                previous != null ? previous : schema);
    }

    /** The subjects in the registry. Not cached. */
    public List<String> subjects() {
        JsonNode answer = send("GET", "/subjects", null);
        List<String> out = new ArrayList<>();
        answer.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The version numbers of {@code subject}. Not cached. */
    public List<Integer> versions(String subject) {
        JsonNode answer = send("GET", "/subjects/" + encode(subject) + "/versions", null);
        List<Integer> out = new ArrayList<>();
        answer.forEach(n -> out.add(n.asInt()));
        return out;
    }

    // ---- compatibility ----------------------------------------------------------------------------

    /**
     * Whether {@code schema} could be registered under {@code subject} at its current
     * compatibility level (checked against the latest version; with a transitive level the
     * registry checks all versions). A subject with no versions accepts anything.
     */
    public CompatibilityResult testCompatibility(String subject, Schema schema) {
        ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
        JsonNode answer;
        try {
            answer = send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest?verbose=true", body);
        } catch (SchemaRegistryException e) {
            if (e.errorCode() == SchemaRegistryException.SUBJECT_NOT_FOUND
                    || e.errorCode() == SchemaRegistryException.VERSION_NOT_FOUND) {
                return new CompatibilityResult(true, List.of("subject " + subject + " has no versions yet"));
            }
            throw e;
        }
        JsonNode flag = answer.get("is_compatible");
        if (flag == null || !flag.isBoolean()) {
            throw malformed("POST /compatibility/subjects/" + subject + "/versions/latest", answer, "is_compatible");
        }
        List<String> messages = new ArrayList<>();
        JsonNode list = answer.get("messages");
        if (list != null && list.isArray()) {
            list.forEach(m -> messages.add(m.asText()));
        }
        JsonNode reason = answer.get("reason");   // Apicurio
        if (reason != null && reason.isTextual() && !reason.asText().isBlank()) {
            messages.add(reason.asText());
        }
        return new CompatibilityResult(flag.asBoolean(), messages);
    }

    /** Sets the compatibility level of one subject; returns the level the registry confirmed. */
    public CompatibilityLevel setCompatibility(String subject, CompatibilityLevel level) {
        return putConfig("/config/" + encode(subject), level);
    }

    /** Sets the registry-wide default compatibility level. */
    public CompatibilityLevel setGlobalCompatibility(CompatibilityLevel level) {
        return putConfig("/config", level);
    }

    /** The subject's compatibility level, falling back to the global level if it has none. */
    public CompatibilityLevel getCompatibility(String subject) {
        return readLevel(send("GET", "/config/" + encode(subject) + "?defaultToGlobal=true", null),
                "GET /config/" + subject);
    }

    /** The registry-wide default compatibility level. */
    public CompatibilityLevel getGlobalCompatibility() {
        return readLevel(send("GET", "/config", null), "GET /config");
    }

    private CompatibilityLevel putConfig(String path, CompatibilityLevel level) {
        ObjectNode body = JSON.createObjectNode().put("compatibility", level.name());
        JsonNode answer = send("PUT", path, body);
        JsonNode confirmed = answer.get("compatibility");
        if (confirmed == null || !confirmed.isTextual()) {
            throw malformed("PUT " + path, answer, "compatibility");
        }
        return level(confirmed.asText(), "PUT " + path, answer);
    }

    private static CompatibilityLevel readLevel(JsonNode answer, String request) {
        JsonNode level = answer.get("compatibilityLevel");
        if (level == null) {
            level = answer.get("compatibility");
        }
        if (level == null || !level.isTextual()) {
            throw malformed(request, answer, "compatibilityLevel");
        }
        return level(level.asText(), request, answer);
    }

    private static CompatibilityLevel level(String text, String request, JsonNode answer) {
        try {
            return CompatibilityLevel.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw new SchemaRegistryException(request, 200, 0, "unknown compatibility level in " + answer, e);
        }
    }

    // ---- bookkeeping ------------------------------------------------------------------------------

    /** HTTP requests sent so far (each attempt on each URL counts). */
    public long requestCount() {
        return requests.sum();
    }

    /** Drops every cached answer (the next calls ask the registry again). */
    public void clearCaches() {
        idsBySubject.clear();
        schemasById.clear();
        missingIdsUntil.clear();
    }

    /** Nothing to release on JDK 17 ({@link HttpClient} has no close); for try-with-resources. */
    @Override
    public void close() {
        clearCaches();
    }

    @Override
    public String toString() {
        return "SchemaRegistryClient[" + config + "]";
    }

    // ---- HTTP -------------------------------------------------------------------------------------

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static Schema parse(String text, String request) {
        try {
            return new Schema.Parser().parse(text);
        } catch (RuntimeException e) {   // SchemaParseException and other AvroRuntimeExceptions
            throw new SchemaRegistryException(request, 200, 0, "the registry returned a schema that Avro cannot parse: "
                    + e.getMessage(), e);
        }
    }

    private static int requiredInt(JsonNode answer, String field, String request) {
        JsonNode v = answer.get(field);
        if (v == null || !v.canConvertToInt()) {
            throw malformed(request, answer, field);
        }
        return v.asInt();
    }

    private static String requiredText(JsonNode answer, String field, String request) {
        JsonNode v = answer.get(field);
        if (v == null || !v.isTextual()) {
            throw malformed(request, answer, field);
        }
        return v.asText();
    }

    private static SchemaRegistryException malformed(String request, JsonNode answer, String field) {
        return new SchemaRegistryException(request, 200, 0, "answer lacks \"" + field + "\": " + abbreviate(
                String.valueOf(answer)), null);
    }

    private static String abbreviate(String s) {
        return s.length() <= 500 ? s : s.substring(0, 500) + "...";
    }

    /**
     * Sends one request to the first URL that answers and returns the parsed JSON body of a 2xx
     * answer; anything else is a {@link SchemaRegistryException}.
     */
    private JsonNode send(String method, String pathAndQuery, JsonNode body) {
        String request = method + " " + pathAndQuery;
        SchemaRegistryException lastFailure = null;
        for (URI base : config.urls()) {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                    .timeout(config.requestTimeout())
                    .header("Accept", CONTENT_TYPE + ", application/json");
            if (authorization != null) {
                builder.header("Authorization", authorization);
            }
            if (body == null) {
                builder.method(method, HttpRequest.BodyPublishers.noBody());
            } else {
                builder.header("Content-Type", CONTENT_TYPE)
                        .method(method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
            }
            HttpResponse<String> response;
            requests.increment();
            try {
                response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                lastFailure = new SchemaRegistryException(request + " at " + base, SchemaRegistryException.NO_RESPONSE,
                        0, e.toString(), e);
                continue;   // try the next URL
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException(request + " at " + base, SchemaRegistryException.NO_RESPONSE, 0,
                        "interrupted", e);
            }
            return answer(request + " at " + base, response);
        }
        throw lastFailure;
    }

    private static JsonNode answer(String request, HttpResponse<String> response) {
        int status = response.statusCode();
        String text = response.body() == null ? "" : response.body();
        JsonNode json = null;
        if (!text.isBlank()) {
            try {
                json = JSON.readTree(text);
            } catch (JsonProcessingException e) {
                if (status / 100 == 2) {
                    throw new SchemaRegistryException(request, status, 0, "answer is not JSON: " + abbreviate(text), e);
                }
            }
        }
        if (status / 100 == 2) {
            return json == null ? JSON.nullNode() : json;
        }
        int errorCode = 0;
        String message = abbreviate(text);
        if (json != null && json.isObject()) {
            errorCode = json.path("error_code").asInt(0);
            if (json.hasNonNull("message")) {
                message = json.get("message").asText();
            }
        }
        throw new SchemaRegistryException(request, status, errorCode, message, null);
    }
}

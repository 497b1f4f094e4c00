package io.privacygateway.schemas.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.apache.avro.Schema;

/**
 * A client of the Confluent Schema Registry REST API (v7; Apicurio's {@code /apis/ccompat/v7}
 * speaks it), for Avro schemas, over {@code java.net.http}.
 *
 * <p><b>Caches.</b> Successful answers are cached for the life of the client: schema → id per
 * subject (from {@link #register} and {@link #lookupId}), id → schema, and the ids registered under
 * each subject that {@link #schemaUnderSubject} was asked about. Ids and the schemas behind them
 * never change in a registry, so steady-state serialization and deserialization make no HTTP
 * request; {@link #requestCount()} counts the ones made. {@link #latest}, compatibility checks and
 * configuration are never cached. Cache keys are {@link Schema} objects ({@link Schema#equals}:
 * structure, names and properties, not docs).
 *
 * <p><b>Unknown ids cost little.</b> A record can carry any 32-bit schema id, so what an unknown
 * id costs is bounded, whatever the number of distinct ids (all limits from
 * {@link SchemaRegistryConfig}; "interval" is {@link SchemaRegistryConfig#lookupInterval()}):
 * <ul>
 *   <li>{@link #schemaUnderSubject} (what deserializers use) answers from the subject's list of
 *       ids. An id not in the list makes the client list the subject's versions again (one request,
 *       plus one per version it has not seen, ever), so an id is answered "not under this subject"
 *       only by a listing that began after it was asked about: a version registered a moment after
 *       an earlier listing is found, never refused because of it. Such listings are paced per
 *       subject: at most {@link SchemaRegistryConfig#maxIdLookupsPerInterval()} per interval, in
 *       bursts of at most that many, evenly refilled; beyond that the id is not asked about
 *       ({@link SchemaRegistryException#isPaced()}) and nothing is concluded or remembered about
 *       it. Any later listing (whoever's unknown id triggers it) finds a newly registered version,
 *       so under a flood of unknown ids a new version is found within one refill
 *       ({@code interval / maxIdLookupsPerInterval}).</li>
 *   <li>{@link #getById} (for readers without a subject) sends at most
 *       {@link SchemaRegistryConfig#maxIdLookupsPerInterval()} requests per interval, and remembers
 *       ids answered 40403 for {@link SchemaRegistryConfig#missingIdCacheTtl()} in a cache bounded
 *       by count ({@link SchemaRegistryConfig#missingIdCacheSize()}, least recently used out).</li>
 *   <li>When such a request fails (no answer, timeout, 5xx, a 404 without a registry error code,
 *       an unreadable answer), both kinds of lookup pause for one interval: they fail at once
 *       with {@link SchemaRegistryException#NOT_SENT}. Each listing (its requests together) and each
 *       lookup waits at most one request timeout, answer body included. So a caller waits at most
 *       one request timeout, then at least one interval passes before it can wait again.</li>
 * </ul>
 * Only the registry's "not found" codes (40401, 40402, 40403 in its error JSON) are ever read as
 * "does not exist"; every other failure is reported as such and never cached.
 *
 * <p><b>Text sent.</b> Schemas are registered as {@link Schema#toString()}, the compact JSON that
 * Confluent's serializers send too; Apicurio compares schema <em>text</em>, so always sending the
 * same rendering keeps registration idempotent there.
 *
 * <p><b>Errors.</b> Every failure is a {@link SchemaRegistryException} with the HTTP status and
 * Confluent error code and message. Thread-safe. Answers larger than {@value #MAX_ANSWER_BYTES}
 * bytes are not read.
 */
public final class SchemaRegistryClient implements AutoCloseable {

    /** Content type of the Confluent API. */
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    /** The largest answer body read; a larger one is a failure (no usable response). */
    public static final int MAX_ANSWER_BYTES = 16 << 20;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SchemaRegistryConfig config;
    private final HttpClient http;
    private final String authorization;
    private final LongSupplier nanoClock;
    private final LongAdder requests = new LongAdder();
    private final Map<String, Map<Schema, Integer>> idsBySubject = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<String, SubjectIds> subjects = new ConcurrentHashMap<>();

    /** Guards the lookup-by-id state below, and serializes lookups of uncached ids. */
    private final Object idLookupLock = new Object();
    /** Ids answered 40403 → when to forget them (nanoClock); access order, bounded. */
    private final LinkedHashMap<Integer, Long> missingIds;
    private boolean idWindowOpen;
    private long idWindowStart;
    private int idWindowCount;

    /** After a failed lookup of an unknown id: when lookups may resume, and why they stopped. */
    private record Pause(long until, String cause) {}

    private volatile Pause pause;

    public SchemaRegistryClient(SchemaRegistryConfig config) {
        this(config, System::nanoTime);
    }

    /**
     * With an injected monotonic clock (nanoseconds, as {@link System#nanoTime}) for the lookup
     * interval, the pause after failures and the missing-id cache. Request timeouts are enforced
     * by the HTTP client and by waiting on the answer, in real time.
     */
    public SchemaRegistryClient(SchemaRegistryConfig config, LongSupplier nanoClock) {
        this.config = Objects.requireNonNull(config, "config");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
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
        int capacity = config.missingIdCacheSize();
        this.missingIds = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /** A client for one URL with default settings. */
    public static SchemaRegistryClient forUrl(String url) {
        return new SchemaRegistryClient(SchemaRegistryConfig.of(url));
    }

    /**
     * A client from a map of registry settings; every key must be a registry key (see
     * {@link SchemaRegistryConfig#fromMap}).
     */
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
        known(subject, id, schema);
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
        known(subject, id, schema);
        return id;
    }

    /**
     * The writer schema of {@code id} if {@code id} is registered under {@code subject}: the lookup
     * deserializers make for every schema id they have not resolved yet.
     *
     * <p>Answered from the subject's list of ids. If {@code id} is not in it, the list is fetched
     * again ({@code GET /subjects/{subject}/versions}, then {@code GET .../versions/{v}} for each
     * version not seen before), unless a listing that began after this call did (a concurrent
     * caller's), so the answer "not registered" always comes from the registry after the question.
     * Listings are paced per subject (see the class comment). A subject the registry does not know
     * (40401) has no ids.
     *
     * @return the schema, or {@code null} if {@code id} is not registered under {@code subject}
     *     according to a listing that began after this call (nothing is remembered about the id)
     * @throws SchemaRegistryException if the list could not be fetched, or lookups are paused after
     *     a failure ({@link SchemaRegistryException#NOT_SENT}), or this subject's listings are paced
     *     ({@link SchemaRegistryException#isPaced()}): the answer is unknown
     */
    public Schema schemaUnderSubject(String subject, int id) {
        SubjectIds s = subjects.computeIfAbsent(subject, SubjectIds::new);
        Schema known = s.schemas.get(id);
        if (known != null) {
            return known;
        }
        long asked = nanoClock.getAsLong();
        synchronized (s) {   // one listing at a time; a caller that waited sees its result
            known = s.schemas.get(id);
            if (known != null) {
                return known;
            }
            if (s.listed && s.listStartedAt - asked > 0) {
                return null; // a listing that began after this question: the registry's own answer
            }
            long now = nanoClock.getAsLong();
            String request = "GET /subjects/" + subject + "/versions";
            checkNotPaused(now, request);
            if (!s.takeListing(now, config.lookupInterval().toNanos(), config.maxIdLookupsPerInterval())) {
                throw new SchemaRegistryException(request, SchemaRegistryException.NOT_SENT,
                        SchemaRegistryException.PACED, "subject " + subject + " was already listed "
                                + config.maxIdLookupsPerInterval() + " times for unknown ids in the last "
                                + config.lookupInterval() + "; schema id " + id + " was not asked about", null);
            }
            refresh(s, now);
            return s.schemas.get(id);
        }
    }

    /** Fetches the subject's versions not seen before, from {@code start}; the caller holds {@code s}'s monitor. */
    private void refresh(SubjectIds s, long start) {
        long deadline = nanoClock.getAsLong() + config.requestTimeout().toNanos();
        String path = "/subjects/" + encode(s.subject) + "/versions";
        try {
            List<Integer> versions;
            try {
                versions = intList(send("GET", path, null, deadline), "GET " + path);
            } catch (SchemaRegistryException e) {
                if (!e.isSubjectNotFound()) {
                    throw e;
                }
                versions = List.of();
            }
            for (int v : versions) {
                if (s.idsByVersion.containsKey(v)) {
                    continue;
                }
                RegisteredSchema r;
                try {
                    r = version(s.subject, Integer.toString(v), deadline);
                } catch (SchemaRegistryException e) {
                    if (e.isVersionNotFound() || e.isSubjectNotFound()) {
                        continue;   // deleted since it was listed
                    }
                    throw e;
                }
                s.idsByVersion.put(v, r.id());
            }
            s.listed = true;
            s.listStartedAt = start;
        } catch (SchemaRegistryException e) {
            pauseAfter(e);
            throw e;
        }
    }

    /**
     * The schema with registry id {@code id}, for readers that have no subject. Cached. An id the
     * registry answers 40403 for is remembered as unknown for the configured TTL (and answered
     * without a request meanwhile); at most
     * {@link SchemaRegistryConfig#maxIdLookupsPerInterval()} uncached ids are looked up per lookup
     * interval.
     *
     * @throws SchemaRegistryException 404 with 40403 if there is no such id;
     *     {@link SchemaRegistryException#NOT_SENT} if the rate limit is reached or lookups are
     *     paused after a failure; any other failure of the request
     */
    public Schema getById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        String request = "GET /schemas/ids/" + id;
        synchronized (idLookupLock) {
            cached = schemasById.get(id);
            if (cached != null) {
                return cached;
            }
            long now = nanoClock.getAsLong();
            Long forgetAt = missingIds.get(id);
            if (forgetAt != null) {
                if (now - forgetAt < 0) {
                    throw new SchemaRegistryException(request + " (remembered)", 404,
                            SchemaRegistryException.SCHEMA_NOT_FOUND, "schema id " + id
                                    + " was answered 40403 within the last " + config.missingIdCacheTtl(), null);
                }
                missingIds.remove(id);
            }
            checkNotPaused(now, request);
            long interval = config.lookupInterval().toNanos();
            if (!idWindowOpen || now - idWindowStart >= interval) {
                idWindowOpen = true;
                idWindowStart = now;
                idWindowCount = 0;
            }
            if (idWindowCount >= config.maxIdLookupsPerInterval()) {
                throw new SchemaRegistryException(request, SchemaRegistryException.NOT_SENT, 0,
                        config.maxIdLookupsPerInterval() + " uncached ids were already looked up in this interval of "
                                + config.lookupInterval() + "; lookups resume in "
                                + millisUntil(now, idWindowStart + interval) + " ms", null);
            }
            idWindowCount++;
            Schema schema;
            try {
                JsonNode answer = send("GET", "/schemas/ids/" + id, null, now + config.requestTimeout().toNanos());
                schema = parse(requiredText(answer, "schema", request), request);
            } catch (SchemaRegistryException e) {
                if (e.isSchemaNotFound()) {
                    if (!config.missingIdCacheTtl().isZero()) {
                        missingIds.put(id, nanoClock.getAsLong() + config.missingIdCacheTtl().toNanos());
                    }
                } else {
                    pauseAfter(e);
                }
                throw e;
            }
            Schema previous = schemasById.putIfAbsent(id, schema);
            return previous != null ? previous : schema;
        }
    }

    private void checkNotPaused(long now, String request) {
        Pause p = pause;
        if (p != null && now - p.until() < 0) {
            throw new SchemaRegistryException(request, SchemaRegistryException.NOT_SENT, 0,
                    "lookups of unknown schema ids are paused for " + millisUntil(now, p.until())
                            + " ms after a failure: " + p.cause(), null);
        }
    }

    private void pauseAfter(SchemaRegistryException e) {
        pause = new Pause(nanoClock.getAsLong() + config.lookupInterval().toNanos(), e.getMessage());
    }

    private static long millisUntil(long now, long then) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(then - now));
    }

    /** The latest version of {@code subject}. Not cached. */
    public RegisteredSchema latest(String subject) {
        return version(subject, "latest", Long.MIN_VALUE);
    }

    /** Version {@code version} (1, 2, ...) of {@code subject}. Not cached. */
    public RegisteredSchema version(String subject, int version) {
        return version(subject, Integer.toString(version), Long.MIN_VALUE);
    }

    private RegisteredSchema version(String subject, String version, long deadline) {
        String path = "/subjects/" + encode(subject) + "/versions/" + version;
        JsonNode answer = send("GET", path, null, deadline);
        String request = "GET " + path;
        int id = requiredInt(answer, "id", request);
        int number = requiredInt(answer, "version", request);
        Schema schema = parse(requiredText(answer, "schema", request), request);
        return new RegisteredSchema(subject, id, number, known(subject, id, schema));
    }

    /** Records that {@code id} is registered under {@code subject}; returns the cached schema of the id. */
    private Schema known(String subject, int id, Schema schema) {
        Schema previous = schemasById.putIfAbsent(id, schema);
        Schema canonical = previous != null ? previous : schema;
        subjects.computeIfAbsent(subject, SubjectIds::new).add(id, canonical);
        return canonical;
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
        String path = "/subjects/" + encode(subject) + "/versions";
        return intList(send("GET", path, null), "GET " + path);
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
            if (e.isSubjectNotFound() || e.isVersionNotFound()) {
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

    /** Drops every cached answer, remembered unknown id and pause (the next calls ask the registry again). */
    public void clearCaches() {
        idsBySubject.clear();
        schemasById.clear();
        subjects.clear();
        synchronized (idLookupLock) {
            missingIds.clear();
            idWindowOpen = false;
        }
        pause = null;
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

    /** The ids known to be registered under one subject, and its versions already fetched. */
    private static final class SubjectIds {
        final String subject;
        /** Copy-on-write snapshot: read without locking on every unresolved id. Never shrinks. */
        volatile Map<Integer, Schema> schemas = Map.of();
        /** Guarded by this. */
        final Map<Integer, Integer> idsByVersion = new HashMap<>();
        /** Guarded by this: whether a listing succeeded, and when the last successful one began (nanoClock). */
        boolean listed;
        long listStartedAt;
        /** Guarded by this: listing credit in nanoseconds of the interval (a listing costs interval / max), or -1. */
        private long credit = -1;
        private long creditAt;

        SubjectIds(String subject) {
            this.subject = subject;
        }

        /**
         * Takes one listing from this subject's allowance (a bucket of {@code max} listings refilled at {@code max}
         * per {@code interval}); the caller holds this monitor.
         */
        boolean takeListing(long now, long interval, int max) {
            if (credit < 0) {
                credit = interval;
            } else if (now - creditAt > 0) {
                credit = Math.min(interval, credit + Math.min(interval, now - creditAt));
            }
            creditAt = now;
            long cost = Math.max(1, interval / max);
            if (credit < cost) {
                return false;
            }
            credit -= cost;
            return true;
        }

        synchronized void add(int id, Schema schema) {
            if (!schemas.containsKey(id)) {
                Map<Integer, Schema> next = new HashMap<>(schemas);
                next.put(id, schema);
                schemas = Map.copyOf(next);
            }
        }
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
        if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
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

    private static List<Integer> intList(JsonNode answer, String request) {
        if (!answer.isArray()) {
            throw new SchemaRegistryException(request, 200, 0, "answer is not a list: " + abbreviate(
                    String.valueOf(answer)), null);
        }
        List<Integer> out = new ArrayList<>(answer.size());
        for (JsonNode n : answer) {
            if (!n.isIntegralNumber() || !n.canConvertToInt()) {
                throw new SchemaRegistryException(request, 200, 0, "answer is not a list of integers: "
                        + abbreviate(String.valueOf(answer)), null);
            }
            out.add(n.asInt());
        }
        return out;
    }

    private static SchemaRegistryException malformed(String request, JsonNode answer, String field) {
        return new SchemaRegistryException(request, 200, 0, "answer lacks \"" + field + "\": " + abbreviate(
                String.valueOf(answer)), null);
    }

    private static String abbreviate(String s) {
        return s.length() <= 500 ? s : s.substring(0, 500) + "...";
    }

    /** {@link #send(String, String, JsonNode, long)} with one request timeout per URL tried. */
    private JsonNode send(String method, String pathAndQuery, JsonNode body) {
        return send(method, pathAndQuery, body, Long.MIN_VALUE);
    }

    /**
     * Sends one request to the first URL that answers and returns the parsed JSON body of a 2xx
     * answer; anything else is a {@link SchemaRegistryException}. Each attempt waits at most one
     * request timeout, answer body included; with a {@code deadline} (nanoClock; {@link Long#MIN_VALUE}
     * for none), all attempts together wait at most until then.
     */
    private JsonNode send(String method, String pathAndQuery, JsonNode body, long deadline) {
        String request = method + " " + pathAndQuery;
        SchemaRegistryException lastFailure = null;
        for (URI base : config.urls()) {
            String where = request + " at " + base;
            long timeoutNanos = config.requestTimeout().toNanos();
            if (deadline != Long.MIN_VALUE) {
                long left = deadline - nanoClock.getAsLong();
                if (left <= 0) {
                    if (lastFailure == null) {
                        lastFailure = new SchemaRegistryException(where, SchemaRegistryException.NOT_SENT, 0,
                                "no time left within one request timeout of " + config.requestTimeout(), null);
                    }
                    break;
                }
                timeoutNanos = Math.min(timeoutNanos, left);
            }
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                    .timeout(Duration.ofNanos(timeoutNanos))
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
            requests.increment();
            CompletableFuture<HttpResponse<byte[]>> future =
                    http.sendAsync(builder.build(), info -> new LimitedBody(MAX_ANSWER_BYTES));
            HttpResponse<byte[]> response;
            try {
                // The HTTP client's own timeout ends when the headers arrive; this one covers the body too.
                response = future.get(timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                future.cancel(true);
                lastFailure = new SchemaRegistryException(where, SchemaRegistryException.NO_RESPONSE, 0,
                        "timed out after " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms", e);
                continue;   // try the next URL
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                lastFailure = new SchemaRegistryException(where, SchemaRegistryException.NO_RESPONSE, 0,
                        cause.toString(), cause);
                continue;
            } catch (InterruptedException e) {
                future.cancel(true);
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException(where, SchemaRegistryException.NO_RESPONSE, 0, "interrupted", e);
            }
            return answer(where, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        }
        throw lastFailure;
    }

    private static JsonNode answer(String request, int status, String text) {
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
        // Only the registry's own error JSON carries an error code: {"error_code": 40403, "message": "..."}.
        int errorCode = 0;
        String message = abbreviate(text);
        if (json != null && json.isObject()) {
            JsonNode code = json.get("error_code");
            if (code != null && code.isIntegralNumber() && code.canConvertToInt()) {
                errorCode = code.asInt();
            }
            if (json.hasNonNull("message")) {
                message = abbreviate(json.get("message").asText());
            }
        }
        throw new SchemaRegistryException(request, status, errorCode, message, null);
    }

    /** Collects an answer body, failing (and cancelling the transfer) past {@code max} bytes. */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private Flow.Subscription subscription;

        LimitedBody(int max) {
            this.max = max;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (result.isDone()) {
                return;
            }
            for (ByteBuffer b : items) {
                if (b.remaining() > max - out.size()) {
                    subscription.cancel();
                    result.completeExceptionally(new IOException("answer larger than " + max + " bytes"));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                out.write(chunk, 0, chunk.length);
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(out.toByteArray());
        }
    }
}

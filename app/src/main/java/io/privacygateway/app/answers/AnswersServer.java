package io.privacygateway.app.answers;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.privacygateway.app.http.HttpEndpoint;
import io.privacygateway.app.http.HttpEndpoint.Reply;
import io.privacygateway.app.http.HttpEndpoint.Request;
import io.privacygateway.app.http.HttpEndpoint.Response;
import io.privacygateway.app.http.HttpEndpoint.Work;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.answers.AnswerKey;
import io.privacygateway.topology.answers.AnswersStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The answers API of a gateway instance: the published answers of a workload over the whole retained history, from the
 * instance's {@link AnswersStore} (a global store over the answers topic; no request reads the topic).
 *
 * <ul>
 *   <li>{@code GET /v1/answers/{workload}?from=&to=&limit=&cursor=&format=}: the rows ({@link AnswerRow}: one per
 *       coordinate of each answer, self-contained) of the answers whose window starts in [from, to), in order of
 *       window start, horizon and version. {@code from}/{@code to}: an ISO-8601 instant ({@code 2026-11-29T09:00:00Z})
 *       or epoch milliseconds; both optional (the whole history). JSON ({@code application/json}: an object with
 *       {@code rows} and {@code next}), CSV ({@code text/csv}, a header line) or NDJSON ({@code application/x-ndjson},
 *       one row per line), chosen by {@code format=json|csv|ndjson} or else by {@code Accept} (JSON when it allows
 *       anything). A page holds at most {@code limit} rows ({@link AnswersOptions#defaultLimit()} by default, at most
 *       {@link AnswersOptions#maxLimit()}) and at most about {@link AnswersOptions#maxResponseBytes()}; when more
 *       follow, a {@code Link: <...>; rel="next"} header (and {@code next} in JSON) gives the same query with an opaque
 *       {@code cursor}. 400 with a message naming the parameter for a bad one (unknown, repeated, unparsable, {@code
 *       from >= to}, a cursor of another query), 404 for a workload neither registered nor answered, 406 for an
 *       {@code Accept} the API cannot serve, 503 with {@code Retry-After} while the store is not queryable.
 *   <li>{@code GET /v1/openapi.json}: the OpenAPI 3 document of this API (also committed as
 *       {@code docs/answers-openapi.json}).
 * </ul>
 *
 * <p>It serves what the answers topic holds, nothing more: released, privatized answers and their public parameters
 * (who may read it: docs/answers-api.md). Served on its own {@link HttpEndpoint} (own port, limits and worker threads),
 * never on the metrics port: analysts and Prometheus are different audiences with different network policies, and
 * a large export must never delay a scrape or a probe. No authentication: bind it to an interface only analysts
 * reach. Errors are logged with the path only.
 */
public final class AnswersServer implements AutoCloseable {
    /** The path prefix of the answers. */
    public static final String ANSWERS_PATH = "/v1/answers/";
    /** The OpenAPI document's path. */
    public static final String OPENAPI_PATH = "/v1/openapi.json";
    /** The OpenAPI document's class-path resource. */
    public static final String OPENAPI_RESOURCE = "/io/privacygateway/app/answers/openapi.json";
    static final String JSON = "application/json";
    static final String CSV = "text/csv; charset=utf-8; header=present";
    static final String NDJSON = "application/x-ndjson";
    private static final Pattern WORKLOAD = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final Set<String> PARAMS = Set.of("from", "to", "limit", "cursor", "format");
    private static final JsonFactory JSON_FACTORY = new JsonFactory();
    private static final byte CURSOR_VERSION = 1;

    /** The formats a page is written in. */
    enum Format {
        JSON(AnswersServer.JSON), CSV(AnswersServer.CSV), NDJSON(AnswersServer.NDJSON);

        final String contentType;

        Format(String contentType) {
            this.contentType = contentType;
        }
    }

    private final HttpEndpoint endpoint;

    private AnswersServer(HttpEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Binds and starts the API.
     *
     * @param options where and how it is served
     * @param store the answers (a supplier: {@code null} from it answers 503, e.g. before the gateway started)
     * @param registered whether a workload id is registered (a workload neither registered nor answered is 404)
     * @throws IOException if the host does not resolve or the port cannot be bound
     */
    public static AnswersServer start(AnswersOptions options, Supplier<AnswersStore> store,
            Predicate<String> registered) throws IOException {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(registered, "registered");
        byte[] openapi = openApiDocument();
        Handler h = new Handler(options, store, registered, openapi);
        return new AnswersServer(HttpEndpoint.start("answers", options.host(), options.port(), options.limits(),
                h::handle));
    }

    /** The OpenAPI document served at {@link #OPENAPI_PATH}. */
    public static byte[] openApiDocument() {
        try (InputStream in = AnswersServer.class.getResourceAsStream(OPENAPI_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(OPENAPI_RESOURCE + " is missing from the class path");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bound port. */
    public int port() {
        return endpoint.port();
    }

    /** The base address, ending in {@code /} (127.0.0.1 when bound to every interface). */
    public URI base() {
        return endpoint.base();
    }

    /** The address of a workload's answers. */
    public URI answersUrl(String workload) {
        return base().resolve(ANSWERS_PATH.substring(1) + workload);
    }

    @Override
    public void close() {
        endpoint.close();
    }

    /** A request the API refuses, with its status and message. */
    static final class Refusal extends Exception {
        final int status;

        Refusal(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** A parsed query. */
    record Query(String workload, long from, long to, boolean fromGiven, boolean toGiven, int limit, Format format,
            byte[] startKey, int startIndex) {}

    private record Handler(AnswersOptions options, Supplier<AnswersStore> store, Predicate<String> registered,
            byte[] openapi) {
        Reply handle(Request r) {
            if (!r.method().equals("GET") && !r.method().equals("HEAD")) {
                return error(405, "method_not_allowed", "only GET and HEAD").with("Allow", "GET, HEAD");
            }
            if (r.path().equals(OPENAPI_PATH)) {
                return Response.of(200, JSON, openapi);
            }
            if (!r.path().startsWith(ANSWERS_PATH)) {
                return error(404, "not_found", "no such resource; the answers are under " + ANSWERS_PATH
                        + "{workload}, the API's description at " + OPENAPI_PATH);
            }
            Query q;
            try {
                q = parse(r, options);
            } catch (Refusal e) {
                return error(e.status, e.status == 406 ? "not_acceptable" : "bad_request", e.getMessage());
            }
            return new Work(() -> page(q, r));
        }

        private Response page(Query q, Request r) {
            AnswersStore s = store.get();
            try {
                if (s == null) {
                    throw new AnswersStore.UnavailableException("the gateway has not started yet", null);
                }
                if (!registered.test(q.workload()) && !s.hasAny(q.workload())) {
                    return error(404, "unknown_workload", "workload " + q.workload()
                            + " is not registered and has no answers");
                }
                return Pages.write(s, q, options.maxResponseBytes(), r.path());
            } catch (AnswersStore.UnavailableException e) {
                return error(503, "unavailable", e.getMessage()).with("Retry-After", "1");
            }
        }
    }

    static Response error(int status, String code, String message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON_FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("status", status);
            g.writeStringField("error", code);
            g.writeStringField("message", message);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.write('\n');
        return Response.of(status, JSON, out.toByteArray());
    }

    // ---- parsing -------------------------------------------------------------------------------

    static Query parse(Request r, AnswersOptions options) throws Refusal {
        String raw = r.path().substring(ANSWERS_PATH.length());
        String workload = decode(raw, "the workload in the path");
        if (!WORKLOAD.matcher(workload).matches()) {
            throw new Refusal(400, "the workload in the path must match [A-Za-z0-9._-]{1,100}");
        }
        Map<String, String> params = params(r.query());
        long from = Long.MIN_VALUE;
        long to = Long.MAX_VALUE;
        boolean fromGiven = params.containsKey("from");
        boolean toGiven = params.containsKey("to");
        if (fromGiven) {
            from = instant("from", params.get("from"));
        }
        if (toGiven) {
            to = instant("to", params.get("to"));
        }
        if (from >= to) {
            throw new Refusal(400, "from must be before to (the windows that start in [from, to) are answered)");
        }
        int limit = options.defaultLimit();
        if (params.containsKey("limit")) {
            String v = params.get("limit");
            try {
                limit = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                limit = -1;
            }
            if (limit < 1 || limit > options.maxLimit()) {
                throw new Refusal(400, "limit must be an integer in [1, " + options.maxLimit() + "], got \""
                        + shorten(v) + "\"");
            }
        }
        Format format = format(params.get("format"), r.header("Accept"));
        byte[] lower = AnswerKey.lowerBound(workload, from);
        byte[] startKey = lower;
        int startIndex = 0;
        if (params.containsKey("cursor")) {
            String c = params.get("cursor");
            Refusal bad = new Refusal(400, "cursor is not a cursor of this query (use the next link of the previous"
                    + " page, with the same workload, from and to)");
            ByteBuffer b;
            try {
                b = ByteBuffer.wrap(Base64.getUrlDecoder().decode(c));
            } catch (IllegalArgumentException e) {
                throw bad;
            }
            if (b.remaining() < 6 || b.get() != CURSOR_VERSION) {
                throw bad;
            }
            startIndex = b.getInt();
            byte[] key = new byte[b.remaining()];
            b.get(key);
            AnswerKey k;
            try {
                k = AnswerKey.decode(key);
            } catch (IllegalArgumentException e) {
                throw bad;
            }
            if (startIndex < 0 || !k.workload().equals(workload) || k.windowStart() < from || k.windowStart() >= to) {
                throw bad;
            }
            startKey = key;
        }
        return new Query(workload, from, to, fromGiven, toGiven, limit, format, startKey, startIndex);
    }

    private static Map<String, String> params(String query) throws Refusal {
        Map<String, String> out = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return out;
        }
        for (String part : query.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String name = decode(eq < 0 ? part : part.substring(0, eq), "a parameter name");
            String value = eq < 0 ? "" : decode(part.substring(eq + 1), "parameter " + shorten(name));
            if (!PARAMS.contains(name)) {
                throw new Refusal(400, "unknown parameter \"" + shorten(name) + "\" (known: cursor, format, from, limit,"
                        + " to)");
            }
            if (out.put(name, value) != null) {
                throw new Refusal(400, "parameter " + name + " is given more than once");
            }
        }
        return out;
    }

    private static String decode(String s, String what) throws Refusal {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new Refusal(400, what + " is not percent-encoded correctly");
        }
    }

    private static long instant(String name, String v) throws Refusal {
        if (v.matches("-?\\d{1,18}")) {
            return Long.parseLong(v);
        }
        try {
            return Instant.parse(v).toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new Refusal(400, name + " must be an ISO-8601 instant such as 2026-11-29T09:00:00Z or epoch"
                    + " milliseconds, got \"" + shorten(v) + "\"");
        }
    }

    static Format format(String param, String accept) throws Refusal {
        if (param != null) {
            return switch (param.toLowerCase(Locale.ROOT)) {
                case "json" -> Format.JSON;
                case "csv" -> Format.CSV;
                case "ndjson" -> Format.NDJSON;
                default -> throw new Refusal(400, "format must be json, csv or ndjson, got \"" + shorten(param) + "\"");
            };
        }
        if (accept == null || accept.isBlank()) {
            return Format.JSON;
        }
        Format best = null;
        double bestQ = 0;
        for (String range : accept.split(",")) {
            String[] parts = range.trim().split(";");
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            double q = 1;
            for (int i = 1; i < parts.length; i++) {
                String p = parts[i].trim();
                if (p.startsWith("q=")) {
                    try {
                        q = Double.parseDouble(p.substring(2));
                    } catch (NumberFormatException e) {
                        q = 0;
                    }
                }
            }
            Format f = switch (type) {
                case "application/json", "application/*", "*/*" -> Format.JSON;
                case "text/csv", "text/*" -> Format.CSV;
                case "application/x-ndjson", "application/ndjson", "application/jsonl" -> Format.NDJSON;
                default -> null;
            };
            if (f != null && q > bestQ) {
                best = f;
                bestQ = q;
            }
        }
        if (best == null) {
            throw new Refusal(406, "cannot answer in the Accept header's types; available: application/json, text/csv,"
                    + " application/x-ndjson (or format=json|csv|ndjson)");
        }
        return best;
    }

    private static String shorten(String s) {
        String t = s.length() > 40 ? s.substring(0, 40) + "…" : s;
        return t.replaceAll("[^\\x20-\\x7E…]", "?");
    }

    // ---- pages ---------------------------------------------------------------------------------

    /** Builds one page. */
    static final class Pages {
        private Pages() {}

        static Response write(AnswersStore store, Query q, int maxBytes, String path) throws AnswersStore.UnavailableException {
            ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
            Writer w = switch (q.format()) {
                case JSON -> new JsonWriter(body, q);
                case CSV -> new CsvWriter(body);
                case NDJSON -> new NdjsonWriter(body);
            };
            int[] rows = {0};
            byte[][] nextKey = {null};
            int[] nextIndex = {0};
            store.scan(q.workload(), q.startKey(), q.to(), e -> {
                WindowAnswer a = e.answer();
                int first = Arrays.equals(e.key(), q.startKey()) ? q.startIndex() : 0;
                int count = AnswerRow.count(a);
                for (int i = first; i < count; i++) {
                    if (rows[0] >= q.limit() || body.size() >= maxBytes) {
                        nextKey[0] = e.key();
                        nextIndex[0] = i;
                        return false;
                    }
                    w.row(AnswerRow.of(a, i));
                    rows[0]++;
                }
                return true;
            });
            String next = nextKey[0] == null ? null : nextLink(path, q, nextKey[0], nextIndex[0]);
            w.end(next);
            Response r = Response.of(200, q.format().contentType, body.toByteArray());
            return next == null ? r : r.with("Link", "<" + next + ">; rel=\"next\"");
        }

        private static String nextLink(String path, Query q, byte[] key, int index) {
            byte[] c = ByteBuffer.allocate(1 + 4 + key.length).put(CURSOR_VERSION).putInt(index).put(key).array();
            StringBuilder b = new StringBuilder(path).append('?');
            if (q.fromGiven()) {
                b.append("from=").append(enc(Instant.ofEpochMilli(q.from()).toString())).append('&');
            }
            if (q.toGiven()) {
                b.append("to=").append(enc(Instant.ofEpochMilli(q.to()).toString())).append('&');
            }
            b.append("limit=").append(q.limit()).append("&format=").append(q.format().name().toLowerCase(Locale.ROOT))
                    .append("&cursor=").append(Base64.getUrlEncoder().withoutPadding().encodeToString(c));
            return b.toString();
        }

        private static String enc(String s) {
            return URLEncoder.encode(s, StandardCharsets.UTF_8);
        }
    }

    private interface Writer {
        void row(AnswerRow r);

        void end(String next);
    }

    private static void writeRow(JsonGenerator g, AnswerRow r) throws IOException {
        g.writeStartObject();
        List<Object> values = r.values();
        for (int i = 0; i < values.size(); i++) {
            String name = AnswerRow.COLUMNS.get(i);
            Object v = values.get(i);
            if (v == null) {
                g.writeNullField(name);
            } else if (v instanceof Double d) {
                g.writeNumberField(name, d);
            } else if (v instanceof Long l) {
                g.writeNumberField(name, l);
            } else if (v instanceof Integer n) {
                g.writeNumberField(name, n);
            } else if (v instanceof Boolean bool) {
                g.writeBooleanField(name, bool);
            } else {
                g.writeStringField(name, v.toString());
            }
        }
        g.writeEndObject();
    }

    private static final class JsonWriter implements Writer {
        private final JsonGenerator g;

        JsonWriter(ByteArrayOutputStream out, Query q) {
            try {
                g = JSON_FACTORY.createGenerator(out);
                g.writeStartObject();
                g.writeStringField("workload", q.workload());
                if (q.fromGiven()) {
                    g.writeStringField("from", Instant.ofEpochMilli(q.from()).toString());
                } else {
                    g.writeNullField("from");
                }
                if (q.toGiven()) {
                    g.writeStringField("to", Instant.ofEpochMilli(q.to()).toString());
                } else {
                    g.writeNullField("to");
                }
                g.writeArrayFieldStart("rows");
                g.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void row(AnswerRow r) {
            try {
                writeRow(g, r);
                g.flush(); // the page's size is checked between rows
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void end(String next) {
            try {
                g.writeEndArray();
                if (next == null) {
                    g.writeNullField("next");
                } else {
                    g.writeStringField("next", next);
                }
                g.writeEndObject();
                g.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final class NdjsonWriter implements Writer {
        private final ByteArrayOutputStream out;

        NdjsonWriter(ByteArrayOutputStream out) {
            this.out = out;
        }

        @Override
        public void row(AnswerRow r) {
            try (JsonGenerator g = JSON_FACTORY.createGenerator(out)) {
                writeRow(g, r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            out.write('\n');
        }

        @Override
        public void end(String next) {}
    }

    private static final class CsvWriter implements Writer {
        private final ByteArrayOutputStream out;

        CsvWriter(ByteArrayOutputStream out) {
            this.out = out;
            line(new ArrayList<>(AnswerRow.COLUMNS));
        }

        @Override
        public void row(AnswerRow r) {
            line(r.values());
        }

        private void line(List<Object> values) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                Object v = values.get(i);
                if (v == null) {
                    continue;
                }
                String s = v.toString();
                if (v instanceof String && !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0) {
                    s = "'" + s; // a spreadsheet must not read a label (devices chose heavy hitters') as a formula
                }
                if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                    b.append('"').append(s.replace("\"", "\"\"")).append('"');
                } else {
                    b.append(s);
                }
            }
            b.append("\r\n");
            out.writeBytes(b.toString().getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public void end(String next) {}
    }
}

package io.privacygateway.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The report envelope over HTTPS (docs/wire-format.md, "Report envelope over HTTPS"), hand-encoded: the device
 * carries no Avro library. The binary body ({@value #REPORTS_CONTENT_TYPE}) is the Avro binary encoding of
 * <pre>
 * record ReportBatch { int envelopeVersion;                       // = 1
 *                      array&lt;union {LocalReport, CentralReport}&gt; reports; }
 * </pre>
 * with {@code LocalReport} and {@code CentralReport} the records of {@code schemas/src/main/avro}: so a batch is
 * {@code 0x02}, then (if there are reports) the count as a zig-zag varint, each report as its union branch (0 local,
 * 1 central) and its record's fields, then {@code 0x00}. The response ({@value #RESULTS_CONTENT_TYPE}) is the Avro
 * binary encoding of
 * <pre>
 * record ReportResults { int envelopeVersion;
 *                        array&lt;record ReportResult { enum {ACCEPTED, DUPLICATE, REJECTED, RETRY} status;
 *                                                   string reason; long retryAfterMillis; }&gt; results; }
 * </pre>
 * one result per report, in the order of the batch. Tests in client-kafka check both against Avro's own decoder
 * and encoder.
 *
 * <p>Decoding is strict and bounded: a negative or oversized length, a count above {@link #MAX_REPORTS}, a varint
 * longer than 10 bytes, invalid UTF-8, an unknown branch or trailing bytes are {@link Malformed}; it never allocates
 * more than the body's size.
 */
public final class ReportEnvelope {
    /** The envelope version this SDK writes and reads. */
    public static final int VERSION = 1;
    /** Content type of the binary batch. */
    public static final String REPORTS_CONTENT_TYPE = "application/vnd.pgw.reports+avro";
    /** Content type of the JSON batch (browsers). */
    public static final String REPORTS_JSON_CONTENT_TYPE = "application/vnd.pgw.reports+json";
    /** Content type of the binary per-report results. */
    public static final String RESULTS_CONTENT_TYPE = "application/vnd.pgw.results+avro";
    /** The most reports one batch may carry. */
    public static final int MAX_REPORTS = 500;
    /** The largest body (after decompression) the endpoint accepts, in bytes: 1 MiB. */
    public static final int MAX_BODY_BYTES = 1 << 20;
    /** The longest string field (UTF-8 bytes). */
    public static final int MAX_STRING_BYTES = 1024;
    /** The longest payload (bytes). */
    public static final int MAX_PAYLOAD_BYTES = 1 << 16;

    private ReportEnvelope() {}

    /** A body the endpoint (or the SDK) cannot read. The message names the problem, never a value. */
    public static final class Malformed extends IOException {
        public Malformed(String message) {
            super(message);
        }
    }

    /** The per-report answer of the endpoint. */
    public enum Status {
        /** The gateway's front door has the report (acknowledged by Kafka). */
        ACCEPTED,
        /** A report with the same coordinates was already accepted: the device treats it as accepted. */
        DUPLICATE,
        /** Refused for good, with the gateway's reason code (e.g. {@code VERSION_MISMATCH}, {@code LATE}). */
        REJECTED,
        /** Not taken now (backpressure): send again later, after {@code retryAfterMillis} if it is positive. */
        RETRY
    }

    /** One per-report result. {@code reason} is empty unless rejected. */
    public record Result(Status status, String reason, long retryAfterMillis) {
        public Result {
            Objects.requireNonNull(status, "status");
            reason = reason == null ? "" : reason;
        }
    }

    // ---------------------------------------------------------------- encoding

    /** The binary body of a batch (1 to {@link #MAX_REPORTS} reports). */
    public static byte[] encode(List<DeviceReport> reports) {
        if (reports.isEmpty() || reports.size() > MAX_REPORTS) {
            throw new IllegalArgumentException("a batch holds 1 to " + MAX_REPORTS + " reports, got " + reports.size());
        }
        Out out = new Out();
        out.varint(VERSION);
        out.varint(reports.size());
        for (DeviceReport r : reports) {
            writeReport(out, r);
        }
        out.varint(0);
        return out.toByteArray();
    }

    /** One report as its union branch and record (also the SDK's on-disk form of a queued report). */
    static byte[] encodeOne(DeviceReport r) {
        Out out = new Out();
        writeReport(out, r);
        return out.toByteArray();
    }

    private static void writeReport(Out out, DeviceReport r) {
        out.varint(r.kind().ordinal());
        out.string(r.workloadId());
        out.varint(r.workloadVersion());
        out.string(r.contentHash());
        out.string(r.deviceId());
        out.varint(r.period());
        out.varint(r.sequence());
        out.varint(r.eventTime());
        if (r.kind() == DeviceReport.Kind.LOCAL) {
            out.string(r.mechanism());
            out.doubleLe(r.epsilon());
            out.bytes(r.payload());
            out.varint(r.protocolVersion());
        } else {
            out.string(r.value());
        }
    }

    /** The binary body of the results (the endpoint's side; used by tests and by servers written in Java). */
    public static byte[] encodeResults(List<Result> results) {
        Out out = new Out();
        out.varint(VERSION);
        if (!results.isEmpty()) {
            out.varint(results.size());
            for (Result r : results) {
                out.varint(r.status().ordinal());
                out.string(r.reason());
                out.varint(r.retryAfterMillis());
            }
        }
        out.varint(0);
        return out.toByteArray();
    }

    /**
     * The JSON body of a batch ({@value #REPORTS_JSON_CONTENT_TYPE}): the same field names as the Avro records,
     * {@code "type": "local"|"central"}, the payload in standard base64 with padding.
     */
    public static String toJson(List<DeviceReport> reports) {
        StringBuilder b = new StringBuilder("{\"envelopeVersion\":").append(VERSION).append(",\"reports\":[");
        for (int i = 0; i < reports.size(); i++) {
            DeviceReport r = reports.get(i);
            b.append(i == 0 ? "" : ",").append("{\"type\":\"").append(r.kind() == DeviceReport.Kind.LOCAL
                    ? "local" : "central").append('"');
            jsonField(b, "workloadId", r.workloadId());
            b.append(",\"workloadVersion\":").append(r.workloadVersion());
            jsonField(b, "contentHash", r.contentHash());
            jsonField(b, "deviceId", r.deviceId());
            b.append(",\"period\":").append(r.period()).append(",\"sequence\":").append(r.sequence())
                    .append(",\"eventTime\":").append(r.eventTime());
            if (r.kind() == DeviceReport.Kind.LOCAL) {
                jsonField(b, "mechanism", r.mechanism());
                b.append(",\"epsilon\":").append(r.epsilon());
                jsonField(b, "payload", Base64.getEncoder().encodeToString(r.payload()));
                b.append(",\"protocolVersion\":").append(r.protocolVersion());
            } else {
                jsonField(b, "value", r.value());
            }
            b.append('}');
        }
        return b.append("]}").toString();
    }

    private static void jsonField(StringBuilder b, String name, String value) {
        b.append(",\"").append(name).append("\":\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }

    // ---------------------------------------------------------------- decoding

    /** Reads a binary batch body. */
    public static List<DeviceReport> decode(byte[] body) throws Malformed {
        if (body.length > MAX_BODY_BYTES) {
            throw new Malformed("body of " + body.length + " bytes, more than " + MAX_BODY_BYTES);
        }
        In in = new In(body);
        int version = in.intValue("envelopeVersion");
        if (version != VERSION) {
            throw new Malformed("envelopeVersion " + version + " is not served (expected " + VERSION + ")");
        }
        List<DeviceReport> out = new ArrayList<>();
        for (long n = in.longValue("reports count"); n != 0; n = in.longValue("reports count")) {
            if (n < 0) { // Avro: a negative count is followed by the block's size in bytes
                n = -n;
                in.longValue("block size");
            }
            if (out.size() + n > MAX_REPORTS) {
                throw new Malformed("more than " + MAX_REPORTS + " reports in one batch");
            }
            for (long i = 0; i < n; i++) {
                out.add(readReport(in));
            }
        }
        if (out.isEmpty()) {
            throw new Malformed("a batch holds at least one report");
        }
        in.end();
        return out;
    }

    /** Reads one report written by {@link #encodeOne}. */
    static DeviceReport decodeOne(byte[] bytes) throws Malformed {
        In in = new In(bytes);
        DeviceReport r = readReport(in);
        in.end();
        return r;
    }

    private static DeviceReport readReport(In in) throws Malformed {
        long branch = in.longValue("union branch");
        if (branch != 0 && branch != 1) {
            throw new Malformed("report branch " + branch + " (0 LocalReport, 1 CentralReport)");
        }
        String workloadId = in.repeated(0, "workloadId");
        int version = in.intValue("workloadVersion");
        String hash = in.repeated(1, "contentHash");
        String device = in.string("deviceId");
        long period = in.longValue("period");
        int sequence = in.intValue("sequence");
        long eventTime = in.longValue("eventTime");
        try {
            if (branch == 0) {
                String mechanism = in.repeated(2, "mechanism");
                double epsilon = in.doubleLe("epsilon");
                byte[] payload = in.bytes("payload", MAX_PAYLOAD_BYTES);
                int protocolVersion = in.intValue("protocolVersion");
                return new DeviceReport(DeviceReport.Kind.LOCAL, workloadId, version, hash, device, period, sequence,
                        eventTime, mechanism, epsilon, payload, null, protocolVersion);
            }
            String value = in.string("value");
            return new DeviceReport(DeviceReport.Kind.CENTRAL, workloadId, version, hash, device, period, sequence,
                    eventTime, null, 0, null, value, 0);
        } catch (IllegalArgumentException e) { // bad coordinates: the message names the field
            throw new Malformed("report coordinates: " + e.getMessage());
        }
    }

    /** Reads a binary results body. */
    public static List<Result> decodeResults(byte[] body) throws Malformed {
        In in = new In(body);
        int version = in.intValue("envelopeVersion");
        if (version != VERSION) {
            throw new Malformed("envelopeVersion " + version + " is not read by this SDK (expected " + VERSION + ")");
        }
        List<Result> out = new ArrayList<>();
        for (long n = in.longValue("results count"); n != 0; n = in.longValue("results count")) {
            if (n < 0) {
                n = -n;
                in.longValue("block size");
            }
            if (out.size() + n > MAX_REPORTS) {
                throw new Malformed("more than " + MAX_REPORTS + " results");
            }
            for (long i = 0; i < n; i++) {
                long s = in.longValue("status");
                if (s < 0 || s >= Status.values().length) {
                    throw new Malformed("result status " + s);
                }
                out.add(new Result(Status.values()[(int) s], in.string("reason"), in.longValue("retryAfterMillis")));
            }
        }
        in.end();
        return out;
    }

    /**
     * Reads a JSON batch body ({@value #REPORTS_JSON_CONTENT_TYPE}), the form {@link #toJson} writes, under the same
     * limits and rules as {@link #decode}: a strict JSON parser (no comments, no trailing commas, no duplicate or
     * unknown fields, nesting at most 3 deep), {@code "type"} {@code local} or {@code central}, every field of the
     * record present with its JSON type, integers exact (no fraction or exponent), the payload standard base64.
     */
    public static List<DeviceReport> fromJson(byte[] body) throws Malformed {
        if (body.length > MAX_BODY_BYTES) {
            throw new Malformed("body of " + body.length + " bytes, more than " + MAX_BODY_BYTES);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("the body is not valid UTF-8");
        }
        JsonIn in = new JsonIn(text);
        Map<String, Object> top = in.object("batch", 0);
        in.end();
        checkFields(top, "batch", Set.of("envelopeVersion", "reports"), Set.of());
        long version = integer(top, "envelopeVersion", "batch");
        if (version != VERSION) {
            throw new Malformed("envelopeVersion " + version + " is not served (expected " + VERSION + ")");
        }
        Object list = top.get("reports");
        if (!(list instanceof List<?> reports)) {
            throw new Malformed("reports must be an array");
        }
        if (reports.isEmpty()) {
            throw new Malformed("a batch holds at least one report");
        }
        List<DeviceReport> out = new ArrayList<>(reports.size());
        for (int i = 0; i < reports.size(); i++) {
            String at = "reports[" + i + "]";
            if (!(reports.get(i) instanceof Map<?, ?> m)) {
                throw new Malformed(at + " must be an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> r = (Map<String, Object>) m;
            Object type = r.get("type");
            boolean local = "local".equals(type);
            if (!local && !"central".equals(type)) {
                throw new Malformed(at + ".type must be \"local\" or \"central\"");
            }
            Set<String> common = Set.of("type", "workloadId", "workloadVersion", "contentHash",
                    "deviceId", "period", "sequence", "eventTime");
            checkFields(r, at, common, local ? Set.of("mechanism", "epsilon", "payload", "protocolVersion")
                    : Set.of("value"));
            String workloadId = text(r, "workloadId", at);
            long version2 = integer(r, "workloadVersion", at);
            String hash = text(r, "contentHash", at);
            String device = text(r, "deviceId", at);
            long period = integer(r, "period", at);
            long sequence = integer(r, "sequence", at);
            long eventTime = integer(r, "eventTime", at);
            if (version2 != (int) version2 || sequence != (int) sequence) {
                throw new Malformed(at + ": workloadVersion and sequence must fit an int");
            }
            try {
                if (local) {
                    Object eps = r.get("epsilon");
                    if (!(eps instanceof JsonNumber n)) {
                        throw new Malformed(at + ".epsilon must be a number");
                    }
                    byte[] payload;
                    String b64 = text(r, "payload", at, (MAX_PAYLOAD_BYTES / 3 + 1) * 4);
                    try {
                        payload = Base64.getDecoder().decode(b64);
                    } catch (IllegalArgumentException e) {
                        throw new Malformed(at + ".payload is not standard base64");
                    }
                    if (payload.length > MAX_PAYLOAD_BYTES) {
                        throw new Malformed(at + ".payload has more than " + MAX_PAYLOAD_BYTES + " bytes");
                    }
                    long protocol = integer(r, "protocolVersion", at);
                    if (protocol != (int) protocol) {
                        throw new Malformed(at + ": protocolVersion must fit an int");
                    }
                    out.add(new DeviceReport(DeviceReport.Kind.LOCAL, workloadId, (int) version2, hash, device, period,
                            (int) sequence, eventTime, text(r, "mechanism", at), n.doubleValue(), payload, null,
                            (int) protocol));
                } else {
                    out.add(new DeviceReport(DeviceReport.Kind.CENTRAL, workloadId, (int) version2, hash, device,
                            period, (int) sequence, eventTime, null, 0, null, text(r, "value", at), 0));
                }
            } catch (IllegalArgumentException e) {
                throw new Malformed(at + " coordinates: " + e.getMessage());
            }
        }
        return out;
    }

    /** The JSON body of results: {@code {"envelopeVersion":1,"results":[{"status":..,"reason":..,"retryAfterMillis":..}]}}. */
    public static String resultsToJson(List<Result> results) {
        StringBuilder b = new StringBuilder("{\"envelopeVersion\":").append(VERSION).append(",\"results\":[");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            b.append(i == 0 ? "{" : ",{").append("\"status\":\"").append(r.status().name()).append('"');
            jsonField(b, "reason", r.reason());
            b.append(",\"retryAfterMillis\":").append(r.retryAfterMillis()).append('}');
        }
        return b.append("]}").toString();
    }

    private static void checkFields(Map<String, Object> m, String at, Set<String> required,
            Set<String> more) throws Malformed {
        for (String f : required) {
            if (!m.containsKey(f)) {
                throw new Malformed(at + "." + f + " is missing");
            }
        }
        for (String f : more) {
            if (!m.containsKey(f)) {
                throw new Malformed(at + "." + f + " is missing");
            }
        }
        for (String f : m.keySet()) {
            if (!required.contains(f) && !more.contains(f)) {
                throw new Malformed(at + ": unknown field " + abbreviate(f));
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    private static String text(Map<String, Object> m, String f, String at) throws Malformed {
        return text(m, f, at, MAX_STRING_BYTES);
    }

    private static String text(Map<String, Object> m, String f, String at, int maxBytes) throws Malformed {
        Object v = m.get(f);
        if (!(v instanceof String s)) {
            throw new Malformed(at + "." + f + " must be a string");
        }
        if (s.length() > maxBytes || s.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new Malformed(at + "." + f + " is longer than " + maxBytes + " bytes");
        }
        return s;
    }

    private static long integer(Map<String, Object> m, String f, String at) throws Malformed {
        Object v = m.get(f);
        if (!(v instanceof JsonNumber n) || !n.integral()) {
            throw new Malformed(at + "." + f + " must be an integer");
        }
        try {
            return Long.parseLong(n.text);
        } catch (NumberFormatException e) {
            throw new Malformed(at + "." + f + " does not fit a long");
        }
    }

    /** A JSON number as written (parsed on use). */
    private static final class JsonNumber {
        final String text;

        JsonNumber(String text) {
            this.text = text;
        }

        boolean integral() {
            return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
        }

        double doubleValue() {
            return Double.parseDouble(text);
        }
    }

    /** A strict, bounded JSON reader for the batch (objects, arrays, strings, numbers, literals). */
    private static final class JsonIn {
        private static final int MAX_DEPTH = 3;
        private final String s;
        private int pos;

        JsonIn(String s) {
            this.s = s;
        }

        private void ws() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                pos++;
            }
        }

        private Malformed error(String what) {
            return new Malformed("JSON: " + what + " at character " + pos);
        }

        private char peek() throws Malformed {
            ws();
            if (pos >= s.length()) {
                throw error("truncated");
            }
            return s.charAt(pos);
        }

        private void expect(char c) throws Malformed {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        Object value(String at, int depth) throws Malformed {
            char c = peek();
            switch (c) {
                case '{':
                    return object(at, depth);
                case '[':
                    return array(at, depth);
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("unexpected character");
            }
        }

        private Object literal(String word, Object v) throws Malformed {
            if (!s.startsWith(word, pos)) {
                throw error("unexpected character");
            }
            pos += word.length();
            return v;
        }

        Map<String, Object> object(String at, int depth) throws Malformed {
            if (depth >= MAX_DEPTH) {
                throw error("nested too deep");
            }
            expect('{');
            Map<String, Object> m = new LinkedHashMap<>();
            if (peek() == '}') {
                pos++;
                return m;
            }
            while (true) {
                if (peek() != '"') {
                    throw error("expected a field name");
                }
                String k = string();
                expect(':');
                if (m.containsKey(k)) {
                    throw new Malformed(at + ": duplicate field " + abbreviate(k));
                }
                m.put(k, value(at, depth + 1));
                char c = peek();
                pos++;
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array(String at, int depth) throws Malformed {
            if (depth >= MAX_DEPTH) {
                throw error("nested too deep");
            }
            expect('[');
            List<Object> l = new ArrayList<>();
            if (peek() == ']') {
                pos++;
                return l;
            }
            while (true) {
                if (l.size() >= MAX_REPORTS) {
                    throw new Malformed("more than " + MAX_REPORTS + " reports in one batch");
                }
                l.add(value(at + "[" + l.size() + "]", depth + 1));
                char c = peek();
                pos++;
                if (c == ']') {
                    return l;
                }
                if (c != ',') {
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() throws Malformed {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("truncated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    throw error("control character in a string");
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("truncated string");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"': case '\\': case '/': b.append(e); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u':
                        if (pos + 4 > s.length()) {
                            throw error("truncated escape");
                        }
                        try {
                            b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException x) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                        break;
                    default:
                        throw error("bad escape");
                }
            }
        }

        private JsonNumber number() throws Malformed {
            int start = pos;
            if (s.charAt(pos) == '-') {
                pos++;
            }
            int digits = pos;
            while (pos < s.length() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String t = s.substring(start, pos);
            if (pos - start > 32 || pos == digits || !t.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
                throw error("bad number");
            }
            return new JsonNumber(t);
        }

        void end() throws Malformed {
            ws();
            if (pos != s.length()) {
                throw error("trailing characters");
            }
        }
    }

    // ---------------------------------------------------------------- Avro binary primitives

    private static final class Out extends ByteArrayOutputStream {
        Out() {
            super(256);
        }

        /** Zig-zag varint (Avro int and long). */
        void varint(long v) {
            long z = (v << 1) ^ (v >> 63);
            while ((z & ~0x7FL) != 0) {
                write((int) ((z & 0x7F) | 0x80));
                z >>>= 7;
            }
            write((int) z);
        }

        void bytes(byte[] b) {
            varint(b.length);
            write(b, 0, b.length);
        }

        void string(String s) {
            bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        void doubleLe(double d) {
            long bits = Double.doubleToLongBits(d);
            for (int i = 0; i < 8; i++) {
                write((int) (bits >>> (8 * i)) & 0xFF);
            }
        }
    }

    private static final class In {
        private final byte[] b;
        private int pos;
        /** Per {@link #repeated} slot: where its last string's bytes start, how many, and the string read. */
        private final int[] lastStart = new int[3];
        private final int[] lastLength = {-1, -1, -1};
        private final String[] last = new String[3];

        In(byte[] b) {
            this.b = b;
        }

        long longValue(String field) throws Malformed {
            long z = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                if (pos >= b.length) {
                    throw new Malformed("truncated at " + field);
                }
                int x = b[pos++] & 0xFF;
                if (shift == 63 && (x & 0x7E) != 0) {
                    throw new Malformed("varint overflow at " + field);
                }
                z |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return (z >>> 1) ^ -(z & 1);
                }
            }
            throw new Malformed("varint longer than 10 bytes at " + field);
        }

        int intValue(String field) throws Malformed {
            long v = longValue(field);
            if (v != (int) v) {
                throw new Malformed(field + " does not fit an int");
            }
            return (int) v;
        }

        /** The length of the next bytes/string field, checked against {@code max} and the bytes left. */
        private int length(String field, int max) throws Malformed {
            long n;
            try {
                n = longValue("length");
            } catch (Malformed e) { // the field's name only on the (rare) error path: no string built per field
                throw new Malformed(e.getMessage().replace("length", field + " length"));
            }
            if (n < 0 || n > max) {
                throw new Malformed(field + " length " + n + " outside [0, " + max + "]");
            }
            if (n > b.length - pos) {
                throw new Malformed("truncated in " + field);
            }
            return (int) n;
        }

        byte[] bytes(String field, int max) throws Malformed {
            int n = length(field, max);
            byte[] out = Arrays.copyOfRange(b, pos, pos + n);
            pos += n;
            return out;
        }

        /**
         * A string field, strictly UTF-8: an all-ASCII field (the usual case: ids, hashes, mechanism names) is
         * read without a decoder; any other is decoded with malformed and unmappable input reported.
         */
        String string(String field) throws Malformed {
            int n = length(field, MAX_STRING_BYTES);
            int start = pos;
            int end = start + n;
            boolean ascii = true;
            for (int i = start; i < end; i++) {
                if (b[i] < 0) {
                    ascii = false;
                    break;
                }
            }
            pos = end;
            if (ascii) {
                return new String(b, start, n, StandardCharsets.ISO_8859_1); // ASCII is valid UTF-8 and Latin-1
            }
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, start, n))
                        .toString();
            } catch (CharacterCodingException e) {
                throw new Malformed(field + " is not valid UTF-8");
            }
        }

        /**
         * A string field that mostly repeats from report to report of a batch (workload id, content hash, mechanism):
         * read as {@link #string}, but when its bytes equal those of the previous string of the same {@code slot},
         * that string is returned again (equal content: the same value, without a copy, and with its hash code
         * already computed).
         */
        String repeated(int slot, String field) throws Malformed {
            int before = pos;
            int n = length(field, MAX_STRING_BYTES);
            int start = pos;
            int ls = lastStart[slot];
            if (n == lastLength[slot] && sameBytes(start, ls, n)) {
                pos = start + n;
                return last[slot];
            }
            pos = before;
            String s = string(field);
            lastStart[slot] = start;
            lastLength[slot] = n;
            last[slot] = s;
            return s;
        }

        /** Whether {@code b[x, x + n)} and {@code b[y, y + n)} hold the same bytes (Android API 26: no ranged equals). */
        private boolean sameBytes(int x, int y, int n) {
            for (int i = 0; i < n; i++) {
                if (b[x + i] != b[y + i]) {
                    return false;
                }
            }
            return true;
        }

        double doubleLe(String field) throws Malformed {
            if (b.length - pos < 8) {
                throw new Malformed("truncated in " + field);
            }
            long bits = 0;
            for (int i = 0; i < 8; i++) {
                bits |= (long) (b[pos++] & 0xFF) << (8 * i);
            }
            return Double.longBitsToDouble(bits);
        }

        void end() throws Malformed {
            if (pos != b.length) {
                throw new Malformed((b.length - pos) + " trailing bytes");
            }
        }
    }
}

package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.LogDelta;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The binary form of a {@link PrivacyLedger}, version 1. Deterministic (equal ledgers give equal bytes),
 * compact (names are stored once in a string table; integers are varints), and self-checking on decode.
 *
 * <pre>
 * ledger   := 0x50 0x4C ("PL")  version:u8 (= 1)  flags:u8 (bit 0: sealed; other bits 0)
 *             [sealedAt:instant  if sealed]
 *             nStrings:uvarint  string{nStrings}
 *             nEvents:uvarint   event{nEvents}
 * string   := nBytes:uvarint  UTF-8 bytes            (mechanism names and parameter names, in order of
 *                                                     first use; each distinct string once)
 * event    := mechanism:uvarint (string index)  tag:u8  cost  time:instant
 *             nParams:uvarint  (key:uvarint (string index)  value:f64){nParams}   (keys strictly ascending)
 * cost     := tag 1 Pure: epsilon:f64 | tag 2 Zcdp: rho:f64 | tag 3 Approximate: epsilon:f64 lnDelta:f64
 * instant  := epochSecond:svarint (zig-zag)  nanos:uvarint (< 10^9)
 * f64      := IEEE-754 bits, 8 bytes big-endian (exact: no decimal round trip)
 * uvarint  := unsigned LEB128, at most 10 bytes
 * </pre>
 *
 * Decoding rejects, with an {@link IllegalArgumentException} that says where: a wrong magic or version,
 * unknown flags or tags, truncated input, trailing bytes, out-of-range indices, malformed UTF-8, unsorted
 * or duplicate parameter keys, and every value the constructors of {@link PrivacyCost} and
 * {@link PrivacyEvent} reject. A new layout must use a new version byte; version 1 stays readable.
 */
final class LedgerCodec {
    static final byte MAGIC_0 = 0x50;
    static final byte MAGIC_1 = 0x4C;
    static final int VERSION = 1;
    private static final int FLAG_SEALED = 1;
    private static final int TAG_PURE = 1;
    private static final int TAG_ZCDP = 2;
    private static final int TAG_APPROXIMATE = 3;

    private LedgerCodec() {}

    /** A decoded ledger: its events and its seal time (null when open). */
    record Decoded(List<PrivacyEvent> events, Instant sealedAt) {}

    static byte[] encode(List<PrivacyEvent> events, Instant sealedAt) {
        Map<String, Integer> table = new LinkedHashMap<>();
        for (PrivacyEvent e : events) {
            table.putIfAbsent(e.mechanism(), table.size());
            for (String key : e.parameters().keySet()) {
                table.putIfAbsent(key, table.size());
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 24 * events.size());
        out.write(MAGIC_0);
        out.write(MAGIC_1);
        out.write(VERSION);
        out.write(sealedAt == null ? 0 : FLAG_SEALED);
        if (sealedAt != null) {
            writeInstant(out, sealedAt);
        }
        writeUvarint(out, table.size());
        for (String s : table.keySet()) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            writeUvarint(out, utf8.length);
            out.write(utf8, 0, utf8.length);
        }
        writeUvarint(out, events.size());
        for (PrivacyEvent e : events) {
            writeUvarint(out, table.get(e.mechanism()));
            PrivacyCost c = e.cost();
            if (c instanceof PrivacyCost.Pure p) {
                out.write(TAG_PURE);
                writeDouble(out, p.epsilon());
            } else if (c instanceof PrivacyCost.Zcdp z) {
                out.write(TAG_ZCDP);
                writeDouble(out, z.rho());
            } else {
                PrivacyCost.Approximate a = (PrivacyCost.Approximate) c;
                out.write(TAG_APPROXIMATE);
                writeDouble(out, a.epsilon());
                writeDouble(out, a.logDelta().value());
            }
            writeInstant(out, e.time());
            writeUvarint(out, e.parameters().size());
            for (Map.Entry<String, Double> p : e.parameters().entrySet()) {
                writeUvarint(out, table.get(p.getKey()));
                writeDouble(out, p.getValue());
            }
        }
        return out.toByteArray();
    }

    static Decoded decode(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("ledger bytes are required");
        }
        Reader in = new Reader(bytes);
        if (bytes.length < 4 || bytes[0] != MAGIC_0 || bytes[1] != MAGIC_1) {
            throw new IllegalArgumentException("not a privacy ledger: bad magic (expected 0x504C)");
        }
        in.pos = 2;
        int version = in.u8("version");
        if (version != VERSION) {
            throw new IllegalArgumentException("unsupported ledger version " + version + " (this reader knows 1)");
        }
        int flags = in.u8("flags");
        if ((flags & ~FLAG_SEALED) != 0) {
            throw new IllegalArgumentException("unknown ledger flags 0x" + Integer.toHexString(flags));
        }
        Instant sealedAt = (flags & FLAG_SEALED) != 0 ? in.instant("sealedAt") : null;

        int nStrings = in.count("string count", 1);
        List<String> strings = new ArrayList<>(nStrings);
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < nStrings; i++) {
            String s = in.string("string " + i);
            if (seen.put(s, i) != null) {
                throw new IllegalArgumentException("duplicate string table entry " + i + ": \"" + s + "\"");
            }
            strings.add(s);
        }
        int nEvents = in.count("event count", 12);
        List<PrivacyEvent> events = new ArrayList<>(nEvents);
        for (int i = 0; i < nEvents; i++) {
            String where = "event " + i;
            try {
                String mechanism = strings.get(in.index(where + " mechanism", nStrings));
                int tag = in.u8(where + " cost tag");
                PrivacyCost cost;
                switch (tag) {
                    case TAG_PURE -> cost = new PrivacyCost.Pure(in.f64(where + " epsilon"));
                    case TAG_ZCDP -> cost = new PrivacyCost.Zcdp(in.f64(where + " rho"));
                    case TAG_APPROXIMATE -> {
                        double eps = in.f64(where + " epsilon");
                        cost = new PrivacyCost.Approximate(eps, new LogDelta(in.f64(where + " ln delta")));
                    }
                    default -> throw new IllegalArgumentException("unknown cost tag " + tag);
                }
                Instant time = in.instant(where + " time");
                int nParams = in.count(where + " parameter count", 9);
                TreeMap<String, Double> params = new TreeMap<>();
                String previous = null;
                for (int k = 0; k < nParams; k++) {
                    String key = strings.get(in.index(where + " parameter " + k, nStrings));
                    if (previous != null && previous.compareTo(key) >= 0) {
                        throw new IllegalArgumentException("parameter names not strictly ascending at \"" + key + "\"");
                    }
                    previous = key;
                    params.put(key, in.f64(where + " parameter " + key));
                }
                events.add(new PrivacyEvent(mechanism, cost, params, time));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("ledger " + where + ": " + ex.getMessage(), ex);
            }
        }
        if (in.pos != bytes.length) {
            throw new IllegalArgumentException("ledger bytes: " + (bytes.length - in.pos) + " trailing bytes after "
                    + nEvents + " events");
        }
        return new Decoded(events, sealedAt);
    }

    private static void writeUvarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static void writeDouble(ByteArrayOutputStream out, double d) {
        long bits = Double.doubleToRawLongBits(d);
        for (int shift = 56; shift >= 0; shift -= 8) {
            out.write((int) (bits >>> shift) & 0xFF);
        }
    }

    private static void writeInstant(ByteArrayOutputStream out, Instant t) {
        long s = t.getEpochSecond();
        writeUvarint(out, (s << 1) ^ (s >> 63));
        writeUvarint(out, t.getNano());
    }

    /** A cursor over the input; every read checks bounds and names what it was reading. */
    private static final class Reader {
        private final byte[] b;
        private int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        private void need(int n, String what) {
            if (b.length - pos < n) {
                throw new IllegalArgumentException("ledger bytes truncated while reading " + what + " at offset " + pos);
            }
        }

        int u8(String what) {
            need(1, what);
            return b[pos++] & 0xFF;
        }

        long uvarint(String what) {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = u8(what);
                if (shift == 63 && (x & 0xFE) != 0) {
                    throw new IllegalArgumentException("ledger bytes: varint overflow in " + what + " at offset " + pos);
                }
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("ledger bytes: varint too long in " + what + " at offset " + pos);
        }

        /** A count whose items take at least {@code minBytes} each, so it cannot exceed what is left. */
        int count(String what, int minBytes) {
            long n = uvarint(what);
            if (n < 0 || n > (long) (b.length - pos) / minBytes) {
                throw new IllegalArgumentException("ledger bytes: " + what + " " + Long.toUnsignedString(n)
                        + " exceeds the " + (b.length - pos) + " remaining bytes");
            }
            return (int) n;
        }

        int index(String what, int size) {
            long i = uvarint(what);
            if (i < 0 || i >= size) {
                throw new IllegalArgumentException("ledger bytes: " + what + " string index "
                        + Long.toUnsignedString(i) + " out of range [0, " + size + ")");
            }
            return (int) i;
        }

        double f64(String what) {
            need(8, what);
            long bits = 0;
            for (int i = 0; i < 8; i++) {
                bits = (bits << 8) | (b[pos++] & 0xFF);
            }
            return Double.longBitsToDouble(bits);
        }

        Instant instant(String what) {
            long z = uvarint(what + " seconds");
            long seconds = (z >>> 1) ^ -(z & 1);
            long nanos = uvarint(what + " nanos");
            if (nanos < 0 || nanos >= 1_000_000_000L) {
                throw new IllegalArgumentException("ledger bytes: " + what + " nanos must be in [0, 999999999], got "
                        + Long.toUnsignedString(nanos));
            }
            try {
                return Instant.ofEpochSecond(seconds, nanos);
            } catch (DateTimeException ex) {
                throw new IllegalArgumentException("ledger bytes: " + what + " out of the Instant range: "
                        + seconds + " s", ex);
            }
        }

        String string(String what) {
            int n = count(what + " length", 1);
            try {
                String s = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(b, pos, n))
                        .toString();
                pos += n;
                return s;
            } catch (CharacterCodingException ex) {
                throw new IllegalArgumentException("ledger bytes: " + what + " is not valid UTF-8", ex);
            }
        }
    }
}

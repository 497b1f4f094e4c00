package io.privacygateway.schemas.wire;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * An Avro binary {@link Decoder} over one byte array that never trusts a length it reads.
 *
 * <p>Avro's own {@code BinaryDecoder} allocates a string, bytes or collection of the length the
 * data declares before it knows whether that many bytes follow: ten hostile bytes can ask for a
 * 2 GiB allocation. Here every length is checked against the bytes that remain before anything is
 * allocated:
 * <ul>
 *   <li>string and bytes lengths must be {@code 0 <= length <= remaining};</li>
 *   <li>array and map block counts must be {@code <= remaining} (every element of the project's
 *       schemas takes at least one byte; an array of {@code null} or of empty records longer than
 *       the rest of the message is rejected, a deliberate limit of this decoder);</li>
 *   <li>a block's byte size, when given, must be {@code <= remaining}.</li>
 * </ul>
 * It is also stricter than Avro where Avro is lenient: a boolean must be 0 or 1, an int varint at
 * most 5 bytes and within 32 bits, a long varint at most 10 bytes and within 64 bits, and strings
 * must be well-formed UTF-8 (Avro replaces bad sequences with U+FFFD). Every violation is an
 * {@link IOException} ({@link EOFException} for data that ends early); the caller maps both to
 * {@link WireFormatException.Reason#AVRO_DECODE_FAILURE}.
 *
 * <p>Not thread-safe; one instance per message is cheap.
 */
final class BoundedBinaryDecoder extends Decoder {

    /** A structurally invalid encoding (as opposed to data that ends early). */
    static final class MalformedAvroException extends IOException {
        MalformedAvroException(String message) {
            super(message);
        }
    }

    private final byte[] buf;
    private final int end;
    private int pos;
    private CharsetDecoder utf8;

    BoundedBinaryDecoder(byte[] buf, int offset, int length) {
        if (offset < 0 || length < 0 || offset > buf.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + ", array " + buf.length);
        }
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
    }

    /** Index of the next unread byte in the backing array. */
    int position() {
        return pos;
    }

    @Override
    public int remainingBytes() {
        return end - pos;
    }

    private void require(long n, String what) throws IOException {
        if (n > end - pos) {
            throw new EOFException(what + " needs " + n + " bytes at offset " + pos + ", only " + (end - pos) + " left");
        }
    }

    private int nextByte() throws IOException {
        if (pos >= end) {
            throw new EOFException("data ends at offset " + pos + " in the middle of a value");
        }
        return buf[pos++] & 0xFF;
    }

    @Override
    public void readNull() {
        // zero bytes
    }

    @Override
    public boolean readBoolean() throws IOException {
        int b = nextByte();
        if (b > 1) {
            throw new MalformedAvroException("boolean byte must be 0 or 1, got " + b + " at offset " + (pos - 1));
        }
        return b == 1;
    }

    @Override
    public int readInt() throws IOException {
        // at most 32 bits: the fifth byte (shift 28) carries the top 4; the zig-zag value then fits an int exactly
        return (int) readZigZagVarint(28, 0x0F, "int", 32);
    }

    @Override
    public long readLong() throws IOException {
        // at most 64 bits: the tenth byte (shift 63) carries the top bit
        return readZigZagVarint(63, 0x01, "long", 64);
    }

    /**
     * One zig-zag varint (little-endian groups of 7 bits, high bit = more follows), decoded.
     *
     * <p>Guarantees: consumes exactly the varint's bytes; rejects, with the offset where the varint starts, a last
     * group (the one at {@code lastShift}) above {@code lastByteMax}, which would overflow {@code bits} bits; ends in
     * EOFException where the data ends first. Preconditions: {@code lastShift} is a multiple of 7 below 64 and
     * {@code lastByteMax} has no continuation bit, so the group at {@code lastShift} always ends the varint.
     */
    private long readZigZagVarint(int lastShift, int lastByteMax, String what, int bits) throws IOException {
        int start = pos;
        long raw = 0;
        for (int shift = 0; shift <= lastShift; shift += 7) {
            int b = nextByte();
            if (shift == lastShift && b > lastByteMax) {
                throw new MalformedAvroException(what + " varint exceeds " + bits + " bits at offset " + start);
            }
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalStateException("unreachable");
    }

    @Override
    public float readFloat() throws IOException {
        require(4, "float");
        int bits = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16
                | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return Float.intBitsToFloat(bits);
    }

    @Override
    public double readDouble() throws IOException {
        require(8, "double");
        long bits = 0;
        for (int i = 7; i >= 0; i--) {
            bits = bits << 8 | (buf[pos + i] & 0xFF);
        }
        pos += 8;
        return Double.longBitsToDouble(bits);
    }

    /** Reads a length prefix and checks it against the remaining bytes. */
    private int readLength(String what) throws IOException {
        return (int) readDeclaredSize(what, "", "length"); // at most the remaining bytes, so it fits an int
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        int length = readLength("string");
        checkUtf8(pos, length);
        return new Utf8(take(length));
    }

    @Override
    public String readString() throws IOException {
        int length = readLength("string");
        String s;
        if (isAscii(pos, length)) {
            s = new String(buf, pos, length, StandardCharsets.US_ASCII);
        } else {
            s = decodeUtf8(pos, length);
        }
        pos += length;
        return s;
    }

    private boolean isAscii(int from, int length) {
        for (int i = from; i < from + length; i++) {
            if (buf[i] < 0) {
                return false;
            }
        }
        return true;
    }

    private void checkUtf8(int from, int length) throws IOException {
        if (!isAscii(from, length)) {
            decodeUtf8(from, length);
        }
    }

    private String decodeUtf8(int from, int length) throws IOException {
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            CharBuffer chars = utf8.reset().decode(ByteBuffer.wrap(buf, from, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new MalformedAvroException("string at offset " + from + " is not well-formed UTF-8");
        }
    }

    @Override
    public void skipString() throws IOException {
        skipLengthPrefixed("string");
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        return ByteBuffer.wrap(take(readLength("bytes")));
    }

    @Override
    public void skipBytes() throws IOException {
        skipLengthPrefixed("bytes");
    }

    /**
     * A copy of the next {@code length} bytes, consumed. Precondition: {@code length} has been checked against the
     * remaining bytes ({@link #readLength}).
     */
    private byte[] take(int length) {
        byte[] bytes = new byte[length];
        System.arraycopy(buf, pos, bytes, 0, length);
        pos += length;
        return bytes;
    }

    /** Consumes a length prefix ({@code what}: string or bytes) and the bytes it declares, checked as by readLength. */
    private void skipLengthPrefixed(String what) throws IOException {
        // Not "pos += readLength(...)": Java would add the length to pos as it was before the
        // length prefix was read, landing inside the prefix.
        int length = readLength(what);
        pos += length;
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        require(length, "fixed");
        System.arraycopy(buf, pos, bytes, start, length);
        pos += length;
    }

    @Override
    public void skipFixed(int length) throws IOException {
        require(length, "fixed");
        pos += length;
    }

    @Override
    public int readEnum() throws IOException {
        return readNonNegativeIndex("enum");
    }

    @Override
    public int readIndex() throws IOException {
        return readNonNegativeIndex("union branch");
    }

    /**
     * An int that indexes something ({@code what}: an enum symbol, a union branch). Guarantees: the result is
     * {@code >= 0}; a negative one is rejected with its offset (whether it is in range is the schema's check).
     */
    private int readNonNegativeIndex(String what) throws IOException {
        int at = pos;
        int index = readInt();
        if (index < 0) {
            throw new MalformedAvroException(what + " index is negative (" + index + ") at offset " + at);
        }
        return index;
    }

    /**
     * One block header: the item count, after consuming the byte size that a negative count
     * announces. 0 ends the collection.
     */
    private long readBlockCount(String what) throws IOException {
        int at = pos;
        long count = readLong();
        if (count < 0) {
            count = sizedBlockCount(what, count, at);
            readBlockSize(what);
        }
        requireItems(what, count, at);
        return count;
    }

    /**
     * The item count {@code -count} of a block that announces its byte size (a negative count). Precondition:
     * {@code count < 0}; rejects {@link Long#MIN_VALUE}, which has no positive counterpart.
     */
    private static long sizedBlockCount(String what, long count, int at) throws MalformedAvroException {
        if (count == Long.MIN_VALUE) {
            throw new MalformedAvroException(what + " block count out of range at offset " + at);
        }
        return -count;
    }

    /** A block's byte size, read; guarantees it is {@code >= 0} and that that many bytes remain (not consumed). */
    private long readBlockSize(String what) throws IOException {
        return readDeclaredSize(what, " block", "size");
    }

    /**
     * A declared byte count (a string's or bytes' length, a block's size), read; guarantees it is {@code >= 0} and
     * that that many bytes remain (not consumed). Messages: "{what}{part} {unit} is negative (…) at offset …" and
     * "{what}{part} of declared {unit} …".
     */
    private long readDeclaredSize(String what, String part, String unit) throws IOException {
        int at = pos;
        long size = readLong();
        if (size < 0) {
            throw new MalformedAvroException(what + part + " " + unit + " is negative (" + size + ") at offset " + at);
        }
        require(size, what + part + " of declared " + unit + " " + size);
        return size;
    }

    /** Rejects a block (read at {@code at}) declaring more items than bytes remain (every item takes one at least). */
    private void requireItems(String what, long count, int at) throws MalformedAvroException {
        if (count > end - pos) {
            throw new MalformedAvroException(what + " block at offset " + at + " declares " + count
                    + " items but only " + (end - pos) + " bytes remain");
        }
    }

    @Override
    public long readArrayStart() throws IOException {
        return readBlockCount("array");
    }

    @Override
    public long arrayNext() throws IOException {
        return readBlockCount("array");
    }

    @Override
    public long readMapStart() throws IOException {
        return readBlockCount("map");
    }

    @Override
    public long mapNext() throws IOException {
        return readBlockCount("map");
    }

    /**
     * Skips blocks whose byte size is known and returns the item count of the first block that
     * the caller must skip item by item (0 at the end of the collection), as Avro's contract asks.
     */
    private long skipBlocks(String what) throws IOException {
        while (true) {
            int at = pos;
            long count = readLong();
            if (count >= 0) {
                requireItems(what, count, at);
                return count;
            }
            sizedBlockCount(what, count, at);
            // not "pos += (int) readBlockSize(...)": pos would be read before the size prefix is consumed
            long size = readBlockSize(what);
            pos += (int) size;
        }
    }

    @Override
    public long skipArray() throws IOException {
        return skipBlocks("array");
    }

    @Override
    public long skipMap() throws IOException {
        return skipBlocks("map");
    }
}

package io.privacygateway.mechanisms.budget;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The binary form of a {@link BudgetUsage} (the device SDK's persistence and the gateway's state store use
 * the same bytes). Big-endian: version byte 1; period length (long) and index (long); spent ε as scale (int),
 * unscaled length (int, at most 64) and two's-complement bytes; used sequence numbers as a length-prefixed
 * {@link BitSet#toByteArray()}; the number of windows (int), then per window its start (long) and its used
 * slots as a length-prefixed bitset. A budget group's usage with members ({@link BudgetUsage#members()}) is
 * written as version 2: the same fields followed by the number of members (int) and per member its id as
 * length-prefixed UTF-8 (at most 1024 bytes) and its counted ε (scale, length-prefixed unscaled bytes). Decoding checks every length against the bytes present and fails with
 * {@link IllegalArgumentException} on anything malformed, never allocating more than the input's size.
 */
public final class BudgetUsageCodec {
    private static final byte VERSION = 1;
    private static final byte VERSION_WITH_MEMBERS = 2;
    private static final int MAX_MEMBER_ID_BYTES = 1024;
    /** The longest unscaled value of a stored ε (two's-complement bytes), enforced when written and when read. */
    private static final int MAX_UNSCALED_BYTES = 64;

    private BudgetUsageCodec() {}

    /**
     * Encodes a usage.
     *
     * @throws IllegalArgumentException if a value exceeds what {@link #decode} accepts (an ε whose unscaled value
     *     is longer than 64 bytes, a member id longer than 1,024 bytes), so nothing is written that could not be read
     */
    public static byte[] encode(BudgetUsage u) {
        byte[] unscaled = bounded(u.spent().unscaledValue().toByteArray(), MAX_UNSCALED_BYTES, "spent ε");
        byte[] seq = u.sequences().toByteArray();
        int size = 1 + 16 + 4 + 4 + unscaled.length + 4 + seq.length + 4;
        for (BitSet b : u.windows().values()) {
            size += 8 + 4 + b.toByteArray().length;
        }
        boolean withMembers = !u.members().isEmpty();
        Map<byte[], byte[]> members = new java.util.LinkedHashMap<>();
        if (withMembers) {
            size += 4;
            for (Map.Entry<String, BigDecimal> e : u.members().entrySet()) {
                byte[] id = bounded(e.getKey().getBytes(StandardCharsets.UTF_8), MAX_MEMBER_ID_BYTES, "member id");
                byte[] value = bounded(e.getValue().unscaledValue().toByteArray(), MAX_UNSCALED_BYTES, "member ε");
                members.put(id, value);
                size += 4 + id.length + 4 + 4 + value.length;
            }
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(withMembers ? VERSION_WITH_MEMBERS : VERSION).putLong(u.period().lengthMillis()).putLong(u.period().index());
        out.putInt(u.spent().scale()).putInt(unscaled.length).put(unscaled);
        out.putInt(seq.length).put(seq);
        out.putInt(u.windows().size());
        for (Map.Entry<Long, BitSet> e : u.windows().entrySet()) {
            byte[] b = e.getValue().toByteArray();
            out.putLong(e.getKey()).putInt(b.length).put(b);
        }
        if (withMembers) {
            out.putInt(members.size());
            var scales = u.members().values().iterator();
            for (Map.Entry<byte[], byte[]> e : members.entrySet()) {
                out.putInt(e.getKey().length).put(e.getKey());
                out.putInt(scales.next().scale()).putInt(e.getValue().length).put(e.getValue());
            }
        }
        return out.array();
    }

    public static BudgetUsage decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            byte v = in.get();
            if (v != VERSION && v != VERSION_WITH_MEMBERS) {
                throw new IllegalArgumentException("unknown budget usage version " + v);
            }
            PeriodKey period = new PeriodKey(in.getLong(), in.getLong());
            int scale = in.getInt();
            byte[] unscaled = bytes(in, MAX_UNSCALED_BYTES);
            BigDecimal spent = decimal(unscaled, scale);
            BitSet seq = BitSet.valueOf(bytes(in, in.remaining()));
            int windows = in.getInt();
            if (windows < 0 || windows > in.remaining() / 12) {
                throw new IllegalArgumentException("bad window count " + windows);
            }
            Map<Long, BitSet> w = new TreeMap<>();
            for (int i = 0; i < windows; i++) {
                long start = in.getLong();
                w.put(start, BitSet.valueOf(bytes(in, in.remaining())));
            }
            Map<String, BigDecimal> members = new TreeMap<>();
            if (v == VERSION_WITH_MEMBERS) {
                int count = in.getInt();
                if (count <= 0 || count > in.remaining() / 12) {
                    throw new IllegalArgumentException("bad member count " + count);
                }
                for (int i = 0; i < count; i++) {
                    String id = new String(bytes(in, MAX_MEMBER_ID_BYTES), StandardCharsets.UTF_8);
                    int memberScale = in.getInt();
                    BigDecimal counted = decimal(bytes(in, MAX_UNSCALED_BYTES), memberScale);
                    if (counted.signum() < 0 || members.put(id, counted) != null) {
                        throw new IllegalArgumentException("bad member entry for " + id);
                    }
                }
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " trailing bytes");
            }
            return BudgetUsage.of(period, spent, seq, w, members);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated budget usage", e);
        }
    }

    private static byte[] bounded(byte[] b, int max, String what) {
        if (b.length > max) {
            throw new IllegalArgumentException(what + ": " + b.length + " bytes, more than the " + max
                    + " a stored budget usage holds");
        }
        return b;
    }

    private static BigDecimal decimal(byte[] unscaled, int scale) {
        return new BigDecimal(new BigInteger(unscaled.length == 0 ? new byte[] {0} : unscaled), scale);
    }

    private static byte[] bytes(ByteBuffer in, int max) {
        int n = in.getInt();
        if (n < 0 || n > max || n > in.remaining()) {
            throw new IllegalArgumentException("bad length " + n);
        }
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }
}

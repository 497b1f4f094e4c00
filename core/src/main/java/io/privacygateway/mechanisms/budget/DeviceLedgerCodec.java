package io.privacygateway.mechanisms.budget;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The binary form of a {@link DeviceLedger}, the same bytes on the device (its persisted budget) and in the
 * gateway's state store. Big-endian, version byte 1; a table of distinct strings (count, then each as a
 * length-prefixed UTF-8 string of at most {@value #MAX_STRING_BYTES} bytes); the number of charges, then per
 * charge: workload, version and group as string-table indices (group -1 for none), {@code from} and {@code to}
 * (longs), ε as scale (int) and length-prefixed two's-complement unscaled bytes (at most 64), and the used slots
 * as a length-prefixed {@link BitSet#toByteArray()} (at most {@value #MAX_SLOT_BYTES} bytes); then the number of
 * forgotten scopes and per scope its string index and time (long).
 *
 * <p><b>Bounded when written.</b> {@link #encode} refuses a ledger of more than {@link DeviceLedger#MAX_CHARGES}
 * charges or a value of more than {@value #MAX_BYTES} bytes (the admission rule never produces one), and
 * {@link #decode} refuses the same, checking every length against the bytes present, so what is written can always
 * be read back.
 */
public final class DeviceLedgerCodec {
    private static final byte VERSION = 1;
    /** The longest string (workload id, content hash, group name, scope) stored. */
    public static final int MAX_STRING_BYTES = 1024;
    /** The most bytes of one charge's used-slot set (sequence numbers up to 2^19). */
    public static final int MAX_SLOT_BYTES = 1 << 16;
    /** The largest encoded ledger. */
    public static final int MAX_BYTES = 4 << 20;
    private static final int MAX_UNSCALED_BYTES = 64;

    private DeviceLedgerCodec() {}

    /**
     * The bytes of {@code ledger}.
     *
     * @throws IllegalArgumentException if the ledger exceeds the bounds above
     */
    public static byte[] encode(DeviceLedger ledger) {
        if (ledger.charges().size() > DeviceLedger.MAX_CHARGES) {
            throw new IllegalArgumentException("a device ledger holds at most " + DeviceLedger.MAX_CHARGES
                    + " charges, got " + ledger.charges().size());
        }
        Map<String, Integer> table = new LinkedHashMap<>();
        for (Charge c : ledger.charges()) {
            table.putIfAbsent(c.workloadId(), table.size());
            table.putIfAbsent(c.version(), table.size());
            if (c.group() != null) {
                table.putIfAbsent(c.group(), table.size());
            }
        }
        ledger.forgotten().keySet().forEach(s -> table.putIfAbsent(s, table.size()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 48 * ledger.charges().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(table.size());
            for (String s : table.keySet()) {
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                if (b.length > MAX_STRING_BYTES) {
                    throw new IllegalArgumentException("a ledger string is at most " + MAX_STRING_BYTES + " bytes");
                }
                out.writeInt(b.length);
                out.write(b);
            }
            out.writeInt(ledger.charges().size());
            for (Charge c : ledger.charges()) {
                out.writeInt(table.get(c.workloadId()));
                out.writeInt(table.get(c.version()));
                out.writeInt(c.group() == null ? -1 : table.get(c.group()));
                out.writeLong(c.from());
                out.writeLong(c.to());
                byte[] unscaled = c.epsilon().unscaledValue().toByteArray();
                if (unscaled.length > MAX_UNSCALED_BYTES) {
                    throw new IllegalArgumentException("a charge's ε has more than " + MAX_UNSCALED_BYTES + " bytes");
                }
                out.writeInt(c.epsilon().scale());
                out.writeInt(unscaled.length);
                out.write(unscaled);
                byte[] slots = c.slotBytes();
                if (slots.length > MAX_SLOT_BYTES) {
                    throw new IllegalArgumentException("a charge's slot set is at most " + MAX_SLOT_BYTES + " bytes");
                }
                out.writeInt(slots.length);
                out.write(slots);
            }
            out.writeInt(ledger.forgotten().size());
            for (Map.Entry<String, Long> e : ledger.forgotten().entrySet()) {
                out.writeInt(table.get(e.getKey()));
                out.writeLong(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (bytes.size() > MAX_BYTES) {
            throw new IllegalArgumentException("an encoded device ledger is at most " + MAX_BYTES + " bytes, got "
                    + bytes.size());
        }
        return bytes.toByteArray();
    }

    /**
     * The ledger of {@code bytes}.
     *
     * @throws IllegalArgumentException if the bytes are not a ledger within the bounds above
     */
    public static DeviceLedger decode(byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("an encoded device ledger is at most " + MAX_BYTES + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            if (in.get() != VERSION) {
                throw new IllegalArgumentException("unknown device ledger version");
            }
            int n = count(in, in.remaining() / 4);
            List<String> table = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = count(in, Math.min(MAX_STRING_BYTES, in.remaining()));
                byte[] b = new byte[len];
                in.get(b);
                table.add(new String(b, StandardCharsets.UTF_8));
            }
            int charges = count(in, DeviceLedger.MAX_CHARGES);
            List<Charge> list = new ArrayList<>(Math.min(charges, in.remaining() / 40 + 1));
            for (int i = 0; i < charges; i++) {
                String workload = string(table, in.getInt(), false);
                String version = string(table, in.getInt(), false);
                String group = string(table, in.getInt(), true);
                long from = in.getLong();
                long to = in.getLong();
                int scale = in.getInt();
                byte[] unscaled = new byte[count(in, Math.min(MAX_UNSCALED_BYTES, in.remaining()))];
                in.get(unscaled);
                if (unscaled.length == 0) {
                    throw new IllegalArgumentException("empty ε");
                }
                byte[] slots = new byte[count(in, Math.min(MAX_SLOT_BYTES, in.remaining()))];
                in.get(slots);
                list.add(new Charge(workload, version, group, from, to, new BigDecimal(new BigInteger(unscaled), scale),
                        BitSet.valueOf(slots)));
            }
            int f = count(in, in.remaining() / 12);
            Map<String, Long> forgotten = new TreeMap<>();
            for (int i = 0; i < f; i++) {
                forgotten.put(string(table, in.getInt(), false), in.getLong());
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("trailing bytes after a device ledger");
            }
            return DeviceLedger.of(list, forgotten);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated device ledger", e);
        }
    }

    private static int count(ByteBuffer in, int max) {
        int n = in.getInt();
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("a count of " + n + " exceeds what the bytes or the bounds allow");
        }
        return n;
    }

    private static String string(List<String> table, int i, boolean nullable) {
        if (nullable && i == -1) {
            return null;
        }
        if (i < 0 || i >= table.size()) {
            throw new IllegalArgumentException("string index " + i + " outside the table");
        }
        return table.get(i);
    }
}

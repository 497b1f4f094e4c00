package io.privacygateway.topology.state;

import java.nio.ByteBuffer;
import java.util.BitSet;

/**
 * One device's privacy ledger for one workload and one budget period: the pure ε it has spent and the
 * sequence numbers (local mode) or windows (central mode) it has been charged for. Kept in a
 * changelogged state store and updated in the same exactly-once transaction as the records that depend
 * on it, so a crash can neither lose a charge nor charge twice.
 *
 * <p>Binary form (big-endian): version byte 1, spent ε (8-byte double), charge count (int), then the
 * bitset of charged sequence numbers as a length-prefixed byte array. Immutable.
 */
public final class LedgerEntry {
    private static final byte VERSION = 1;
    public static final LedgerEntry EMPTY = new LedgerEntry(0.0, 0, new BitSet());

    private final double spent;
    private final int charges;
    private final BitSet sequences;

    private LedgerEntry(double spent, int charges, BitSet sequences) {
        this.spent = spent;
        this.charges = charges;
        this.sequences = sequences;
    }

    /** The pure ε spent. */
    public double spent() {
        return spent;
    }

    /** How many charges were accepted. */
    public int charges() {
        return charges;
    }

    /** Whether this sequence number was already charged. */
    public boolean hasSequence(int sequence) {
        return sequences.get(sequence);
    }

    /** Whether charging {@code epsilon} more would exceed {@code budget} (with a tiny tolerance for rounding). */
    public boolean wouldExceed(double epsilon, double budget) {
        return spent + epsilon > budget * (1 + 1e-12);
    }

    /** A new entry with one more charge of {@code epsilon} for {@code sequence}. */
    public LedgerEntry charge(int sequence, double epsilon) {
        BitSet s = (BitSet) sequences.clone();
        s.set(sequence);
        return new LedgerEntry(spent + epsilon, charges + 1, s);
    }

    public byte[] toBytes() {
        byte[] bits = sequences.toByteArray();
        ByteBuffer b = ByteBuffer.allocate(1 + 8 + 4 + 4 + bits.length);
        b.put(VERSION).putDouble(spent).putInt(charges).putInt(bits.length).put(bits);
        return b.array();
    }

    public static LedgerEntry fromBytes(byte[] bytes) {
        if (bytes == null) {
            return EMPTY;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte v = b.get();
        if (v != VERSION) {
            throw new IllegalStateException("unknown ledger entry version " + v);
        }
        double spent = b.getDouble();
        int charges = b.getInt();
        byte[] bits = new byte[b.getInt()];
        b.get(bits);
        return new LedgerEntry(spent, charges, BitSet.valueOf(bits));
    }
}

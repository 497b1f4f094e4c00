package io.privacygateway.topology.state;

import java.nio.ByteBuffer;
import java.util.BitSet;

/**
 * One device's privacy ledger for one workload and one budget period: the pure ε it has spent and the
 * sequence numbers (local mode) or windows (central mode) it has been charged for. Kept in a
 * changelogged state store and updated in the same exactly-once transaction as the records that depend
 * on it, so a crash can neither lose a charge nor charge twice.
 *
 * <p>Admission counts charges rather than summing ε: a report (local) or a newly contributed window
 * (central) is admitted while the number of <em>paid</em> charges is below the spec's
 * {@code reportsPerPeriod()} = ⌊budget / ε⌋, the same integer that bounds the sequence numbers and that the
 * device SDK uses, so no floating-point drift can make the two disagree. The spent ε is kept for display.
 *
 * <p>Binary form (big-endian): version byte 2, spent ε (8-byte double), charge count (int), paid charge
 * count (int), then the bitset of charged sequence numbers as a length-prefixed byte array. Immutable.
 */
public final class LedgerEntry {
    private static final byte VERSION = 2;
    public static final LedgerEntry EMPTY = new LedgerEntry(0.0, 0, 0, new BitSet());

    private final double spent;
    private final int charges;
    private final int paid;
    private final BitSet sequences;

    private LedgerEntry(double spent, int charges, int paid, BitSet sequences) {
        this.spent = spent;
        this.charges = charges;
        this.paid = paid;
        this.sequences = sequences;
    }

    /** How many accepted charges cost ε (local: every report; central: the first contribution to a window). */
    public int paid() {
        return paid;
    }

    /** Whether another paid charge would exceed the period's allowance of {@code allowed} paid charges. */
    public boolean budgetExhausted(int allowed) {
        return paid >= allowed;
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

    /** A new entry with one more charge of {@code epsilon} for {@code sequence}. */
    public LedgerEntry charge(int sequence, double epsilon) {
        BitSet s = (BitSet) sequences.clone();
        s.set(sequence);
        return new LedgerEntry(spent + epsilon, charges + 1, epsilon > 0 ? paid + 1 : paid, s);
    }

    public byte[] toBytes() {
        byte[] bits = sequences.toByteArray();
        ByteBuffer b = ByteBuffer.allocate(1 + 8 + 4 + 4 + 4 + bits.length);
        b.put(VERSION).putDouble(spent).putInt(charges).putInt(paid).putInt(bits.length).put(bits);
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
        int paid = b.getInt();
        byte[] bits = new byte[b.getInt()];
        b.get(bits);
        return new LedgerEntry(spent, charges, paid, BitSet.valueOf(bits));
    }
}

package io.privacygateway.topology.release;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The privacy account of one central workload: what its releases have cost so far, kept as a <b>bounded
 * summary</b> — the exact total ε, the count and exact ε per mechanism, and the last {@link #RECENT} releases —
 * so its size never grows with the number of releases (the full history is the answers topic itself).
 * Immutable.
 */
public final class ReleaseAccount {
    /** How many recent releases are kept. */
    public static final int RECENT = 16;
    /** The most mechanisms an account counts separately (enforced when written and when read). */
    static final int MAX_MECHANISMS = 64;
    /** The longest stored decimal's unscaled value and the longest mechanism name, in bytes. */
    static final int MAX_DECIMAL_BYTES = 64;
    static final int MAX_NAME_BYTES = 256;
    private final BigDecimal total;
    private final long releases;
    private final TreeMap<String, Totals> byMechanism;
    private final List<Release> recent;

    /** A mechanism's running totals. */
    public record Totals(long releases, BigDecimal epsilon) {}

    /** One release: its window start, mechanism and ε. */
    public record Release(long windowStart, String mechanism, BigDecimal epsilon) {}

    public static final ReleaseAccount EMPTY = new ReleaseAccount(BigDecimal.ZERO, 0, new TreeMap<>(), List.of());

    private ReleaseAccount(BigDecimal total, long releases, TreeMap<String, Totals> byMechanism, List<Release> recent) {
        this.total = total;
        this.releases = releases;
        this.byMechanism = byMechanism;
        this.recent = List.copyOf(recent);
    }

    /** The account after one more release. */
    public ReleaseAccount plus(long windowStart, String mechanism, BigDecimal epsilon) {
        TreeMap<String, Totals> m = new TreeMap<>(byMechanism);
        Totals t = m.getOrDefault(mechanism, new Totals(0, BigDecimal.ZERO));
        m.put(mechanism, new Totals(t.releases() + 1, t.epsilon().add(epsilon)));
        ArrayDeque<Release> r = new ArrayDeque<>(recent);
        r.addLast(new Release(windowStart, mechanism, epsilon));
        while (r.size() > RECENT) {
            r.removeFirst();
        }
        return new ReleaseAccount(total.add(epsilon), releases + 1, m, new ArrayList<>(r));
    }

    /** The exact total ε released. */
    public BigDecimal total() {
        return total;
    }

    /** The composed guarantee of every release so far: the exact total ε, rounded up once (never understated). */
    public PrivacyCost.Pure cumulative() {
        return Composition.pureTotal(total);
    }

    public long releases() {
        return releases;
    }

    public Map<String, Totals> byMechanism() {
        return Collections.unmodifiableMap(byMechanism);
    }

    public List<Release> recent() {
        return recent;
    }

    /**
     * The stored form.
     *
     * @throws IllegalStateException if the account exceeds a bound {@link #fromBytes} enforces (cannot happen with
     *     declared ε of at most {@code WorkloadSpec.MAX_EPSILON_DECIMALS} places and the mechanisms there are), so
     *     nothing is written that could not be read back
     */
    public byte[] toBytes() {
        if (byMechanism.size() > MAX_MECHANISMS) {
            throw new IllegalStateException("a release account counts at most " + MAX_MECHANISMS + " mechanisms");
        }
        ByteBuffer b = ByteBuffer.allocate(sizeBound());
        b.put((byte) 1);
        putDecimal(b, total);
        b.putLong(releases).putInt(byMechanism.size());
        for (var e : byMechanism.entrySet()) {
            putString(b, e.getKey());
            b.putLong(e.getValue().releases());
            putDecimal(b, e.getValue().epsilon());
        }
        b.putInt(recent.size());
        for (Release r : recent) {
            b.putLong(r.windowStart());
            putString(b, r.mechanism());
            putDecimal(b, r.epsilon());
        }
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    private int sizeBound() {
        int n = 1 + decimalSize(total) + 12;
        for (var e : byMechanism.entrySet()) {
            n += 4 + e.getKey().length() * 4 + 8 + decimalSize(e.getValue().epsilon());
        }
        n += 4;
        for (Release r : recent) {
            n += 8 + 4 + r.mechanism().length() * 4 + decimalSize(r.epsilon());
        }
        return n;
    }

    private static int decimalSize(BigDecimal d) {
        return 8 + d.unscaledValue().toByteArray().length;
    }

    private static void putDecimal(ByteBuffer b, BigDecimal d) {
        byte[] u = d.unscaledValue().toByteArray();
        if (u.length > MAX_DECIMAL_BYTES) {
            throw new IllegalStateException("a release account's ε is longer than " + MAX_DECIMAL_BYTES + " bytes");
        }
        b.putInt(d.scale()).putInt(u.length).put(u);
    }

    private static void putString(ByteBuffer b, String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        if (u.length > MAX_NAME_BYTES) {
            throw new IllegalStateException("a release account's mechanism name is longer than " + MAX_NAME_BYTES);
        }
        b.putInt(u.length).put(u);
    }

    public static ReleaseAccount fromBytes(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (b.get() != 1) {
                throw new IllegalArgumentException("unknown account version");
            }
            BigDecimal total = getDecimal(b);
            long releases = b.getLong();
            int kinds = bounded(b.getInt(), MAX_MECHANISMS);
            TreeMap<String, Totals> m = new TreeMap<>();
            for (int i = 0; i < kinds; i++) {
                m.put(getString(b), new Totals(b.getLong(), getDecimal(b)));
            }
            int n = bounded(b.getInt(), RECENT);
            List<Release> recent = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                recent.add(new Release(b.getLong(), getString(b), getDecimal(b)));
            }
            return new ReleaseAccount(total, releases, m, recent);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated account", e);
        }
    }

    private static int bounded(int n, int max) {
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("bad count " + n);
        }
        return n;
    }

    private static BigDecimal getDecimal(ByteBuffer b) {
        int scale = b.getInt();
        byte[] u = new byte[bounded(b.getInt(), MAX_DECIMAL_BYTES)];
        b.get(u);
        return new BigDecimal(u.length == 0 ? BigInteger.ZERO : new BigInteger(u), scale);
    }

    private static String getString(ByteBuffer b) {
        byte[] u = new byte[bounded(b.getInt(), MAX_NAME_BYTES)];
        b.get(u);
        return new String(u, StandardCharsets.UTF_8);
    }
}

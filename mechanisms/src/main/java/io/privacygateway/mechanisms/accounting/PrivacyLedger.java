package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The privacy history of one key (a device, a user): every {@link PrivacyEvent} charged to it, in order,
 * and whether its budget has been exhausted ("sealed").
 *
 * <p>Guarantee: {@link #spentPure()} and {@link #spentRho()} are the basic-pure and zCDP compositions of
 * all recorded events (Dwork &amp; Roth 2014, Thm. 3.16; Bun &amp; Steinke 2016, Lemma 1.7 and Prop. 1.4),
 * kept as exact running sums in {@link BigDecimal} and rounded up only when reported; they equal
 * {@link #replay replay}({@link Accountants#basicPure()}) and {@code replay(}{@link Accountants#zcdp()}{@code )}
 * bit for bit. Because the events themselves are kept (mechanism, cost, parameters, time), a tighter
 * {@link Accountant} can be replayed over the same history later.
 *
 * <p>Sealing: a {@link PrivacyFilter} seals its ledger when it refuses a charge for exceeding the budget;
 * a sealed ledger accepts no further events, and the seal survives {@link #toBytes()} /
 * {@link #fromBytes(byte[])}, so a filter rebuilt from a stored ledger stays refused. Sealing is one-way.
 *
 * <p>Thread safety: all methods are atomic (the ledger's own monitor); {@link #events()} returns an
 * immutable snapshot. {@link PrivacyFilter} holds this monitor across its check-and-append.
 *
 * <p>Serialisation: {@link #toBytes()} is the versioned binary format documented in {@code LedgerCodec}
 * (magic {@code "PL"}, version 1), deterministic and exact for every double and {@link Instant}; intended for
 * per-key values in a Kafka Streams state store. The ledger never reads a clock: times come from events
 * and from the caller of {@link #seal}.
 */
public final class PrivacyLedger {
    private static final BigDecimal HALF = new BigDecimal("0.5");

    private final List<PrivacyEvent> events = new ArrayList<>();
    private BigDecimal pureEpsilon = BigDecimal.ZERO; // Σ ε over pure events
    private BigDecimal rho = BigDecimal.ZERO;         // Σ ρ over zCDP events + Σ ε²/2 over pure events
    private int zcdpCount;
    private int approximateCount;
    private Instant sealedAt;

    /** An empty, open ledger. */
    public PrivacyLedger() {}

    /** An open ledger holding {@code events} in order (each required). */
    public static PrivacyLedger of(Collection<PrivacyEvent> events) {
        Require.nonNull("events", events);
        PrivacyLedger ledger = new PrivacyLedger();
        int i = 0;
        for (PrivacyEvent e : events) {
            ledger.append(Require.nonNull("events[" + i++ + "]", e));
        }
        return ledger;
    }

    /**
     * Records an event.
     *
     * @throws IllegalStateException if the ledger is sealed
     */
    public synchronized void append(PrivacyEvent event) {
        Require.nonNull("event", event);
        if (sealedAt != null) {
            throw new IllegalStateException("ledger is sealed since " + sealedAt + ": cannot append " + event);
        }
        PrivacyCost c = event.cost();
        if (c instanceof PrivacyCost.Pure p) {
            BigDecimal e = new BigDecimal(p.epsilon());
            pureEpsilon = pureEpsilon.add(e);
            rho = rho.add(e.multiply(e).multiply(HALF));
        } else if (c instanceof PrivacyCost.Zcdp z) {
            rho = rho.add(new BigDecimal(z.rho()));
            zcdpCount++;
        } else {
            approximateCount++;
        }
        events.add(event);
    }

    /** An immutable snapshot of the events, in the order they were recorded. */
    public synchronized List<PrivacyEvent> events() {
        return List.copyOf(events);
    }

    public synchronized int size() {
        return events.size();
    }

    /**
     * The pure-DP ε of all events by basic composition, rounded up; 0 when empty, and
     * {@link Double#POSITIVE_INFINITY} when some event has no pure-DP guarantee (a zCDP or (ε, δ) cost).
     */
    public synchronized double spentPure() {
        return zcdpCount + approximateCount > 0
                ? Double.POSITIVE_INFINITY
                : DirectedRounding.toDoubleUp(pureEpsilon);
    }

    /**
     * The zCDP ρ of all events ({@code Σ ρ_i + Σ ε_j²/2}), rounded up; 0 when empty, and
     * {@link Double#POSITIVE_INFINITY} when some event is (ε, δ) with δ &gt; 0 (no zCDP guarantee).
     */
    public synchronized double spentRho() {
        return approximateCount > 0 ? Double.POSITIVE_INFINITY : DirectedRounding.toDoubleUp(rho);
    }

    /** Applies {@code accountant} to a snapshot of the events. */
    public PrivacyCost replay(Accountant accountant) {
        Require.nonNull("accountant", accountant);
        return accountant.account(events());
    }

    /**
     * Seals the ledger (idempotent: the first seal time is kept). Called by {@link PrivacyFilter} on the first
     * over-budget refusal.
     *
     * @param at the event time of the refusal (required)
     */
    public synchronized void seal(Instant at) {
        Require.nonNull("at", at);
        if (sealedAt == null) {
            sealedAt = at;
        }
    }

    public synchronized boolean isSealed() {
        return sealedAt != null;
    }

    /** When the ledger was sealed, or empty while it is open. */
    public synchronized Optional<Instant> sealedAt() {
        return Optional.ofNullable(sealedAt);
    }

    /** An independent copy (events and seal). */
    public synchronized PrivacyLedger copy() {
        PrivacyLedger c = PrivacyLedger.of(events);
        c.sealedAt = sealedAt;
        return c;
    }

    /** The version-1 binary form (see {@code LedgerCodec}). */
    public synchronized byte[] toBytes() {
        return LedgerCodec.encode(events, sealedAt);
    }

    /**
     * Reads the binary form written by {@link #toBytes()}.
     *
     * @throws IllegalArgumentException on malformed input or an invalid value, saying where
     */
    public static PrivacyLedger fromBytes(byte[] bytes) {
        LedgerCodec.Decoded d = LedgerCodec.decode(bytes);
        PrivacyLedger ledger = PrivacyLedger.of(d.events());
        ledger.sealedAt = d.sealedAt();
        return ledger;
    }

    // Exact state for PrivacyFilter (callers hold this ledger's monitor).
    BigDecimal exactPureEpsilon() {
        return pureEpsilon;
    }

    BigDecimal exactRho() {
        return rho;
    }

    boolean hasNonPure() {
        return zcdpCount + approximateCount > 0;
    }

    boolean hasApproximate() {
        return approximateCount > 0;
    }

    /** Equal when the events (in order) and the seal time are equal. Compares snapshots (no nested locks). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PrivacyLedger other)) {
            return false;
        }
        List<PrivacyEvent> mine;
        Instant mySeal;
        synchronized (this) {
            mine = List.copyOf(events);
            mySeal = sealedAt;
        }
        List<PrivacyEvent> theirs;
        Instant theirSeal;
        synchronized (other) {
            theirs = List.copyOf(other.events);
            theirSeal = other.sealedAt;
        }
        return mine.equals(theirs) && Objects.equals(mySeal, theirSeal);
    }

    @Override
    public synchronized int hashCode() {
        return Objects.hash(events, sealedAt);
    }

    @Override
    public synchronized String toString() {
        return "PrivacyLedger[" + events.size() + " events, spentPure=" + spentPure() + ", spentRho=" + spentRho()
                + (sealedAt == null ? "" : ", sealed at " + sealedAt) + "]";
    }
}

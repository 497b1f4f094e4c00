package io.privacygateway.mechanisms.param;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A pure differential-privacy parameter ε (δ = 0), held <b>exactly</b> as the decimal that was declared.
 *
 * <p><b>Two views of one value.</b> {@link #exact()} is the declared value as an exact decimal
 * ({@code 0.1} is one tenth, not the nearest double); it is what budgets add up and compare, so three
 * reports of ε = 0.1 fit a budget of 0.3 and three of ε = 1/3 + 10⁻¹³ do not fit a budget of 1.
 * {@link #value()} is the largest double <em>not above</em> that decimal; mechanisms compute their
 * probabilities from it, so the privacy loss they realise, {@code e^value()} in every ratio, never exceeds
 * {@code e^exact()}. For values exactly representable in binary (1, 0.5, 2, ...) the two coincide.
 *
 * <p>A double handed to {@link #of(double)} is read as the shortest decimal that rounds to it
 * ({@link Double#toString}), i.e. the number a person wrote: {@code of(0.1).exact()} is {@code 0.1}.
 *
 * <p>Valid values are finite and in {@code (0, 40]}: above 40 the randomized-response probabilities round
 * to 0 or 1 in double precision and the guarantee would be meaningless anyway.
 */
public final class Epsilon implements Comparable<Epsilon> {
    /** Largest accepted ε. */
    public static final double MAX = 40.0;
    private static final BigDecimal MAX_EXACT = BigDecimal.valueOf(40);

    private final BigDecimal exact;
    private final double value;

    /** ε as a person wrote {@code value} (its shortest round-tripping decimal). */
    public Epsilon(double value) {
        this("epsilon", value);
    }

    private Epsilon(String field, double value) {
        Require.inHalfOpenRange(field, value, 0.0, MAX);
        this.exact = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        this.value = DirectedDoubles.floor(exact);
        Require.finitePositive(field, this.value);
    }

    private Epsilon(String field, BigDecimal exact) {
        Objects.requireNonNull(exact, field);
        if (exact.signum() <= 0 || exact.compareTo(MAX_EXACT) > 0) {
            throw new IllegalArgumentException(field + " must be in (0, " + MAX + "], got " + exact.toPlainString());
        }
        this.exact = exact.stripTrailingZeros();
        this.value = DirectedDoubles.floor(this.exact);
        Require.finitePositive(field, this.value);
    }

    public static Epsilon of(double value) {
        return new Epsilon(value);
    }

    /** Validates with a caller-chosen field name in the message (for configuration files). */
    public static Epsilon of(String field, double value) {
        return new Epsilon(field, value);
    }

    /** ε from an exact decimal (for example parsed from text, or a sum of exact values). */
    public static Epsilon exactly(BigDecimal exact) {
        return new Epsilon("epsilon", exact);
    }

    /** ε from an exact decimal, naming the field in a validation message. */
    public static Epsilon exactly(String field, BigDecimal exact) {
        return new Epsilon(field, exact);
    }

    /** The declared value, exactly. Budgets are summed and compared in this form. */
    public BigDecimal exact() {
        return exact;
    }

    /**
     * The largest double not above {@link #exact()}: the value mechanisms compute with, so that the loss they
     * realise is at most the declared ε.
     */
    public double value() {
        return value;
    }

    /**
     * Sequential composition: the exact sum of two pure-DP costs.
     *
     * @throws IllegalArgumentException if the sum exceeds {@link #MAX} (use {@link #sum} for totals)
     */
    public Epsilon plus(Epsilon other) {
        return exactly(exact.add(other.exact));
    }

    /**
     * {@code e^ε} by {@link StrictMath#exp} (fdlibm: within one ulp, the same on every platform); not a certified
     * bound, see {@link ExpBounds}.
     */
    public double exp() {
        return StrictMath.exp(value);
    }

    /** The exact sum of several costs. */
    public static BigDecimal sum(Iterable<Epsilon> costs) {
        BigDecimal s = BigDecimal.ZERO;
        for (Epsilon e : costs) {
            s = s.add(e.exact);
        }
        return s;
    }

    @Override
    public int compareTo(Epsilon o) {
        return exact.compareTo(o.exact);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Epsilon e && exact.compareTo(e.exact) == 0;
    }

    @Override
    public int hashCode() {
        return exact.stripTrailingZeros().hashCode();
    }

    /** The declared value in plain decimal notation, e.g. {@code ε=0.1}. */
    @Override
    public String toString() {
        return "ε=" + exact.toPlainString();
    }
}

package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Sequential composition of privacy costs, computed exactly and rounded up once.
 *
 * <ul>
 *   <li>Pure: ε_1-DP, …, ε_k-DP mechanisms run in sequence (adaptively) are (Σ ε_i)-DP (Dwork &amp; Roth
 *       2014, Theorem 3.16 with δ_i = 0).</li>
 *   <li>zCDP: ρ_i-zCDP mechanisms compose to (Σ ρ_i)-zCDP (Bun &amp; Steinke 2016, Lemma 1.7 / Lemma 2.3),
 *       and an ε-DP mechanism is (ε²/2)-zCDP (Bun &amp; Steinke 2016, Proposition 1.4), so pure costs can be
 *       mixed into a zCDP total.</li>
 *   <li>Basic approximate: (ε_i, δ_i)-DP mechanisms compose to (Σ ε_i, Σ δ_i)-DP (Dwork &amp; Roth 2014,
 *       Theorem 3.16); pure costs count with δ = 0.</li>
 * </ul>
 *
 * <p>Rounding: sums of doubles, and {@code ε²/2}, are computed exactly in {@link BigDecimal} (every double is
 * a finite decimal, so no rounding happens at all), then rounded once toward +∞ to a double. The δ sum is
 * the one place with transcendental functions: {@code ln Σ δ_i = m + ln Σ e^{ln δ_i − m}} with
 * {@code m = max ln δ_i}, every step rounded up ({@link DirectedRounding}). Results are therefore never below
 * the exact composed value, and for ε/ρ sums they are the smallest double that is not below it.
 */
public final class Composition {
    private static final BigDecimal HALF = new BigDecimal("0.5");

    private Composition() {}

    /** Σ ε_i rounded up; every ε_i finite and {@code >= 0}. An empty argument gives 0. */
    public static double sumEpsilon(double... epsilons) {
        return sumUp("epsilons", "epsilon", epsilons);
    }

    /** Σ ρ_i rounded up; every ρ_i finite and {@code >= 0}. An empty argument gives 0. */
    public static double sumRho(double... rhos) {
        return sumUp("rhos", "rho", rhos);
    }

    /**
     * The exact sum of {@code values}, rounded up to a double: the one way this class adds privacy parameters.
     *
     * @param arrayName the argument's name in the null check's message
     * @param elementName each value's name in the range check's message ({@code elementName[i]})
     * @throws IllegalArgumentException if {@code values} is null or a value is not finite and {@code >= 0}
     */
    private static double sumUp(String arrayName, String elementName, double[] values) {
        Require.nonNull(arrayName, values);
        BigDecimal sum = BigDecimal.ZERO;
        for (int i = 0; i < values.length; i++) {
            sum = sum.add(new BigDecimal(Require.finiteNonNegative(elementName + "[" + i + "]", values[i])));
        }
        return DirectedRounding.toDoubleUp(sum);
    }

    /**
     * The pure guarantee of an exact ε total (an account kept in {@link BigDecimal}: a sum of pure costs), rounded
     * up once to a double: the smallest double not below it.
     *
     * @throws IllegalArgumentException if {@code exactEpsilon} is null or negative
     */
    public static PrivacyCost.Pure pureTotal(BigDecimal exactEpsilon) {
        Require.nonNull("exactEpsilon", exactEpsilon);
        if (exactEpsilon.signum() < 0) {
            throw new IllegalArgumentException("exactEpsilon must be >= 0, got " + exactEpsilon);
        }
        return new PrivacyCost.Pure(DirectedRounding.toDoubleUp(exactEpsilon));
    }

    /**
     * Basic composition of pure costs: {@code Pure(Σ ε_i)}.
     *
     * @throws IllegalArgumentException if a cost is not {@link PrivacyCost.Pure} (its index and kind are named)
     */
    public static PrivacyCost.Pure composePure(List<? extends PrivacyCost> costs) {
        return new PrivacyCost.Pure(sumUp(costs, Composition::exactPureEpsilon));
    }

    /**
     * zCDP composition: {@code Zcdp(Σ ρ_i + Σ ε_j²/2)} over zCDP costs ρ_i and pure costs ε_j.
     *
     * @throws IllegalArgumentException if a cost is {@link PrivacyCost.Approximate} (no zCDP bound follows)
     */
    public static PrivacyCost.Zcdp composeZcdp(List<? extends PrivacyCost> costs) {
        return new PrivacyCost.Zcdp(sumUp(costs, Composition::exactRho));
    }

    /**
     * The exact sum of {@code exact(i, costs[i])} over the costs, in order, rounded up to a double.
     *
     * @throws IllegalArgumentException if {@code costs} is null, or as {@code exact} throws for a cost (it is
     *     given the cost's index for its message)
     */
    private static double sumUp(List<? extends PrivacyCost> costs, BiFunction<Integer, PrivacyCost, BigDecimal> exact) {
        Require.nonNull("costs", costs);
        BigDecimal sum = BigDecimal.ZERO;
        for (int i = 0; i < costs.size(); i++) {
            sum = sum.add(exact.apply(i, costs.get(i)));
        }
        return DirectedRounding.toDoubleUp(sum);
    }

    /**
     * Basic composition of pure and approximate costs: {@code (Σ ε_i, Σ δ_i)}. Returns {@link PrivacyCost.Pure}
     * when no cost has a δ.
     *
     * @throws IllegalArgumentException if a cost is {@link PrivacyCost.Zcdp} (it has no single (ε, δ) without
     *     choosing δ: convert it first with {@link Conversions#zcdpToEpsilon}), or if the composed δ bound
     *     reaches 1
     */
    public static PrivacyCost composeBasic(List<? extends PrivacyCost> costs) {
        Require.nonNull("costs", costs);
        BigDecimal epsilon = BigDecimal.ZERO;
        double maxLogDelta = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < costs.size(); i++) {
            PrivacyCost c = Require.nonNull("costs[" + i + "]", costs.get(i));
            if (c instanceof PrivacyCost.Pure p) {
                epsilon = epsilon.add(new BigDecimal(p.epsilon()));
            } else if (c instanceof PrivacyCost.Approximate a) {
                epsilon = epsilon.add(new BigDecimal(a.epsilon()));
                maxLogDelta = Math.max(maxLogDelta, a.logDelta().value());
            } else {
                throw new IllegalArgumentException("costs[" + i + "] is " + c
                        + ": basic (ε, δ) composition needs pure or approximate costs; convert zCDP first");
            }
        }
        double eps = DirectedRounding.toDoubleUp(epsilon);
        if (maxLogDelta == Double.NEGATIVE_INFINITY) {
            return new PrivacyCost.Pure(eps);
        }
        // ln Σ δ_i = m + ln Σ exp(ln δ_i − m), each term in (0, 1], rounded up.
        double sum = 0.0;
        for (PrivacyCost c : costs) {
            if (c instanceof PrivacyCost.Approximate a) {
                sum = DirectedRounding.addUp(sum,
                        DirectedRounding.expUp(DirectedRounding.subUp(a.logDelta().value(), maxLogDelta)));
            }
        }
        double logDelta = DirectedRounding.addUp(maxLogDelta, DirectedRounding.logUp(sum));
        if (!(logDelta < 0)) {
            throw new IllegalArgumentException("composed delta must be < 1, got ln(delta) bound " + logDelta);
        }
        return new PrivacyCost.Approximate(eps, new LogDelta(logDelta));
    }

    /** The exact ε of a pure cost. */
    static BigDecimal exactPureEpsilon(int index, PrivacyCost c) {
        Require.nonNull("costs[" + index + "]", c);
        if (c instanceof PrivacyCost.Pure p) {
            return new BigDecimal(p.epsilon());
        }
        throw new IllegalArgumentException("costs[" + index + "] is " + c
                + ": basic pure composition needs pure costs (a " + c.kind() + " cost has no pure-DP bound)");
    }

    /** The exact ρ of a zCDP cost, or the exact ε²/2 of a pure cost (Bun &amp; Steinke Prop. 1.4). */
    static BigDecimal exactRho(int index, PrivacyCost c) {
        Require.nonNull("costs[" + index + "]", c);
        if (c instanceof PrivacyCost.Zcdp z) {
            return new BigDecimal(z.rho());
        }
        if (c instanceof PrivacyCost.Pure p) {
            BigDecimal e = new BigDecimal(p.epsilon());
            return e.multiply(e).multiply(HALF);
        }
        throw new IllegalArgumentException("costs[" + index + "] is " + c
                + ": zCDP composition needs pure or zCDP costs (an (ε, δ) cost has no zCDP bound)");
    }
}

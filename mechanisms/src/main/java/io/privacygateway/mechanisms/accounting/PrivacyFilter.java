package io.privacygateway.mechanisms.accounting;

import io.privacygateway.mechanisms.param.Require;
import java.math.BigDecimal;

/**
 * A privacy filter: admits a sequence of (adaptively chosen) mechanism runs while their composed cost stays
 * within a fixed budget, and halts for good at the first run that would exceed it.
 *
 * <h2>Budgets</h2>
 * <ul>
 *   <li>{@link PrivacyCost.Pure Pure(ε)}: charges must be pure; accepted while {@code Σ ε_i ≤ ε}
 *       (basic composition, Dwork &amp; Roth 2014, Thm. 3.16). The filtered sequence is ε-DP.</li>
 *   <li>{@link PrivacyCost.Zcdp Zcdp(ρ)}: charges may be zCDP or pure (an ε-DP charge costs ε²/2, Bun &amp;
 *       Steinke 2016, Prop. 1.4); accepted while {@code Σ ρ_i ≤ ρ} (Lemma 1.7). The sequence is ρ-zCDP.</li>
 *   <li>{@link PrivacyCost.Approximate Approximate(ε, δ)}: a zCDP filter whose ρ budget is
 *       {@link Conversions#largestRho largestRho(ε, δ)}, the largest ρ whose conversion is at most ε; the
 *       sequence is ρ-zCDP and therefore (ε, δ)-DP. Charges may be zCDP or pure.</li>
 * </ul>
 * A charge of a kind the budget cannot account for (zCDP against a pure budget, (ε, δ) against a zCDP
 * budget) is a programming error: {@link IllegalArgumentException}, and the filter state is unchanged.
 *
 * <p>These are filters in the sense of Rogers, Roth, Ullman &amp; Vadhan 2016 ("Privacy odometers and
 * filters"): the decision depends only on the privacy parameters of the charges, never on data, and for pure
 * ε and for zCDP the basic sums remain valid under fully adaptive choice of the parameters (Rogers et al.
 * 2016 for pure DP; Feldman &amp; Zrnic 2021, "Individual privacy accounting via a Rényi filter", for Rényi/zCDP).
 *
 * <h2>Exactness</h2>
 * The decision {@code spent + cost ≤ budget} is made exactly: the ledger keeps its sums in
 * {@link BigDecimal} (every double is a finite decimal; ε²/2 is exact too), so there is no rounding in either
 * direction. Charges that add up exactly to the budget are accepted; doubles that only look like they do
 * (ten charges of {@code 0.1} against a budget of {@code 1.0}: the double 0.1 is slightly above 1/10, so the
 * exact sum is {@code 1.0000000000000000555…}) are refused at the charge that would exceed.
 *
 * <h2>Halting (documented choice)</h2>
 * Once a charge is refused because it would exceed the budget, the filter stays refused: every later charge
 * gets {@link Decision#REFUSED_HALTED}, however small (this is the filter of the project issue: "refuses
 * (and stays refused) when a charge would exceed the budget", and the HALT of Rogers et al.). The refusal
 * seals the underlying {@link PrivacyLedger}, so the halt survives serialisation and rebuilding the filter.
 * Refused charges are not recorded as events (they did not run).
 *
 * <p>Thread safety: {@link #tryCharge} checks and appends atomically under the ledger's monitor, so
 * concurrent charging never overspends. Several filters over one ledger are allowed but share the seal.
 */
public final class PrivacyFilter {

    /** The outcome of {@link #tryCharge}. */
    public enum Decision {
        /** The charge fitted and was appended to the ledger. */
        ACCEPTED,
        /** The charge would have exceeded the budget; the filter is halted from now on. */
        REFUSED_OVER_BUDGET,
        /** The filter was already halted by an earlier over-budget charge. */
        REFUSED_HALTED;

        public boolean accepted() {
            return this == ACCEPTED;
        }
    }

    private final PrivacyCost budget;
    private final boolean pureMode;
    private final double capacity;
    private final BigDecimal capacityExact;
    private final PrivacyLedger ledger;

    private PrivacyFilter(PrivacyCost budget, PrivacyLedger ledger) {
        this.budget = Require.nonNull("budget", budget);
        this.ledger = Require.nonNull("ledger", ledger);
        if (budget instanceof PrivacyCost.Pure p) {
            pureMode = true;
            capacity = Require.finitePositive("budget epsilon", p.epsilon());
        } else if (budget instanceof PrivacyCost.Zcdp z) {
            pureMode = false;
            capacity = Require.finitePositive("budget rho", z.rho());
        } else {
            PrivacyCost.Approximate a = (PrivacyCost.Approximate) budget;
            pureMode = false;
            Require.finitePositive("budget epsilon", a.epsilon());
            capacity = Conversions.largestRho(a.epsilon(), a.logDelta());
            if (!(capacity > 0)) {
                throw new IllegalArgumentException("budget " + budget + " admits no positive rho");
            }
        }
        capacityExact = new BigDecimal(capacity);
        synchronized (ledger) {
            if (pureMode ? ledger.hasNonPure() : ledger.hasApproximate()) {
                throw new IllegalArgumentException("ledger holds events a " + describe() + " filter cannot account for: "
                        + ledger);
            }
        }
    }

    /** A filter over a new empty ledger. */
    public static PrivacyFilter create(PrivacyCost budget) {
        return new PrivacyFilter(budget, new PrivacyLedger());
    }

    /**
     * A filter over an existing ledger: its events count as already spent, a sealed ledger gives a halted
     * filter, and accepted charges are appended to it.
     *
     * @throws IllegalArgumentException if the budget is not positive or the ledger holds events of a kind the
     *     budget cannot account for
     */
    public static PrivacyFilter over(PrivacyCost budget, PrivacyLedger ledger) {
        return new PrivacyFilter(budget, ledger);
    }

    /**
     * Charges {@code event} if it fits: appends it and returns {@link Decision#ACCEPTED}; otherwise returns a
     * refusal and (the first time) halts the filter.
     *
     * @throws IllegalArgumentException if the event's cost kind does not fit the budget (see class comment)
     */
    public Decision tryCharge(PrivacyEvent event) {
        Require.nonNull("event", event);
        BigDecimal cost = exactCost(event.cost());
        synchronized (ledger) {
            if (ledger.isSealed()) {
                return Decision.REFUSED_HALTED;
            }
            if (spentExact().add(cost).compareTo(capacityExact) > 0) {
                ledger.seal(event.time());
                return Decision.REFUSED_OVER_BUDGET;
            }
            ledger.append(event);
            return Decision.ACCEPTED;
        }
    }

    /** True once a charge has been refused for exceeding the budget (or the ledger was sealed before). */
    public boolean isHalted() {
        return ledger.isSealed();
    }

    /** The budget as given. */
    public PrivacyCost budget() {
        return budget;
    }

    /**
     * The budget in the unit charges are summed in: ε for a pure budget, ρ for a zCDP or (ε, δ) budget (for
     * the latter, {@link Conversions#largestRho}).
     */
    public double capacity() {
        return capacity;
    }

    /** Spent so far, in the unit of {@link #capacity()}, rounded up. */
    public double spent() {
        synchronized (ledger) {
            return DirectedRounding.toDoubleUp(spentExact());
        }
    }

    /** {@code capacity − spent}, rounded down, never negative. */
    public double remaining() {
        synchronized (ledger) {
            return Math.max(0.0, DirectedRounding.toDoubleDown(capacityExact.subtract(spentExact())));
        }
    }

    /**
     * The guarantee of what was spent, in the kind of the budget: {@code Pure(spent)}, {@code Zcdp(spent)}, or
     * for an (ε, δ) budget {@code Approximate(zcdpToEpsilon(spent, δ), δ)}.
     */
    public PrivacyCost spentCost() {
        double s = spent();
        if (budget instanceof PrivacyCost.Pure) {
            return new PrivacyCost.Pure(s);
        }
        if (budget instanceof PrivacyCost.Zcdp) {
            return new PrivacyCost.Zcdp(s);
        }
        PrivacyCost.Approximate a = (PrivacyCost.Approximate) budget;
        return new PrivacyCost.Approximate(Conversions.zcdpToEpsilon(s, a.logDelta()), a.logDelta());
    }

    /** The ledger charges are appended to (shared, not a copy). */
    public PrivacyLedger ledger() {
        return ledger;
    }

    @Override
    public String toString() {
        return "PrivacyFilter[" + describe() + " budget " + budget + ", spent " + spent() + " of " + capacity
                + (isHalted() ? ", halted" : "") + "]";
    }

    private String describe() {
        return pureMode ? "pure" : "zCDP";
    }

    private BigDecimal spentExact() {
        return pureMode ? ledger.exactPureEpsilon() : ledger.exactRho();
    }

    private BigDecimal exactCost(PrivacyCost c) {
        if (pureMode) {
            if (c instanceof PrivacyCost.Pure p) {
                return new BigDecimal(p.epsilon());
            }
            throw new IllegalArgumentException("a pure-epsilon filter can only charge pure costs, got " + c);
        }
        if (c instanceof PrivacyCost.Approximate) {
            throw new IllegalArgumentException("a zCDP filter can only charge zCDP or pure costs, got " + c);
        }
        return Composition.exactRho(0, c);
    }
}

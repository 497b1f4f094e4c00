package io.privacygateway.mechanisms.analytics;

import io.privacygateway.mechanisms.accounting.Composition;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * What every window mechanism has in common: its id, its workload and budget, and the one rule for what it
 * spends — the released count's share ({@link AnalyticsBudget#epsilonCount()}, 0 when the count is public) plus
 * the mechanism's own shares, summed exactly and rounded up ({@link Composition#sumEpsilon}).
 *
 * <p>Each subclass states its shares once, by calling {@link #charge} in its constructor; {@link #cost()} refuses
 * to answer for a mechanism that never did, so a mechanism cannot publish without a cost.
 */
public abstract class AbstractWindowMechanism implements WindowMechanism {
    private final MechanismId id;
    protected final Workload workload;
    protected final AnalyticsBudget budget;
    private PrivacyCost.Pure cost; // set once, by the subclass's constructor

    protected AbstractWindowMechanism(MechanismId id, Workload workload, AnalyticsBudget budget) {
        this.id = Require.nonNull("id", id);
        this.workload = Require.nonNull("workload", workload);
        this.budget = Require.nonNull("budget", budget);
    }

    /**
     * Sets the cost from the mechanism's own ε shares (each finite and {@code >= 0}): the count's share plus
     * these, rounded up. Called exactly once, by the constructor.
     */
    protected final void charge(double... ownShares) {
        if (cost != null) {
            throw new IllegalStateException(id + " charged its cost twice");
        }
        double[] shares = new double[ownShares.length + 1];
        shares[0] = budget.epsilonCount();
        System.arraycopy(ownShares, 0, shares, 1, ownShares.length);
        cost = new PrivacyCost.Pure(Composition.sumEpsilon(shares));
    }

    @Override
    public final MechanismId id() {
        return id;
    }

    @Override
    public final Workload workload() {
        return workload;
    }

    @Override
    public final PrivacyCost.Pure cost() {
        if (cost == null) {
            throw new IllegalStateException(id + " never charged its cost");
        }
        return cost;
    }
}

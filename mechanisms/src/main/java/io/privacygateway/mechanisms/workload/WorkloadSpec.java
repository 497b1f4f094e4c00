package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import java.time.Duration;
import java.util.List;

/**
 * A validated workload declaration (see {@link WorkloadSpecParser} for the file format).
 *
 * @param id stable identifier ({@code [A-Za-z0-9._-]}, at most 100 characters)
 * @param version positive version number
 * @param family query family
 * @param domain the device values
 * @param marginalWay {@code k} for k-way marginals, else 0
 * @param queryLabels names of the m coordinates for the points family, else empty
 * @param mode local or central
 * @param mechanism the mechanism, or {@link MechanismId#AUTO}
 * @param epsilonPerReport pure ε charged per local report (local mode)
 * @param budget the device budget per period
 * @param window tumbling window size and grace
 * @param confidence confidence level of error bars
 * @param alpha target average error for coarse projection and chaining, or {@code null}
 * @param epsilonSplit how chaining splits ε across levels
 * @param expectedReportsPerWindow the n used to resolve {@code auto} before data arrives, or 0
 * @param central the central-mode parameters, or {@code null} in local mode
 */
public record WorkloadSpec(
        String id,
        int version,
        QueryFamily family,
        Domain domain,
        int marginalWay,
        List<String> queryLabels,
        Mode mode,
        MechanismId mechanism,
        Epsilon epsilonPerReport,
        Budget budget,
        Window window,
        ConfidenceLevel confidence,
        Alpha alpha,
        EpsilonSplit epsilonSplit,
        long expectedReportsPerWindow,
        Central central) {

    public WorkloadSpec {
        queryLabels = List.copyOf(queryLabels);
    }

    /**
     * A device's budget: pure ε per period.
     *
     * @param epsilonPerPeriod total ε a device may spend per period
     * @param period the budget period
     */
    public record Budget(Epsilon epsilonPerPeriod, Duration period) {}

    /**
     * A tumbling event-time window.
     *
     * @param size window length (> 0)
     * @param grace how long after the window end late reports are still accepted (>= 0)
     */
    public record Window(Duration size, Duration grace) {}

    /**
     * Central-mode parameters.
     *
     * @param epsilonPerRelease the pure ε of each published answer (after purification)
     * @param neighbour the neighbour relation
     * @param contributionsPerWindow L: the most reports one device may contribute to one window
     */
    public record Central(Epsilon epsilonPerRelease, NeighbourRelation neighbour, int contributionsPerWindow) {}

    /**
     * Reports (local mode) or window contributions (central mode) a device may make per period:
     * {@code ⌊budget / cost⌋}, at least 1 by validation.
     */
    public int reportsPerPeriod() {
        double cost = mode == Mode.CENTRAL ? central.epsilonPerRelease().value() : epsilonPerReport.value();
        return (int) Math.floor(budget.epsilonPerPeriod().value() / cost * (1 + 1e-12));
    }

    /** The ε charged to a device's ledger for one report (local) or one window contribution (central). */
    public Epsilon epsilonPerCharge() {
        return mode == Mode.CENTRAL ? central.epsilonPerRelease() : epsilonPerReport;
    }

    /** A copy with a different mechanism (used when {@code auto} is resolved or overridden). */
    public WorkloadSpec withMechanism(MechanismId m) {
        return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, mode, m, epsilonPerReport,
                budget, window, confidence, alpha, epsilonSplit, expectedReportsPerWindow, central);
    }

    /** A copy with a different per-report ε (local mode; used by {@code --epsilon}). */
    public WorkloadSpec withEpsilonPerReport(Epsilon e) {
        Budget b = budget.epsilonPerPeriod().value() < e.value() ? new Budget(e, budget.period()) : budget;
        return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, mode, mechanism, e,
                b, window, confidence, alpha, epsilonSplit, expectedReportsPerWindow, central);
    }

    /** A copy with a different per-release ε (central mode; used by {@code --epsilon}). */
    public WorkloadSpec withEpsilonPerRelease(Epsilon e) {
        Central c = new Central(e, central.neighbour(), central.contributionsPerWindow());
        Budget b = budget.epsilonPerPeriod().value() < e.value() ? new Budget(e, budget.period()) : budget;
        return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, mode, mechanism,
                epsilonPerReport, b, window, confidence, alpha, epsilonSplit, expectedReportsPerWindow, c);
    }

    /**
     * The same workload in central mode (for trying a local workload file centrally): each release costs
     * {@code epsilonPerRelease}, contributions are capped at {@code contributions} per device and window, and a
     * local-mode mechanism becomes {@code auto}. The budget is raised to at least one release.
     */
    public WorkloadSpec inCentralMode(Epsilon epsilonPerRelease, NeighbourRelation neighbour, int contributions) {
        MechanismId m = mechanism.mode() == Mode.CENTRAL ? mechanism : MechanismId.AUTO;
        Budget b = budget.epsilonPerPeriod().value() < epsilonPerRelease.value()
                ? new Budget(epsilonPerRelease, budget.period()) : budget;
        return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, Mode.CENTRAL, m, null, b, window,
                confidence, alpha, epsilonSplit, expectedReportsPerWindow,
                new Central(epsilonPerRelease, neighbour, contributions));
    }

    /** A copy with a different α. */
    public WorkloadSpec withAlpha(Alpha a) {
        return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, mode, mechanism,
                epsilonPerReport, budget, window, confidence, a, epsilonSplit, expectedReportsPerWindow, central);
    }

    /** A copy with a different planned number of reports per window. */
    public WorkloadSpec withExpectedReportsPerWindow(long n) {
        return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, mode, mechanism,
                epsilonPerReport, budget, window, confidence, alpha, epsilonSplit, n, central);
    }

    /** A copy with a different ε split. */
    public WorkloadSpec withEpsilonSplit(EpsilonSplit s) {
        return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, mode, mechanism,
                epsilonPerReport, budget, window, confidence, alpha, s, expectedReportsPerWindow, central);
    }
}

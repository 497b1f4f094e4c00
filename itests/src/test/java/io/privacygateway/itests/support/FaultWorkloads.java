package io.privacygateway.itests.support;

/**
 * The workloads of the fault tests: a local histogram over 8 labels (subset selection, ε = 1 per report) and a
 * central histogram over the same labels (Laplace, ε = 1 per release, one contribution per device and window), both
 * with budgets of 40 per minute, above what 2-second windows spend (every report the fault tests send is valid
 * and within budget: at most 30 per device and minute).
 */
public final class FaultWorkloads {
    private FaultWorkloads() {}

    public static String local(String id, String window, String grace) {
        return """
                id: %s
                version: 1
                family: histogram
                domain: {labels: [a, b, c, d, e, f, g, h]}
                mechanism: subset-selection
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 40.0, period: 1m}
                window: {size: %s, grace: %s}
                """.formatted(id, window, grace);
    }

    public static String central(String id, String window, String grace) {
        return central(id, window, grace, "laplace");
    }

    public static String central(String id, String window, String grace, String mechanism) {
        return central(id, window, grace, mechanism, "add-remove");
    }

    /**
     * A central workload; with {@code neighbour = replace-one} the count is public and each answer's n is exact
     * (with {@code add-remove} n is itself a noisy release).
     */
    public static String central(String id, String window, String grace, String mechanism, String neighbour) {
        return """
                id: %s
                version: 1
                family: histogram
                domain: {labels: [a, b, c, d, e, f, g, h]}
                mode: central
                mechanism: %s
                central: {epsilonPerRelease: 1.0, neighbour: %s, contributionsPerWindow: 1}
                budget: {epsilonPerPeriod: 40.0, period: 1m}
                window: {size: %s, grace: %s}
                """.formatted(id, mechanism, neighbour, window, grace);
    }
}

package io.privacygateway.benchmarks.commands;

/** Number formatting shared by the benchmark tables. */
public final class AccuracyReportFormat {
    private AccuracyReportFormat() {}

    /** ε without a trailing ".0". */
    public static String eps(double e) {
        return e == Math.rint(e) ? Long.toString((long) e) : Double.toString(e);
    }
}

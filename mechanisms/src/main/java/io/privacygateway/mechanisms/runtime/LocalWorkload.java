package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.budget.BudgetRule;
import io.privacygateway.mechanisms.budget.BudgetUsage;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Collection;

/** A local-mode workload: the protocol devices and gateway share, and its release. */
public final class LocalWorkload implements ResolvedWorkload {
    private final Workload workload;
    private final LocalPipeline pipeline;
    private final int slots;
    private final BudgetRule.Local rule;

    LocalWorkload(Workload workload) {
        this.workload = workload;
        this.pipeline = LocalPipeline.of(workload);
        this.slots = workload.spec().reportsPerPeriod();
        WorkloadSpec s = workload.spec();
        this.rule = new BudgetRule.Local(s.epsilonPerReport(), s.budget().epsilonPerPeriod(), slots);
    }

    @Override
    public WorkloadSpec spec() {
        return workload.spec();
    }

    @Override
    public Workload workload() {
        return workload;
    }

    /** The pipeline: protocol (device and gateway) and release (gateway). */
    public LocalPipeline pipeline() {
        return pipeline;
    }

    /** The protocol devices and gateway share. */
    public LocalProtocol protocol() {
        return pipeline.protocol();
    }

    @Override
    public int slots() {
        return slots;
    }

    /**
     * The most reports one device can have in a span of {@code spanMillis} aligned to a multiple of it (a window, or a
     * span of a horizon): its reports per period times the most budget periods such a span meets — {@code span /
     * period} when the period divides the span, 1 when the span divides the period, else {@code ⌈span / period⌉ + 1}
     * (a bound). At least 1.
     */
    public int maxReportsPerDeviceIn(long spanMillis) {
        long period = spec().budget().periodMillis();
        long periods;
        if (spanMillis % period == 0) {
            periods = spanMillis / period;
        } else if (period % spanMillis == 0) {
            periods = 1;
        } else {
            periods = (spanMillis + period - 1) / period + 1;
        }
        long k = Math.multiplyExact(periods, (long) slots);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, k));
    }

    @Override
    public int aggregateLength() {
        return pipeline.protocol().stateLength();
    }

    @Override
    public BudgetRule.Admission admit(BudgetUsage current, Collection<BudgetUsage> others, long eventTime,
            int sequence) {
        return rule.admit(current, others, sequence); // BudgetRule.local with this workload's ε, budget and slots
    }

    /**
     * {@link #admit} without a result object (the gateway's per-report path): the updated usage if {@code admit}
     * admits the report, whose charge is then {@link WorkloadSpec#epsilonPerReport()}, or {@code null} if it
     * refuses it ({@link BudgetRule.Local#updated}, the same rule).
     */
    public BudgetUsage admitted(BudgetUsage current, Collection<BudgetUsage> others, int sequence) {
        return rule.updated(current, others, sequence);
    }
}

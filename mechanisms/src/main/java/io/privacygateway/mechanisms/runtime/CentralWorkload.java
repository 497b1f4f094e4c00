package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.budget.BudgetRule;
import io.privacygateway.mechanisms.budget.BudgetUsage;
import io.privacygateway.mechanisms.central.CentralPipeline;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualSettings;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Collection;

/**
 * A central-mode workload: devices send raw values (the gateway is trusted with them), the gateway counts
 * them per universe value and releases each window with noise. The release is built on first use (devices
 * never need it, and building it plans parameters by simulation).
 */
public final class CentralWorkload implements ResolvedWorkload {
    private final Workload workload;
    private volatile CentralPipeline release;
    private volatile ContinualCounter continual;

    CentralWorkload(Workload workload) {
        this.workload = workload;
    }

    @Override
    public WorkloadSpec spec() {
        return workload.spec();
    }

    @Override
    public Workload workload() {
        return workload;
    }

    /** The central parameters. */
    public WorkloadSpec.Central parameters() {
        return workload.spec().central();
    }

    /** The release (noise, projection, purification), built once. */
    public CentralPipeline release() {
        CentralPipeline r = release;
        if (r == null) {
            synchronized (this) {
                r = release;
                if (r == null) {
                    r = CentralPipeline.of(workload);
                    release = r;
                }
            }
        }
        return r;
    }

    /**
     * The continual release of running totals over the declared horizons ({@code window.horizons}), built once; empty
     * if the workload declares none. It spends {@code central.epsilonPerRunningTotal} per window, on top of the window
     * answer's {@code central.epsilonPerRelease} (a device's charge per window is their sum).
     */
    public java.util.Optional<ContinualCounter> runningTotals() {
        WorkloadSpec.Central c = parameters();
        if (c.epsilonPerRunningTotal() == null) {
            return java.util.Optional.empty();
        }
        ContinualCounter r = continual;
        if (r == null) {
            synchronized (this) {
                r = continual;
                if (r == null) {
                    r = ContinualCounter.of(workload, ContinualSettings.forWorkload(workload, c.epsilonPerRunningTotal()));
                    continual = r;
                }
            }
        }
        return java.util.Optional.of(r);
    }

    /** The universe index of a raw value (see {@link Workload#encode}). */
    public int encode(String raw) throws InvalidValueException {
        return workload.encode(raw);
    }

    @Override
    public int slots() {
        return parameters().contributionsPerWindow();
    }

    @Override
    public int aggregateLength() {
        return workload.universeSize();
    }

    @Override
    public BudgetRule.Admission admit(BudgetUsage current, Collection<BudgetUsage> others, long eventTime,
            int sequence) {
        WorkloadSpec.Central c = parameters();
        return BudgetRule.central(c.epsilonPerCharge(), workload.spec().budget().epsilonPerPeriod(),
                c.contributionsPerWindow(), current, others, window().startOf(eventTime), sequence);
    }
}

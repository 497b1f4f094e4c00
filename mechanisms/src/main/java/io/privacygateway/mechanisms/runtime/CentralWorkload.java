package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.analytics.erm.GridExponentialErm;
import io.privacygateway.mechanisms.analytics.release.AnalyticsRelease;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.WideRelease;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualSettings;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadRules;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A central-mode workload: devices send raw values (the gateway is trusted with them), the gateway aggregates them
 * exactly per window and releases each window with noise. The release is built on first use (devices never need
 * it, and building it plans parameters).
 *
 * <p><b>Two aggregates, one rule each, written here.</b> A materialised workload keeps the count of every universe
 * value ({@link #release()}: {@link CentralRelease}). A <b>wide</b> workload ({@link WorkloadSpec#isWide()}: all
 * k-way marginals over up to 26 binary attributes with mwem or worst-case-chaining) never forms its {@code 2^d}
 * universe: the aggregate is the window's exact marginal cell counts ({@code C(d,k)·2^k} longs, query order of
 * {@link MarginalWorkload}; the report count is kept next to it), and the release is a {@link WideRelease}
 * ({@link #wideRelease()}). {@link #encode}, {@link #aggregateLength()} and {@link #accumulate} are the only places
 * that differ; the window, slots and budget rules are the same for both.
 */
public final class CentralWorkload implements ResolvedWorkload {
    private final WorkloadSpec spec;
    private final String contentHash;
    private final Workload workload;
    private final MarginalWorkload marginals;
    private final WorkloadRules rules;
    /** {@link WorkloadRules#slots()}, computed once (exact decimal division): read for every report admitted. */
    private final int slots;
    private volatile CentralRelease release;
    private volatile WideRelease wideRelease;
    private volatile ContinualCounter continual;
    private volatile WindowRelease.Central windowRelease;

    CentralWorkload(Workload workload) {
        this.spec = workload.spec();
        this.contentHash = workload.contentHash();
        this.workload = workload;
        this.marginals = null;
        this.rules = new WorkloadRules(spec, contentHash);
        this.slots = rules.slots();
    }

    private CentralWorkload(WorkloadSpec spec, MarginalWorkload marginals) {
        this.spec = spec;
        this.contentHash = CanonicalForm.contentHash(spec);
        this.workload = null;
        this.marginals = marginals;
        this.rules = new WorkloadRules(spec, contentHash);
        this.slots = rules.slots();
    }

    /** The runtime of a wide spec, without materialising its universe. */
    static CentralWorkload wide(WorkloadSpec spec) {
        Domain.Attributes a = (Domain.Attributes) spec.domain();
        return new CentralWorkload(spec, MarginalWorkload.of(a.names(), spec.marginalWay()));
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String contentHash() {
        return contentHash;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException for a wide workload
     */
    @Override
    public Workload workload() {
        if (workload == null) {
            throw new IllegalStateException("workload " + spec.id() + " is wide (mechanism "
                    + spec.mechanism().wireName() + "): its 2^" + marginals.attributeCount() + " universe is never"
                    + " materialised");
        }
        return workload;
    }

    /** The marginal shape of a wide workload, empty for a materialised one. */
    public Optional<MarginalWorkload> wide() {
        return Optional.ofNullable(marginals);
    }

    @Override
    public List<String> queryLabels() {
        return marginals != null ? marginals.labels() : workload.queryLabels();
    }

    /** The central parameters. */
    public WorkloadSpec.Central parameters() {
        return spec.central();
    }

    /**
     * The release of a materialised workload (noise, projection, purification), built once.
     *
     * @throws IllegalStateException for a wide workload (see {@link #wideRelease()})
     */
    public CentralRelease release() {
        CentralRelease r = release;
        if (r == null) {
            synchronized (this) {
                r = release;
                if (r == null) {
                    r = CountsReleases.of(workload());
                    release = r;
                }
            }
        }
        return r;
    }

    /**
     * The release of a wide workload, built once, with the declared ε, neighbour relation, L, confidence and planned
     * count, and the synthetic record count of {@code central.synthetic} when declared.
     *
     * @throws IllegalStateException for a materialised workload
     */
    public WideRelease wideRelease() {
        WideRelease r = wideRelease;
        if (r == null) {
            synchronized (this) {
                r = wideRelease;
                if (r == null) {
                    if (marginals == null) {
                        throw new IllegalStateException("workload " + spec.id() + " is not wide");
                    }
                    WorkloadSpec.Synthetic s = parameters().synthetic();
                    r = WideReleases.of(marginals, WideSettings.of(spec, contentHash), spec.mechanism(),
                            s == null ? OptionalInt.empty() : OptionalInt.of(s.records()));
                    wideRelease = r;
                }
            }
        }
        return r;
    }

    /**
     * The window release of this workload, wide or materialised ({@link WindowRelease.Wide}, {@link
     * WindowRelease.Counts}), built once.
     *
     * @throws IllegalArgumentException if no release can be built for the declared parameters
     */
    @Override
    public WindowRelease.Central windowRelease() {
        WindowRelease.Central r = windowRelease;
        if (r == null) {
            r = marginals != null ? new WindowRelease.Wide(this, wideRelease())
                    : new WindowRelease.Counts(this, release());
            windowRelease = r;
        }
        return r;
    }

    /**
     * Builds every release this workload will use (its window release, wide or materialised, and its running
     * totals), so that a workload no release can be built for is refused where it is registered or activated,
     * with the reason, instead of failing at every window; also refuses an {@code erm-exponential} window that is not
     * longer than the worst-case release time of its grid ({@link #minimumReleaseDelay()}).
     *
     * @throws IllegalArgumentException naming the reason if a release cannot be built for the declared parameters
     */
    public void checkReleasable() {
        try {
            windowRelease();
            runningTotals();
            Duration delay = minimumReleaseDelay();
            if (spec.mechanism() == MechanismId.ERM_EXPONENTIAL
                    && delay.toMillis() >= window().sizeMillis()) {
                throw new IllegalArgumentException("window.size: " + spec.mechanism().wireName() + " needs its answers"
                        + " written " + delay.toSeconds() + " s after a window is due (its worst-case release time"
                        + " from the public grid), which is not shorter than the window; use a longer window or a"
                        + " smaller grid");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("workload " + spec.id() + " cannot be released: " + e.getMessage(), e);
        }
    }

    /**
     * The exact marginal counts of a wide window from its aggregate, with every invariant checked
     * ({@link MarginalCounts#of}).
     *
     * @param n the window's report count
     * @param state the window aggregate ({@link #aggregateLength()} cell counts)
     */
    public MarginalCounts marginalCounts(long n, long[] state) {
        return MarginalCounts.of(wide().orElseThrow(() -> new IllegalStateException("workload " + spec.id()
                + " is not wide")), n, state);
    }

    /**
     * The continual release of running totals over the declared horizons ({@code window.horizons}), built once; empty
     * if the workload declares none. It spends {@code central.epsilonPerRunningTotal} per window, on top of the window
     * answer's {@code central.epsilonPerRelease} (a device's charge per window is their sum). Wide workloads declare
     * none (a rule of the spec).
     */
    public Optional<ContinualCounter> runningTotals() {
        WorkloadSpec.Central c = parameters();
        if (c.epsilonPerRunningTotal() == null) {
            return Optional.empty();
        }
        ContinualCounter r = continual;
        if (r == null) {
            synchronized (this) {
                r = continual;
                if (r == null) {
                    r = ContinualCounter.of(workload(), ContinualSettings.forWorkload(workload(),
                            c.epsilonPerRunningTotal()));
                    continual = r;
                }
            }
        }
        return Optional.of(r);
    }

    /**
     * The index of a raw value: its universe index (see {@link Workload#encode}), or for a wide workload its bit vector
     * {@code Σ_j b_j·2^j} (exactly d comma-separated 0/1 flags, {@link Domain.Attributes#encode}).
     */
    @Override
    public int encode(String raw) throws InvalidValueException {
        return marginals != null ? ((Domain.Attributes) spec.domain()).encode(raw) : workload.encode(raw);
    }

    /**
     * Adds one encoded report to a window aggregate with exact integer arithmetic (the caller counts n): one count per
     * universe value, or for a wide workload one cell per attribute subset.
     *
     * @param index what {@link #encode} returned
     * @param state the window aggregate ({@link #aggregateLength()} longs)
     * @throws IllegalArgumentException or {@link ArithmeticException}, leaving the state unchanged, for an index or
     *     aggregate that does not belong to this workload or a count that would overflow
     */
    public void accumulate(int index, long[] state) {
        if (marginals != null) {
            MarginalCounts.addTo(marginals, index, state);
            return;
        }
        if (index < 0 || index >= state.length) {
            throw new IllegalArgumentException("index " + index + " outside the universe");
        }
        state[index] = Math.addExact(state[index], 1);
    }

    @Override
    public WorkloadRules rules() {
        return rules;
    }

    @Override
    public int slots() {
        return slots;
    }

    @Override
    public int aggregateLength() {
        return marginals != null ? marginals.queryCount() : workload.universeSize();
    }

    /**
     * The least delay between the moment a window is found due and the moment its answer is written, so that the time
     * an answer appears does not depend on the data: the gateway writes every answer this long (or its configured
     * delay, if longer) after the window was found due, and publishes the data-independent fallback instead if the
     * computation has not finished by then ({@code docs/published-fields.md} §Timing). Most releases take a few
     * milliseconds whatever the data. The grid exponential mechanism for {@code erm} takes time proportional to its
     * grid points times the occupied cells of its grid (up to 4.8–6.4 s for 50,617 points and 2,048 cells, every cell
     * occupied, on a loaded 2-core machine): it gets its worst case computed from the public grid
     * ({@link io.privacygateway.mechanisms.analytics.erm.GridExponentialErm#worstCaseReleaseTime()}, ≈ 2.5× the
     * measured time), rounded up to a second, at least one second. The wide releases (MWEM, worst-case chaining over
     * up to 2^26 values) take a second or two at d = 20 and are given ten. A function of the registered version only.
     */
    public Duration minimumReleaseDelay() {
        if (spec().mechanism().isWide()) {
            return Duration.ofSeconds(10);
        }
        if (spec().mechanism() != MechanismId.ERM_EXPONENTIAL) {
            return Duration.ZERO;
        }
        Duration worst = ((GridExponentialErm)
                ((AnalyticsRelease) release()).mechanism())
                .worstCaseReleaseTime();
        long seconds = Math.max(1, (worst.toMillis() + 999) / 1000);
        return Duration.ofSeconds(seconds);
    }
}

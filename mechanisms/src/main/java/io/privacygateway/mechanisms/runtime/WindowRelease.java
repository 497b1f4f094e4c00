package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.amplification.AmplificationBound;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.central.wide.SyntheticRecords;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.central.wide.WideRelease;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.continual.HorizonAnswer;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one release interface of the gateway's release step: a window's (or a horizon span's) exact aggregate in, a
 * {@link ReleaseResult} out — the answer, any synthetic records, the cost it realises and, for local answers, the
 * amplified guarantee. Every release shape is adapted here, once: a materialised central workload's
 * {@link CentralRelease} ({@link Counts}), a wide workload's {@link WideRelease} ({@link Wide}), a local workload's
 * estimator ({@link Local}); the running totals of the continual-release tree ({@link ContinualCounter}) hang off
 * {@link Central#runningTotals}. The workload builds its release once ({@link ResolvedWorkload#windowRelease()}).
 *
 * <p><b>Guarantee.</b> A {@link Central} release is pure ε-DP (δ = 0) for every device with the declared
 * {@code central.epsilonPerRelease}, for every window including empty ones; its {@link Central#fallback} is a function
 * of public parameters only (and of the public count under replace-one). A {@link Local} release is post-processing of
 * ε-LDP reports.
 */
public sealed interface WindowRelease permits WindowRelease.Central, WindowRelease.Local {

    /**
     * A window's exact aggregate, as the release step hands it in.
     *
     * @param n the number of accepted reports
     * @param state the exact aggregate ({@link ResolvedWorkload#aggregateLength()} longs; all 0 for an empty window)
     * @param spanMillis the span the aggregate covers (a window, or a horizon span; local amplification)
     * @param crowd the number of reports the device identity vouches for ({@code < 1}: none), and its basis name
     * @param crowdBasis the name of what vouches for the crowd
     */
    record Window(long n, long[] state, long spanMillis, long crowd, String crowdBasis) {
        public Window {
            Require.nonNull("state", state);
        }

        /** A central window: no amplification applies. */
        public static Window central(long n, long[] state, long spanMillis) {
            return new Window(n, state, spanMillis, 0, "");
        }
    }

    /** Releases a window with secret randomness (local releases use none). */
    ReleaseResult release(Window window, RandomBits secret);

    /** A central release: computed off the stream thread, with a data-independent fallback. */
    sealed interface Central extends WindowRelease permits Counts, Wide {
        CentralWorkload workload();

        /** The pure guarantee of every answer with data. */
        PrivacyCost.Pure cost();

        /**
         * The data-independent result of a window whose release did not finish, charged exactly as a computed one:
         * {@link CentralFallback#answer} and, where the workload declares synthetic records, none of them.
         *
         * @param publicCount the window's report count (published only under replace-one, where it is public)
         */
        default ReleaseResult fallback(long publicCount) {
            Answer a = CentralFallback.answer(workload(), publicCount);
            return new ReleaseResult(workload().spec().mechanism().wireName(), Optional.of(a), Optional.empty(),
                    a.cost(), Optional.empty(), true);
        }

        /**
         * Adds a window to the running totals over the declared horizons (the continual-release tree draws its node
         * noise from {@code secret}) and returns the state after it.
         */
        default ContinualState addToRunningTotals(ContinualState before, long windowStart, long[] counts,
                RandomBits secret) {
            return workload().runningTotals().orElseThrow().update(before, windowStart, counts, secret);
        }

        /** The running totals' answers after a window, one per horizon, as results named {@code continual-tree}. */
        default List<HorizonResult> runningTotals(ContinualState after) {
            List<HorizonResult> out = new ArrayList<>();
            for (HorizonAnswer h : workload().runningTotals().orElseThrow().answers(after)) {
                out.add(new HorizonResult(h, ReleaseResult.of(h.answer(), Optional.empty())
                        .named(RUNNING_TOTAL_MECHANISM)));
            }
            return out;
        }

        /**
         * The running totals' data-independent answers after a window whose update failed (the tree after the window
         * was added with zero counts): the fallback answer with {@code n = 0} at each horizon's cost.
         */
        default List<HorizonResult> runningTotalsFallback(ContinualState after) {
            List<HorizonResult> out = new ArrayList<>();
            for (HorizonAnswer h : workload().runningTotals().orElseThrow().answers(after)) {
                out.add(new HorizonResult(h, horizonFallback(h)));
            }
            return out;
        }

        /** The data-independent answer of one horizon span: the fallback answer with {@code n = 0} at its cost. */
        default ReleaseResult horizonFallback(HorizonAnswer h) {
            Answer f = CentralFallback.answer(workload(), 0);
            Answer a = new Answer(f.mechanism(), h.answer().cost(), 0, f.labels(), f.estimates(), f.unprojected(),
                    f.standardErrors(), f.lower(), f.upper(), f.confidence(), f.expectedRmsError(),
                    f.rmsErrorBoundAtConfidence(), List.of(), f.workloadHash());
            return new ReleaseResult(RUNNING_TOTAL_MECHANISM, Optional.of(a), Optional.empty(), a.cost(),
                    Optional.empty(), true);
        }
    }

    /** The mechanism name of answers over a horizon released by the continual-release tree (central mode). */
    String RUNNING_TOTAL_MECHANISM = "continual-tree";

    /** A running total over a horizon span ({@link HorizonAnswer#start()} to {@link HorizonAnswer#end()}). */
    record HorizonResult(HorizonAnswer span, ReleaseResult result) {}

    /** A materialised central workload: its {@link CentralRelease} from the exact counts per universe value. */
    record Counts(CentralWorkload workload, CentralRelease release) implements Central {
        @Override
        public ReleaseResult release(Window window, RandomBits secret) {
            return ReleaseResult.of(release.release(window.state(), secret), Optional.empty());
        }

        @Override
        public PrivacyCost.Pure cost() {
            return release.cost();
        }
    }

    /**
     * A wide workload: its {@link WideRelease} from the exact marginal counts (checked,
     * {@link CentralWorkload#marginalCounts}), with the synthetic records when {@code central.synthetic} is declared.
     */
    record Wide(CentralWorkload workload, WideRelease release) implements Central {
        @Override
        public ReleaseResult release(Window window, RandomBits secret) {
            WideAnswer a = release.release(workload.marginalCounts(window.n(), window.state()), secret);
            boolean declared = workload.parameters().synthetic() != null;
            return ReleaseResult.of(a.answer(), declared ? a.records() : Optional.empty());
        }

        @Override
        public PrivacyCost.Pure cost() {
            return release.cost();
        }

        @Override
        public ReleaseResult fallback(long publicCount) {
            ReleaseResult r = Central.super.fallback(publicCount);
            if (workload.parameters().synthetic() == null) {
                return r;
            }
            SyntheticRecords none = new SyntheticRecords(workload.wide().orElseThrow(), new long[0], r.cost());
            return new ReleaseResult(r.mechanism(), r.answer(), Optional.of(none), r.cost(), r.amplified(), true);
        }
    }

    /**
     * A local workload: its estimator over the window's (or span's) exact report aggregate (none for an empty
     * window), and the amplified central (ε, δ) by amplification by shuffling
     * ({@link AmplificationBound}) for the most reports one device can have in the span and the declared δ, over the
     * vouched crowd — only where the mechanism reads payloads alone and a crowd is vouched for.
     */
    record Local(LocalWorkload workload) implements WindowRelease {
        @Override
        public ReleaseResult release(Window window, RandomBits secret) {
            WorkloadSpec s = workload.spec();
            Optional<Answer> a = window.n() == 0 ? Optional.empty()
                    : Optional.of(workload.release(window.state(), window.n()));
            PrivacyCost.Pure cost = a.map(Answer::cost).orElseGet(() -> new PrivacyCost.Pure(
                    s.epsilonPerReport().value()));
            String mechanism = a.map(x -> x.mechanism().wireName()).orElse(s.mechanism().wireName());
            return new ReleaseResult(mechanism, a, Optional.empty(), cost, amplified(window), false);
        }

        /** The amplified guarantee of an answer of {@code window.n()} reports over the window's span and crowd. */
        public Optional<ReleaseResult.Amplified> amplified(Window window) {
            MechanismId m = workload.spec().mechanism();
            if (window.crowd() < 1 || !AmplificationBound.appliesTo(m)) {
                return Optional.empty();
            }
            var g = AmplificationBound.amplified(workload.spec().epsilonPerReport(), window.crowd(),
                    workload.maxReportsPerDeviceIn(window.spanMillis()),
                    ((WorkloadSpec.Local) workload.spec().modeParameters()).amplificationDeltaOrDefault());
            return Optional.of(new ReleaseResult.Amplified(g, window.crowdBasis(), window.crowd()));
        }
    }
}

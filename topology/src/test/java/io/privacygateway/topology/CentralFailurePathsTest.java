package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.erm.OutputPerturbationErm;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.WideAnswer;
import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.release.CentralReleaser;
import io.privacygateway.topology.state.WindowAggregate;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.topology.wire.ShardMessage;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every failure path of a central release (the table in {@code docs/published-fields.md} §Failure paths), each forced
 * through the real topology: the window is still answered — with the data-independent fallback, flagged — at the same
 * cost and with the same {@code cumulativeEpsilon} as in a run where every release succeeds, and the windows around it
 * are unaffected. Before the fallback existed, each of these windows was skipped without being charged, so the next
 * answer's {@code cumulativeEpsilon} revealed the skip.
 *
 * <p>Three windows per run: window 1 and window 3 hold reports, window 2 is empty.
 */
class CentralFailurePathsTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // a minute boundary
    static final long MINUTE = 60_000;
    static final int WINDOWS = 3;

    static Map<String, Object> base(String id, String family, String mechanism, String neighbour) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", family);
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        t.put("central", new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", neighbour,
                "contributionsPerWindow", 1)));
        t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 200);
        return t;
    }

    static WorkloadSpec histogram() {
        Map<String, Object> t = base("flags", "histogram", "central-projection", "add-remove");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec outputPerturbation() {
        Map<String, Object> t = base("churn", "erm", "output-perturbation", "replace-one");
        t.put("domain", Map.of("features", List.of(Map.of("name", "bias", "values", List.of(1)),
                        Map.of("name", "activity", "values", List.of(-1, 0, 1))),
                "response", Map.of("name", "churned", "values", List.of(0, 1))));
        t.put("model", Map.of("loss", "logistic", "radius", 4, "regularization", 0.01));
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec totals() {
        Map<String, Object> t = base("flags-totals", "histogram", "laplace", "add-remove");
        t.put("domain", Map.of("labels", List.of("a", "b", "c")));
        @SuppressWarnings("unchecked")
        Map<String, Object> c = (Map<String, Object>) t.get("central");
        c.put("epsilonPerRunningTotal", 0.5);
        t.put("window", Map.of("size", "1m", "grace", "10s", "horizons", List.of("5m", "since-activation")));
        return WorkloadSpecParser.parse(t);
    }

    static WorkloadSpec mwem() {
        Map<String, Object> t = base("wide", "marginals", "mwem", "add-remove");
        t.put("domain", Map.of("attributes", List.of("a0", "a1", "a2", "a3", "a4", "a5")));
        t.put("queries", Map.of("way", 2));
        @SuppressWarnings("unchecked")
        Map<String, Object> c = (Map<String, Object>) t.get("central");
        c.put("synthetic", Map.of("records", 16));
        return WorkloadSpecParser.parse(t);
    }

    /** What one run published: the window answers (in window order), running totals and synthetic records. */
    record Run(List<WindowAnswer> windows, List<WindowAnswer> totals, List<SyntheticData> synthetic) {}

    /**
     * Registers {@code spec}, sends {@code reports} reports (values cycling through {@code values}) to windows 1 and
     * 3, lets {@code before} act on the driver (e.g. inject a partial) and runs until every window is written.
     */
    static Run run(WorkloadSpec spec, List<String> values, int reports, CentralReleaser releaser, Duration delay,
            BiConsumer<GatewayDriver, CentralWorkload> before) {
        CentralWorkload c = (CentralWorkload) ResolvedWorkload.of(spec);
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1)
                .applicationId("failure-paths-" + spec.id()).build(), T0, inline(releaser))) {
            g.register(spec, T0);
            for (int window : new int[] {0, 2}) {
                for (int i = 0; i < reports; i++) {
                    long t = T0 + window * MINUTE + 1_000 + i;
                    g.sendCentral(GatewayWideTest.report(c, "d-" + window + "-" + i, t, values.get(i % values.size())),
                            t);
                }
            }
            assertThat(g.rejections.readValuesToList()).isEmpty();
            before.accept(g, c);
            for (int w = 0; w < WINDOWS; w++) {
                g.advance(Duration.ofSeconds(w == 0 ? 73 : 60));
                g.advance(delay);
                g.advance(Duration.ofSeconds(1));
            }
            List<WindowAnswer> out = g.answers.readValuesToList();
            return new Run(out.stream().filter(a -> a.getHorizon() == null).toList(),
                    out.stream().filter(a -> a.getHorizon() != null).toList(), g.synthetic.readValuesToList());
        }
    }

    static Run run(WorkloadSpec spec, List<String> values, int reports, CentralReleaser releaser) {
        return run(spec, values, reports, releaser, Duration.ofMillis(200), (g, c) -> { });
    }

    static CentralReleaser seeded() {
        return CentralReleaser.withSecret(new SeededRandomBits(99));
    }

    /** {@code r} with every release run on the stream thread (computations take no mock time). */
    static CentralReleaser inline(CentralReleaser r) {
        return new CentralReleaser() {
            @Override
            public RandomBits secret() {
                return r.secret();
            }

            @Override
            public ReleaseResult release(WindowRelease.Central release, WindowRelease.Window window) {
                return r.release(release, window);
            }

            @Override
            public ContinualState runningTotals(WindowRelease.Central release, ContinualState state, long windowStart,
                    long[] counts) {
                return r.runningTotals(release, state, windowStart, counts);
            }

            // (no @Override, so this test also compiles against the release step before executors existed)
            public java.util.concurrent.Executor executor() {
                return Runnable::run;
            }
        };
    }

    /**
     * The failing run answers the same windows as the run without failure, at the same ε and cumulative ε; exactly
     * the windows in {@code failed} (1-based) are fallbacks, and every fallback publishes the same public answer.
     */
    static void sameSchedule(Run ok, Run failing, Set<Integer> failed) {
        assertThat(ok.windows()).hasSize(WINDOWS);
        assertThat(failing.windows()).hasSize(WINDOWS);
        WindowAnswer fallback = null;
        for (int w = 0; w < WINDOWS; w++) {
            WindowAnswer a = ok.windows().get(w);
            WindowAnswer b = failing.windows().get(w);
            assertThat(a.getFallback()).isFalse();
            assertThat(b.getWindowStart()).isEqualTo(a.getWindowStart());
            assertThat(b.getEpsilon()).isEqualTo(a.getEpsilon());
            assertThat(b.getCost()).isEqualTo(a.getCost());
            assertThat(b.getCumulativeEpsilon()).isEqualTo(a.getCumulativeEpsilon())
                    .isEqualTo((w + 1) * ok.windows().get(0).getCumulativeEpsilon());
            assertThat(b.getReleasedAtStreamTime()).isEqualTo(a.getReleasedAtStreamTime());
            assertThat(b.getFallback()).isEqualTo(failed.contains(w + 1));
            if (b.getFallback()) {
                assertThat(b.getLevels()).isEmpty();
                assertThat(b.getUnprojectedEstimate()).isNull();
                for (int q = 0; q < b.getEstimates().size(); q++) {
                    assertThat(b.getLower().get(q)).isLessThanOrEqualTo(b.getEstimates().get(q));
                    assertThat(b.getUpper().get(q)).isGreaterThanOrEqualTo(b.getEstimates().get(q));
                }
                if (fallback != null) { // data-independent: windows with different data fall back to the same answer
                    assertThat(b.getEstimates()).isEqualTo(fallback.getEstimates());
                    assertThat(b.getLower()).isEqualTo(fallback.getLower());
                    assertThat(b.getUpper()).isEqualTo(fallback.getUpper());
                }
                fallback = b;
            }
        }
    }

    /**
     * output-perturbation's certified minimiser cannot certify its gap within the step limit (forced with a limit of
     * 10 steps; on real data the limit is reached at large n): windows with reports fall back, the empty window (whose
     * minimiser 0 is certified at once) does not. The bars of the fallback are the model's ball [−B, B].
     */
    @Test
    void certificationFailureIsAnsweredAtTheSameCost() {
        WorkloadSpec spec = outputPerturbation();
        List<String> values = List.of("1,-1,1", "1,0,0", "1,1,0", "1,-1,0");
        Run ok = run(spec, values, 40, outputPerturbation(OutputPerturbationErm.MAX_STEPS));
        Run failing = run(spec, values, 40, outputPerturbation(10));
        sameSchedule(ok, failing, Set.of(1, 3));
        WindowAnswer f = failing.windows().get(0);
        assertThat(f.getMechanism()).isEqualTo("output-perturbation");
        assertThat(f.getEstimates()).containsOnly(0.0);
        assertThat(f.getLower()).containsOnly(-4.0);
        assertThat(f.getUpper()).containsOnly(4.0);
        assertThat(f.getN()).isEqualTo(40); // replace-one: the count is public
    }

    /** Seeded randomness, and every window released by {@code f} instead of the workload's own release. */
    static CentralReleaser releasing(BiFunction<WindowRelease.Central, WindowRelease.Window, ReleaseResult> f) {
        CentralReleaser seeded = seeded();
        return new CentralReleaser() {
            @Override
            public RandomBits secret() {
                return seeded.secret();
            }

            @Override
            public ReleaseResult release(WindowRelease.Central release, WindowRelease.Window window) {
                return f.apply(release, window);
            }
        };
    }

    /** The release of the real mechanism with the given step limit (replace-one: the whole ε goes to it). */
    static CentralReleaser outputPerturbation(int maxSteps) {
        SeededRandomBits secret = new SeededRandomBits(5);
        return releasing((r, window) -> {
            CentralWorkload c = r.workload();
            long[] counts = window.state();
            long n = 0;
            for (long x : counts) {
                n += x;
            }
            OutputPerturbationErm m = new OutputPerturbationErm(c.workload(), new AnalyticsBudget(0, 1.0, 200,
                    NeighbourRelation.REPLACE_ONE, 1, c.spec().confidence().value()), maxSteps);
            return ReleaseResult.of(m.release(counts, ReleasedCount.exact(n), secret), Optional.empty());
        });
    }

    /** Exact integer arithmetic overflows (counts beyond 2^63 in total): the real release throws ArithmeticException. */
    @Test
    void overflowIsAnsweredAtTheSameCost() {
        CentralReleaser base = seeded();
        CentralReleaser overflowing = releasing((r, window) -> {
            long[] huge = window.state().clone();
            for (int x = 0; x < huge.length; x++) {
                huge[x] = huge[x] == 0 ? 0 : Long.MAX_VALUE / 2; // what a window of 2^62 reports per value would hold
            }
            return base.release(r, WindowRelease.Window.central(window.n(), huge, window.spanMillis()));
        });
        List<String> values = List.of("a", "b", "c", "d");
        sameSchedule(run(histogram(), values, 20, seeded()), run(histogram(), values, 20, overflowing), Set.of(1, 3));
    }

    /** A numeric failure: the answer would hold a non-finite number, which {@link Answer} refuses. */
    @Test
    void numericFailureIsAnsweredAtTheSameCost() {
        CentralReleaser base = seeded();
        CentralReleaser nan = releasing((r, window) -> {
            long[] counts = window.state();
            Answer a = base.release(r, window).answer().orElseThrow();
            double[] e = a.estimates().clone();
            e[0] = counts[0] > 0 ? Double.NaN : e[0]; // e.g. a solver that diverged on this data
            return ReleaseResult.of(new Answer(a.mechanism(), a.cost(), a.n(), a.labels(), e, a.unprojected(),
                    a.standardErrors(),
                    a.lower(), a.upper(), a.confidence(), a.expectedRmsError(), a.rmsErrorBoundAtConfidence(),
                    a.levels(), a.workloadHash()), Optional.empty());
        });
        List<String> values = List.of("a", "b", "c", "d");
        sameSchedule(run(histogram(), values, 20, seeded()), run(histogram(), values, 20, nan), Set.of(1, 3));
    }

    /**
     * The release cannot be built or fails for a reason that is not the data (a planning failure after the version
     * was evicted from the catalog's cache, a defect): every window falls back, the schedule and account are unchanged.
     */
    @Test
    void aReleaseThatCannotRunIsAnsweredAtTheSameCost() {
        CentralReleaser broken = releasing((r, window) -> {
            throw new IllegalArgumentException("workload " + r.workload().id() + " cannot be released: planning"
                    + " failed");
        });
        List<String> values = List.of("a", "b", "c", "d");
        Run failing = run(histogram(), values, 20, broken);
        sameSchedule(run(histogram(), values, 20, seeded()), failing, Set.of(1, 2, 3));
        WindowAnswer f = failing.windows().get(1);
        assertThat(f.getEstimates()).containsOnly(0.25); // the centroid of the simplex
        assertThat(f.getLower()).containsOnly(0.0);
        assertThat(f.getUpper()).containsOnly(1.0);
        assertThat(f.getN()).isZero(); // add/remove: no count is published
        assertThat(f.getStandardErrors()).isEmpty();
    }

    /**
     * A wide window whose aggregate fails its invariants (a partial whose marginal tables disagree): the marginal
     * counts are refused, the answer and the synthetic records both fall back, at the same cost.
     */
    @Test
    void anInvalidWideAggregateFallsBackWithItsSyntheticRecords() {
        WorkloadSpec spec = mwem();
        List<String> values = List.of("1,0,1,0,1,0", "0,1,1,0,0,1", "1,1,1,1,0,0");
        Duration delay = Duration.ofSeconds(11); // wide releases are written at least 10 s after their computation
        Run ok = run(spec, values, 20, seeded(), delay, (g, c) -> { });
        Run failing = run(spec, values, 20, seeded(), delay, (g, c) -> {
            long[] state = new long[c.aggregateLength()];
            state[0] = 1; // one cell of the first table holds a report the other tables do not
            g.partials.pipeInput(c.id(), new ShardMessage.Partial(Mode.CENTRAL, 0, new WindowKey(c.id(),
                    c.contentHash(), T0 + MINUTE), new WindowAggregate(c.contentHash(), 1, state)).toBytes(), T0);
        });
        sameSchedule(ok, failing, Set.of(2));
        assertThat(ok.synthetic()).hasSize(WINDOWS);
        assertThat(failing.synthetic()).hasSize(WINDOWS);
        SyntheticData s = failing.synthetic().get(1);
        assertThat(s.getFallback()).isTrue();
        assertThat(s.getRecords()).isEmpty();
        assertThat(s.getMaxErrorBound()).isEqualTo(1.0);
        assertThat(s.getEpsilon()).isEqualTo(ok.synthetic().get(1).getEpsilon());
        assertThat(failing.synthetic().get(0).getFallback()).isFalse();
        assertThat(failing.windows().get(1).getMaxErrorBound()).isEqualTo(1.0);
    }

    /** Also a wide release that throws (a numeric failure in the purifier, a defect): the same fallback. */
    @Test
    void aFailingWideReleaseFallsBackWithItsSyntheticRecords() {
        CentralReleaser base = seeded();
        CentralReleaser failing = releasing((r, window) -> {
            if (window.n() > 0) {
                throw new IllegalArgumentException("p must have positive total weight"); // ProportionalSampling
            }
            return base.release(r, window);
        });
        WorkloadSpec spec = mwem();
        List<String> values = List.of("1,0,1,0,1,0", "0,1,1,0,0,1");
        Duration delay = Duration.ofSeconds(11);
        Run ok = run(spec, values, 20, seeded(), delay, (g, c) -> { });
        Run bad = run(spec, values, 20, failing, delay, (g, c) -> { });
        sameSchedule(ok, bad, Set.of(1, 3));
        assertThat(bad.synthetic()).extracting(SyntheticData::getFallback).containsExactly(true, false, true);
    }

    /**
     * The running totals' update fails for window 2 (here: the tree refuses a window out of order, as it would with an
     * inconsistent state): window 2's totals are the fallback at the same cost, the tree goes on with the window's
     * counts taken as zero, and the other windows' totals are computed.
     */
    @Test
    void aRunningTotalsFailureIsAnsweredAtTheSameCost() {
        CentralReleaser base = seeded();
        CentralReleaser failing = new CentralReleaser() {
            @Override
            public RandomBits secret() {
                return base.secret();
            }

            @Override
            public ContinualState runningTotals(WindowRelease.Central counter, ContinualState state, long windowStart,
                    long[] counts) {
                boolean second = windowStart == T0 + MINUTE;
                boolean zero = java.util.Arrays.stream(counts).allMatch(x -> x == 0);
                // the real tree's own check: windows must be added in order
                return base.runningTotals(counter, state, second && !zero ? windowStart + 1 : windowStart, counts);
            }
        };
        List<String> values = List.of("a", "b", "c");
        // window 2 gets reports in this run, so its real update throws, and the fallback adds zero counts
        BiConsumer<GatewayDriver, CentralWorkload> none = (g, c) -> { };
        Run ok = run(totals(), values, 20, seeded(), Duration.ofMillis(200), none);
        Run bad = run(totals(), values, 20, failing, Duration.ofMillis(200), (g, c) -> {
            long t = T0 + MINUTE + 1_000;
            g.sendCentral(GatewayWideTest.report(c, "late", t, "a"), t);
        });
        sameSchedule(ok, bad, Set.of());
        assertThat(ok.totals()).hasSize(2 * WINDOWS);
        assertThat(bad.totals()).hasSize(2 * WINDOWS);
        for (int i = 0; i < 2 * WINDOWS; i++) {
            WindowAnswer a = ok.totals().get(i);
            WindowAnswer b = bad.totals().get(i);
            assertThat(b.getHorizon()).isEqualTo(a.getHorizon());
            assertThat(b.getWindowStart()).isEqualTo(a.getWindowStart());
            assertThat(b.getWindowEnd()).isEqualTo(a.getWindowEnd());
            assertThat(b.getEpsilon()).isEqualTo(a.getEpsilon());
            assertThat(b.getCumulativeEpsilon()).isEqualTo(a.getCumulativeEpsilon());
            assertThat(b.getFallback()).isEqualTo(i / 2 == 1);
        }
        assertThat(bad.totals().get(2).getEstimates()).containsOnly(1.0 / 3);
    }
}

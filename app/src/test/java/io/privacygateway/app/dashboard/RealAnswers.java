package io.privacygateway.app.dashboard;

import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.topology.release.AnswerRecords;
import io.privacygateway.topology.state.WindowKey;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Real {@link WindowAnswer} records for dashboard tests, made by the real release code: the demo's example
 * workloads resolved by the planner, simulated devices' values randomized on the "device" by the local
 * protocol and accumulated and released by {@link LocalPipeline} (local mode), or counted and released with
 * noise by {@link CentralRelease} (central mode), then turned into records by the gateway's own
 * {@link AnswerRecords}. The simulated values drift slowly from window to window so the charts have a shape.
 *
 * <p>All randomness here is seeded (test data and the mechanisms' noise alike): reproducible, never secret.
 */
public final class RealAnswers {
    private final List<Source> sources = new ArrayList<>();
    private final SplittableRandom values;
    private final RandomBits noise;
    private final Map<String, double[]> truth = new ConcurrentHashMap<>();
    private int windowIndex;

    private record Source(WorkloadSpec spec, Workload workload, ResolvedWorkload active, double[] cumulative) {}

    /** The demo's workload files, in the order the demo registers them (a file of the demo module). */
    static final List<String> DEMO_WORKLOADS =
            List.of("screen-usage.yaml", "latency-cdf.yaml", "feature-flags.yaml", "session-length-central.yaml",
                    "top-app-mode.yaml", "usage-regression.yaml", "churn-erm.yaml", "latency-mean.yaml",
                    "resource-usage.yaml", "top-crash-signatures.yaml");

    /** The demo's example workloads (local, central, window analytics), resolved as the registrar resolves them. */
    public RealAnswers(long seed) {
        this(demoWorkloads(), seed);
    }

    static List<WorkloadSpec> demoWorkloads() {
        java.nio.file.Path dir = java.nio.file.Path.of(System.getProperty("privacygateway.demo.workloads",
                "../demo/src/main/resources/demo"));
        List<WorkloadSpec> specs = new ArrayList<>();
        for (String name : DEMO_WORKLOADS) {
            try {
                specs.add(WorkloadFiles.parse(java.nio.file.Files.readString(dir.resolve(name)), name));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("the demo's workload " + name + " (read from " + dir + ")", e);
            }
        }
        return specs;
    }

    RealAnswers(List<WorkloadSpec> specs, long seed) {
        this.values = new SplittableRandom(seed);
        this.noise = new SeededRandomBits(seed ^ 0x5DEECE66DL);
        for (WorkloadSpec s : specs) {
            WorkloadSpec resolved = Planner.resolve(s);
            Workload w = resolved.family().isOpenDomain() || resolved.isVectorMean() ? null // never materialised
                    : Workload.of(resolved);
            ResolvedWorkload active = ResolvedWorkload.of(resolved);
            sources.add(new Source(resolved, w, active, new double[1]));
        }
    }

    List<WorkloadSpec> specs() {
        return sources.stream().map(Source::spec).toList();
    }

    /** The window size of the first workload (the demo's are all equal), in milliseconds. */
    public long windowMillis() {
        return sources.get(0).spec().window().size().toMillis();
    }

    /**
     * The answers of every workload for the window starting at {@code windowStart}, each from about
     * {@code n} simulated devices.
     */
    public List<WindowAnswer> window(long windowStart, int n) {
        List<WindowAnswer> out = new ArrayList<>();
        double phase = 2 * Math.PI * windowIndex / 24.0;
        for (Source s : sources) {
            int devices = Math.max(50, (int) Math.round(n * (1 + 0.12 * Math.sin(phase + s.spec().id().length()))));
            if (s.spec().isVectorMean()) { // vector means: real vectors, no universe
                out.add(record(s, windowStart, vectorMean(s, windowStart, devices, phase)));
                continue;
            }
            if (s.workload() == null) { // heavy-hitters: strings, no universe
                out.add(record(s, windowStart, heavyHitters(s, windowStart, devices, phase)));
                continue;
            }
            int[] x = simulate(s.workload(), devices, phase);
            long[] counts = new long[s.workload().universeSize()];
            for (int v : x) {
                counts[v]++;
            }
            truth.put(s.spec().id() + "@" + windowStart, io.privacygateway.mechanisms.analytics.WindowStatistics.trueAnswer(s.workload(), counts));
            out.add(record(s, windowStart, release(s, x)));
        }
        windowIndex++;
        return out;
    }

    private WindowAnswer record(Source s, long windowStart, Answer a) {
        // what the gateway charges per window: the release and, when declared, the running totals
        s.cumulative()[0] += s.active().spec().epsilonPerCharge().value();
        long end = windowStart + s.spec().window().size().toMillis();
        double cumulative = s.spec().mode() == Mode.CENTRAL ? s.cumulative()[0] : 0.0;
        ReleaseResult r = ReleaseResult.of(a, Optional.empty());
        if (s.active() instanceof LocalWorkload local) {
            // as a gateway of enrolled devices publishes it (every report counts as the crowd)
            var identity = new io.privacygateway.topology.identity.DeviceAuthentication.Enrolled(
                    java.util.Map.of("k", new byte[32]));
            r = r.withAmplified(local.windowRelease().amplified(new WindowRelease.Window(a.n(), new long[0],
                    s.spec().window().size().toMillis(), identity.vouchedCrowd(a.n()), identity.crowdBasis())));
        }
        WindowAnswer record = AnswerRecords.toRecord(r, s.active(), AnswerRecords.Span.window(s.active(), windowStart),
                new PrivacyCost.Pure(cumulative), end + s.spec().window().grace().toMillis());
        return record;
    }

    /** Short strings for the heavy-hitters workload: a heavy head that drifts slowly, and a tail. */
    static final List<String> SIGNATURES = List.of("oom", "anr", "npe", "sigv", "abrt", "fpe", "bus", "ill", "trap",
            "pipe");

    /**
     * A heavy-hitters window: {@code devices} strings (shares of about 45%, 25% and 12% for the first three, drifting
     * with {@code phase}, the rest spread over the tail) randomized and released by the real device and gateway code;
     * the truth is kept aligned to the answer's labels (each found string's true share).
     */
    private Answer heavyHitters(Source s, long windowStart, int devices, double phase) {
        LocalWorkload local = (LocalWorkload) s.active();
        double[] weight = new double[SIGNATURES.size()];
        for (int i = 0; i < weight.length; i++) {
            weight[i] = i == 0 ? 0.45 + 0.05 * Math.sin(phase) : i == 1 ? 0.25 : i == 2 ? 0.12 : 0.18 / 7;
        }
        double total = java.util.Arrays.stream(weight).sum();
        long[] state = new long[local.aggregateLength()];
        Map<String, Integer> counts = new java.util.HashMap<>();
        try {
            for (int i = 0; i < devices; i++) {
                double u = values.nextDouble() * total;
                int k = 0;
                while (k < weight.length - 1 && u >= weight[k]) {
                    u -= weight[k];
                    k++;
                }
                String v = SIGNATURES.get(k);
                counts.merge(v, 1, Integer::sum);
                ReportCoordinates coords = new ReportCoordinates("device-" + i, windowIndex, 0);
                if (!local.accumulator().accumulate(local.randomize(v, coords, noise), coords, state)) {
                    throw new IllegalStateException("the gateway code rejected a report the device code made");
                }
            }
        } catch (io.privacygateway.mechanisms.workload.InvalidValueException e) {
            throw new IllegalStateException(e);
        }
        Answer a = local.release(state, devices);
        double[] t = new double[a.labels().size()];
        for (int q = 0; q < t.length; q++) {
            t[q] = (double) counts.getOrDefault(a.labels().get(q), 0) / devices;
        }
        truth.put(s.spec().id() + "@" + windowStart, t);
        return a;
    }

    /**
     * A vector-mean window: {@code devices} vectors of the domain (each coordinate a bump around its own level that
     * drifts with {@code phase}, kept inside the box or ball) randomized and released by the real device and gateway
     * code; the truth is the exact mean per coordinate.
     */
    private Answer vectorMean(Source s, long windowStart, int devices, double phase) {
        LocalWorkload local = (LocalWorkload) s.active();
        io.privacygateway.mechanisms.workload.Domain.Vector dom =
                (io.privacygateway.mechanisms.workload.Domain.Vector) s.spec().domain();
        int d = dom.dimension();
        double lo = dom.coordinateLo();
        double hi = dom.coordinateHi();
        double[] mean = new double[d];
        long[] state = new long[local.aggregateLength()];
        try {
            for (int i = 0; i < devices; i++) {
                double[] v = new double[d];
                double sq = 0;
                for (int q = 0; q < d; q++) {
                    double centre = lo + (hi - lo) * (0.25 + 0.5 * (q + 1) / (d + 1) + 0.05 * Math.sin(phase + q));
                    v[q] = Math.max(lo, Math.min(hi, centre + (hi - lo) * 0.1 * gaussian()));
                    sq += v[q] * v[q];
                }
                if (dom instanceof io.privacygateway.mechanisms.workload.Domain.Ball b && Math.sqrt(sq) > b.radius()) {
                    double f = b.radius() * (1 - 1e-9) / Math.sqrt(sq);
                    for (int q = 0; q < d; q++) {
                        v[q] *= f;
                    }
                }
                for (int q = 0; q < d; q++) {
                    mean[q] += v[q] / devices;
                }
                ReportCoordinates coords = new ReportCoordinates("device-" + i, windowIndex, 0);
                if (!local.accumulator().accumulate(local.vectors().randomize(v, coords, noise), coords, state)) {
                    throw new IllegalStateException("the gateway code rejected a report the device code made");
                }
            }
        } catch (io.privacygateway.mechanisms.workload.InvalidValueException e) {
            throw new IllegalStateException(e);
        }
        truth.put(s.spec().id() + "@" + windowStart, mean);
        return local.release(state, devices);
    }

    /** A standard normal draw from the public value generator (Box–Muller). */
    private double gaussian() {
        double u = 1 - values.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * values.nextDouble());
    }

    /** The true mean answers of a released window (what the simulated devices held), or {@code null}. */
    double[] truth(String workloadId, long windowStart, java.util.List<String> labels) {
        return truth.get(workloadId + "@" + windowStart);
    }

    private Answer release(Source s, int[] x) {
        if (s.active() instanceof LocalWorkload local) {
            LocalProtocol protocol = local.protocol();
            long[] state = new long[protocol.stateLength()];
            for (int i = 0; i < x.length; i++) {
                ReportCoordinates coords = new ReportCoordinates("device-" + i, windowIndex, 0);
                byte[] payload = protocol.randomize(x[i], coords, noise); // on the device
                if (!protocol.accumulate(payload, coords, state)) { // at the gateway
                    throw new IllegalStateException("the gateway code rejected a report the device code made");
                }
            }
            return local.release(state, x.length);
        }
        long[] counts = new long[s.workload().universeSize()];
        for (int v : x) {
            counts[v]++;
        }
        return ((CentralWorkload) s.active()).release().release(counts, noise);
    }

    /** Universe indices of simulated devices: smooth, slowly drifting distributions. */
    private int[] simulate(Workload w, int devices, double phase) {
        int size = w.universeSize();
        double[] weight = new double[size];
        if (w.spec().family() == QueryFamily.MARGINALS) {
            int d = Integer.numberOfTrailingZeros(size);
            double[] p = new double[d];
            for (int j = 0; j < d; j++) {
                p[j] = 0.5 + 0.35 * Math.sin(1.7 * j + 0.6) + 0.08 * Math.sin(phase + j);
                p[j] = Math.min(0.95, Math.max(0.05, p[j]));
            }
            for (int x = 0; x < size; x++) {
                double q = 1;
                for (int j = 0; j < d; j++) {
                    q *= ((x >>> j) & 1) == 1 ? p[j] : 1 - p[j];
                }
                weight[x] = q;
            }
        } else {
            double centre = size * (0.35 + 0.08 * Math.sin(phase));
            double spread = Math.max(1.0, size / 4.0);
            for (int x = 0; x < size; x++) {
                double z = (x - centre) / spread;
                weight[x] = Math.exp(-z * z / 2) + 0.04 + 0.03 * Math.sin(3.1 * x + phase);
            }
        }
        double total = 0;
        for (double v : weight) {
            total += v;
        }
        int[] out = new int[devices];
        for (int i = 0; i < devices; i++) {
            double u = values.nextDouble() * total;
            int x = 0;
            while (x < size - 1 && u >= weight[x]) {
                u -= weight[x];
                x++;
            }
            out[i] = x;
        }
        return out;
    }
}

package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.local.LocalEstimator;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Black-box audit of a local randomizer, driven through the device code path: every output is
 * {@link LocalProtocol#randomize} of a fixed value under fixed report coordinates (so fixed public coins,
 * as one real report has), turned into what the gateway sees by {@link LocalProtocol#accumulate} into an
 * empty aggregate (and, per level, {@link LocalProtocol#estimate} of that one report).
 *
 * <p><b>Rows.</b> A single-level protocol (the frequency oracles, the tree, projection and coarse
 * projection) gives one row, the whole report against the declared ε. A multi-level protocol (chaining)
 * gives one row per level, against that level's ε (which the level's estimate states), plus one for the
 * whole report against the declared total.
 *
 * <p><b>Inputs tried.</b> Per row, the {@code pairCandidates} pairs of universe values whose expected
 * level vectors ({@link LocalProtocol#expectedLevelMean} of a one-hot histogram: the answer vector
 * {@code Q(x)} for a frequency oracle, the value's level vector for a Gaussian-sign level; all levels
 * concatenated for the whole report) lie farthest apart, each under {@code coordinateCandidates} report
 * coordinates {@code (audit-device-i, period 0, sequence 0)}. Above {@value #EXPECTED_MEANS_LIMIT} universe
 * values the answer vectors {@code Q(x)} stand in for the level vectors (computing the latter costs
 * {@code O(k²m)}).
 *
 * <p><b>Guarantee of the result.</b> With probability at least {@code confidence}, every row's ε̂ is at
 * most the true privacy loss of its release between its two values under its coordinates, hence at most
 * its ε if the randomizer is ε-LDP as declared ({@link AuditReport}, {@link AuditRow}).
 */
public final class LocalAudit {
    /** Largest universe for which the level vectors are computed through {@link LocalEstimator#expectedLevelMean}. */
    public static final int EXPECTED_MEANS_LIMIT = 2048;

    private LocalAudit() {}

    /**
     * Audits {@code protocol} on {@code workload}'s universe.
     *
     * @param workload the (resolved) workload: universe, labels
     * @param protocol the device/gateway protocol ({@code LocalPipeline.of(workload).protocol()} in production)
     * @param declared the ε a report claims
     * @param settings sample sizes, confidence, candidates
     * @param randomness the randomness handed to the randomizer as its secret randomness
     */
    public static AuditReport run(Workload workload, LocalProtocol protocol, Epsilon declared, AuditSettings settings,
            RandomBits randomness) {
        Require.nonNull("workload", workload);
        Require.nonNull("protocol", protocol);
        Require.nonNull("declared", declared);
        Require.nonNull("settings", settings);
        Require.nonNull("randomness", randomness);
        int k = workload.universeSize();
        if (k < 2) {
            throw new IllegalArgumentException("the universe must have at least 2 values to audit, got " + k);
        }
        List<ReportCoordinates> coords = new ArrayList<>();
        for (int i = 0; i < settings.coordinateCandidates(); i++) {
            coords.add(new ReportCoordinates("audit-device-" + i, 0, 0));
        }
        List<LocalEstimate.Level> levels = estimateOfOne(protocol, coords.get(0), randomness).levels();
        int levelCount = levels.size();
        double[][][] vectors = levelVectors(workload, protocol, levelCount);

        record Part(String name, int level, BigDecimal declared) {}
        List<Part> parts = new ArrayList<>();
        if (levelCount > 1) {
            for (int j = 0; j < levelCount; j++) {
                parts.add(new Part("level " + (j + 1) + " of " + levelCount, j, new BigDecimal(levels.get(j).epsilon())));
            }
            parts.add(new Part("report (all " + levelCount + " levels)", -1, declared.exact()));
        } else {
            parts.add(new Part("report", -1, declared.exact()));
        }
        double rowError = settings.confidence().beta() / parts.size();
        List<AuditRow> rows = new ArrayList<>();
        String mechanism = protocol.id().wireName();
        for (Part part : parts) {
            double[][] v = part.level() >= 0 ? vectors[part.level()] : concatenated(vectors);
            List<NeighbouringInputs> candidates = new ArrayList<>();
            for (int[] pair : Pairs.farthestPairs(v, settings.pairCandidates())) {
                for (ReportCoordinates c : coords) {
                    candidates.add(inputs(workload, protocol, pair[0], pair[1], c, part.level()));
                }
            }
            rows.add(RowAudit.run(mechanism, part.name(), part.declared(), candidates, settings, rowError, randomness));
        }
        return new AuditReport(workload.spec().id(), "local", mechanism, settings.confidence().value(),
                settings.samples(), rows);
    }

    private static LocalEstimate estimateOfOne(LocalProtocol protocol, ReportCoordinates c, RandomBits rng) {
        long[] state = new long[protocol.stateLength()];
        accumulate(protocol, protocol.randomize(0, c, rng), c, state);
        return LocalEstimators.of(protocol).estimate(state, 1);
    }

    private static void accumulate(LocalProtocol protocol, byte[] payload, ReportCoordinates c, long[] state) {
        if (!protocol.accumulate(payload, c, state)) {
            throw new IllegalStateException("the gateway rejected a payload the device produced (" + protocol.id() + ")");
        }
    }

    /** {@code vectors[j][x]}: the expected level-{@code j} estimate of one report of value {@code x}. */
    private static double[][][] levelVectors(Workload w, LocalProtocol protocol, int levels) {
        int k = w.universeSize();
        double[][][] out = new double[levels][k][];
        LocalEstimator estimator = LocalEstimators.of(protocol);
        for (int x = 0; x < k; x++) {
            double[] oneHot = null;
            if (k <= EXPECTED_MEANS_LIMIT) {
                oneHot = new double[k];
                oneHot[x] = 1;
            }
            for (int j = 0; j < levels; j++) {
                out[j][x] = oneHot != null ? estimator.expectedLevelMean(j, oneHot) : w.points().row(x);
            }
        }
        return out;
    }

    private static double[][] concatenated(double[][][] vectors) {
        if (vectors.length == 1) {
            return vectors[0];
        }
        int k = vectors[0].length;
        double[][] out = new double[k][];
        for (int x = 0; x < k; x++) {
            int len = 0;
            for (double[][] level : vectors) {
                len += level[x].length;
            }
            double[] row = new double[len];
            int off = 0;
            for (double[][] level : vectors) {
                System.arraycopy(level[x], 0, row, off, level[x].length);
                off += level[x].length;
            }
            out[x] = row;
        }
        return out;
    }

    /**
     * Values {@code x, x'} under coordinates {@code c}: the whole report ({@code level < 0}; features: the
     * gateway's aggregate counters of the one report, key: the payload) or one level (features: that
     * level's estimate of the one report).
     */
    static NeighbouringInputs inputs(Workload w, LocalProtocol protocol, int x, int y, ReportCoordinates c, int level) {
        String context = "one report of device " + c.deviceId() + ", period " + c.period() + ", sequence "
                + c.sequence() + " (fixed public coins)";
        if (level < 0) {
            int len = protocol.stateLength();
            IntFunction<String> names = i -> "c[" + i + "]";
            return new NeighbouringInputs("x = " + w.universeLabel(x), "x = " + w.universeLabel(y), context,
                    rng -> report(protocol, x, c, rng, len), rng -> report(protocol, y, c, rng, len), len, names, List.of());
        }
        int m = w.queryCount();
        IntFunction<String> names = q -> "mean[" + w.queryLabel(q) + "]";
        return new NeighbouringInputs("x = " + w.universeLabel(x), "x = " + w.universeLabel(y), context,
                rng -> levelOutput(protocol, x, c, rng, level), rng -> levelOutput(protocol, y, c, rng, level), m, names,
                List.of());
    }

    private static Observation report(LocalProtocol protocol, int x, ReportCoordinates c, RandomBits rng, int len) {
        byte[] payload = protocol.randomize(x, c, rng); // the device
        long[] state = new long[len];
        accumulate(protocol, payload, c, state); // the gateway
        return Observation.counters(state, Observation.digest(payload), "payload " + Observation.hex(payload));
    }

    private static Observation levelOutput(LocalProtocol protocol, int x, ReportCoordinates c, RandomBits rng, int level) {
        byte[] payload = protocol.randomize(x, c, rng);
        long[] state = new long[protocol.stateLength()];
        accumulate(protocol, payload, c, state);
        double[] mean = LocalEstimators.of(protocol).estimate(state, 1).levels().get(level).mean();
        return Observation.dense(mean, Observation.digest(mean), "mean " + Observation.shortVector(mean));
    }
}

package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.local.LocalEstimate;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;

/**
 * A {@link FrequencyOracle} over a workload's universe as a {@link LocalProtocol}: the device reports its
 * universe index through the oracle, the server estimates the universe histogram {@code p̂} and answers
 * every query linearly, {@code mean = Σ_x p̂_x Q(x)} ({@link Workload#answersOf}).
 *
 * <p><b>Guarantee.</b> That of the oracle: ε-LDP exactly per report, for every report coordinates. The
 * public base word of a report is {@code new PublicCoins(w.contentHash()).base(coordinates)}.
 *
 * <p><b>Estimate.</b> One level with {@code mean = answersOf(p̂)} (unbiased for the window's mean answer),
 * per-query standard errors {@code sqrt(Var(Σ_x Q(x)_q p̂_x))} from the oracle's closed-form
 * {@link FrequencyOracle#queryVariance}, which <em>includes</em> the covariances between the
 * {@code p̂_x} (essential for the tree, whose leaves are strongly correlated), evaluated at the plug-in
 * frequencies {@code p̂} clipped to {@code [0, 1]} and renormalised to sum 1 (uniform if all clip to 0);
 * {@code noiseScale} = the largest standard error; {@code hull = null} (the pipeline projects onto
 * {@code K}); {@code epsilon = ε}; {@code radius = 0}; {@code biasBound = 0}.
 */
public final class FrequencyOracleProtocol implements LocalProtocol {
    private final Workload workload;
    private final FrequencyOracle oracle;
    private final PublicCoins coins;

    /**
     * @param workload the workload; its universe size must equal the oracle's domain size
     * @param oracle the frequency oracle
     */
    public FrequencyOracleProtocol(Workload workload, FrequencyOracle oracle) {
        this.workload = Require.nonNull("workload", workload);
        this.oracle = Require.nonNull("oracle", oracle);
        if (oracle.domainSize() != workload.universeSize()) {
            throw new IllegalArgumentException("oracle domainSize must equal the workload's universe size "
                    + workload.universeSize() + ", got " + oracle.domainSize());
        }
        this.coins = new PublicCoins(workload.contentHash());
    }

    /**
     * The oracle {@code id} ({@link FrequencyOracles#create}) over the workload's universe; for
     * {@link MechanismId#FACTORIZATION}, the strategy optimised for the workload's answer vectors
     * ({@link FactorizationOracle#of}, cached); for {@link MechanismId#TREE}, the tree whose branching factor suits the
     * workload's own queries ({@link TreeMechanism#optimalBranching(Epsilon, PointSet)}); for
     * {@link MechanismId#FOURIER}, the Fourier oracle of the workload's attributes and marginal width.
     *
     * <p>Versions: when {@code id} is the spec's mechanism, the protocol version the spec declares
     * ({@link io.privacygateway.mechanisms.workload.WorkloadSpec#protocolVersion()}), else {@code id}'s current one.
     * Tree version 1 takes the branching factor of all ranges ({@link TreeMechanism#optimalBranching(int, Epsilon)}),
     * version 2 the workload's own queries'; factorization versions: {@link FactorizationOracle#FactorizationOracle(
     * PointSet, Epsilon, int)}.
     */
    public static FrequencyOracleProtocol of(Workload workload, MechanismId id, Epsilon epsilon) {
        Require.nonNull("workload", workload);
        int version = workload.spec().mechanism() == id ? workload.spec().protocolVersion()
                : ProtocolVersions.current(id);
        if (id == MechanismId.FACTORIZATION) {
            return new FrequencyOracleProtocol(workload, FactorizationOracle.of(workload.points(), epsilon, version));
        }
        if (id == MechanismId.TREE) {
            return new FrequencyOracleProtocol(workload, new TreeMechanism(workload.universeSize(), epsilon,
                    version == 1 ? TreeMechanism.optimalBranching(workload.universeSize(), epsilon)
                            : TreeMechanism.optimalBranching(epsilon, workload.points())));
        }
        if (id == MechanismId.FOURIER) {
            return new FrequencyOracleProtocol(workload, new FourierMarginals(
                    ((io.privacygateway.mechanisms.workload.Domain.Attributes) workload.spec().domain()).names().size(),
                    workload.spec().marginalWay(), epsilon));
        }
        return new FrequencyOracleProtocol(workload, FrequencyOracles.create(id, workload.universeSize(), epsilon));
    }

    public FrequencyOracle oracle() {
        return oracle;
    }

    public Workload workload() {
        return workload;
    }

    @Override
    public MechanismId id() {
        return oracle.id();
    }

    @Override
    public Epsilon epsilon() {
        return oracle.epsilon();
    }

    @Override
    public int payloadBytes() {
        return oracle.payloadBytes();
    }

    /** The public base word of a report of this workload. */
    public long publicBase(ReportCoordinates coordinates) {
        return coins.base(Require.nonNull("coordinates", coordinates));
    }

    @Override
    public byte[] randomize(int value, ReportCoordinates coordinates, SecretDraws draws) {
        return oracle.randomize(value, publicBase(coordinates), Require.nonNull("secret", draws));
    }

    @Override
    public int stateLength() {
        return oracle.stateLength();
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        return oracle.accumulate(payload, publicBase(coordinates), state);
    }

    @Override
    public boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        ReportCoordinates.check(deviceId, period, sequence);
        return oracle.accumulate(payload, coins.base(deviceId, period, sequence), state);
    }

    @Override
    public LocalEstimate estimate(long[] state, long n) {
        double[] p = oracle.estimate(state, n);
        double[] mean = workload.answersOf(p);
        double[] f = plugIn(p);
        double[] se = oracle.queryVariances(n, f, workload.points());
        double trace = 0;
        double maxVar = 0;
        for (int j = 0; j < se.length; j++) {
            double v = Math.max(0, se[j]);
            trace += v;
            maxVar = Math.max(maxVar, v);
            se[j] = Math.sqrt(v);
        }
        double noise = operatorScale(n, f, maxVar, trace);
        LocalEstimate.Level level = new LocalEstimate.Level(mean, se, noise, null, oracle.epsilon().value(), 0);
        return new LocalEstimate(List.of(level), 0);
    }

    /** Above this universe size an oracle without a fast covariance product uses the trace bound. */
    private static final int POLARIZATION_LIMIT = 1024;

    /**
     * An estimate of {@code √λ_max} of the answers' noise covariance {@code Pᵀ·Cov(p̂)·P} ({@code P} the
     * N×m matrix of answer vectors) by power iteration from a fixed start, inflated by 5% because power
     * iteration approaches λ_max from below; never below the largest per-query standard error. The
     * Gaussian-width error bound needs this operator-norm scale: correlated answers (prefix sums, for
     * example) have a covariance far larger in norm than any single variance. When the covariance
     * product would be too costly it falls back to {@code √trace}, an upper bound.
     */
    private double operatorScale(long n, double[] f, double maxVar, double trace) {
        PointSet pts = workload.points();
        int m = pts.dim();
        int k = pts.size();
        boolean fast = oracle instanceof SupportCountOracle;
        if (!fast && k > POLARIZATION_LIMIT) {
            return Math.sqrt(trace);
        }
        double[] u = new double[m];
        for (int q = 0; q < m; q++) {
            u[q] = 1 + (q % 7) / 10.0;
        }
        normalize(u);
        double lambda = 0;
        double[] c = new double[k];
        for (int it = 0; it < 60; it++) {
            for (int x = 0; x < k; x++) {
                c[x] = pts.dot(x, u);
            }
            double[] v = pts.combine(oracle.covarianceTimes(n, f, c));
            double next = 0;
            for (int q = 0; q < m; q++) {
                next += u[q] * v[q];
            }
            if (normalize(v) == 0) {
                break;
            }
            u = v;
            boolean done = settled(next, lambda);
            lambda = Math.max(lambda, next);
            if (done) {
                break;
            }
        }
        return Math.max(Math.sqrt(maxVar), 1.05 * Math.sqrt(Math.max(0, lambda)));
    }

    /**
     * The power iteration's stop rule: the new Rayleigh quotient is within a relative {@code 10^-6} of the previous
     * one, the boundary included.
     */
    static boolean settled(double next, double previous) {
        return Math.abs(next - previous) <= 1e-6 * Math.abs(next);
    }

    private static double normalize(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        s = Math.sqrt(s);
        if (s > 0) {
            for (int i = 0; i < v.length; i++) {
                v[i] /= s;
            }
        }
        return s;
    }

    /** {@code p̂} clipped to {@code [0,1]} and renormalised to sum 1 (uniform if nothing is positive). */
    static double[] plugIn(double[] p) {
        double[] f = new double[p.length];
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            f[i] = Math.min(1, Math.max(0, p[i]));
            s += f[i];
        }
        for (int i = 0; i < p.length; i++) {
            f[i] = s > 0 ? Math.min(1, f[i] / s) : 1.0 / p.length;
        }
        return f;
    }

    @Override
    public double[] expectedLevelMean(int level, double[] histogram) {
        if (level != 0) {
            throw new IllegalArgumentException("level must be 0 (frequency oracles have one level), got " + level);
        }
        return workload.answersOf(histogram);
    }
}

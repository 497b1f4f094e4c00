package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.factorization.FactorizationMechanism;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The workload factorization mechanism as a frequency oracle (McKenna, Maity, Mazumdar and Miklau, "A
 * workload-adaptive mechanism for linear queries under local differential privacy", VLDB 2020; the strategy
 * optimisation, rounding and sampling are {@link FactorizationMechanism}'s).
 *
 * <p><b>Strategy.</b> A deterministic function of the workload's answer matrix {@code W} (rows: queries, columns:
 * the {@code k} universe values, {@code W[q][x] = Q(x)_q}) and ε: {@code p = 4k} outputs, the K chosen by
 * {@link io.privacygateway.mechanisms.local.factorization.StrategyOptimizer#withSearchedK}, {@value #ITERATIONS}
 * optimiser steps from seed {@value #SEED}, integer weights on the {@code 2^}{@value #GRID_BITS} grid, all for the
 * design ε {@code min(ε, }{@value #MAX_DESIGN_EPSILON}{@code )}. The
 * optimiser reads W only through {@code WᵀW}, computed here from the answer vectors in query order, and uses
 * {@code StrictMath}, so a device and the gateway running this code derive identical weights.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: {@code P(o | x) = w[o][x] / 2^30} with integer weights whose every row
 * satisfies {@code max <= L·min}, {@code L <= e^ε'} certified for the design ε' <= ε (checked on the integers when
 * the strategy is built).
 * The device makes one {@link SecretDraws#uniformInt}{@code (2^30)} draw, whatever its value. No public coins: the
 * report's base word is not used.
 *
 * <p><b>Wire format.</b> The output index {@code o ∈ [0, 4k)}, 2 bytes, unsigned big-endian. The gateway rejects
 * any other length and any index {@code >= 4k}, leaving its state untouched.
 *
 * <p><b>Server.</b> The state is the count of each output. The estimate is the unbiased weighted least-squares
 * reconstruction {@code p̂ = V y / n}, {@code V = (QᵀD⁻¹Q)⁻¹QᵀD⁻¹}, {@code D = diag(Q1)}, of the rounded strategy
 * (an exact left inverse: {@code V Q = I}). For a fixed dataset with frequencies {@code f} the reports are
 * independent with laws {@code Q e_{x_i}}, so, exactly, {@code Cov(p̂) = (V diag(Qf) Vᵀ − diag(f)) / n}; the
 * variances and query variances below are that matrix's (covariances included).
 *
 * <p><b>Preconditions.</b> {@code 2 <= k <= }{@value WorkloadSpec#MAX_FACTORIZATION_BUCKETS} (the optimiser's cost
 * grows as {@code k³} per step).
 */
public final class FactorizationOracle extends OutputCountOracle {
    /** Largest universe: {@link WorkloadSpec#MAX_FACTORIZATION_BUCKETS}. */
    public static final int MAX_VALUES = WorkloadSpec.MAX_FACTORIZATION_BUCKETS;
    /** Outputs per value: {@code p = 4k}. */
    public static final int OUTPUTS_PER_VALUE = 4;
    /** Optimiser steps. */
    public static final int ITERATIONS = 300;
    /** The weight grid {@code 2^30}. */
    public static final int GRID_BITS = 30;
    /** The optimiser's (public) seed. */
    public static final long SEED = 7;
    /**
     * The largest ε the strategy is optimised for: above it the strategy is the one for this ε (an ε'-LDP strategy
     * with ε' <= ε is ε-LDP). The optimiser is reliable up to here on every standard workload and diverges on some
     * beyond it (e.g. 1-way marginals of 3 attributes at ε = 7: the build failed). At ε = 6 randomized response already
     * matched or beat the optimised strategy on most workloads measured; the planner compares them.
     */
    public static final double MAX_DESIGN_EPSILON = 6.0;
    /** Built oracles kept by {@link #of}. */
    static final int CACHE_SIZE = 8;

    private static final Map<Key, CompletableFuture<FactorizationOracle>> CACHE = new LinkedHashMap<>(16, 0.75f,
            true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, CompletableFuture<FactorizationOracle>> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    private record Key(PointSet.ContentKey answers, BigDecimal epsilon, int version) {}

    /** The current factorization protocol version ({@code pgw-wfm-v3}; {@link ProtocolVersions}). */
    public static final int VERSION = 3;

    /** Strategies built in this process (tests check that {@link #of} builds once per key). */
    static final AtomicLong BUILDS = new AtomicLong();

    private final FactorizationMechanism mechanism;
    final double[][] q; // [o][x], P(o | x)
    final double[][] v; // [x][o], reconstruction

    /**
     * Builds the strategy for these answer vectors (costly: about 9 s at {@code k = 128} on a 2-core server; see {@link #of}).
     *
     * @param answers {@code k} answer vectors {@code Q(x)} (the workload's points), {@code 2 <= k <= 128}
     * @param epsilon the per-report ε
     */
    public FactorizationOracle(PointSet answers, Epsilon epsilon) {
        this(answers, epsilon, VERSION);
    }

    /**
     * Builds the strategy of factorization protocol {@code version} ({@link ProtocolVersions}): 1
     * ({@code pgw-wfm-v1}) K fixed at subset selection's proportion, built for ε; 2 ({@code pgw-wfm-v2}) K searched,
     * built for ε; 3 ({@code pgw-wfm-v3}, current) K searched, built for {@code min(ε, }{@value #MAX_DESIGN_EPSILON}
     * {@code )}.
     *
     * @param version a version {@link ProtocolVersions#derivable} lists for factorization
     */
    public FactorizationOracle(PointSet answers, Epsilon epsilon, int version) {
        this(answers, epsilon, ITERATIONS, GRID_BITS, version);
    }

    /** Package-private: other optimiser step counts and grids (tests enumerate the draw tree on a small grid). */
    FactorizationOracle(PointSet answers, Epsilon epsilon, int iterations, int gridBits) {
        this(answers, epsilon, iterations, gridBits, VERSION);
    }

    private FactorizationOracle(PointSet answers, Epsilon epsilon, int iterations, int gridBits, int version) {
        super(Require.nonNull("answers", answers).size(), epsilon,
                OUTPUTS_PER_VALUE * (int) Require.inRange("domainSize", answers.size(), 2, MAX_VALUES));
        if (!ProtocolVersions.isDerivable(MechanismId.FACTORIZATION, version)) {
            throw new IllegalArgumentException("factorization protocol version must be one of "
                    + ProtocolVersions.derivable(MechanismId.FACTORIZATION) + ", got " + version);
        }
        BUILDS.incrementAndGet();
        Epsilon design = version >= 3 ? designEpsilon(epsilon) : epsilon; // v1, v2: built for ε itself
        try {
            this.mechanism = version == 1
                    ? FactorizationMechanism.fromGramWithDefaultK(gramOf(answers), design, outputs, iterations,
                            gridBits, SEED)
                    : FactorizationMechanism.fromGram(gramOf(answers), design, outputs, iterations, gridBits, SEED);
        } catch (IllegalStateException e) {
            throw new InvalidWorkloadException("epsilonPerReport", "mechanism \"factorization\" found no usable"
                    + " strategy for this workload at ε = " + design.exact().toPlainString() + " (" + e.getMessage()
                    + "); choose another mechanism or auto");
        }
        double scale = Math.scalb(1.0, -mechanism.gridBits());
        this.q = new double[outputs][k];
        this.v = new double[k][outputs];
        for (int o = 0; o < outputs; o++) {
            for (int x = 0; x < k; x++) {
                q[o][x] = mechanism.weight(x, o) * scale;
                v[x][o] = mechanism.reconstruction(x, o);
            }
        }
    }

    /** The ε the strategy is optimised for: {@code min(ε, }{@value #MAX_DESIGN_EPSILON}{@code )}. */
    static Epsilon designEpsilon(Epsilon epsilon) {
        return epsilon.value() > MAX_DESIGN_EPSILON ? Epsilon.of(MAX_DESIGN_EPSILON) : epsilon;
    }

    /**
     * The oracle for these answer vectors and ε, built once and kept in a small cache (the {@value #CACHE_SIZE} most
     * recently used) keyed by the answer vectors' content and the exact ε, so the planner, the gateway and the SDK
     * build it once per workload version. Concurrent callers for the same key wait for one build.
     */
    public static FactorizationOracle of(PointSet answers, Epsilon epsilon) {
        return of(answers, epsilon, VERSION);
    }

    /** {@link #of(PointSet, Epsilon)} for protocol {@code version} (see {@link #FactorizationOracle(PointSet, Epsilon, int)}). */
    public static FactorizationOracle of(PointSet answers, Epsilon epsilon, int version) {
        Require.nonNull("answers", answers);
        Require.nonNull("epsilon", epsilon);
        Key key = new Key(answers.contentKey(), epsilon.exact().stripTrailingZeros(), version);
        CompletableFuture<FactorizationOracle> f;
        boolean build = false;
        synchronized (CACHE) {
            f = CACHE.get(key);
            if (f == null) {
                f = new CompletableFuture<>();
                CACHE.put(key, f);
                build = true;
            }
        }
        if (build) {
            try {
                f.complete(new FactorizationOracle(answers, epsilon, version));
            } catch (RuntimeException | Error e) {
                synchronized (CACHE) {
                    CACHE.remove(key, f);
                }
                f.completeExceptionally(e);
                throw e;
            }
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            throw unwrap(e);
        }
    }

    /**
     * What a caller waiting on another thread's failed build sees: the build's own exception when it is a runtime
     * exception (as the building caller sees it), else the completion exception itself.
     */
    static RuntimeException unwrap(CompletionException e) {
        return e.getCause() instanceof RuntimeException r ? r : e;
    }

    /**
     * The non-zero coordinates of query {@code c} over the values: their value indices into {@code nz} and their
     * coefficients into {@code val}, in value order; returns how many.
     */
    static int nonZeros(PointSet answers, int c, int[] nz, double[] val) {
        int count = 0;
        for (int x = 0; x < answers.size(); x++) {
            double a = answers.get(x, c);
            if (a != 0) {
                nz[count] = x;
                val[count++] = a;
            }
        }
        return count;
    }

    /** {@code WᵀW}: {@code G[i][j] = Σ_q Q(i)_q Q(j)_q}, summed in query order over the non-zero coordinates. */
    static double[][] gramOf(PointSet answers) {
        int k = answers.size();
        int m = answers.dim();
        double[][] g = new double[k][k];
        int[] nz = new int[k];
        double[] val = new double[k];
        for (int c = 0; c < m; c++) {
            int count = nonZeros(answers, c, nz, val);
            for (int i = 0; i < count; i++) {
                double[] gi = g[nz[i]];
                for (int j = 0; j < count; j++) {
                    gi[nz[j]] += val[i] * val[j];
                }
            }
        }
        return g;
    }

    @Override
    public MechanismId id() {
        return MechanismId.FACTORIZATION;
    }

    /** The underlying mechanism (strategy weights, reconstruction). */
    public FactorizationMechanism mechanism() {
        return mechanism;
    }

    @Override
    public byte[] randomize(int value, long publicBase, SecretDraws draws) {
        checkValue(value);
        Require.nonNull("draws", draws);
        return encodeOutput(mechanism.randomize(value, draws));
    }

    @Override
    public Rational outputProbability(int value, byte[] payload, long publicBase) {
        checkValue(value);
        int o = decodeOutput(payload);
        return o < 0 ? Rational.ZERO : mechanism.probability(value, o);
    }

    /** The reconstruction column {@code V[·][o]} ({@code p̂ = V y/n}). */
    @Override
    public double[] contribution(int o) {
        Require.inRange("output", o, 0, outputs - 1L);
        double[] c = new double[k];
        for (int x = 0; x < k; x++) {
            c[x] = v[x][o];
        }
        return c;
    }
}

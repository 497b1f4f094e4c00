package io.privacygateway.mechanisms.workload;

import java.util.List;

/**
 * The mechanisms a workload can name. Local-model mechanisms randomize on the device; central-model
 * mechanisms add noise at a trusted gateway. {@link #AUTO} is resolved by the planner.
 */
public enum MechanismId {
    AUTO("auto", null),
    /** Gaussian-sign local point release, average, project onto K (MECHANISMS.md §2–§3). */
    LOCAL_PROJECTION("projection", Mode.LOCAL),
    /** Round to an α/2-net, Gaussian-sign release, project onto conv(net) then K (§3). */
    LOCAL_COARSE_PROJECTION("coarse-projection", Mode.LOCAL),
    /** Multi-scale chaining with one Gaussian-sign release per level (§3, Lemma 4.2). */
    LOCAL_CHAINING("chaining", Mode.LOCAL),
    /** Generalized randomized response over the universe, then projection onto K. */
    GRR("grr", Mode.LOCAL),
    /** Optimized unary encoding, then projection onto K. */
    OUE("oue", Mode.LOCAL),
    /** Optimized local hashing, then projection onto K. */
    OLH("olh", Mode.LOCAL),
    /** Subset selection, then projection onto K. */
    SUBSET_SELECTION("subset-selection", Mode.LOCAL),
    /** Hadamard response, then projection onto K. */
    HADAMARD_RESPONSE("hadamard-response", Mode.LOCAL),
    /** Hierarchical (tree) mechanism over ordered buckets, then projection onto K. */
    TREE("tree", Mode.LOCAL),
    /**
     * Workload factorization over ordered buckets (cdf, range; at most 128 buckets): a strategy optimised for the
     * workload's queries, least-squares reconstruction, then projection onto K.
     */
    FACTORIZATION("factorization", Mode.LOCAL),
    /**
     * Marginals over binary attributes (at most 12): each report randomizes a uniformly chosen block of attributes,
     * the gateway estimates the Fourier coefficients the marginals need, then projection onto K.
     */
    FOURIER("fourier", Mode.LOCAL),
    /** Gaussian noise under zCDP, projection onto K, purification to pure ε-DP (§4). */
    CENTRAL_PROJECTION("central-projection", Mode.CENTRAL),
    /** Central chaining under zCDP, projection, purification to pure ε-DP (§4). */
    CENTRAL_CHAINING("central-chaining", Mode.CENTRAL),
    /** Pure-DP baseline: (discrete) Laplace noise with the workload's l1 sensitivity, projection onto K. */
    LAPLACE("laplace", Mode.CENTRAL),

    // ---- wide marginal workloads (central mode; docs/wide-domains.md) ----------------------------------
    /**
     * All k-way marginals over up to 26 binary attributes without materialising {@code {0,1}^d}: MWEM under zCDP,
     * proportional subsampling and purification of the records (pure ε); answers are the records' marginals.
     */
    MWEM("mwem", Mode.CENTRAL),
    /** Worst-case chaining over the same marginals: private multiplicative weights, purified; publishes an l∞ bound. */
    WORST_CASE_CHAINING("worst-case-chaining", Mode.CENTRAL),
    /**
     * Certified synthetic data over the same marginals (at most 24 attributes, k <= 4): discrete Laplace on the
     * marginal tables, the LP that makes them consistent, synthetic records and their certificate (a private bound on
     * the utility loss over every query on at most k attributes); answers are the records' marginals.
     */
    CERTIFIED_SYNTHETIC("certified-synthetic", Mode.CENTRAL),

    // ---- window analytics (central mode; docs/analytics.md) --------------------------------------------
    /** Mode: distance-to-instability test (propose-test-release), purified on the binary embedding. */
    MODE_PTR("mode-ptr", Mode.CENTRAL),
    /** Mode baseline: the exponential mechanism (report-noisy-max) over the window's counts, pure ε. */
    MODE_EXPONENTIAL("mode-exponential", Mode.CENTRAL),
    /** Regression: AdaSSP (Gaussian sufficient statistics, adaptive ridge), clipped and purified. */
    REGRESSION_ADASSP("adassp", Mode.CENTRAL),
    /** Regression baseline: Laplace sufficient-statistics perturbation, XᵀX projected onto the PSD cone. */
    REGRESSION_SSP("ssp-laplace", Mode.CENTRAL),
    /** ERM: the regularized exponential mechanism, sampled exactly on a grid of parameters. */
    ERM_EXPONENTIAL("erm-exponential", Mode.CENTRAL),
    /** ERM: noisy (full-batch) gradient descent under zCDP, purified. */
    ERM_DPSGD("purified-dpsgd", Mode.CENTRAL),
    /** ERM baseline: output perturbation of the regularized minimiser with discrete Laplace noise. */
    ERM_OUTPUT_PERTURBATION("output-perturbation", Mode.CENTRAL),

    // ---- numeric means (family mean, local mode; docs/local-accuracy.md) ------------------------------------
    /** Mean: Duchi et al.'s one-bit randomizer of a bounded scalar. */
    DUCHI("duchi", Mode.LOCAL),
    /** Mean: the piecewise mechanism of Wang et al. (ICDE 2019), discretised. */
    PIECEWISE("piecewise", Mode.LOCAL),
    /** Mean: the hybrid of the piecewise mechanism and Duchi et al.'s (Wang et al., ICDE 2019). */
    HYBRID("hybrid", Mode.LOCAL),
    /**
     * Mean of vectors in an ℓ2 ball: PrivUnitG (Asi, Feldman and Talwar 2022) over public Gaussian candidates —
     * the device picks one of {@code N} public candidates, from the top set of its value by randomized response,
     * exactly ε-LDP for every value of the public coins ({@code local.vector.BallCandidates}).
     */
    PRIVUNIT_G("privunit-g", Mode.LOCAL),

    // ---- open-domain heavy hitters (local mode; docs/heavy-hitters.md) ------------------------------------
    /** Frequent strings of an open domain: a prefix tree with a Hadamard-response count sketch per level. */
    PREFIX_TREE_SKETCH("prefix-tree-sketch", Mode.LOCAL);

    /** The mechanisms of the mean family (local mode; {@code auto} chooses among them). */
    public static final List<MechanismId> MEAN_MECHANISMS = List.of(DUCHI, PIECEWISE, HYBRID);

    private final String wireName;
    private final Mode mode;

    MechanismId(String wireName, Mode mode) {
        this.wireName = wireName;
        this.mode = mode;
    }

    public String wireName() {
        return wireName;
    }

    /** The trust model the mechanism runs in, or {@code null} for {@link #AUTO}. */
    public Mode mode() {
        return mode;
    }

    /**
     * Whether the mechanism releases a wide marginal workload from its exact marginal counts (never from counts
     * per universe value): {@link #MWEM}, {@link #WORST_CASE_CHAINING} and {@link #CERTIFIED_SYNTHETIC}.
     */
    public boolean isWide() {
        return this == MWEM || this == WORST_CASE_CHAINING || this == CERTIFIED_SYNTHETIC;
    }

    public static MechanismId fromWireName(String name) {
        return WireNames.lookup(values(), MechanismId::wireName, name, "mechanism");
    }

    @Override
    public String toString() {
        return wireName;
    }
}

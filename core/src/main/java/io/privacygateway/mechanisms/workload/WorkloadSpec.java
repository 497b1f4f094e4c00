package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.param.Alpha;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A validated workload declaration (the file format is described in {@link WorkloadSpecParser}, which only maps
 * a parsed tree onto {@link #builder()}).
 *
 * <p><b>Construction cannot skip validation.</b> Every cross-field rule is checked here, in the canonical
 * constructor that the parser, {@link Builder#build()} and {@link #toBuilder()} copies all go through; a
 * violated rule is an {@link InvalidWorkloadException} naming the field as it is written in a workload file.
 * Fields that exist in one trust model only live in {@link ModeParameters} ({@link Local} or {@link Central}).
 *
 * @param id stable identifier ({@code [A-Za-z0-9._-]}, at most 100 characters)
 * @param version positive version number
 * @param family query family
 * @param domain the device values (its kind must suit the family)
 * @param marginalWay {@code k} for k-way marginals (1..d), else 0
 * @param queryLabels names of the m coordinates for the points family (one per coordinate), else empty
 * @param mechanism the mechanism, or {@link MechanismId#AUTO}; a named mechanism belongs to the spec's mode
 * @param modeParameters local or central parameters
 * @param budget the device budget per period, at least one charge
 * @param window tumbling window size and grace
 * @param confidence confidence level of error bars
 * @param alpha target average error for coarse projection and chaining (required by those), or {@code null}
 * @param epsilonSplit how chaining splits ε across levels
 * @param expectedReportsPerWindow the n used to resolve {@code auto} before data arrives, or 0
 * @param model the fitted model of the erm family (required there, {@code null} for every other family)
 * @param protocolVersion the version of the mechanism's device protocol ({@link ProtocolVersions}) that devices
 *     randomize with and the gateway serves: one this build derives; 0 (not declared) means the mechanism's current
 *     version; always 0 for {@code auto} and central-mode mechanisms, which have no device protocol
 */
public record WorkloadSpec(
        String id,
        int version,
        QueryFamily family,
        Domain domain,
        int marginalWay,
        List<String> queryLabels,
        MechanismId mechanism,
        ModeParameters modeParameters,
        Budget budget,
        Window window,
        ConfidenceLevel confidence,
        Alpha alpha,
        EpsilonSplit epsilonSplit,
        long expectedReportsPerWindow,
        Model model,
        int protocolVersion) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    /** Upper limits that keep materialized workloads in memory (N·m doubles). */
    public static final int MAX_UNIVERSE = 1 << 16;
    public static final long MAX_CELLS = 1L << 24;
    /**
     * Most buckets for mechanism {@code factorization}: its strategy has {@code 4k} outputs and each of its optimiser
     * steps costs {@code O(k³)}, so the bound keeps a build (done once per workload version and ε) to tens of seconds.
     */
    public static final int MAX_FACTORIZATION_BUCKETS = 128;
    /**
     * Most attributes the {@code fourier} marginals mechanism takes (its variances cost a few million operations per
     * window at this size; {@code local.fo.FourierMarginals#MAX_ATTRIBUTES}).
     */
    public static final int MAX_FOURIER_ATTRIBUTES = 12;
    /** The largest contribution bound L accepted. */
    public static final int MAX_CONTRIBUTIONS = 1_000_000;

    /** The reports per window a derivation plans for when the spec declares none ({@code expectedReportsPerWindow}). */
    public static final long DEFAULT_PLANNED_REPORTS = 10_000;

    /**
     * The reports per window that derivations and plans assume: {@code expectedReportsPerWindow} when declared,
     * else {@link #DEFAULT_PLANNED_REPORTS}. Part of the protocol contract where a derivation uses it (the chaining
     * levels' ε split, the heavy hitters' parameters).
     */
    public long plannedReportsPerWindow() {
        return expectedReportsPerWindow > 0 ? expectedReportsPerWindow : DEFAULT_PLANNED_REPORTS;
    }

    /**
     * Checks every rule of a workload. Rules that do not depend on each other are all checked, and their errors are
     * reported together ({@link InvalidWorkloadException#errors()}); within a chain of dependent rules (the domain
     * before the size it implies, the mechanism before what it takes) the first error stops the chain.
     */
    public WorkloadSpec {
        List<InvalidWorkloadException> errors = new ArrayList<>();
        check(errors, () -> require(id != null && ID.matcher(id).matches(), "id",
                "must match [A-Za-z0-9._-]{1,100}, got \"" + id + "\""));
        check(errors, () -> require(version >= 1, "version", "must be >= 1, got " + version));
        check(errors, () -> require(family != null, "family", "is required"));
        check(errors, () -> require(domain != null, "domain", "is required"));
        check(errors, () -> require(mechanism != null, "mechanism", "is required"));
        check(errors, () -> require(modeParameters != null, "mode", "is required"));
        check(errors, () -> require(budget != null, "budget", "is required"));
        check(errors, () -> require(window != null, "window", "is required"));
        check(errors, () -> require(confidence != null, "confidence", "is required"));
        check(errors, () -> require(epsilonSplit != null, "epsilonSplit", "is required"));
        check(errors, () -> require(expectedReportsPerWindow >= 0 && expectedReportsPerWindow <= Long.MAX_VALUE / 4,
                "expectedReportsPerWindow", "must be in [1, " + Long.MAX_VALUE / 4 + "], got " + expectedReportsPerWindow));
        throwIfAny(errors); // the rules below need every part
        queryLabels = queryLabels == null ? List.of() : List.copyOf(queryLabels);
        try {
            protocolVersion = ProtocolVersions.resolve(mechanism, protocolVersion);
        } catch (InvalidWorkloadException e) {
            errors.addAll(e.errors());
        }
        List<String> labels = queryLabels;
        boolean shapeOk = check(errors, () -> checkShape(family, domain, marginalWay, labels, mechanism,
                modeParameters.mode()));
        check(errors, () -> checkHorizons(modeParameters, window));
        check(errors, () -> checkBudget(budget, modeParameters));
        check(errors, () -> require(alpha != null || !(mechanism == MechanismId.LOCAL_COARSE_PROJECTION
                || mechanism == MechanismId.LOCAL_CHAINING || mechanism == MechanismId.CENTRAL_CHAINING),
                "alpha", "is required for mechanism " + mechanism.wireName()));
        if (shapeOk) { // one chain: each reads the domain as the rules before it have admitted it
            check(errors, () -> {
                checkAnalytics(family, domain, modeParameters.mode(), mechanism, model);
                checkMean(family, domain, modeParameters.mode(), mechanism);
                checkWide(family, domain, marginalWay, mechanism, modeParameters, window);
            });
        }
        throwIfAny(errors);
    }

    /** Runs one rule (or chain of dependent rules), recording its error; whether it passed. */
    private static boolean check(List<InvalidWorkloadException> errors, Runnable rule) {
        try {
            rule.run();
            return true;
        } catch (InvalidWorkloadException e) {
            errors.addAll(e.errors());
            return false;
        }
    }

    private static void throwIfAny(List<InvalidWorkloadException> errors) {
        if (!errors.isEmpty()) {
            throw InvalidWorkloadException.of(errors);
        }
    }

    /** The domain, the queries and the size they imply, and what the mechanism takes of them: one dependent chain. */
    private static void checkShape(QueryFamily family, Domain domain, int marginalWay, List<String> queryLabels,
            MechanismId mechanism, Mode mode) {
        checkDomain(family, domain);
        checkQueries(family, domain, marginalWay, queryLabels);
        checkHeavyHitters(family, mode, mechanism);
        checkSize(family, domain, marginalWay, mechanism, mode);
        if (mechanism.mode() != null && mechanism.mode() != mode) {
            throw new InvalidWorkloadException("mechanism", "\"" + mechanism.wireName() + "\" is a "
                    + mechanism.mode().wireName() + "-mode mechanism but mode is " + mode.wireName());
        }
        if (mechanism == MechanismId.TREE && !family.rules().hasOrderedBuckets(domain)) {
            throw new InvalidWorkloadException("mechanism", "\"tree\" needs ordered buckets (cdf, range, or a "
                    + "bucketed histogram), family is " + family.wireName());
        }
        if (mechanism == MechanismId.FACTORIZATION) {
            int values = factorizationUniverse(family, domain);
            if (values < 0) {
                throw new InvalidWorkloadException("mechanism", "\"factorization\" answers the linear families (histogram,"
                        + " cdf, range, marginals, points), family is " + family.wireName());
            }
            if (values > MAX_FACTORIZATION_BUCKETS) {
                throw new InvalidWorkloadException("domain." + domain.kind(), "mechanism \"factorization\" takes at most "
                        + MAX_FACTORIZATION_BUCKETS + " values (its strategy optimisation grows as the cube of the"
                        + " number of values), this domain has " + values);
            }
        }
        if (mechanism == MechanismId.FOURIER) {
            if (family != QueryFamily.MARGINALS) {
                throw new InvalidWorkloadException("mechanism", "\"fourier\" answers the marginals family, family is "
                        + family.wireName());
            }
            int d = ((Domain.Attributes) domain).names().size();
            if (d > MAX_FOURIER_ATTRIBUTES) {
                throw new InvalidWorkloadException("domain.attributes", "mechanism \"fourier\" takes at most "
                        + MAX_FOURIER_ATTRIBUTES + " attributes, this domain has " + d);
            }
        }
    }

    /** Running totals need their own ε in central mode; local mode answers spans, never since-activation. */
    private static void checkHorizons(ModeParameters modeParameters, Window window) {
        if (modeParameters instanceof Central c) {
            boolean totals = !window.horizons().isEmpty();
            if (totals && c.epsilonPerRunningTotal() == null) {
                throw new InvalidWorkloadException("central.epsilonPerRunningTotal", "is required with window.horizons in"
                        + " central mode: the running totals over the horizons are released with their own ε per window");
            }
            if (!totals && c.epsilonPerRunningTotal() != null) {
                throw new InvalidWorkloadException("central.epsilonPerRunningTotal", "is only used with window.horizons");
            }
        }
        if (modeParameters.mode() == Mode.LOCAL
                && window.horizons().stream().anyMatch(h -> h instanceof Horizon.SinceActivation)) {
            throw new InvalidWorkloadException("window.horizons", Horizon.SinceActivation.WIRE_NAME + " is a "
                    + "central-mode running total; local mode answers spans (e.g. 1h, 1d)");
        }
    }

    /** Each budget (the workload's, its group's) must hold at least one charge. */
    private static void checkBudget(Budget budget, ModeParameters modeParameters) {
        Epsilon charge = modeParameters.epsilonPerCharge();
        List<InvalidWorkloadException> errors = new ArrayList<>();
        if (budget.group() != null && budget.group().epsilonPerPeriod().compareTo(charge) < 0) {
            errors.add(new InvalidWorkloadException("budget.group.epsilonPerPeriod", "(" + budget.group()
                    .epsilonPerPeriod().exact().toPlainString() + ") is smaller than the ε charged per "
                    + modeParameters.chargeUnit() + ": a device could never contribute"));
        }
        if (budget.epsilonPerPeriod().compareTo(charge) < 0) {
            errors.add(new InvalidWorkloadException("budget.epsilonPerPeriod", "(" + budget.epsilonPerPeriod().exact()
                    .toPlainString() + ") is smaller than the ε charged per " + modeParameters.chargeUnit() + " ("
                    + charge.exact().toPlainString() + "): a device could never contribute"));
        }
        throwIfAny(errors);
    }

    /**
     * Whether the spec names a wide marginal mechanism ({@link MechanismId#isWide()}: mwem, worst-case-chaining): the
     * runtime then keeps the window's exact marginal counts and never materialises the {@code 2^d} universe.
     */
    public boolean isWide() {
        return mechanism.isWide();
    }

    // ---- numeric means (family mean; docs/local-accuracy.md) -------------------------------------------------

    /**
     * Family mean runs in local mode only. A range or a box is answered by the scalar randomizers (duchi, piecewise,
     * hybrid; on a box, applied to sampled coordinates), a ball by privunit-g; none of them answers another family.
     */
    private static void checkMean(QueryFamily family, Domain domain, Mode mode, MechanismId mechanism) {
        if (family == QueryFamily.MEAN) {
            require(mode == Mode.LOCAL, "mode", "family mean runs in local mode only, got " + mode.wireName());
            if (domain instanceof Domain.Ball) {
                require(mechanism == MechanismId.AUTO || mechanism == MechanismId.PRIVUNIT_G, "mechanism",
                        "\"" + mechanism.wireName() + "\" does not answer the mean of a ball (its mechanism:"
                                + " privunit-g)");
            } else {
                require(mechanism == MechanismId.AUTO || MechanismId.MEAN_MECHANISMS.contains(mechanism), "mechanism",
                        "\"" + mechanism.wireName() + "\" does not answer the mean of a " + domain.kind()
                                + " (its mechanisms: duchi, piecewise, hybrid)");
            }
        } else {
            require(!MechanismId.MEAN_MECHANISMS.contains(mechanism) && mechanism != MechanismId.PRIVUNIT_G,
                    "mechanism", "\"" + mechanism.wireName() + "\" answers family mean only, family is "
                            + family.wireName());
        }
    }

    /**
     * The number of values of the universe the workload-factorization mechanism would optimise over, for the linear
     * families with a closed universe (histogram: labels or buckets; cdf and range: buckets; marginals: {@code 2^d}
     * attribute combinations, or more than the limit when {@code d} is large; points: the labelled values), else
     * {@code -1}.
     */
    public static int factorizationUniverse(QueryFamily family, Domain domain) {
        return switch (family) {
            case HISTOGRAM, CDF, RANGE, POINTS -> domain instanceof Domain.Labels l ? l.labels().size()
                    : domain instanceof Domain.Buckets b ? b.bucketCount()
                    : domain instanceof Domain.Points p ? p.labels().size() : -1;
            case MARGINALS -> domain instanceof Domain.Attributes a
                    ? (a.names().size() >= 30 ? Integer.MAX_VALUE : 1 << a.names().size()) : -1;
            default -> -1;
        };
    }

    /**
     * Whether the spec is the mean of a bounded vector (a {@link Domain.Vector} domain: ball or box): the runtime
     * never materialises a universe and runs a {@code local.vector} protocol.
     */
    public boolean isVectorMean() {
        return domain instanceof Domain.Vector;
    }

    // ---- open-domain heavy hitters (family heavy-hitters; docs/heavy-hitters.md) ---------------------------------

    /**
     * Family heavy-hitters runs in local mode only (a central gateway would see every raw string), with mechanism
     * {@code auto} or {@code prefix-tree-sketch}, which answers no other family.
     */
    private static void checkHeavyHitters(QueryFamily family, Mode mode, MechanismId mechanism) {
        if (family == QueryFamily.HEAVY_HITTERS) {
            require(mode == Mode.LOCAL, "mode", "family heavy-hitters runs in local mode only (devices randomize"
                    + " their strings; a central gateway would see them raw), got " + mode.wireName());
            require(mechanism == MechanismId.AUTO || mechanism == MechanismId.PREFIX_TREE_SKETCH, "mechanism",
                    "\"" + mechanism.wireName() + "\" does not answer family heavy-hitters (its mechanism:"
                            + " prefix-tree-sketch)");
        } else {
            require(mechanism != MechanismId.PREFIX_TREE_SKETCH, "mechanism", "\"prefix-tree-sketch\" answers family"
                    + " heavy-hitters only, family is " + family.wireName());
        }
    }

    /** A builder with the defaults of a workload file: local mode, {@code auto}, confidence 0.95, optimal split. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this spec's values (a copy through it is validated again by {@link Builder#build()}). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.version = version;
        b.family = family;
        b.domain = domain;
        b.marginalWay = marginalWay;
        b.queryLabels = queryLabels;
        b.mechanism = mechanism;
        b.modeParameters = modeParameters;
        b.budget = budget;
        b.window = window;
        b.confidence = confidence;
        b.alpha = alpha;
        b.epsilonSplit = epsilonSplit;
        b.expectedReportsPerWindow = expectedReportsPerWindow;
        b.model = model;
        b.protocolVersion = protocolVersion;
        return b;
    }

    /** The trust model. */
    public Mode mode() {
        return modeParameters.mode();
    }

    /**
     * The pure ε charged per local report.
     *
     * @throws IllegalStateException for a central-mode workload (it has no per-report ε)
     */
    public Epsilon epsilonPerReport() {
        if (modeParameters instanceof Local l) {
            return l.epsilonPerReport();
        }
        throw new IllegalStateException("workload " + id + " is central-mode: it has no epsilonPerReport");
    }

    /**
     * The central-mode parameters.
     *
     * @throws IllegalStateException for a local-mode workload
     */
    public Central central() {
        if (modeParameters instanceof Central c) {
            return c;
        }
        throw new IllegalStateException("workload " + id + " is local-mode: it has no central parameters");
    }

    /** The ε charged to a device's budget for one report (local) or one window contribution (central). */
    public Epsilon epsilonPerCharge() {
        return modeParameters.epsilonPerCharge();
    }

    /**
     * The ε of one window answer: per report (local) or per release (central). It differs from
     * {@link #epsilonPerCharge()} when a central workload also releases running totals, whose ε is charged on top.
     */
    public Epsilon epsilonPerAnswer() {
        return modeParameters instanceof Central c ? c.epsilonPerRelease() : modeParameters.epsilonPerCharge();
    }

    /**
     * How many charges a full budget pays for: the largest {@code k} with {@code k·ε ≤ budget} in exact
     * arithmetic (at least 1 by validation). Admission itself compares exact sums of ε (see
     * {@code BudgetLedger}); this count is for display and for the device's choice of sequence numbers.
     */
    public int reportsPerPeriod() {
        BigDecimal k = budget.epsilonPerPeriod().exact().divideToIntegralValue(epsilonPerCharge().exact());
        return k.min(BigDecimal.valueOf(Integer.MAX_VALUE)).intValueExact();
    }

    // ---- mode-specific parameters ---------------------------------------------------------------------

    /** Parameters that exist in one trust model only. */
    public sealed interface ModeParameters permits Local, Central {
        /** The trust model these parameters belong to. */
        Mode mode();

        /** The ε charged to a device's budget per charge. */
        Epsilon epsilonPerCharge();

        /** What one charge pays for, in words ("report" or "release"). */
        String chargeUnit();
    }

    /**
     * Local mode: devices randomize their own reports.
     *
     * @param epsilonPerReport pure ε charged per report
     * @param amplificationDelta the δ of the amplified central (ε, δ) published with every answer of a mechanism
     *     whose answers are functions of the multiset of payloads ({@code amplification.delta}), or {@code null}
     *     for {@link #DEFAULT_AMPLIFICATION_DELTA}
     */
    public record Local(Epsilon epsilonPerReport, Double amplificationDelta) implements ModeParameters {
        /** The δ of the amplified guarantee unless a workload declares one. */
        public static final double DEFAULT_AMPLIFICATION_DELTA = 1e-8;
        /** The largest δ a workload may declare for its amplified guarantee. */
        public static final double MAX_AMPLIFICATION_DELTA = 1e-3;

        public Local {
            require(epsilonPerReport != null, "epsilonPerReport", "is required");
            requireDecimals(epsilonPerReport, "epsilonPerReport");
            require(amplificationDelta == null || (amplificationDelta > 0
                    && amplificationDelta <= MAX_AMPLIFICATION_DELTA), "amplification.delta",
                    "must be in (0, " + MAX_AMPLIFICATION_DELTA + "], got " + amplificationDelta);
        }

        /** Local mode with the default amplification δ. */
        public Local(Epsilon epsilonPerReport) {
            this(epsilonPerReport, null);
        }

        /** The δ of the amplified guarantee: declared, or {@link #DEFAULT_AMPLIFICATION_DELTA}. */
        public double amplificationDeltaOrDefault() {
            return amplificationDelta == null ? DEFAULT_AMPLIFICATION_DELTA : amplificationDelta;
        }

        @Override
        public Mode mode() {
            return Mode.LOCAL;
        }

        @Override
        public Epsilon epsilonPerCharge() {
            return epsilonPerReport;
        }

        @Override
        public String chargeUnit() {
            return "report";
        }
    }

    /**
     * Central mode: devices send raw values to a trusted gateway, which adds the noise.
     *
     * @param epsilonPerRelease the pure ε of each published window answer (after purification)
     * @param neighbour the neighbour relation
     * @param contributionsPerWindow L: the most reports one device may contribute to one window
     * @param epsilonPerRunningTotal with {@code window.horizons}: the pure ε the running totals over the horizons cost
     *     per window (one continual-release tree serves every horizon), else {@code null}
     * @param synthetic {@code central.synthetic}: publish the release's synthetic records (mwem, optional;
     *     certified-synthetic, required), else {@code null}
     */
    public record Central(Epsilon epsilonPerRelease, NeighbourRelation neighbour, int contributionsPerWindow,
            Epsilon epsilonPerRunningTotal, Synthetic synthetic) implements ModeParameters {
        public Central {
            require(epsilonPerRelease != null, "central.epsilonPerRelease", "is required");
            requireDecimals(epsilonPerRelease, "central.epsilonPerRelease");
            requireDecimals(epsilonPerRunningTotal, "central.epsilonPerRunningTotal");
            require(neighbour != null, "central.neighbour", "is required");
            require(contributionsPerWindow >= 1 && contributionsPerWindow <= MAX_CONTRIBUTIONS,
                    "central.contributionsPerWindow", "must be in [1, " + MAX_CONTRIBUTIONS + "], got "
                            + contributionsPerWindow);
        }

        /** Central mode without synthetic records. */
        public Central(Epsilon epsilonPerRelease, NeighbourRelation neighbour, int contributionsPerWindow,
                Epsilon epsilonPerRunningTotal) {
            this(epsilonPerRelease, neighbour, contributionsPerWindow, epsilonPerRunningTotal, null);
        }

        /** Central mode without running totals. */
        public Central(Epsilon epsilonPerRelease, NeighbourRelation neighbour, int contributionsPerWindow) {
            this(epsilonPerRelease, neighbour, contributionsPerWindow, null, null);
        }

        @Override
        public Mode mode() {
            return Mode.CENTRAL;
        }

        /**
         * What a device's first contribution to a window costs: the window answer's ε plus, with running totals,
         * their ε per window (exact decimal sum).
         */
        @Override
        public Epsilon epsilonPerCharge() {
            return epsilonPerRunningTotal == null ? epsilonPerRelease : epsilonPerRelease.plus(epsilonPerRunningTotal);
        }

        @Override
        public String chargeUnit() {
            return "release";
        }
    }

    /**
     * {@code central.synthetic}: the wide MWEM release samples exactly {@code records} synthetic records per window,
     * and the certified-synthetic release rounds its consistent distribution to exactly {@code records} records (their
     * certificate is evaluated on them); the answers are the records' marginals and the gateway publishes the records
     * on the synthetic-data topic, one record per window. Every use of them is post-processing of the pure ε release.
     *
     * @param records the records per window, in {@code [1, }{@value #MAX_RECORDS}{@code ]}
     */
    public record Synthetic(int records) {
        /** The most synthetic records one window publishes (one Kafka record holds them all). */
        public static final int MAX_RECORDS = 4096;

        public Synthetic {
            require(records >= 1 && records <= MAX_RECORDS, "central.synthetic.records", "must be in [1, "
                    + MAX_RECORDS + "], got " + records);
        }
    }

    // ---- value objects that own their arithmetic ------------------------------------------------------

    /**
     * A device's budget: pure ε per period, and optionally the budget group the workload belongs to. Periods are
     * aligned to the epoch: period {@code p} covers {@code [p·length, (p+1)·length)}.
     *
     * @param epsilonPerPeriod total ε a device may spend on this workload per period
     * @param period the budget period (> 0, whole milliseconds)
     * @param group the device's budget across a named set of workloads, or {@code null}
     */
    public record Budget(Epsilon epsilonPerPeriod, Duration period, Group group) {
        public Budget {
            require(epsilonPerPeriod != null, "budget.epsilonPerPeriod", "is required");
            requireDecimals(epsilonPerPeriod, "budget.epsilonPerPeriod");
            require(period != null && !period.isNegative() && !period.isZero() && period.toMillis() > 0,
                    "budget.period", "must be > 0, got " + period);
        }

        /** A budget of this workload alone. */
        public Budget(Epsilon epsilonPerPeriod, Duration period) {
            this(epsilonPerPeriod, period, null);
        }

        /** The period length in milliseconds. */
        public long periodMillis() {
            return period.toMillis();
        }

        /** The index of the period containing event time {@code t}: {@code ⌊t / length⌋}. */
        public long periodOf(long t) {
            return Math.floorDiv(t, periodMillis());
        }

        /** The first millisecond of period {@code p}. */
        public long periodStart(long p) {
            return Math.multiplyExact(p, periodMillis());
        }
    }

    /**
     * A budget group: one budget per device and period shared by every workload that names the group, so a device
     * reporting to ten workloads spends one budget, not ten. Every workload of a group must declare the same
     * group budget and the same period (checked when a workload is registered).
     *
     * @param name the group name ({@code [A-Za-z0-9._-]{1,100}})
     * @param epsilonPerPeriod total ε a device may spend on all the group's workloads per period
     */
    public record Group(String name, Epsilon epsilonPerPeriod) {
        public Group {
            require(name != null && ID.matcher(name).matches(), "budget.group.name",
                    "must match [A-Za-z0-9._-]{1,100}, got \"" + name + "\"");
            require(epsilonPerPeriod != null, "budget.group.epsilonPerPeriod", "is required");
            requireDecimals(epsilonPerPeriod, "budget.group.epsilonPerPeriod");
        }

        /** The key under which a device's group usage is kept (never a workload id: those have no ':'). */
        public String budgetKey() {
            return "group:" + name;
        }
    }

    /**
     * A tumbling event-time window, aligned to the epoch: {@code start = ⌊t / size⌋·size}.
     *
     * @param size window length (> 0, whole milliseconds)
     * @param grace how long after the window end late reports are still accepted (>= 0)
     */
    /**
     * Tumbling windows aligned to the epoch, and the longer horizons answered from them.
     *
     * @param size the window size
     * @param grace how long after its end a window still takes reports
     * @param horizons longer horizons (at most {@value #MAX_HORIZONS}, distinct): spans that are whole multiples
     *     of the window size and longer than it, and (central mode) {@code since-activation}
     */
    public record Window(Duration size, Duration grace, List<Horizon> horizons) {
        /** The most horizons a workload declares. */
        public static final int MAX_HORIZONS = 4;

        public Window {
            require(size != null && size.toMillis() > 0, "window.size", "must be > 0, got " + size);
            require(grace != null && !grace.isNegative(), "window.grace", "must be >= 0, got " + grace);
            horizons = horizons == null ? List.of() : List.copyOf(horizons);
            require(horizons.size() <= MAX_HORIZONS, "window.horizons", "at most " + MAX_HORIZONS
                    + " horizons, got " + horizons.size());
            require(horizons.stream().distinct().count() == horizons.size(), "window.horizons",
                    "must be distinct, got " + horizons.stream().map(Horizon::wireName).collect(Collectors.toList()));
            for (Horizon h : horizons) {
                if (h instanceof Horizon.Span span) {
                    require(span.millis() > size.toMillis() && span.millis() % size.toMillis() == 0,
                            "window.horizons", "each span must be a whole multiple of the window size ("
                                    + size + ") and longer than it, got " + span.size());
                }
            }
        }

        /** Windows without longer horizons. */
        public Window(Duration size, Duration grace) {
            this(size, grace, List.of());
        }

        public long sizeMillis() {
            return size.toMillis();
        }

        public long graceMillis() {
            return grace.toMillis();
        }

        /** The start of the window containing event time {@code t}. */
        public long startOf(long t) {
            long s = sizeMillis();
            return Math.floorDiv(t, s) * s;
        }

        /** The (exclusive) end of the window starting at {@code start}. */
        public long endOf(long start) {
            return start + sizeMillis();
        }

        /** The stream time at which the window starting at {@code start} closes: end + grace. */
        public long closesAt(long start) {
            return start + sizeMillis() + graceMillis();
        }

        /** Whether the window starting at {@code start} is closed once stream time reaches {@code watermark}. */
        public boolean closedAt(long start, long watermark) {
            return closesAt(start) <= watermark;
        }
    }

    /** A mutable builder; {@link #build()} runs every rule of the canonical constructor. */
    public static final class Builder {
        private String id;
        private int version = 1;
        private QueryFamily family;
        private Domain domain;
        private int marginalWay;
        private List<String> queryLabels = List.of();
        private MechanismId mechanism = MechanismId.AUTO;
        private ModeParameters modeParameters;
        private Budget budget;
        private Window window;
        private ConfidenceLevel confidence = new ConfidenceLevel(0.95);
        private Alpha alpha;
        private EpsilonSplit epsilonSplit = EpsilonSplit.OPTIMAL;
        private long expectedReportsPerWindow;
        private Model model;
        private int protocolVersion;

        private Builder() {}

        public Builder id(String v) {
            id = v;
            return this;
        }

        public Builder version(int v) {
            version = v;
            return this;
        }

        public Builder family(QueryFamily v) {
            family = v;
            return this;
        }

        public Builder domain(Domain v) {
            domain = v;
            return this;
        }

        public Builder marginalWay(int v) {
            marginalWay = v;
            return this;
        }

        public Builder queryLabels(List<String> v) {
            queryLabels = v;
            return this;
        }

        /** The mechanism set so far. */
        public MechanismId mechanism() {
            return mechanism;
        }

        /** The mechanism; naming another one than before resets the protocol version to its current one. */
        public Builder mechanism(MechanismId v) {
            if (v != mechanism) {
                protocolVersion = ProtocolVersions.NONE;
            }
            mechanism = v;
            return this;
        }

        public Builder modeParameters(ModeParameters v) {
            modeParameters = v;
            return this;
        }

        /** Local mode with this ε per report. */
        public Builder local(Epsilon epsilonPerReport) {
            return modeParameters(new Local(epsilonPerReport));
        }

        /** Central mode with these parameters. */
        public Builder central(Epsilon epsilonPerRelease, NeighbourRelation neighbour, int contributionsPerWindow) {
            return modeParameters(new Central(epsilonPerRelease, neighbour, contributionsPerWindow));
        }

        public Builder budget(Budget v) {
            budget = v;
            return this;
        }

        public Builder budget(Epsilon epsilonPerPeriod, Duration period) {
            return budget(new Budget(epsilonPerPeriod, period));
        }

        public Builder window(Window v) {
            window = v;
            return this;
        }

        public Builder window(Duration size, Duration grace) {
            return window(new Window(size, grace));
        }

        public Builder confidence(ConfidenceLevel v) {
            confidence = v;
            return this;
        }

        public Builder alpha(Alpha v) {
            alpha = v;
            return this;
        }

        public Builder epsilonSplit(EpsilonSplit v) {
            epsilonSplit = v;
            return this;
        }

        public Builder expectedReportsPerWindow(long v) {
            expectedReportsPerWindow = v;
            return this;
        }

        /** The erm family's model. */
        public Builder model(Model v) {
            model = v;
            return this;
        }

        /**
         * The version of the mechanism's device protocol ({@link ProtocolVersions}); 0, the default, means the
         * mechanism's current version. Set it after {@link #mechanism}, which resets it.
         */
        public Builder protocolVersion(int v) {
            protocolVersion = v;
            return this;
        }

        /**
         * Sets the ε of one window answer in the current mode (local: per report; central: per release), keeping
         * the other mode parameters — in central mode the running totals' ε stays as declared, so a device's charge
         * becomes {@code e + epsilonPerRunningTotal}.
         */
        public Builder epsilonPerAnswer(Epsilon e) {
            if (modeParameters instanceof Central c) {
                return modeParameters(new Central(e, c.neighbour(), c.contributionsPerWindow(),
                        c.epsilonPerRunningTotal(), c.synthetic()));
            }
            return modeParameters(new Local(e, modeParameters instanceof Local l ? l.amplificationDelta() : null));
        }

        /**
         * Turns the spec into central mode (for trying a local workload file centrally): each release costs
         * {@code epsilonPerRelease}, contributions are capped at {@code contributions} per device and window, a
         * local-mode mechanism becomes {@code auto}, and the budget is raised to at least one release.
         */
        public Builder inCentralMode(Epsilon epsilonPerRelease, NeighbourRelation neighbour, int contributions) {
            if (mechanism.mode() == Mode.LOCAL) {
                mechanism = MechanismId.AUTO;
                protocolVersion = ProtocolVersions.NONE;
            }
            return central(epsilonPerRelease, neighbour, contributions).budgetAtLeastOneCharge();
        }

        /**
         * Raises the budget to at least one charge of the current mode parameters (used by tools that change
         * ε on the command line; a workload file's own budget is never raised silently).
         */
        public Builder budgetAtLeastOneCharge() {
            if (budget != null && modeParameters != null
                    && budget.epsilonPerPeriod().compareTo(modeParameters.epsilonPerCharge()) < 0) {
                budget = new Budget(modeParameters.epsilonPerCharge(), budget.period(), budget.group());
            }
            return this;
        }

        /** The current mode parameters (for tools that adjust them). */
        public ModeParameters modeParameters() {
            return modeParameters;
        }

        /** Validates every rule and returns the spec. */
        public WorkloadSpec build() {
            return new WorkloadSpec(id, version, family, domain, marginalWay, queryLabels, mechanism, modeParameters,
                    budget, window, confidence, alpha, epsilonSplit, expectedReportsPerWindow, model, protocolVersion);
        }
    }

    // ---- rules ----------------------------------------------------------------------------------------

    /**
     * The most decimal places a declared ε may have. Every stored sum of declared ε (a device's spend, a central
     * workload's privacy account) then stays a few bytes long, far inside what its store decodes (64 bytes of
     * unscaled value), however many charges it adds up; ε below 10⁻²⁰ protects nothing more than 10⁻²⁰.
     */
    public static final int MAX_EPSILON_DECIMALS = 20;

    private static void requireDecimals(Epsilon e, String field) {
        require(e == null || e.exact().scale() <= MAX_EPSILON_DECIMALS, field, "at most " + MAX_EPSILON_DECIMALS
                + " decimal places, got " + (e == null ? "" : e.exact().toPlainString()));
    }

    private static void require(boolean ok, String field, String message) {
        if (!ok) {
            throw new InvalidWorkloadException(field, message);
        }
    }

    private static void checkDomain(QueryFamily family, Domain domain) {
        if (!family.rules().admits(domain)) {
            throw new InvalidWorkloadException("domain", "family " + family.wireName() + " needs "
                    + family.rules().needs() + ", got " + domain.kind());
        }
    }

    private static void checkQueries(QueryFamily family, Domain domain, int way, List<String> labels) {
        if (family.rules().queryKeys().contains("way")) {
            int d = ((Domain.Attributes) domain).names().size();
            require(way >= 1 && way <= d, "queries.way", "must be in [1, " + d + "], got " + way);
        } else {
            require(way == 0, "queries.way", "is only allowed for the marginals family");
        }
        if (family.rules().queryKeys().contains("labels")) {
            int m = ((Domain.Points) domain).dimension();
            require(labels.size() == m, "queries.labels", "must have one label per answer coordinate (" + m
                    + "), got " + labels.size());
            require(labels.stream().distinct().count() == labels.size(), "queries.labels", "must be unique");
        } else {
            require(labels.isEmpty(), "queries.labels", "is only allowed for the points family");
        }
    }

    private static void checkSize(QueryFamily family, Domain domain, int way, MechanismId mechanism, Mode mode) {
        FamilyRules.Size size = family.rules().size(domain, way);
        if (size == null) {
            return; // never materialised (an open domain, a vector mean): the protocols bound their own state
        }
        long universe = size.universe();
        long m = size.queries();
        boolean wideAllowed = family.rules().offersWideReleases() && mode == Mode.CENTRAL
                && (mechanism.isWide() || mechanism == MechanismId.AUTO);
        if (wideAllowed && universe > MAX_UNIVERSE) {
            return; // never materialised: the wide releases keep C(d,k)·2^k marginal counts (checkWide bounds them)
        }
        if (universe > MAX_UNIVERSE) {
            throw new InvalidWorkloadException("domain", "the universe has " + universe + " values; at most "
                    + MAX_UNIVERSE + " are supported" + (family.rules().offersWideReleases()
                            ? " (in central mode, mechanisms mwem and worst-case-chaining take up to "
                                    + Domain.Attributes.MAX + " attributes)" : ""));
        }
        if (universe * m > MAX_CELLS) {
            throw new InvalidWorkloadException("domain", "universe × queries = " + universe + " × " + m
                    + " exceeds the supported " + MAX_CELLS + " cells");
        }
    }

    // ---- window analytics (mode, regression, erm; docs/analytics.md) ---------------------------------------

    /**
     * The convex model the erm family fits: minimise {@code (1/n)Σ ℓ(θ; x_i, y_i) + (λ/2)‖θ‖₂²} over the l2 ball
     * {@code ‖θ‖₂ <= radius}.
     *
     * @param loss the loss ({@code logistic}: {@code ℓ = ln(1 + e^{−s·θᵀx})} with {@code s = ±1} for the response's
     *     upper and lower value)
     * @param radius the public bound on ‖θ‖₂ (finite, {@code > 0}, at most 1e6)
     * @param regularization λ {@code >= 0} (finite, at most 1e6)
     */
    public record Model(String loss, double radius, double regularization) {
        /** The losses supported. */
        public static final List<String> LOSSES = List.of("logistic");

        public Model {
            require(loss != null && LOSSES.contains(loss), "model.loss", "must be one of " + LOSSES + ", got " + loss);
            require(Double.isFinite(radius) && radius > 0 && radius <= 1e6, "model.radius",
                    "must be a number in (0, 1e6], got " + radius);
            require(Double.isFinite(regularization) && regularization >= 0 && regularization <= 1e6,
                    "model.regularization", "must be a number in [0, 1e6], got " + regularization);
        }
    }

    private static void checkAnalytics(QueryFamily family, Domain domain, Mode mode, MechanismId mechanism,
            Model model) {
        if (family.isWindowAnalytics()) {
            require(mode == Mode.CENTRAL, "mode", "family " + family.wireName() + " runs in central mode only (the"
                    + " gateway computes it from raw values), got " + mode.wireName());
        }
        if (mode == Mode.CENTRAL && mechanism != MechanismId.AUTO && !family.centralMechanisms().contains(mechanism)) {
            throw new InvalidWorkloadException("mechanism", "\"" + mechanism.wireName() + "\" does not answer family "
                    + family.wireName() + " (its mechanisms: " + family.centralMechanisms().stream()
                            .map(MechanismId::wireName).collect(Collectors.joining(", ")) + ")");
        }
        if (family == QueryFamily.ERM) {
            require(model != null, "model", "is required for family erm");
            Domain.Grid.Axis y = ((Domain.Grid) domain).response();
            require(!y.bucketed() && y.values().size() == 2, "domain.response", "the logistic loss needs a response"
                    + " with exactly two values (the lower is the negative class), got "
                    + (y.bucketed() ? "buckets" : y.values().size() + " value(s)"));
        } else {
            require(model == null, "model", "is only allowed for family erm");
        }
    }

    // ---- wide marginal workloads (mwem, worst-case-chaining; docs/wide-domains.md) ---------------------------

    /**
     * The rules of the wide mechanisms: the marginal order at most {@link WorkloadLimits#WIDE_MAX_WAY} and at most
     * {@link WorkloadLimits#WIDE_MAX_QUERIES} answers, attribute names usable in answer labels (no {@code ,} or
     * {@code =}), no running totals (their continual release needs counts per universe value), and
     * {@code central.synthetic} only where the mechanism yields records (mwem, or auto, which then chooses mwem;
     * certified-synthetic, which requires it and takes at most 24 attributes and {@code k <= 4}).
     */
    private static void checkWide(QueryFamily family, Domain domain, int way, MechanismId mechanism,
            ModeParameters mode, Window window) {
        Synthetic synthetic = mode instanceof Central c ? c.synthetic() : null;
        if (synthetic != null) {
            require(family == QueryFamily.MARGINALS && (mechanism == MechanismId.MWEM || mechanism == MechanismId.AUTO
                    || mechanism == MechanismId.CERTIFIED_SYNTHETIC),
                    "central.synthetic", "needs family marginals and mechanism mwem or certified-synthetic (the"
                            + " releases that yield synthetic records), got family " + family.wireName()
                            + ", mechanism " + mechanism.wireName());
        }
        if (mechanism == MechanismId.CERTIFIED_SYNTHETIC && mode instanceof Central) {
            require(synthetic != null, "central.synthetic", "is required for mechanism certified-synthetic: declare"
                    + " {records: N}, the synthetic records published per window (1.." + Synthetic.MAX_RECORDS + ")");
            int d = ((Domain.Attributes) domain).names().size();
            int maxD = WorkloadLimits.SYNTHETIC_MAX_ATTRIBUTES;
            require(d <= maxD, "domain.attributes", "at most " + maxD + " attributes for mechanism"
                    + " certified-synthetic, got " + d);
            int maxS = WorkloadLimits.SYNTHETIC_MAX_WAY;
            require(way <= maxS, "queries.way", "must be at most " + maxS + " for mechanism certified-synthetic (the"
                    + " certificate covers queries on at most this many attributes), got " + way);
        }
        boolean wide = mechanism.isWide() || (mechanism == MechanismId.AUTO && family.rules().offersWideReleases()
                && mode instanceof Central && (1L << ((Domain.Attributes) domain).names().size()) > MAX_UNIVERSE);
        if (!wide) {
            return;
        }
        List<String> names = ((Domain.Attributes) domain).names();
        for (int j = 0; j < names.size(); j++) {
            String a = names.get(j);
            require(!a.contains(",") && !a.contains("="), "domain.attributes[" + j + "]",
                    "must not contain ',' or '=' (answer labels are name=bit,…), got \"" + a + "\"");
        }
        int maxWay = WorkloadLimits.WIDE_MAX_WAY;
        require(way <= maxWay, "queries.way", "must be at most " + maxWay + " for mechanism " + mechanism.wireName()
                + ", got " + way);
        long queries = binomial(names.size(), way) << way;
        int maxQueries = WorkloadLimits.WIDE_MAX_QUERIES;
        require(queries <= maxQueries, "queries.way", "C(d,k)·2^k = " + queries + " marginal cells, more than the "
                + maxQueries + " supported");
        require(window.horizons().isEmpty(), "window.horizons", "running totals are not available for mechanism "
                + mechanism.wireName() + " (they need counts per universe value)");
    }

    static long binomial(int n, int k) {
        long r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return r;
    }
}

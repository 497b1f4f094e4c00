package io.privacygateway.mechanisms.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The rules of one query family, in one place: which domain kinds it takes (as written in a workload file, and as a
 * {@link Domain}), which {@code queries} fields it reads, the size of its universe and answer matrix, the answer
 * matrix itself ({@code Q(x)} for every universe value, MECHANISMS.md §1) and the central-mode mechanisms that answer
 * it. One permitted record per {@link QueryFamily}; {@link QueryFamily#rules()} gives it.
 *
 * <p>The parser ({@link WorkloadSpecParser}) reads the domain and queries a family names; the spec
 * ({@link WorkloadSpec}) checks the domain and the size with it; {@link Workload#of} builds the answer matrix with it.
 * Adding a family: a {@link QueryFamily} constant and its record here (docs/architecture.md, "Adding a query family").
 */
public sealed interface FamilyRules permits FamilyRules.HistogramRules, FamilyRules.CdfRules, FamilyRules.RangeRules,
        FamilyRules.MarginalsRules, FamilyRules.PointsRules, FamilyRules.ModeRules, FamilyRules.GridFamily,
        FamilyRules.MeanRules, FamilyRules.HeavyHittersRules {

    /** The domains the family answers over (shared by the families over the same domain kinds). */
    DomainRule domainRule();

    /** The domain fields a workload file may give for the family ({@code domain.labels}, ...). */
    default Set<String> domainKeys() {
        return domainRule().keys();
    }

    /** Whether every one of {@link #domainKeys()} is required together (a grid: features and response). */
    default boolean needsEveryDomainKey() {
        return domainRule().needsEveryKey();
    }

    /** Whether the family answers over this domain. */
    default boolean admits(Domain domain) {
        return domainRule().admits().test(domain);
    }

    /** The domains the family needs, for the message of a refused one ({@code "labels or buckets"}). */
    default String needs() {
        return domainRule().needs();
    }

    /** The {@code queries} fields the family reads ({@code way} for marginals, {@code labels} for points). */
    default Set<String> queryKeys() {
        return Set.of();
    }

    /**
     * The size of the materialised workload, or {@code null} when it is never materialised (an open domain, a
     * vector mean). Precondition: {@link #admits} the domain, and {@code way} is a valid marginal order when the
     * family reads one.
     */
    Size size(Domain domain, int way);

    /**
     * The universe, the queries and the answer vectors of a validated spec of this family. Precondition: the spec
     * was validated and {@link #size} is not {@code null}.
     */
    Answers answers(WorkloadSpec spec);

    /**
     * The central-mode mechanisms the family can run ({@code auto} chooses among them): the purified Gaussian
     * mechanisms and the Laplace baseline for the linear families (marginals also the wide mechanisms, mwem,
     * worst-case-chaining and certified-synthetic), each analytics family's own mechanisms otherwise.
     */
    default List<MechanismId> centralMechanisms() {
        return List.of(MechanismId.CENTRAL_PROJECTION, MechanismId.CENTRAL_CHAINING, MechanismId.LAPLACE);
    }

    /**
     * Whether the family's queries are sums over runs of ordered buckets (cdf, range, a histogram over buckets):
     * what the tree mechanism answers. Precondition: the family {@link #admits} the domain.
     */
    default boolean hasOrderedBuckets(Domain domain) {
        return false;
    }

    /**
     * Whether the family can be answered by the wide central releases (mwem, worst-case chaining, certified
     * synthetic data), which never materialise the universe: read from {@link #centralMechanisms()}.
     */
    default boolean offersWideReleases() {
        for (MechanismId id : centralMechanisms()) {
            if (id.isWide()) {
                return true;
            }
        }
        return false;
    }

    /** {@code |X|} and {@code m} of a materialised workload. */
    record Size(long universe, long queries) {}

    /**
     * A materialised workload's parts: the universe labels, the query labels and one answer row {@code Q(x)} per
     * universe value (of length {@code queryLabels.size()}).
     */
    record Answers(List<String> universeLabels, List<String> queryLabels, double[][] rows) {}

    /**
     * A domain rule: the fields a workload file may give, whether all of them are required together, which
     * {@link Domain} kinds are admitted and how a refusal names them. One constant per rule, shared by the families
     * that answer over the same domains.
     */
    record DomainRule(Set<String> keys, boolean needsEveryKey, Predicate<Domain> admits, String needs) {
        static final DomainRule LABELS_OR_BUCKETS = new DomainRule(Set.of("labels", "buckets"), false,
                d -> d instanceof Domain.Labels || d instanceof Domain.Buckets, "labels or buckets");
        static final DomainRule BUCKETS = new DomainRule(Set.of("buckets"), false, d -> d instanceof Domain.Buckets,
                "buckets");
        static final DomainRule LABELS = new DomainRule(Set.of("labels"), false, d -> d instanceof Domain.Labels,
                "labels");
        static final DomainRule ATTRIBUTES = new DomainRule(Set.of("attributes"), false,
                d -> d instanceof Domain.Attributes, "attributes");
        static final DomainRule POINTS = new DomainRule(Set.of("points"), false, d -> d instanceof Domain.Points,
                "points");
        static final DomainRule GRID = new DomainRule(Set.of("features", "response"), true,
                d -> d instanceof Domain.Grid, "features and a response");
        static final DomainRule RANGE_OR_VECTOR = new DomainRule(Set.of("range", "ball", "box"), false,
                d -> d instanceof Domain.Range || d instanceof Domain.Vector,
                "a range {lo, hi}, a ball {coordinates, radius} or a box {coordinates, lo, hi}");
        static final DomainRule STRINGS = new DomainRule(Set.of("strings"), false, d -> d instanceof Domain.Strings,
                "strings {maxBytes}");
    }

    /** One-hot answers over labels or buckets. */
    record HistogramRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.LABELS_OR_BUCKETS;
        }

        @Override
        public boolean hasOrderedBuckets(Domain domain) {
            return domain instanceof Domain.Buckets;
        }

        @Override
        public Size size(Domain domain, int way) {
            long k = domain instanceof Domain.Labels l ? l.labels().size() : ((Domain.Buckets) domain).bucketCount();
            return new Size(k, k);
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            List<String> universe = spec.domain() instanceof Domain.Labels l ? l.labels()
                    : bucketLabels((Domain.Buckets) spec.domain());
            return identity(universe);
        }
    }

    /** {@code q_t(x) = 1{x < t}}, t = 1..k−1, over k ordered buckets. */
    record CdfRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.BUCKETS;
        }

        @Override
        public boolean hasOrderedBuckets(Domain domain) {
            return true;
        }

        @Override
        public Size size(Domain domain, int way) {
            long k = ((Domain.Buckets) domain).bucketCount();
            return new Size(k, k - 1);
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            Domain.Buckets b = (Domain.Buckets) spec.domain();
            int k = b.bucketCount();
            List<String> ql = new ArrayList<>();
            for (int t = 1; t < k; t++) {
                ql.add("< " + Workload.fmt(b.edges().get(t)));
            }
            double[][] rows = new double[k][k - 1];
            for (int x = 0; x < k; x++) {
                for (int t = 1; t < k; t++) {
                    rows[x][t - 1] = x < t ? 1 : 0;
                }
            }
            return new Answers(bucketLabels(b), ql, rows);
        }
    }

    /** Every interval {@code [a, b]} of k ordered buckets, ordered by {@code a} then {@code b}. */
    record RangeRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.BUCKETS;
        }

        @Override
        public boolean hasOrderedBuckets(Domain domain) {
            return true;
        }

        @Override
        public Size size(Domain domain, int way) {
            long k = ((Domain.Buckets) domain).bucketCount();
            return new Size(k, k * (k + 1) / 2);
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            Domain.Buckets b = (Domain.Buckets) spec.domain();
            int k = b.bucketCount();
            List<String> ql = new ArrayList<>();
            double[][] rows = new double[k][k * (k + 1) / 2];
            int q = 0;
            for (int a = 0; a < k; a++) {
                for (int e = a; e < k; e++) {
                    ql.add("[" + Workload.fmt(b.edges().get(a)) + ", " + Workload.fmt(b.edges().get(e + 1))
                            + (e == k - 1 ? "]" : ")"));
                    for (int x = a; x <= e; x++) {
                        rows[x][q] = 1;
                    }
                    q++;
                }
            }
            return new Answers(bucketLabels(b), ql, rows);
        }
    }

    /**
     * All k-way marginals over d binary attributes: for every attribute subset of size {@code way} in lexicographic
     * order, every cell in binary order (first attribute of the subset most significant); universe index
     * {@code Σ_j b_j·2^j}.
     */
    record MarginalsRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.ATTRIBUTES;
        }

        @Override
        public Set<String> queryKeys() {
            return Set.of("way");
        }

        @Override
        public Size size(Domain domain, int way) {
            int d = ((Domain.Attributes) domain).names().size();
            return new Size(1L << d, WorkloadSpec.binomial(d, way) << way);
        }

        @Override
        public List<MechanismId> centralMechanisms() {
            return List.of(MechanismId.CENTRAL_PROJECTION, MechanismId.CENTRAL_CHAINING, MechanismId.LAPLACE,
                    MechanismId.MWEM, MechanismId.WORST_CASE_CHAINING, MechanismId.CERTIFIED_SYNTHETIC);
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            List<String> names = ((Domain.Attributes) spec.domain()).names();
            int d = names.size();
            int way = spec.marginalWay();
            int n = 1 << d;
            List<String> ul = new ArrayList<>();
            for (int x = 0; x < n; x++) {
                StringBuilder sb = new StringBuilder();
                for (int j = 0; j < d; j++) {
                    sb.append(j > 0 ? "," : "").append((x >>> j) & 1);
                }
                ul.add(sb.toString());
            }
            List<int[]> subsets = Workload.subsets(d, way);
            List<String> ql = new ArrayList<>();
            double[][] rows = new double[n][subsets.size() << way];
            int q = 0;
            for (int[] s : subsets) {
                for (int cell = 0; cell < (1 << way); cell++) {
                    ql.add(cellLabel(names, s, way, cell));
                    for (int x = 0; x < n; x++) {
                        rows[x][q] = matches(s, way, cell, x) ? 1 : 0;
                    }
                    q++;
                }
            }
            return new Answers(ul, ql, rows);
        }

        private static String cellLabel(List<String> names, int[] subset, int way, int cell) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < way; i++) {
                int bit = (cell >>> (way - 1 - i)) & 1;
                sb.append(i > 0 ? "," : "").append(names.get(subset[i])).append('=').append(bit);
            }
            return sb.toString();
        }

        private static boolean matches(int[] subset, int way, int cell, int x) {
            for (int i = 0; i < way; i++) {
                int want = (cell >>> (way - 1 - i)) & 1;
                if (((x >>> subset[i]) & 1) != want) {
                    return false;
                }
            }
            return true;
        }
    }

    /** An explicit set of labelled answer vectors, the queries named by {@code queries.labels}. */
    record PointsRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.POINTS;
        }

        @Override
        public Set<String> queryKeys() {
            return Set.of("labels");
        }

        @Override
        public Size size(Domain domain, int way) {
            Domain.Points p = (Domain.Points) domain;
            return new Size(p.labels().size(), p.dimension());
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            Domain.Points p = (Domain.Points) spec.domain();
            double[][] rows = new double[p.labels().size()][];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = p.answers().get(i).stream().mapToDouble(Double::doubleValue).toArray();
            }
            return new Answers(p.labels(), spec.queryLabels(), rows);
        }
    }

    /** The most frequent label of a window (central analytics): one indicator query per label. */
    record ModeRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.LABELS;
        }

        @Override
        public Size size(Domain domain, int way) {
            long k = ((Domain.Labels) domain).labels().size();
            return new Size(k, k);
        }

        @Override
        public List<MechanismId> centralMechanisms() {
            return List.of(MechanismId.MODE_PTR, MechanismId.MODE_EXPONENTIAL);
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            return identity(((Domain.Labels) spec.domain()).labels());
        }
    }

    /**
     * The analytics families over a grid of features and a response: the same domain rule, size (one query per
     * feature) and answers (each cell's feature vector); they differ in their mechanisms.
     */
    sealed interface GridFamily extends FamilyRules permits RegressionRules, ErmRules {
        @Override
        default DomainRule domainRule() {
            return DomainRule.GRID;
        }

        @Override
        default Size size(Domain domain, int way) {
            Domain.Grid g = (Domain.Grid) domain;
            return new Size(g.cellCount(), g.dimension());
        }

        @Override
        default Answers answers(WorkloadSpec spec) {
            return gridAnswers((Domain.Grid) spec.domain());
        }
    }

    /** Least squares on a grid of features and a response (central analytics): one query per feature. */
    record RegressionRules() implements GridFamily {
        @Override
        public List<MechanismId> centralMechanisms() {
            return List.of(MechanismId.REGRESSION_ADASSP, MechanismId.REGRESSION_SSP);
        }
    }

    /** A convex model fitted to a grid of features and a binary label (central analytics): one query per feature. */
    record ErmRules() implements GridFamily {
        @Override
        public List<MechanismId> centralMechanisms() {
            return List.of(MechanismId.ERM_EXPONENTIAL, MechanismId.ERM_DPSGD, MechanismId.ERM_OUTPUT_PERTURBATION);
        }
    }

    /** The mean of a bounded scalar (a range: one query) or vector (a ball or box: never materialised). */
    record MeanRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.RANGE_OR_VECTOR;
        }

        @Override
        public Size size(Domain domain, int way) {
            // a vector is never materialised: the vector protocols' state is bounded by the dimension
            return domain instanceof Domain.Range r ? new Size(r.levels(), 1) : null;
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            Domain.Range r = (Domain.Range) spec.domain();
            List<String> ul = new ArrayList<>();
            double[][] rows = new double[r.levels()][1];
            for (int x = 0; x < r.levels(); x++) {
                rows[x][0] = r.valueOf(x);
                ul.add(Workload.fmt(r.valueOf(x)));
            }
            return new Answers(ul, List.of("mean"), rows);
        }
    }

    /** The frequent strings of an open domain: never materialised, no universe and no answer matrix. */
    record HeavyHittersRules() implements FamilyRules {
        @Override
        public DomainRule domainRule() {
            return DomainRule.STRINGS;
        }

        @Override
        public Size size(Domain domain, int way) {
            return null; // an open domain, never materialised: the protocol's state is bounded by its parameters
        }

        @Override
        public Answers answers(WorkloadSpec spec) {
            throw new IllegalStateException("unreachable: an open domain is never materialised");
        }
    }

    // ---- shared by the records -----------------------------------------------------------------------------

    /** One indicator query per universe value ({@code Q(x) = e_x}), named as the values. */
    private static Answers identity(List<String> universe) {
        int k = universe.size();
        double[][] rows = new double[k][k];
        for (int i = 0; i < k; i++) {
            rows[i][i] = 1;
        }
        return new Answers(universe, universe, rows);
    }

    /** The grid cells, labelled {@code "x1,…,xd,y"}, each with its feature vector as answer. */
    private static Answers gridAnswers(Domain.Grid g) {
        int cells = (int) g.cellCount();
        List<String> ql = new ArrayList<>();
        for (Domain.Grid.Axis a : g.features()) {
            ql.add(a.name());
        }
        List<String> ul = new ArrayList<>();
        double[][] rows = new double[cells][];
        for (int x = 0; x < cells; x++) {
            rows[x] = g.featuresOf(x);
            StringBuilder sb = new StringBuilder();
            for (double v : rows[x]) {
                sb.append(Workload.fmt(v)).append(',');
            }
            ul.add(sb.append(Workload.fmt(g.responseOf(x))).toString());
        }
        return new Answers(ul, ql, rows);
    }

    private static List<String> bucketLabels(Domain.Buckets b) {
        List<String> out = new ArrayList<>();
        int k = b.bucketCount();
        for (int i = 0; i < k; i++) {
            out.add("[" + Workload.fmt(b.edges().get(i)) + ", " + Workload.fmt(b.edges().get(i + 1))
                    + (i == k - 1 ? "]" : ")"));
        }
        return out;
    }
}

package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A materialized workload: the finite universe {@code X} of device values, the {@code m} queries, and
 * the answer vector {@code Q(x) ∈ [0,1]^m} of every value (MECHANISMS.md §1). Immutable.
 *
 * <p>Universe indices: labels in declaration order; buckets in edge order; attribute vectors as the
 * integer {@code Σ_j b_j·2^j} (attribute 0 is the least significant bit); points in declaration order.
 * Queries: histogram, one per value; CDF, {@code q_t(x) = 1{x < t}} for {@code t = 1..k−1}; range,
 * every interval {@code [a, b]} ordered by {@code a} then {@code b}; marginals, for every attribute
 * subset of size {@code way} in lexicographic order, every cell in binary order (first attribute of
 * the subset most significant); points, the declared coordinates.
 *
 * <p><b>Window analytics</b> (docs/analytics.md): mode has the labels as universe and one indicator query per
 * label ({@code Q(x) = e_x}, so {@link #meanAnswer} is the label frequencies); regression and erm have the grid
 * cells as universe (labelled by the raw value that encodes to them, {@code "x1,…,xd,y"}) and one query per
 * feature (the coefficient θ_j), with {@code Q(x)} the cell's feature vector. Their answers are not means of
 * {@code Q(x)}: {@link #trueAnswer} is the exact non-private statistic.
 */
public final class Workload {
    private final WorkloadSpec spec;
    private final String contentHash;
    private final List<String> universeLabels;
    private final List<String> queryLabels;
    private final PointSet points;
    private final Map<String, Integer> labelIndex;

    private Workload(WorkloadSpec spec, List<String> universeLabels, List<String> queryLabels, PointSet points) {
        this.spec = spec;
        this.contentHash = CanonicalForm.contentHash(spec);
        this.universeLabels = List.copyOf(universeLabels);
        this.queryLabels = List.copyOf(queryLabels);
        this.points = points;
        Map<String, Integer> idx = new HashMap<>();
        for (int i = 0; i < universeLabels.size(); i++) {
            idx.put(universeLabels.get(i), i);
        }
        this.labelIndex = idx;
    }

    /** Builds the universe and answer vectors of a validated spec (the family's {@link FamilyRules#answers}). */
    public static Workload of(WorkloadSpec spec) {
        if (spec.isVectorMean()) {
            throw new IllegalArgumentException("domain: the mean of a " + spec.domain().kind() + " has vector values,"
                    + " which are never materialised as a universe");
        }
        if (spec.family().isOpenDomain()) {
            throw new IllegalArgumentException("domain: family " + spec.family().wireName() + " has an open domain of "
                    + spec.domain().kind() + ", which is never materialised as a universe");
        }
        FamilyRules.Answers a = spec.family().rules().answers(spec);
        return new Workload(spec, a.universeLabels(), a.queryLabels(), PointSet.of(a.queryLabels().size(), a.rows()));
    }

    /**
     * Every k-subset of the attributes {@code {0, …, d−1}}, each as its ascending indices, in lexicographic order:
     * the order of a marginal workload's tables, the one rule every marginal layout follows.
     *
     * <p>Preconditions: {@code 0 <= k <= d}. Guarantees: C(d, k) fresh arrays of length k ({@code k = 0}: one empty
     * array).
     */
    public static List<int[]> subsets(int d, int k) {
        List<int[]> out = new ArrayList<>();
        addSubsets(d, k, 0, new int[k], 0, out);
        return out;
    }

    private static void addSubsets(int d, int k, int start, int[] cur, int depth, List<int[]> out) {
        if (depth == k) {
            out.add(cur.clone());
            return;
        }
        for (int j = start; j <= d - (k - depth); j++) { // leaves room for the k − depth − 1 indices still to come
            cur[depth] = j;
            addSubsets(d, k, j + 1, cur, depth + 1, out);
        }
    }

    /** A number as the labels write it: an integer without a fraction, else its shortest decimal. */
    static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    public WorkloadSpec spec() {
        return spec;
    }

    /** Lower-case hex SHA-256 of the spec's canonical form ({@link CanonicalForm}). */
    public String contentHash() {
        return contentHash;
    }

    /** {@code |X|}. */
    public int universeSize() {
        return points.size();
    }

    /** {@code m}. */
    public int queryCount() {
        return points.dim();
    }

    public String universeLabel(int x) {
        return universeLabels.get(x);
    }

    public List<String> universeLabels() {
        return universeLabels;
    }

    public String queryLabel(int q) {
        return queryLabels.get(q);
    }

    public List<String> queryLabels() {
        return queryLabels;
    }

    /** The answer vectors {@code Q(x)}, one row per universe element. */
    public PointSet points() {
        return points;
    }

    public FeasibleSetShape feasibleSetShape() {
        return spec.family().feasibleSetShape();
    }

    /**
     * Encodes a raw value as written in a values file: a label (histogram over labels, points), a number
     * (buckets), or comma-separated 0/1 attributes (marginals).
     *
     * @throws InvalidValueException if the value is not in the domain
     */
    public int encode(String raw) throws InvalidValueException {
        String v = raw.trim();
        Domain dom = spec.domain();
        if (dom instanceof Domain.Grid g) {
            return encodeGrid(g, v);
        }
        if (dom instanceof Domain.Range r) { // family mean: the nearest level
            double x;
            try {
                x = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new InvalidValueException("not a number: \"" + v + "\"");
            }
            int level = r.levelOf(x);
            if (level < 0) {
                throw new InvalidValueException("value " + v + " is outside [" + fmt(r.lo()) + ", " + fmt(r.hi()) + "]");
            }
            return level;
        }
        if (dom instanceof Domain.Labels || dom instanceof Domain.Points) {
            Integer i = labelIndex.get(v);
            if (i == null) {
                throw new InvalidValueException("unknown label \"" + v + "\"");
            }
            return i;
        }
        if (dom instanceof Domain.Buckets b) {
            double x;
            try {
                x = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new InvalidValueException("not a number: \"" + v + "\"");
            }
            if (!Double.isFinite(x)) {
                throw new InvalidValueException("not a finite number: \"" + v + "\"");
            }
            List<Double> e = b.edges();
            if (x < e.get(0) || x > e.get(e.size() - 1)) {
                throw new InvalidValueException("value " + v + " is outside the bucket range [" + fmt(e.get(0)) + ", "
                        + fmt(e.get(e.size() - 1)) + "]");
            }
            int lo = 0;
            int hi = e.size() - 2; // bucket index range
            while (lo < hi) { // last bucket whose lower edge <= x
                int mid = (lo + hi + 1) >>> 1;
                if (e.get(mid) <= x) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return lo;
        }
        return ((Domain.Attributes) dom).encode(v);
    }

    private static int encodeGrid(Domain.Grid g, String v) throws InvalidValueException {
        String[] parts = v.split(",", -1);
        int d = g.dimension();
        if (parts.length != d + 1) {
            throw new InvalidValueException("expected " + d + " feature value(s) and a response, comma-separated, got "
                    + parts.length + " value(s)");
        }
        int[] levels = new int[d + 1];
        for (int j = 0; j <= d; j++) {
            Domain.Grid.Axis a = j < d ? g.features().get(j) : g.response();
            double x;
            try {
                x = Double.parseDouble(parts[j].trim());
            } catch (NumberFormatException e) {
                throw new InvalidValueException(a.name() + ": not a number: \"" + parts[j].trim() + "\"");
            }
            levels[j] = a.levelOf(x);
            if (levels[j] < 0) {
                throw new InvalidValueException(a.name() + ": value " + parts[j].trim() + " is outside ["
                        + fmt(a.min()) + ", " + fmt(a.max()) + "]");
            }
        }
        return g.cellOf(levels);
    }

    /** {@code Σ_x p_x Q(x)}: the answers of a (possibly estimated) histogram over the universe. */
    public double[] answersOf(double[] histogram) {
        return points.combine(histogram);
    }

    /** The true mean answer {@code x̄ = (1/n) Σ Q(x_i)} of a dataset given as universe counts. */
    public double[] meanAnswer(long[] counts) {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        if (n == 0) {
            throw new IllegalArgumentException("the dataset is empty");
        }
        double[] p = new double[counts.length];
        for (int i = 0; i < counts.length; i++) {
            p[i] = counts[i] / (double) n;
        }
        return answersOf(p);
    }
}

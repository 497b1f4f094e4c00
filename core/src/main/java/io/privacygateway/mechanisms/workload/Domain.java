package io.privacygateway.mechanisms.workload;

import io.privacygateway.mechanisms.param.Require;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The values a device can hold, as declared in a workload file. Each kind validates itself at construction;
 * a violated rule is an {@link InvalidWorkloadException} naming the field as written in a workload file
 * ({@code domain.labels}, {@code domain.buckets[3]}, ...).
 */
public sealed interface Domain permits Domain.Labels, Domain.Buckets, Domain.Attributes, Domain.Points, Domain.Grid,
        Domain.Range, Domain.Strings, Domain.Vector {

    /** The field name of this kind in a workload file ({@code labels}, {@code buckets}, ...). */
    String kind();

    /** Unordered categories: at least 2, unique, non-blank, single-line. */
    record Labels(List<String> labels) implements Domain {
        public Labels {
            labels = Domain.names("domain.labels", labels, 2);
        }

        @Override
        public String kind() {
            return "labels";
        }
    }

    /**
     * Ordered numeric buckets with edges {@code e_0 < e_1 < ... < e_k} (finite, strictly increasing, k ≥ 2):
     * bucket {@code i} holds values in {@code [e_i, e_{i+1})}, the last bucket also holds {@code e_k}.
     */
    record Buckets(List<Double> edges) implements Domain {
        public Buckets {
            if (edges == null || edges.size() < 3) {
                throw new InvalidWorkloadException("domain.buckets", "needs at least 3 edges (2 buckets), got "
                        + (edges == null ? 0 : edges.size()));
            }
            for (int i = 0; i < edges.size(); i++) {
                Double e = edges.get(i);
                if (e == null || !Double.isFinite(e)) {
                    throw new InvalidWorkloadException("domain.buckets[" + i + "]", "must be a finite number, got " + e);
                }
                if (i > 0 && !(e > edges.get(i - 1))) {
                    throw new InvalidWorkloadException("domain.buckets[" + i + "]", "edges must increase strictly, got "
                            + e + " after " + edges.get(i - 1));
                }
            }
            edges = List.copyOf(edges);
        }

        public int bucketCount() {
            return edges.size() - 1;
        }

        @Override
        public String kind() {
            return "buckets";
        }
    }

    /** Binary attributes (1 to 16, unique); a value is a 0/1 vector in this order. */
    record Attributes(List<String> names) implements Domain {
        /**
         * The most binary attributes supported: 26, the dense limit of the wide releases (mwem, worst-case-chaining),
         * which never materialise the universe; every other mechanism is limited to a universe of
         * {@link WorkloadSpec#MAX_UNIVERSE} values (16 attributes) by the spec's size rule.
         */
        public static final int MAX = WorkloadLimits.MAX_DENSE_ATTRIBUTES;

        public Attributes {
            names = Domain.names("domain.attributes", names, 1);
            if (names.size() > MAX) {
                throw new InvalidWorkloadException("domain.attributes", "at most " + MAX
                        + " binary attributes are supported, got " + names.size());
            }
        }

        @Override
        public String kind() {
            return "attributes";
        }

        /**
         * A raw value as written in a values file or a central report, exactly d comma-separated {@code 0}/{@code 1}
         * flags in attribute order, as the integer {@code Σ_j b_j·2^j} (attribute 0 the least significant bit).
         *
         * @throws InvalidValueException for another number of flags or a flag other than 0 or 1 (the message
         *     names the attribute)
         */
        public int encode(String raw) throws InvalidValueException {
            String v = raw.trim();
            String[] parts = v.split(",", -1);
            if (parts.length != names.size()) {
                throw new InvalidValueException("expected " + names.size() + " comma-separated 0/1 attributes, got "
                        + parts.length);
            }
            int x = 0;
            for (int j = 0; j < parts.length; j++) {
                String p = parts[j].trim();
                if (p.equals("1")) {
                    x |= 1 << j;
                } else if (!p.equals("0")) {
                    throw new InvalidValueException("attribute " + names.get(j) + " must be 0 or 1, got \"" + p + "\"");
                }
            }
            return x;
        }
    }

    /** Explicit answer vectors {@code Q(x) ∈ [0,1]^m} (at least 2 points, m ≥ 1 for all), each with a unique label. */
    record Points(List<String> labels, List<List<Double>> answers) implements Domain {
        public Points {
            if (labels == null || answers == null || labels.size() != answers.size()) {
                throw new InvalidWorkloadException("domain.points", "needs one label per answer vector");
            }
            if (labels.size() < 2) {
                throw new InvalidWorkloadException("domain.points", "needs at least 2 points, got " + labels.size());
            }
            Set<String> seen = new HashSet<>();
            int m = -1;
            for (int i = 0; i < labels.size(); i++) {
                String f = "domain.points[" + i + "]";
                String label = labels.get(i);
                if (label == null || Require.isBlank(label)) {
                    throw new InvalidWorkloadException(f + ".label", "must be a non-empty string, got " + label);
                }
                if (!seen.add(label)) {
                    throw new InvalidWorkloadException(f + ".label", "duplicate label \"" + label + "\"");
                }
                List<Double> a = answers.get(i);
                if (a == null || a.isEmpty()) {
                    throw new InvalidWorkloadException(f + ".answer", "must not be empty");
                }
                if (m < 0) {
                    m = a.size();
                } else if (a.size() != m) {
                    throw new InvalidWorkloadException(f + ".answer", "has " + a.size() + " coordinates, expected " + m);
                }
                for (int j = 0; j < a.size(); j++) {
                    Double v = a.get(j);
                    if (v == null || !(v >= 0 && v <= 1)) {
                        throw new InvalidWorkloadException(f + ".answer[" + j + "]", "must be a number in [0, 1], got " + v);
                    }
                }
            }
            labels = List.copyOf(labels);
            answers = Collections.unmodifiableList(answers.stream().map(List::copyOf).collect(Collectors.toList()));
        }

        /** m, the number of answer coordinates. */
        public int dimension() {
            return answers.get(0).size();
        }

        @Override
        public String kind() {
            return "points";
        }
    }

    // ---- window analytics: a grid of numeric features and a response (regression, erm) -------------------

    /**
     * Numeric features and a numeric response, each on a finite public grid (regression and erm): a device value
     * is one point {@code (x_1, …, x_d, y)}, sent as {@code "x1,…,xd,y"}; each coordinate is mapped to one level
     * of its axis, so a window's data is a histogram over the grid's cells (the universe, at most
     * {@link WorkloadSpec#MAX_UNIVERSE} cells). A feature with a single level is a constant (an intercept).
     *
     * @param features the d feature axes (1 to {@link #MAX_FEATURES}), names unique
     * @param response the response axis (its name must differ from the features')
     */
    record Grid(List<Axis> features, Axis response) implements Domain {
        /** The most features supported. */
        public static final int MAX_FEATURES = 16;

        public Grid {
            if (features == null || features.isEmpty()) {
                throw new InvalidWorkloadException("domain.features", "needs at least 1 feature, got "
                        + (features == null ? 0 : features.size()));
            }
            if (features.size() > MAX_FEATURES) {
                throw new InvalidWorkloadException("domain.features", "at most " + MAX_FEATURES
                        + " features are supported, got " + features.size());
            }
            if (response == null) {
                throw new InvalidWorkloadException("domain.response", "is required");
            }
            Set<String> seen = new HashSet<>();
            for (int j = 0; j < features.size(); j++) {
                Axis a = features.get(j);
                if (a == null) {
                    throw new InvalidWorkloadException("domain.features[" + j + "]", "is required");
                }
                if (!seen.add(a.name())) {
                    throw new InvalidWorkloadException("domain.features[" + j + "].name", "duplicate \"" + a.name() + "\"");
                }
            }
            if (seen.contains(response.name())) {
                throw new InvalidWorkloadException("domain.response.name", "\"" + response.name()
                        + "\" is also a feature name");
            }
            features = List.copyOf(features);
        }

        /** d, the number of features. */
        public int dimension() {
            return features.size();
        }

        /** The number of cells: the product of the axes' level counts (saturating at Long.MAX_VALUE). */
        public long cellCount() {
            long c = response.levelCount();
            for (Axis a : features) {
                c = c > Long.MAX_VALUE / a.levelCount() ? Long.MAX_VALUE : c * a.levelCount();
            }
            return c;
        }

        /**
         * The level indices of cell {@code x}: features first (the first feature varies slowest), the response
         * last (it varies fastest).
         */
        public int[] levelsOf(int x) {
            int[] out = new int[features.size() + 1];
            int r = x;
            out[features.size()] = r % response.levelCount();
            r /= response.levelCount();
            for (int j = features.size() - 1; j >= 0; j--) {
                out[j] = r % features.get(j).levelCount();
                r /= features.get(j).levelCount();
            }
            return out;
        }

        /** The cell of the given level indices (the inverse of {@link #levelsOf}). */
        public int cellOf(int[] levels) {
            int x = 0;
            for (int j = 0; j < features.size(); j++) {
                x = x * features.get(j).levelCount() + levels[j];
            }
            return x * response.levelCount() + levels[features.size()];
        }

        /** The feature vector of cell {@code x} (the levels' values). */
        public double[] featuresOf(int x) {
            int[] l = levelsOf(x);
            double[] v = new double[features.size()];
            for (int j = 0; j < v.length; j++) {
                v[j] = features.get(j).levels().get(l[j]);
            }
            return v;
        }

        /** The response of cell {@code x}. */
        public double responseOf(int x) {
            return response.levels().get(levelsOf(x)[features.size()]);
        }

        @Override
        public String kind() {
            return "features";
        }

        /**
         * One axis of a grid: either bucket {@code edges} (strictly increasing, at least 2; a value in
         * {@code [e_i, e_{i+1})} — the last bucket also holds its upper edge — is represented by the bucket's
         * midpoint) or explicit {@code values} (strictly increasing, 1 to {@link #MAX_LEVELS}; a value in
         * {@code [v_0, v_k]} is represented by the nearest one, the lower on a tie; a single value accepts only
         * itself). Exactly one of the two lists is non-empty.
         *
         * @param name the axis name (non-blank, single line, no comma)
         * @param edges bucket edges, or empty
         * @param values explicit levels, or empty
         */
        public record Axis(String name, List<Double> edges, List<Double> values) {
            /** The most levels per axis. */
            public static final int MAX_LEVELS = 1024;

            public Axis {
                String f = "domain." + (name == null ? "?" : name);
                if (name == null || Require.isBlank(name) || name.contains("\n") || name.contains(",")) {
                    throw new InvalidWorkloadException(f + ".name", "must be a non-empty single-line name without"
                            + " commas, got " + name);
                }
                edges = edges == null ? List.of() : List.copyOf(edges);
                values = values == null ? List.of() : List.copyOf(values);
                if (edges.isEmpty() == values.isEmpty()) {
                    throw new InvalidWorkloadException(f, "needs exactly one of buckets (edges) or values");
                }
                List<Double> list = edges.isEmpty() ? values : edges;
                String kind = edges.isEmpty() ? ".values" : ".buckets";
                int min = edges.isEmpty() ? 1 : 2;
                if (list.size() < min || list.size() > MAX_LEVELS + (edges.isEmpty() ? 0 : 1)) {
                    throw new InvalidWorkloadException(f + kind, "needs between " + min + " and "
                            + (MAX_LEVELS + min - 1) + " entries, got " + list.size());
                }
                for (int i = 0; i < list.size(); i++) {
                    Double e = list.get(i);
                    if (e == null || !Double.isFinite(e) || Math.abs(e) > 1e12) {
                        throw new InvalidWorkloadException(f + kind + "[" + i + "]", "must be a finite number of"
                                + " magnitude at most 1e12, got " + e);
                    }
                    if (i > 0 && !(e > list.get(i - 1))) {
                        throw new InvalidWorkloadException(f + kind + "[" + i + "]", "must increase strictly, got "
                                + e + " after " + list.get(i - 1));
                    }
                }
            }

            /** An axis of explicit values. */
            public static Axis ofValues(String name, List<Double> values) {
                return new Axis(name, List.of(), values);
            }

            /** An axis of buckets. */
            public static Axis ofBuckets(String name, List<Double> edges) {
                return new Axis(name, edges, List.of());
            }

            /** Whether the axis is bucketed (else explicit values). */
            public boolean bucketed() {
                return !edges.isEmpty();
            }

            /** The number of levels. */
            public int levelCount() {
                return bucketed() ? edges.size() - 1 : values.size();
            }

            /** The representative value of every level: bucket midpoints, or the values. */
            public List<Double> levels() {
                if (!bucketed()) {
                    return values;
                }
                ArrayList<Double> mids = new ArrayList<>();
                for (int i = 0; i + 1 < edges.size(); i++) {
                    mids.add(edges.get(i) / 2 + edges.get(i + 1) / 2);
                }
                return mids;
            }

            /** The smallest and largest representable raw value. */
            public double min() {
                return bucketed() ? edges.get(0) : values.get(0);
            }

            public double max() {
                return bucketed() ? edges.get(edges.size() - 1) : values.get(values.size() - 1);
            }

            /** The largest absolute value of a level. */
            public double maxAbsLevel() {
                double m = 0;
                for (double v : levels()) {
                    m = Math.max(m, Math.abs(v));
                }
                return m;
            }

            /**
             * The level of a raw value, or −1 if it is outside the axis (see the record comment). A single value
             * accepts itself up to a relative 1e-9.
             */
            public int levelOf(double v) {
                if (!Double.isFinite(v)) {
                    return -1;
                }
                if (bucketed()) {
                    if (v < edges.get(0) || v > edges.get(edges.size() - 1)) {
                        return -1;
                    }
                    int lo = 0;
                    int hi = edges.size() - 2;
                    while (lo < hi) {
                        int mid = (lo + hi + 1) >>> 1;
                        if (edges.get(mid) <= v) {
                            lo = mid;
                        } else {
                            hi = mid - 1;
                        }
                    }
                    return lo;
                }
                if (values.size() == 1) {
                    double only = values.get(0);
                    return Math.abs(v - only) <= 1e-9 * Math.max(1, Math.abs(only)) ? 0 : -1;
                }
                if (v < values.get(0) || v > values.get(values.size() - 1)) {
                    return -1;
                }
                int best = 0;
                for (int i = 1; i < values.size(); i++) {
                    if (Math.abs(values.get(i) - v) < Math.abs(values.get(best) - v)) {
                        best = i;
                    }
                }
                return best;
            }
        }
    }

    // ---- numeric means: a bounded scalar (family mean; docs/local-accuracy.md) ---------------------------------

    /**
     * A bounded scalar {@code v ∈ [lo, hi]} (family mean), represented on {@code levels} equally spaced levels
     * {@code lo + (hi − lo)·x/(levels − 1)}, {@code x = 0..levels−1} (the universe): a raw value is mapped to the
     * nearest level (the lower on a tie), so the represented value is within {@code (hi − lo)/(2(levels − 1))}
     * of the raw one. The default 1025 levels make {@code levels − 1} a power of two, which keeps the piecewise
     * mechanism's start rounding exact.
     *
     * @param lo the lower bound (finite, magnitude at most 1e12)
     * @param hi the upper bound ({@code > lo}, finite, magnitude at most 1e12)
     * @param levels the number of levels in {@code [2, 65536]}
     */
    record Range(double lo, double hi, int levels) implements Domain {
        /** The default number of levels. */
        public static final int DEFAULT_LEVELS = 1025;

        public Range {
            Domain.checkBounds("domain.range.", lo, hi, levels);
        }

        /** A range with {@link #DEFAULT_LEVELS}. */
        public static Range of(double lo, double hi) {
            return new Range(lo, hi, DEFAULT_LEVELS);
        }

        /** The value of level {@code x}. */
        public double valueOf(int x) {
            return x == levels - 1 ? hi : lo + (hi - lo) * x / (levels - 1);
        }

        /**
         * A bound on {@code |v − valueOf(levelOf(v))|} for every raw value {@code v ∈ [lo, hi]}: the device's rounding
         * to the nearest level is deterministic, so a mean of represented values can sit this far from the mean of the
         * raw values whatever n or ε. Half a level step, {@code (hi − lo)/(2(levels − 1))}, plus
         * {@code 8·ulp(max(|lo|, |hi|, hi − lo))} for the double arithmetic of {@link #levelOf} (its position
         * {@code (v − lo)/(hi − lo)·(levels − 1)} carries a relative error of at most 4 units in the last place, so the
         * chosen level is within half a step plus {@code 4·2^-53·(hi − lo)} of the raw value).
         */
        public double roundingBound() {
            double slack = 8 * Math.ulp(Math.max(Math.max(Math.abs(lo), Math.abs(hi)), hi - lo));
            return (hi - lo) / (2.0 * (levels - 1)) + slack;
        }

        /** The nearest level of a raw value (the lower on a tie), or −1 if it is not a number in {@code [lo, hi]}. */
        public int levelOf(double v) {
            if (!Double.isFinite(v) || v < lo || v > hi) {
                return -1;
            }
            double pos = (v - lo) / (hi - lo) * (levels - 1);
            int below = (int) Math.min(levels - 1, Math.floor(pos));
            return below < levels - 1 && pos - below > 0.5 ? below + 1 : below;
        }

        @Override
        public String kind() {
            return "range";
        }
    }

    // ---- open-domain heavy hitters: strings (family heavy-hitters; docs/heavy-hitters.md) ------------------------

    /**
     * An open domain of strings (family heavy-hitters): a device value is any string of 1 to {@code maxBytes}
     * UTF-8 bytes without the character U+0000. There is no universe: the values are never enumerated.
     *
     * @param maxBytes the longest value in UTF-8 bytes, in {@code [1, }{@value #MAX_BYTES}{@code ]}
     */
    record Strings(int maxBytes) implements Domain {
        /** The default {@code maxBytes}. */
        public static final int DEFAULT_MAX_BYTES = 16;
        /** The largest {@code maxBytes}. */
        public static final int MAX_BYTES = 64;

        public Strings {
            if (maxBytes < 1 || maxBytes > MAX_BYTES) {
                throw new InvalidWorkloadException("domain.strings.maxBytes", "must be in [1, " + MAX_BYTES + "], got "
                        + maxBytes);
            }
        }

        @Override
        public String kind() {
            return "strings";
        }
    }

    // ---- numeric means: a bounded vector (family mean; issue 13 §2) ---------------------------------------------

    /**
     * A bounded vector of named real coordinates (family mean): an ℓ2 {@link Ball} or a {@link Box}. A device value
     * is one real per coordinate, in declaration order; the answer is the mean vector, one labelled estimate per
     * coordinate. There is no universe: values are never enumerated.
     */
    sealed interface Vector extends Domain permits Ball, Box {
        /** The most coordinates a vector may have. */
        int MAX_DIMENSION = 256;
        /** The longest coordinate name, in UTF-8 bytes. */
        int MAX_NAME_BYTES = 64;

        /** The coordinate names, in value order (1 to {@value #MAX_DIMENSION}, distinct, non-blank). */
        List<String> coordinates();

        /** The number of coordinates. */
        default int dimension() {
            return coordinates().size();
        }

        /** The smallest value any one coordinate of a feasible vector can take. */
        double coordinateLo();

        /** The largest value any one coordinate of a feasible vector can take. */
        double coordinateHi();

        /** The field prefix of this kind in a workload file ({@code domain.ball.}, {@code domain.box.}). */
        default String field() {
            return "domain." + kind() + ".";
        }
    }

    /**
     * The ℓ2 ball {@code ‖v‖₂ <= radius} around the origin (family mean, mechanism privunit-g).
     *
     * @param coordinates the coordinate names (1 to 256, distinct, non-blank, single-line, at most 64 UTF-8 bytes)
     * @param radius the radius ({@code > 0}, finite, at most 1e12)
     */
    record Ball(List<String> coordinates, double radius) implements Vector {
        public Ball {
            coordinates = Domain.coordinates("domain.ball.coordinates", coordinates);
            if (!Double.isFinite(radius) || !(radius > 0) || radius > 1e12) {
                throw new InvalidWorkloadException("domain.ball.radius", "must be a finite number in (0, 1e12], got "
                        + radius);
            }
        }

        @Override
        public double coordinateLo() {
            return -radius;
        }

        @Override
        public double coordinateHi() {
            return radius;
        }

        @Override
        public String kind() {
            return "ball";
        }
    }

    /**
     * The box {@code [lo, hi]^d} (family mean, mechanisms duchi, piecewise, hybrid applied to sampled coordinates),
     * each coordinate discretised on {@code levels} equally spaced levels as a {@link Range}.
     *
     * @param coordinates the coordinate names (1 to 256, distinct, non-blank, single-line, at most 64 UTF-8 bytes)
     * @param lo the lower bound of every coordinate (finite, magnitude at most 1e12)
     * @param hi the upper bound of every coordinate ({@code > lo}, finite, magnitude at most 1e12)
     * @param levels the levels of each coordinate, in {@code [2, 65536]} (default {@link Range#DEFAULT_LEVELS})
     */
    record Box(List<String> coordinates, double lo, double hi, int levels) implements Vector {
        public Box {
            coordinates = Domain.coordinates("domain.box.coordinates", coordinates);
            Domain.checkBounds("domain.box.", lo, hi, levels);
        }

        @Override
        public double coordinateLo() {
            return lo;
        }

        @Override
        public double coordinateHi() {
            return hi;
        }

        @Override
        public String kind() {
            return "box";
        }
    }

    /**
     * The bounds and levels of a {@link Range} or a {@link Box} ({@code prefix} names the fields): {@code lo} and
     * {@code hi} finite of magnitude at most 1e12, {@code lo < hi}, levels in {@code [2, 65536]}.
     */
    private static void checkBounds(String prefix, double lo, double hi, int levels) {
        for (String f : new String[] {"lo", "hi"}) {
            double v = f.equals("lo") ? lo : hi;
            if (!Double.isFinite(v) || Math.abs(v) > 1e12) {
                throw new InvalidWorkloadException(prefix + f, "must be a finite number of magnitude at most 1e12, got "
                        + v);
            }
        }
        if (!(hi > lo)) {
            throw new InvalidWorkloadException(prefix + "hi", "must be greater than lo (" + lo + "), got " + hi);
        }
        if (levels < 2 || levels > 65536) {
            throw new InvalidWorkloadException(prefix + "levels", "must be in [2, 65536], got " + levels);
        }
    }

    /** The coordinate names of a vector domain: {@link #names} with at least one, at most 256, each bounded. */
    private static List<String> coordinates(String field, List<String> raw) {
        List<String> out = Domain.names(field, raw, 1);
        if (out.size() > Vector.MAX_DIMENSION) {
            throw new InvalidWorkloadException(field, "at most " + Vector.MAX_DIMENSION + " coordinates are supported,"
                    + " got " + out.size());
        }
        for (int i = 0; i < out.size(); i++) {
            int bytes = out.get(i).getBytes(StandardCharsets.UTF_8).length;
            if (bytes > Vector.MAX_NAME_BYTES) {
                throw new InvalidWorkloadException(field + "[" + i + "]", "must be at most " + Vector.MAX_NAME_BYTES
                        + " UTF-8 bytes, got " + bytes);
            }
        }
        return out;
    }

    private static List<String> names(String field, List<String> raw, int min) { // shared by Labels and Attributes
        if (raw == null) {
            throw new InvalidWorkloadException(field, "is required");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < raw.size(); i++) {
            String s = raw.get(i);
            if (s == null || Require.isBlank(s)) {
                throw new InvalidWorkloadException(field + "[" + i + "]", "must be a non-empty string, got " + s);
            }
            if (s.contains("\n")) {
                throw new InvalidWorkloadException(field + "[" + i + "]", "must be a single line, got \"" + s + "\"");
            }
            if (!seen.add(s)) {
                throw new InvalidWorkloadException(field + "[" + i + "]", "duplicate \"" + s + "\"");
            }
        }
        if (raw.size() < min) {
            throw new InvalidWorkloadException(field, "needs at least " + min + " " + (min == 1 ? "entry" : "entries")
                    + ", got " + raw.size());
        }
        return List.copyOf(raw);
    }
}

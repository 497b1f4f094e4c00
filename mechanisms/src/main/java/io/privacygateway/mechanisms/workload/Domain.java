package io.privacygateway.mechanisms.workload;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The values a device can hold, as declared in a workload file. Each kind validates itself at construction;
 * a violated rule is an {@link InvalidWorkloadException} naming the field as written in a workload file
 * ({@code domain.labels}, {@code domain.buckets[3]}, ...).
 */
public sealed interface Domain permits Domain.Labels, Domain.Buckets, Domain.Attributes, Domain.Points {

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
        /** The most binary attributes supported (a universe of 2^16 values). */
        public static final int MAX = 16;

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
                if (label == null || label.isBlank()) {
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
            answers = answers.stream().map(List::copyOf).toList();
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

    private static List<String> names(String field, List<String> raw, int min) { // shared by Labels and Attributes
        if (raw == null) {
            throw new InvalidWorkloadException(field, "is required");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < raw.size(); i++) {
            String s = raw.get(i);
            if (s == null || s.isBlank()) {
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

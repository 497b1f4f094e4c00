package io.privacygateway.mechanisms.workload;

import java.util.List;

/** The values a device can hold, as declared in a workload file. */
public sealed interface Domain permits Domain.Labels, Domain.Buckets, Domain.Attributes, Domain.Points {

    /** Unordered categories. */
    record Labels(List<String> labels) implements Domain {
        public Labels {
            labels = List.copyOf(labels);
        }
    }

    /**
     * Ordered numeric buckets with edges {@code e_0 < e_1 < ... < e_k}: bucket {@code i} holds values in
     * {@code [e_i, e_{i+1})}, the last bucket also holds {@code e_k}.
     */
    record Buckets(List<Double> edges) implements Domain {
        public Buckets {
            edges = List.copyOf(edges);
        }

        public int bucketCount() {
            return edges.size() - 1;
        }
    }

    /** Binary attributes; a value is a 0/1 vector in this order. */
    record Attributes(List<String> names) implements Domain {
        public Attributes {
            names = List.copyOf(names);
        }
    }

    /** Explicit answer vectors {@code Q(x)}, each with a label. */
    record Points(List<String> labels, List<List<Double>> answers) implements Domain {
        public Points {
            labels = List.copyOf(labels);
            answers = answers.stream().map(List::copyOf).toList();
        }
    }
}

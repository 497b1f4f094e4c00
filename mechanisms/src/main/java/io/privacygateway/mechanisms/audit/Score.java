package io.privacygateway.mechanisms.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A real-valued statistic of an output, fitted on training samples so that large values are typical of
 * the first input and small values of the second (the "classifier" of DP-Sniper, Bichsel et al., IEEE
 * S&amp;P 2021). Events are thresholds on a score. A score is fixed before the samples it is evaluated
 * on are drawn, so it is a fixed post-processing of the output as far as those samples are concerned.
 */
interface Score {
    double of(Observation o);

    /** The event {@code score ≥ t} (or {@code ≤ t}), in words. */
    String describe(double threshold, boolean above, IntFunction<String> featureName);

    /**
     * The scores fitted on training samples of both inputs (equal sample counts), and one per known
     * direction (oriented by the training means).
     */
    static List<Score> fit(Observation[] first, Observation[] second, int dimension, List<double[]> directions) {
        List<Score> out = new ArrayList<>();
        for (double[] d : directions) {
            out.add(new Linear(d.clone(), "known direction"));
        }
        Histogram h = Histogram.fit(first, second);
        if (h != null) {
            out.add(h);
        }
        out.addAll(Linear.fit(first, second, dimension));
        return out;
    }

    /**
     * The empirical log-likelihood ratio of the output itself ({@link Observation#key()}), for small
     * output spaces: {@code ln((c₁(y) + ½)/(c₂(y) + ½))}, 0 for outputs not seen in training.
     */
    record Histogram(Map<Long, Double> logRatio, Map<Long, String> labels) implements Score {
        /** Fitted only when the training samples show at most half as many distinct outputs as samples. */
        static Histogram fit(Observation[] first, Observation[] second) {
            Map<Long, long[]> counts = new HashMap<>();
            Map<Long, String> labels = new HashMap<>();
            int limit = Math.max(2, first.length / 2);
            for (int side = 0; side < 2; side++) {
                for (Observation o : side == 0 ? first : second) {
                    long[] c = counts.computeIfAbsent(o.key(), k -> new long[2]);
                    c[side]++;
                    labels.putIfAbsent(o.key(), o.keyLabel());
                    if (counts.size() > limit) {
                        return null;
                    }
                }
            }
            Map<Long, Double> lr = new HashMap<>();
            for (Map.Entry<Long, long[]> e : counts.entrySet()) {
                lr.put(e.getKey(), Math.log((e.getValue()[0] + 0.5) / (e.getValue()[1] + 0.5)));
            }
            return new Histogram(lr, labels);
        }

        @Override
        public double of(Observation o) {
            return logRatio.getOrDefault(o.key(), 0.0);
        }

        @Override
        public String describe(double threshold, boolean above, IntFunction<String> featureName) {
            List<Map.Entry<Long, Double>> in = new ArrayList<>();
            for (Map.Entry<Long, Double> e : logRatio.entrySet()) {
                if (above ? e.getValue() >= threshold : e.getValue() <= threshold) {
                    in.add(e);
                }
            }
            in.sort(Comparator.comparingDouble((Map.Entry<Long, Double> e) -> above ? -e.getValue() : e.getValue())
                    .thenComparing(e -> labels.get(e.getKey())));
            boolean unseen = above ? 0.0 >= threshold : 0.0 <= threshold;
            StringBuilder sb = new StringBuilder("output ∈ {");
            int shown = Math.min(in.size(), 4);
            for (int i = 0; i < shown; i++) {
                sb.append(i > 0 ? ", " : "").append(labels.get(in.get(i).getKey()));
            }
            if (in.size() > shown) {
                sb.append(", … ").append(in.size() - shown).append(" more");
            }
            sb.append('}');
            if (unseen) {
                sb.append(" or unseen in training");
            }
            return sb.toString();
        }
    }

    /**
     * A linear statistic {@code Σ_j w_j f_j} of the features.
     *
     * @param weights dense weights over the feature space
     * @param kind how the weights were chosen, in words
     */
    record Linear(double[] weights, String kind) implements Score {
        /** |z| a feature's mean difference must reach to enter the weighted score. */
        static final double SIGNIFICANT_Z = 3.0;

        /**
         * Two linear scores: the "naive Bayes" direction {@code w_j = (μ₁ⱼ − μ₂ⱼ)/σ²ⱼ} over the features whose
         * mean difference is significant ({@code |z| ≥ 3}), and the single most significant feature.
         */
        static List<Score> fit(Observation[] first, Observation[] second, int dimension) {
            double n = first.length;
            // two passes (means, then squared deviations) so that large offsets do not cancel the variance away
            double[][] mean = new double[2][dimension];
            for (int side = 0; side < 2; side++) {
                for (Observation o : side == 0 ? first : second) {
                    for (int i = 0; i < o.index().length; i++) {
                        mean[side][o.index()[i]] += o.value()[i] / n;
                    }
                }
            }
            double[][] sq = new double[2][dimension];
            for (int side = 0; side < 2; side++) {
                int[] seen = new int[dimension];
                for (Observation o : side == 0 ? first : second) {
                    for (int i = 0; i < o.index().length; i++) {
                        int j = o.index()[i];
                        double d = o.value()[i] - mean[side][j];
                        sq[side][j] += d * d;
                        seen[j]++;
                    }
                }
                for (int j = 0; j < dimension; j++) { // the observations where feature j was 0
                    sq[side][j] += (n - seen[j]) * mean[side][j] * mean[side][j];
                }
            }
            double[] diff = new double[dimension];
            double[] var = new double[dimension];
            double[] z = new double[dimension];
            double largest = 0;
            for (int j = 0; j < dimension; j++) {
                diff[j] = mean[0][j] - mean[1][j];
                var[j] = (sq[0][j] + sq[1][j]) / (2 * n);
                largest = Math.max(largest, Math.max(var[j], diff[j] * diff[j]));
            }
            double floor = Math.max(1e-300, 1e-12 * largest);
            int best = -1;
            for (int j = 0; j < dimension; j++) {
                z[j] = diff[j] == 0 ? 0 : diff[j] / Math.sqrt(Math.max(floor, 2 * var[j] / n));
                if (best < 0 || Math.abs(z[j]) > Math.abs(z[best])) {
                    best = j;
                }
            }
            List<Score> out = new ArrayList<>();
            if (best < 0 || z[best] == 0) {
                return out;
            }
            double[] w = new double[dimension];
            int used = 0;
            for (int j = 0; j < dimension; j++) {
                if (Math.abs(z[j]) >= SIGNIFICANT_Z) {
                    w[j] = diff[j] / Math.max(floor, var[j]);
                    used++;
                }
            }
            if (used > 1) {
                out.add(new Linear(w, "weighted"));
            }
            double[] single = new double[dimension];
            single[best] = Math.signum(diff[best]);
            out.add(new Linear(single, "single"));
            return out;
        }

        @Override
        public double of(Observation o) {
            return o.dot(weights);
        }

        @Override
        public String describe(double threshold, boolean above, IntFunction<String> featureName) {
            List<Integer> idx = new ArrayList<>();
            double max = 0;
            for (int j = 0; j < weights.length; j++) {
                if (weights[j] != 0) {
                    idx.add(j);
                    max = Math.max(max, Math.abs(weights[j]));
                }
            }
            idx.sort(Comparator.comparingDouble((Integer j) -> -Math.abs(weights[j])).thenComparing(j -> j));
            StringBuilder sb = new StringBuilder();
            int shown = Math.min(idx.size(), 3);
            for (int i = 0; i < shown; i++) {
                double w = weights[idx.get(i)] / max;
                sb.append(i == 0 ? (w < 0 ? "−" : "") : (w < 0 ? " − " : " + "));
                if (Math.abs(Math.abs(w) - 1) > 1e-9) {
                    sb.append(String.format("%.2f·", Math.abs(w)));
                }
                sb.append(featureName.apply(idx.get(i)));
            }
            if (idx.size() > shown) {
                sb.append(" + … (").append(idx.size() - shown).append(" more terms)");
            }
            return sb.append(above ? " ≥ " : " ≤ ").append(String.format("%.4g", threshold / max)).toString();
        }
    }
}

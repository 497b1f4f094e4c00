package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.random.RandomBits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The search phase of a row: on training outputs only, picks the candidate inputs, a {@link Score} and a
 * threshold whose event promises the largest lower bound in the test phase. Nothing chosen here uses the
 * test outputs, so the test phase's bounds hold whatever this search does.
 *
 * <p>Per candidate searched, a first batch of outputs of both inputs fits the scores ({@link Score#fit}); a second,
 * fresh batch evaluates every threshold {@code t} of every score, in both directions ({@code score ≥ t}
 * as typical of the first input, {@code score ≤ t} of the second), by the lower bound that batch itself
 * supports: {@code ln(W⁻(p̂_H)/W⁺(p̂_L))} with Wilson score bounds at the batch's size and the test
 * phase's z (a fast stand-in for Clopper–Pearson). Fitting and selecting on separate batches keeps an
 * over-fitted score (an output seen only once) from winning, and bounding at the batch's own size keeps
 * the many thresholds tried from favouring a rare event that was lucky in that batch.
 */
final class EventSearch {
    /** Thresholds tried per score: every distinct value up to this many, else this many quantiles. */
    static final int MAX_THRESHOLDS = 256;
    /** Candidates kept for the second stage of the search. */
    static final int FINALISTS = 2;

    private EventSearch() {}

    /**
     * The chosen event: {@code score ≥ threshold} when {@code above}, else {@code score ≤ threshold}; it was
     * chosen as typical of the first input exactly when {@code above}.
     */
    record Choice(NeighbouringInputs inputs, Score score, double threshold, boolean above, double promise) {
        boolean test(Observation o) {
            double s = score.of(o);
            return above ? s >= threshold : s <= threshold;
        }

        String describe(IntFunction<String> featureName) {
            return score.describe(threshold, above, featureName);
        }
    }

    /** A score that is the same for every output: its event {@code ≥ 0} is every output (ε̂ = 0). */
    private static final Score EVERYTHING = new Score() {
        @Override
        public double of(Observation o) {
            return 0;
        }

        @Override
        public String describe(double threshold, boolean above, IntFunction<String> featureName) {
            return "every output (no distinguishing event found in training)";
        }
    };

    /**
     * Two stages: every candidate is screened with {@link AuditSettings#screeningSize} outputs per input and
     * batch, then the {@value #FINALISTS} most promising are searched again on fresh, larger batches
     * ({@link AuditSettings#finalSize}); the best event of the second stage wins.
     */
    static Choice choose(List<NeighbouringInputs> candidates, AuditSettings settings, double z, RandomBits rng) {
        List<NeighbouringInputs> finalists = candidates;
        if (candidates.size() > FINALISTS) {
            int size = settings.screeningSize(candidates.size());
            List<Choice> screened = new ArrayList<>();
            for (NeighbouringInputs c : candidates) {
                screened.add(search(c, size, z, rng));
            }
            screened.sort(Comparator.comparingDouble(ch -> -ch.promise())); // stable: earlier candidates win ties
            finalists = new ArrayList<>();
            for (int i = 0; i < FINALISTS; i++) {
                finalists.add(screened.get(i).inputs());
            }
        }
        Choice best = null;
        for (NeighbouringInputs c : finalists) {
            Choice ch = search(c, settings.finalSize(), z, rng);
            if (best == null || ch.promise() > best.promise()) {
                best = ch;
            }
        }
        return best;
    }

    /** The best event for one candidate: fit on one batch, select on another. */
    private static Choice search(NeighbouringInputs c, int size, double z, RandomBits rng) {
        List<Score> scores = Score.fit(draw(c.onFirst(), size, rng), draw(c.onSecond(), size, rng), c.dimension(),
                c.directions());
        Observation[] selFirst = draw(c.onFirst(), size, rng);
        Observation[] selSecond = draw(c.onSecond(), size, rng);
        Choice best = new Choice(c, EVERYTHING, 0, true, Double.NEGATIVE_INFINITY);
        for (Score s : scores) {
            Choice ch = bestThreshold(c, s, selFirst, selSecond, z);
            if (ch != null && ch.promise() > best.promise()) {
                best = ch;
            }
        }
        return best;
    }

    static Observation[] draw(NeighbouringInputs.Sampler sampler, int count, RandomBits rng) {
        Observation[] out = new Observation[count];
        for (int i = 0; i < count; i++) {
            out[i] = sampler.sample(rng);
        }
        return out;
    }

    private static Choice bestThreshold(NeighbouringInputs c, Score s, Observation[] first, Observation[] second,
            double z) {
        double[] a = new double[first.length];
        double[] b = new double[second.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = s.of(first[i]);
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = s.of(second[i]);
        }
        Arrays.sort(a);
        Arrays.sort(b);
        double[] thresholds = thresholds(a, b);
        Choice best = null;
        for (double t : thresholds) {
            long aAbove = a.length - lowerBound(a, t);
            long bAbove = b.length - lowerBound(b, t);
            long aBelow = upperBound(a, t);
            long bBelow = upperBound(b, t);
            double up = promise(aAbove / (double) a.length, bAbove / (double) b.length, a.length, z);
            double down = promise(bBelow / (double) b.length, aBelow / (double) a.length, a.length, z);
            if (best == null || up > best.promise()) {
                best = new Choice(c, s, t, true, up);
            }
            if (down > best.promise()) {
                best = new Choice(c, s, t, false, down);
            }
        }
        return best;
    }

    /** Distinct pooled values, or {@value #MAX_THRESHOLDS} pooled quantiles when there are more. */
    private static double[] thresholds(double[] a, double[] b) {
        double[] pooled = new double[a.length + b.length];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        Arrays.sort(pooled);
        double[] distinct = new double[pooled.length];
        int d = 0;
        for (double v : pooled) {
            if (d == 0 || v != distinct[d - 1]) {
                distinct[d++] = v;
            }
        }
        if (d <= MAX_THRESHOLDS) {
            return Arrays.copyOf(distinct, d);
        }
        double[] q = new double[MAX_THRESHOLDS];
        for (int i = 0; i < MAX_THRESHOLDS; i++) {
            q[i] = pooled[(int) ((long) i * (pooled.length - 1) / (MAX_THRESHOLDS - 1))];
        }
        return q;
    }

    /** The bound these frequencies support at {@code n} samples: {@code ln(W⁻(high)/W⁺(low))}. */
    static double promise(double high, double low, long n, double z) {
        double lo = wilson(high, n, z, -1);
        double hi = wilson(low, n, z, +1);
        if (!(lo > 0) || !(hi > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        return Math.log(lo / hi);
    }

    private static double wilson(double p, long n, double z, int sign) {
        double z2n = z * z / n;
        double centre = (p + z2n / 2) / (1 + z2n);
        double half = z * Math.sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
        return Math.min(1, Math.max(0, centre + sign * half));
    }

    /** The number of entries of sorted {@code v} strictly below {@code t}. */
    private static int lowerBound(double[] v, double t) {
        int lo = 0;
        int hi = v.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (v[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The number of entries of sorted {@code v} at or below {@code t}. */
    private static int upperBound(double[] v, double t) {
        int lo = 0;
        int hi = v.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (v[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}

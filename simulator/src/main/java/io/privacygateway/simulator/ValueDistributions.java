package io.privacygateway.simulator;

import io.privacygateway.mechanisms.analytics.SyntheticWindows;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Value distributions for simulated devices.
 *
 * <ul>
 *   <li>{@link #zipf}: universe value {@code i} (in declaration order) with probability proportional to
 *       {@code 1/(i+1)^s}: a few popular labels or buckets and a long tail.
 *   <li>{@link #correlatedAttributes}: for marginals, binary attributes drawn as a chain: attribute 0 is 1
 *       with probability {@code p[0]}; attribute {@code j} copies attribute {@code j−1} with probability
 *       {@code ρ}, else is 1 with probability {@code p[j]}. Neighbouring attributes are positively
 *       correlated, so low-order marginals are far from independent.
 *   <li>{@link #categorical}: any weights over the universe.
 *   <li>{@link #defaultFor}: Zipf with {@code s = 1.1} over labels, buckets and points; correlated
 *       attributes with {@code p} falling from 0.7 to 0.2 and {@code ρ = 0.6} for marginals; for grids of features
 *       and a response (regression, erm) the public synthetic signal of {@code analytics.SyntheticWindows} with
 *       uniformly distributed features; for an open domain of strings (heavy-hitters) {@link #zipfStrings} over
 *       {@link #defaultStrings} with exponent {@link #DEFAULT_STRING_ZIPF_EXPONENT}.
 *   <li>vector means (family mean over a ball or a box; a vector written as comma-separated coordinates,
 *       {@link #vectorLine}): {@link #uniformBall}, {@link #skewedBall} (the default for a ball), {@link #bimodalBall},
 *       {@link #uniformBox} and {@link #skewedBox} (the default for a box).
 *   <li>{@link #zipfStrings}: string {@code i} of a list with probability proportional to {@code 1/(i+1)^s}
 *       (heavy-hitters: a few frequent strings and a long tail).
 * </ul>
 * Bucket values are drawn uniformly from the middle 90% of the bucket, so they encode to that bucket.
 */
public final class ValueDistributions {
    /** The Zipf exponent of {@link #defaultFor}. */
    public static final double DEFAULT_ZIPF_EXPONENT = 1.1;
    /** The copy probability of {@link #defaultFor} for attributes. */
    public static final double DEFAULT_CORRELATION = 0.6;

    private ValueDistributions() {}

    /**
     * The default distribution for a resolved workload (see the class comment); a wide central workload, whose
     * universe is never materialised, gets the default correlated attributes from its spec.
     */
    public static ValueDistribution defaultFor(ResolvedWorkload w) {
        if (w.spec().isWide()) {
            return correlatedAttributes(w.spec(), defaultAttributeProbabilities(w.spec()), DEFAULT_CORRELATION);
        }
        if (w.spec().domain() instanceof Domain.Strings st) { // heavy-hitters: an open domain, never materialised
            return zipfStrings(defaultStrings(st.maxBytes()), DEFAULT_STRING_ZIPF_EXPONENT);
        }
        if (w.spec().domain() instanceof Domain.Ball b) { // vector means: real vectors, never materialised
            return skewedBall(b);
        }
        if (w.spec().domain() instanceof Domain.Box b) {
            return skewedBox(b);
        }
        return defaultFor(w.workload());
    }

    // ---- vector means (family mean over a ball or a box) -------------------------------------------------------
    // A vector is written as a values file holds it: its coordinates in declaration order, comma-separated, each
    // in Double.toString's shortest exact form (the device parses the very double that was drawn).

    /** Writes a vector as a values-file line. */
    public static String vectorLine(double[] v) {
        StringBuilder b = new StringBuilder();
        for (int q = 0; q < v.length; q++) {
            if (q > 0) {
                b.append(',');
            }
            b.append(v[q] == 0 ? 0.0 : v[q]); // no "-0.0"
        }
        return b.toString();
    }

    /**
     * Uniform in the ball: a uniform direction (a normalised Gaussian vector) at radius {@code r·U^{1/d}}, so the
     * true mean is near the origin.
     */
    public static ValueDistribution uniformBall(Domain.Ball ball) {
        int d = ball.dimension();
        return rng -> {
            double[] v = gaussian(rng, d);
            scaleTo(v, ball.radius() * Math.pow(rng.nextDouble(), 1.0 / d) / norm(v));
            return vectorLine(inBall(v, ball.radius()));
        };
    }

    /**
     * Skewed around a direction: {@code μ + σ·g} with {@code μ} at 60% of the radius along a fixed direction whose
     * weights fall with the coordinate (1, 1/2, 1/3, ...), {@code σ = 0.15·radius} per coordinate, scaled back onto
     * the ball when it leaves it: a mean well away from the origin with a clear leading coordinate.
     */
    public static ValueDistribution skewedBall(Domain.Ball ball) {
        int d = ball.dimension();
        double[] mu = new double[d];
        for (int q = 0; q < d; q++) {
            mu[q] = 1.0 / (q + 1);
        }
        scaleTo(mu, 0.6 * ball.radius() / norm(mu));
        return around(ball, List.of(mu), 0.15);
    }

    /**
     * Bimodal: half the devices around {@code +0.5·radius} on the first coordinate, half around {@code −0.5·radius}
     * on the last (both with spread {@code 0.1·radius}), scaled back onto the ball when they leave it; the mean lies
     * between the modes, where few devices are.
     */
    public static ValueDistribution bimodalBall(Domain.Ball ball) {
        int d = ball.dimension();
        double[] a = new double[d];
        double[] b = new double[d];
        a[0] = 0.5 * ball.radius();
        b[d - 1] = -0.5 * ball.radius();
        return around(ball, List.of(a, b), 0.1);
    }

    private static ValueDistribution around(Domain.Ball ball, List<double[]> modes, double spread) {
        int d = ball.dimension();
        List<double[]> copy = modes.stream().map(double[]::clone).toList();
        return rng -> {
            double[] mu = copy.get(copy.size() == 1 ? 0 : rng.nextInt(copy.size()));
            double[] v = gaussian(rng, d);
            for (int q = 0; q < d; q++) {
                v[q] = mu[q] + spread * ball.radius() * v[q];
            }
            return vectorLine(inBall(v, ball.radius()));
        };
    }

    /** Uniform in the box: every coordinate uniform in {@code [lo, hi]}, independently. */
    public static ValueDistribution uniformBox(Domain.Box box) {
        int d = box.dimension();
        return rng -> {
            double[] v = new double[d];
            for (int q = 0; q < d; q++) {
                v[q] = Math.min(box.hi(), box.lo() + (box.hi() - box.lo()) * rng.nextDouble());
            }
            return vectorLine(v);
        };
    }

    /**
     * Skewed in the box: coordinate {@code q} a right-skewed gamma(2) bump whose mode sits at
     * {@code (q + 1)/(d + 2)} of the way from lo to hi, clamped into the box: every coordinate has a different mean,
     * none at the centre.
     */
    public static ValueDistribution skewedBox(Domain.Box box) {
        int d = box.dimension();
        double width = box.hi() - box.lo();
        return rng -> {
            double[] v = new double[d];
            for (int q = 0; q < d; q++) {
                double scale = width * (q + 1) / (d + 2.0);
                // gamma(2, scale/... ) as the sum of two exponentials with mean scale/2 each: mode scale/2, mean scale
                double g = -0.5 * scale * (Math.log(1 - rng.nextDouble()) + Math.log(1 - rng.nextDouble()));
                v[q] = Math.max(box.lo(), Math.min(box.hi(), box.lo() + g));
            }
            return vectorLine(v);
        };
    }

    private static double[] gaussian(RandomGenerator rng, int d) {
        double[] v = new double[d];
        double n;
        do {
            for (int q = 0; q < d; q++) {
                v[q] = rng.nextGaussian();
            }
            n = norm(v);
        } while (n == 0);
        return v;
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    private static void scaleTo(double[] v, double factor) {
        for (int q = 0; q < v.length; q++) {
            v[q] *= factor;
        }
    }

    /** {@code v} scaled back onto the ball (with a margin of rounding) when its norm exceeds the radius. */
    private static double[] inBall(double[] v, double radius) {
        double n = norm(v);
        double limit = radius * (1 - 1e-9);
        if (n > limit) {
            scaleTo(v, limit / n);
        }
        return v;
    }

    private static double[] defaultAttributeProbabilities(WorkloadSpec s) {
        int d = ((Domain.Attributes) s.domain()).names().size();
        double[] p = new double[d];
        for (int j = 0; j < d; j++) {
            p[j] = d == 1 ? 0.5 : 0.7 - 0.5 * j / (d - 1);
        }
        return p;
    }

    /** The default distribution for a workload's domain (see the class comment). */
    public static ValueDistribution defaultFor(Workload w) {
        if (w.spec().domain() instanceof Domain.Attributes) {
            return correlatedAttributes(w, defaultAttributeProbabilities(w.spec()), DEFAULT_CORRELATION);
        }
        if (w.spec().domain() instanceof Domain.Range r) { // mean: a right-skewed bump (a gamma(2) shape) at ~1/8 of the range
            double[] weights = new double[r.levels()];
            double scale = (r.levels() - 1) / 16.0;
            for (int x = 0; x < weights.length; x++) {
                weights[x] = (x / scale) * Math.exp(-x / scale) + 1e-3;
            }
            return categorical(w, weights);
        }
        if (w.spec().domain() instanceof Domain.Grid) { // regression and erm: a linear or logistic signal
            return categorical(w, SyntheticWindows.frequencies(w,
                    ReferenceData.UNIFORM));
        }
        return zipf(w, DEFAULT_ZIPF_EXPONENT);
    }

    /** App names used by {@link #defaultStrings} (all ASCII). */
    static final List<String> APP_NAMES = List.of("mail", "maps", "camera", "chat", "music", "photos", "browser",
            "weather", "calendar", "notes", "clock", "files", "podcasts", "news", "wallet", "fitness", "keyboard",
            "settings", "contacts", "video", "books", "health", "stocks", "compass", "translate", "recorder",
            "calculator", "reminders", "shortcuts", "magnifier", "voice-memos", "app-store");

    /**
     * {@link #DEFAULT_STRING_COUNT} distinct strings of at most {@code maxBytes} bytes: the app names of
     * {@link #APP_NAMES} that fit, then identifiers {@code id-<n>} in base 36 (or bare base-36 digits when the prefix
     * does not fit; fewer strings when even those run out, at most 36 for one byte).
     */
    public static List<String> defaultStrings(int maxBytes) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String a : APP_NAMES) {
            if (a.length() <= maxBytes) {
                out.add(a);
            }
        }
        for (int i = 0; out.size() < DEFAULT_STRING_COUNT; i++) {
            String id = "id-" + Integer.toString(i, 36);
            String bare = Integer.toString(i, 36);
            if (id.length() <= maxBytes) {
                out.add(id);
            } else if (bare.length() <= maxBytes) {
                out.add(bare);
            } else {
                break;
            }
        }
        return List.copyOf(out);
    }

    /** How many strings {@link #defaultStrings} returns when they fit. */
    public static final int DEFAULT_STRING_COUNT = 32;
    /**
     * The Zipf exponent of the default strings: a heavier head than labels' (the first string holds about 45%, the
     * second 16%), as crash signatures and app launches have, so a window of a few thousand reports has heavy hitters
     * above the protocol's threshold.
     */
    public static final double DEFAULT_STRING_ZIPF_EXPONENT = 1.5;

    /**
     * Zipf over a list of strings: string {@code i} with probability proportional to {@code 1/(i+1)^s}, exponent
     * {@code s >= 0} (0 = uniform). The strings are returned as they are (a heavy-hitters workload checks them).
     */
    public static ValueDistribution zipfStrings(List<String> strings, double s) {
        if (!(s >= 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException("the Zipf exponent must be a finite number >= 0, got " + s);
        }
        if (strings.isEmpty()) {
            throw new IllegalArgumentException("zipfStrings needs at least one string");
        }
        List<String> copy = List.copyOf(strings);
        double[] cumulative = new double[copy.size()];
        double sum = 0;
        for (int i = 0; i < cumulative.length; i++) {
            sum += 1.0 / Math.pow(i + 1, s);
            cumulative[i] = sum;
        }
        double total = sum;
        return rng -> {
            double u = rng.nextDouble() * total;
            int i = Arrays.binarySearch(cumulative, u);
            i = i >= 0 ? i + 1 : -i - 1;
            return copy.get(Math.min(i, copy.size() - 1));
        };
    }

    /** Zipf over the universe in declaration order, exponent {@code s >= 0} (0 = uniform). */
    public static ValueDistribution zipf(Workload w, double s) {
        if (!(s >= 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException("the Zipf exponent must be a finite number >= 0, got " + s);
        }
        double[] weights = new double[w.universeSize()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = 1.0 / Math.pow(i + 1, s);
        }
        return categorical(w, weights);
    }

    /**
     * Universe value {@code i} with probability {@code weights[i] / Σ weights}.
     *
     * @throws IllegalArgumentException unless there is one finite, non-negative weight per universe value
     *     and their sum is positive
     */
    public static ValueDistribution categorical(Workload w, double[] weights) {
        if (weights.length != w.universeSize()) {
            throw new IllegalArgumentException("expected " + w.universeSize() + " weights (one per universe value), got "
                    + weights.length);
        }
        double[] cumulative = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("weight " + i + " must be finite and >= 0, got " + weights[i]);
            }
            sum += weights[i];
            cumulative[i] = sum;
        }
        if (!(sum > 0)) {
            throw new IllegalArgumentException("the weights sum to 0");
        }
        double total = sum;
        return rng -> {
            double u = rng.nextDouble() * total;
            int i = Arrays.binarySearch(cumulative, u);
            i = i >= 0 ? i + 1 : -i - 1; // first index with cumulative > u
            while (i < cumulative.length - 1 && weights[i] == 0) {
                i++;
            }
            return rawValue(w, Math.min(i, cumulative.length - 1), rng);
        };
    }

    /**
     * Correlated binary attributes (marginals workloads; see the class comment).
     *
     * @param p per attribute, the probability that it is 1 when it does not copy its predecessor
     * @param rho the probability that attribute {@code j >= 1} copies attribute {@code j − 1}
     */
    public static ValueDistribution correlatedAttributes(Workload w, double[] p, double rho) {
        return correlatedAttributes(w.spec(), p, rho);
    }

    /** {@link #correlatedAttributes(Workload, double[], double)} from the spec alone (wide workloads too). */
    public static ValueDistribution correlatedAttributes(WorkloadSpec s,
            double[] p, double rho) {
        if (!(s.domain() instanceof Domain.Attributes a)) {
            throw new IllegalArgumentException("workload " + s.id() + " has no attributes domain");
        }
        int d = a.names().size();
        if (p.length != d) {
            throw new IllegalArgumentException("expected " + d + " attribute probabilities, got " + p.length);
        }
        for (double q : p) {
            if (!(q >= 0 && q <= 1)) {
                throw new IllegalArgumentException("attribute probabilities must lie in [0, 1], got " + q);
            }
        }
        if (!(rho >= 0 && rho <= 1)) {
            throw new IllegalArgumentException("rho must lie in [0, 1], got " + rho);
        }
        double[] probs = p.clone();
        return rng -> {
            StringBuilder sb = new StringBuilder(2 * d);
            boolean prev = false;
            for (int j = 0; j < d; j++) {
                boolean bit = j > 0 && rng.nextDouble() < rho ? prev : rng.nextDouble() < probs[j];
                if (j > 0) {
                    sb.append(',');
                }
                sb.append(bit ? '1' : '0');
                prev = bit;
            }
            return sb.toString();
        };
    }

    /**
     * A raw value that encodes to universe value {@code x}: its label (labels, points), a number in the
     * middle 90% of its bucket (buckets), or its 0/1 attributes.
     */
    public static String rawValue(Workload w, int x, RandomGenerator rng) {
        Domain d = w.spec().domain();
        if (d instanceof Domain.Buckets b) {
            List<Double> e = b.edges();
            double lo = e.get(x);
            double hi = e.get(x + 1);
            return Double.toString(lo + (hi - lo) * (0.05 + 0.9 * rng.nextDouble()));
        }
        return w.universeLabel(x); // labels and points: the label; attributes: "b0,b1,..." as encode reads it
    }
}

package io.privacygateway.mechanisms.local.heavy;

import io.privacygateway.mechanisms.coins.SipHash24;
import io.privacygateway.mechanisms.linalg.WalshHadamard;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The gateway half of a {@link HeavyHitterProtocol}: the estimate of item shares from the exact sketch aggregate and
 * the decoder that finds the heavy items (the candidate search), reading the protocol's public parameters and hashes.
 *
 * <p><b>Estimate.</b> {@code T = WHT(s[g][r])} (exact, integers): {@code T[c]/a}, {@code a = 2^t π − 1}, is an
 * unbiased count of the row's reports whose bucket is {@code c}. A prefix {@code p} of level {@code g} scores
 * {@code S_g(p) = W/(W−1) Σ_r (T_{g,r}[h_{g,r}(p)]/a − n[g][r]/W)} (the count-mean-sketch correction for
 * the expected collisions), and its share is {@code S_g(p)/N_g}, {@code N_g = Σ_r n[g][r]}. From level
 * {@code g_x = min(⌊|x|/b⌋, G − 1)} on, the padded prefix of an item {@code x} holds a padding byte (or is the whole
 * of a full-length item), so no other item shares it and the item's share is the same at every level
 * {@code g >= g_x}; its estimate pools those levels: {@code Σ_{g>=g_x} S_g / Σ_{g>=g_x} N_g}.
 *
 * <p><b>Decode.</b> Level 0 scores every valid first segment ({@code 256^b} at most); the next level extends each
 * kept prefix by every valid segment. An unfinished prefix is kept when its share clears {@code z·σ} with
 * {@code z} the normal quantile of {@code (T/4)/M_g} ({@code M_g} the prefixes scored at the level: about
 * {@code T/4} false prefixes per level in expectation, which only cost work); a whole item (a prefix ending in
 * padding, or any prefix of the last level) is scored pooled and kept when it clears the quantile of
 * {@code 0.05/M_g} (a Bonferroni bound on false reports). Candidates are then taken heaviest first and re-scored on
 * the cells not claimed by a heavier one (the selection below); at most {@code T} per level. The kept whole items of
 * the last level are the output.
 *
 * <p>Immutable and thread-safe (every estimate works on its own per-window state).
 */
public final class HeavyHitterEstimator {
    /** The expected number of false whole items allowed per level (Bonferroni): what can reach the output. */
    static final double FALSE_ITEMS_PER_LEVEL = 0.05;
    /**
     * The expected number of false unfinished prefixes allowed per level, as a share of {@code T}: they cannot be
     * reported (their extensions must clear the later levels), they only cost decode work and candidate slots.
     */
    static final double FALSE_PREFIX_SHARE_OF_T = 0.25;
    /** The margin, in standard deviations, added to the estimated collision mass {@code Σ f²}. */
    static final double COLLISION_MASS_MARGIN = 3;

    private final HeavyHitterProtocol protocol;
    private final HeavyHitterParameters params;
    private final int levels;
    private final int rows;
    private final int width;
    private final int b;
    private final int paddedBytes;
    private final int bits;
    private final int symbols;
    private final double pi;

    /** The estimator of {@code protocol}. */
    public HeavyHitterEstimator(HeavyHitterProtocol protocol) {
        this.protocol = Require.nonNull("protocol", protocol);
        this.params = protocol.parameters();
        this.levels = protocol.levels;
        this.rows = protocol.rows;
        this.width = protocol.width;
        this.b = protocol.b;
        this.paddedBytes = protocol.paddedBytes;
        this.bits = protocol.bits;
        this.symbols = protocol.symbols;
        this.pi = protocol.pi;
    }

    /** The device protocol estimated. */
    public HeavyHitterProtocol protocol() {
        return protocol;
    }

    private Epsilon epsilon() {
        return protocol.epsilon();
    }

    private int countIndex(int g, int r) {
        return protocol.countIndex(g, r);
    }

    private int rowStart(int g, int r) {
        return protocol.rowStart(g, r);
    }

    private void checkState(long[] state) {
        protocol.checkState(state);
    }

    private SipHash24.State header(int level, int row) {
        return protocol.header(level, row);
    }

    private int bucket(int level, int row, byte[] padded) {
        return protocol.bucket(level, row, padded);
    }

    private byte[] paddedItem(String item) throws InvalidValueException {
        return protocol.paddedItem(item);
    }

    /** {@code a = 2^t·π − 1}: the expected normalised contribution of a report to its own bucket. */
    private double signal() {
        return symbols * pi - 1;
    }

    /**
     * {@code V₀ = (2^t − 1)/a²}: the variance of one report's normalised contribution to a bucket that is not its
     * own ({@code docs/heavy-hitters.md}, "Error bars"). The estimator and the planner's prediction both use it.
     */
    public double otherBucketReportVariance() {
        double a = signal();
        return (symbols - 1) / (a * a);
    }

    /**
     * The whole-item threshold's multiple of {@code σ(0)} on a level that scores {@code scored >= 1} prefixes: the
     * upper normal quantile of {@code 0.05/scored} (at most 0.05 false items per level in expectation; the
     * estimator and the planner's prediction both use it).
     */
    public static double wholeItemQuantile(double scored) {
        return NormalQuantile.upper(Math.min(0.5, FALSE_ITEMS_PER_LEVEL / scored));
    }

    /** {@code V₁ = 4^t·π(1 − π)/a²}: the same for the report's own bucket. */
    public double ownBucketReportVariance() {
        double a = signal();
        return (double) symbols * symbols * pi * (1 - pi) / (a * a);
    }

    /** The per-window quantities of the estimate, one instance per call. */
    private final class Window {
        final long n;
        final double a = signal();
        /** Per-report variance of a bucket's normalised statistic: the report's bucket is another one / this one. */
        final double v0 = otherBucketReportVariance();
        final double v1 = ownBucketReportVariance();
        final double kappa = width / (width - 1.0);
        final long[][] t = new long[levels * rows][];
        final long[] levelReports = new long[levels];
        final double[] collisionMass = new double[levels]; // upper estimate of Σ f² per level

        Window(long[] state, long n, long[] counts) {
            this.n = n;
            this.rowCounts = counts;
            long total = 0;
            for (int g = 0; g < levels; g++) {
                for (int r = 0; r < rows; r++) {
                    long count = state[countIndex(g, r)];
                    if (count < 0 || count > n) {
                        throw new IllegalArgumentException("state: a report count is negative or above n");
                    }
                    long[] row = Arrays.copyOfRange(state, rowStart(g, r), rowStart(g, r) + width);
                    long limit = (symbols - 1) * count;
                    long abs = 0;
                    long sum = 0;
                    for (long v : row) {
                        if (v < -limit || v > limit) {
                            throw new IllegalArgumentException("state: a sign sum exceeds its row's report count");
                        }
                        abs += Math.abs(v);
                        sum += v;
                        if (abs > limit) {
                            throw new IllegalArgumentException("state: a row's sign sums exceed its report count");
                        }
                    }
                    // Σ_j s_j = 2^t·#{y = 0} − count: a multiple of 2^t minus the count, and at least −count
                    if (Math.floorMod(sum + count, (long) symbols) != 0 || sum + count < 0) {
                        throw new IllegalArgumentException("state: a row's sign sum does not match its report count");
                    }
                    WalshHadamard.transform(row);
                    t[g * rows + r] = row;
                    levelReports[g] += count;
                    total += count;
                }
            }
            if (total != n) {
                throw new IllegalArgumentException("state holds " + total + " reports, not n = " + n);
            }
            for (int g = 0; g < levels; g++) {
                collisionMass[g] = collisionMassUpper(g);
            }
        }

        /**
         * An upper estimate of {@code Σ_q f_q²} over the level's prefixes, from the sketch itself. Parseval:
         * {@code Σ_c t[c]² = W Σ_j s_j²}; with {@code Ĉ = t/a}, {@code E Σ_c Ĉ_c² = Σ_c B_c² + W n_r/a² − n_r}
         * ({@code B_c} the row's true bucket counts); {@code E Σ_c B_c² = (1 − 1/W) Σ_q c_q² + n_r²/W} over a
         * random hash; {@code E Σ_q c_q² = n_r² Σf² + n_r (1 − Σf²)}. The estimate plus
         * {@link #COLLISION_MASS_MARGIN} approximate standard deviations, clipped to {@code [0, 1]}.
         */
        private double collisionMassUpper(int g) {
            double num = 0;
            double den = 0;
            double var = 0;
            for (int r = 0; r < rows; r++) {
                double nr = levelRowCount(g, r);
                double sumSq = 0;
                for (long v : t[g * rows + r]) {
                    sumSq += (double) v * v;
                }
                double bucketSq = sumSq / (a * a) - nr * ((width - 1) * v0 + v1);
                double pairs = (bucketSq - nr * nr / width) * kappa;
                num += pairs - nr;
                den += nr * nr - nr;
                double v = nr * v0;
                var += kappa * kappa * (2.0 * width * v * v + 4 * v * Math.max(0, bucketSq));
            }
            if (den <= 0) {
                return 1;
            }
            double est = num / den + COLLISION_MASS_MARGIN * Math.sqrt(var) / den;
            return Math.min(1, Math.max(0, est));
        }

        private final long[] rowCounts;

        long levelRowCount(int g, int r) {
            return rowCounts[g * rows + r];
        }

        /** A cell's debiased count {@code t[c]/(2π−1) − n_{g,r}/W} (before the factor κ). */
        double cell(int g, int r, int bucket) {
            return t[g * rows + r][bucket] / a - levelRowCount(g, r) / (double) width;
        }

        /** A pool whose collision term uses the level's whole upper estimate of {@code Σf²}. */
        Pool pool() {
            return new Pool(this, collisionMass, new double[levels]);
        }

        /**
         * A pool whose collision term uses {@code mass[g]} for level {@code g}: a residual mass when heavier accepted
         * candidates' cells are left out ({@link #select}), or zeros for the randomizer's noise alone.
         */
        Pool pool(double[] mass) {
            return new Pool(this, mass, new double[levels]);
        }

        /**
         * A pool of cells that hold none of the accepted candidates, whose estimated shares on level {@code g} add
         * up to {@code acceptedShare[g]}: the background subtracted from a cell is {@code (1 − A_g)·n_{g,r}/W}.
         */
        Pool pool(double[] mass, double[] acceptedShare) {
            return new Pool(this, mass, acceptedShare);
        }

        int width() {
            return width;
        }
    }

    /**
     * A share pooled over a set of cells {@code (g, r)} (each with the prefix's bucket there):
     * {@code f̂ = κ Σ cell / M}, {@code M = Σ n_{g,r}}. Its variance is the randomizer's
     * {@code κ² ((1 − f) V₀ + f V₁)/M} (exact per report: {@code V₀ = (2^t − 1)/a²} when the report's bucket is
     * another one, {@code V₁ = 4^t π(1 − π)/a²} when it is this one), the sampling of reports {@code f(1−f)(1/M − 1/n)}, and the collision term over a
     * random hash key {@code Σ n_{g,r}² Σf²_g / ((W − 1) M²)} with the level's upper estimate of {@code Σf²}.
     */
    static final class Pool {
        private final Window w;
        private final double[] mass;
        /** {@code Σ n_{g,r}²} over the pooled cells of each level. */
        private final double[] squaredCounts;
        private double sum;
        private double m;

        private final double[] acceptedShare;

        Pool(Window w, double[] mass, double[] acceptedShare) {
            this.w = w;
            this.mass = mass;
            this.acceptedShare = acceptedShare;
            this.squaredCounts = new double[mass.length];
        }

        void add(long cellKey) {
            add((int) (cellKey >>> 48), (int) ((cellKey >>> 32) & 0xFFFF), (int) cellKey);
        }

        void add(int g, int r, int bucket) {
            double nr = w.levelRowCount(g, r);
            sum += w.cell(g, r, bucket) + acceptedShare[g] * nr / w.width();
            m += nr;
            squaredCounts[g] += nr * nr;
        }

        boolean isEmpty() {
            return m == 0;
        }

        double share() {
            return w.kappa * sum / m;
        }

        /**
         * The collision term {@code Σ_g Σ n_{g,r}² max(0, mass[g] − own) / ((W − 1) M²)}: {@code own} is a lower
         * bound of the pooled string's own {@code f²}, which is part of the level's mass but cannot collide with
         * the string itself.
         */
        private double collision(double own) {
            double c = 0;
            for (int g = 0; g < squaredCounts.length; g++) {
                if (squaredCounts[g] > 0) {
                    c += squaredCounts[g] * Math.max(0, mass[g] - own);
                }
            }
            return c / ((w.width() - 1.0) * m * m);
        }

        double nullVariance() {
            return w.kappa * w.kappa * w.v0 / m + collision(0);
        }

        double variance(double f) {
            return variance(f, 0);
        }

        /** The variance of the share when the string's own {@code f²} is at least {@code own}. */
        double variance(double f, double own) {
            double fc = Math.min(1, Math.max(0, f));
            double noise = w.kappa * w.kappa * ((1 - fc) * w.v0 + fc * w.v1) / m;
            double sampling = fc * (1 - fc) * Math.max(0, 1 / m - 1.0 / w.n);
            return noise + sampling + collision(own);
        }
    }

    /**
     * Server side: the heavy hitters of a window of {@code n} accepted reports. Level by level, the accepted
     * prefixes are extended and their extensions scored; the whole items found so far are judged again on every
     * later level beside the new candidates ({@link #select}, with the cells of the earlier levels' accepted
     * prefixes claimed), and the answer is a last judgement of all of them with every accepted prefix's cells
     * claimed ({@code docs/heavy-hitters.md}, "Decode and threshold").
     *
     * @throws IllegalArgumentException if the state has the wrong length, does not hold exactly {@code n}
     *     reports, is inconsistent (a sign sum larger than its row's count) or {@code n} is outside
     *     {@code [1, 2^54]}
     */
    public HeavyHitterEstimate estimate(long[] state, long n) {
        Window w = window(state, n);
        for (int g = 0; g < levels; g++) {
            if (w.levelReports[g] == 0) {
                return new HeavyHitterEstimate(List.of(), 1, n, params.epsilon());
            }
        }
        double[] noiseOnly = new double[levels];
        double[] zWholeAt = new double[levels]; // 0 for a level not reached
        List<Scored> wholes = new ArrayList<>(); // every whole item that cleared the noise on its first level
        List<Accepted> prefixes = new ArrayList<>(); // the accepted prefixes of the levels so far
        List<Selected> parents = List.of(new Selected(new byte[0], 1, 0));
        for (int g = 0; g < levels && !parents.isEmpty(); g++) {
            long evaluated = countExtensions(parents, g);
            if (evaluated == 0) {
                break;
            }
            zWholeAt[g] = wholeItemQuantile(evaluated);
            double zPrefix = NormalQuantile.upper(Math.min(0.5, params.candidates() * FALSE_PREFIX_SHARE_OF_T / evaluated));
            List<Scored> passing = new ArrayList<>();
            extend(w, g, parents, zPrefix, zWholeAt[g], noiseOnly, passing);
            // the whole items of the earlier levels are judged again beside the new candidates: a heavy string
            // found on this level takes its cells before the strings that only looked heavy by colliding with it
            List<Scored> candidates = new ArrayList<>(passing);
            candidates.addAll(wholes);
            Claims levelClaims = new Claims(w.collisionMass);
            for (Accepted a : prefixes) {
                levelClaims.claim(a);
            }
            List<Selected> next = new ArrayList<>();
            List<Accepted> levelPrefixes = new ArrayList<>();
            for (Accepted a : select(w, candidates, levelClaims)) {
                if (!a.candidate().whole()) {
                    levelPrefixes.add(a);
                    next.add(new Selected(a.candidate().prefix(), a.share(), a.standardError()));
                }
            }
            prefixes.addAll(levelPrefixes);
            for (Scored c : passing) {
                if (c.whole()) {
                    wholes.add(c);
                }
            }
            parents = next;
        }
        // The whole items of every level compete a last time, heaviest first, with the cells of every accepted
        // prefix claimed and their mass left out: a string is judged with what is known of all the levels it pools.
        Claims claims = new Claims(w.collisionMass);
        for (Accepted a : prefixes) {
            claims.claim(a);
        }
        List<Accepted> reported = settle(w, select(w, wholes, claims), prefixes);
        List<HeavyHitterEstimate.Item> items = new ArrayList<>();
        for (Accepted a : reported) {
            byte[] p = a.candidate().prefix();
            items.add(new HeavyHitterEstimate.Item(decodeUtf8(p, itemLength(p)), a.share(), a.standardError()));
        }
        // what an item of the maximum length must clear on one level, with the accepted candidates left out
        double floor = 0;
        for (int g = 0; g < levels; g++) {
            if (zWholeAt[g] > 0) {
                Pool full = w.pool(claims.residual, claims.acceptedShare);
                for (int r = 0; r < rows; r++) {
                    full.add(g, r, 0);
                }
                floor = Math.max(floor, zWholeAt[g] * Math.sqrt(full.nullVariance()));
            }
        }
        items.sort(Comparator.comparingDouble((HeavyHitterEstimate.Item i) -> -i.share())
                .thenComparing(HeavyHitterEstimate.Item::value));
        return new HeavyHitterEstimate(items, floor, n, params.epsilon());
    }

    /** A kept candidate with its (collision-aware) share and standard error. */
    private record Selected(byte[] prefix, double share, double standardError) {}

    /**
     * The collision-aware choice of a level's candidates. A false prefix whose bucket collides, in one row, with a
     * much heavier prefix inherits that prefix's count in that row: the collision term is heavy-tailed, not normal,
     * and a normal threshold alone lets such prefixes through. So the candidates that cleared the randomizer's
     * noise on all their cells are taken heaviest first (by {@code min(share, parent's share)}); each is re-scored
     * on the cells that no accepted candidate has claimed; if that score puts it behind the next candidate it waits
     * for its turn again (the candidates it collides with may still be accepted and claim those cells), otherwise
     * it is kept if it clears the threshold of its free cells, and then claims its cells. At most {@code T}
     * prefixes and {@code T} whole items are kept.
     *
     * <p>Free cells hold no accepted candidate, so only the other prefixes can collide there ({@link Claims}):
     * the collision term uses the residual mass, the level's upper estimate of {@code Σf²} less, for every accepted
     * candidate with cells on that level, the square of the share it has proven beyond its own threshold
     * ({@code max(0, f̂ − z·σ̂)}), and the background subtracted from a free cell leaves the accepted candidates'
     * shares out. The residual stays an upper estimate of the mass of the prefixes not accepted (with the
     * probability of the thresholds). A kept candidate's error bar uses the residual less its own proven square
     * (a string does not collide with itself), iterated to a fixed point. {@code claims} is updated in place.
     */
    private List<Accepted> select(Window w, List<Scored> passing, Claims claims) {
        List<Accepted> out = new ArrayList<>();
        int wholesOut = 0;
        int prefixesOut = 0;
        PriorityQueue<Pending> queue = new PriorityQueue<>(Math.max(1, passing.size()), Pending.ORDER);
        for (Scored c : passing) {
            queue.add(new Pending(c, c.share(), -1));
        }
        int cap = params.candidates();
        while (!queue.isEmpty() && (wholesOut < cap || prefixesOut < cap)) {
            Pending next = queue.poll();
            Scored c = next.candidate();
            if ((c.whole() ? wholesOut : prefixesOut) >= cap) {
                continue;
            }
            Pool free = w.pool(claims.residual, claims.acceptedShare);
            for (long key : c.cells()) {
                if (!claims.cells.contains(key)) {
                    free.add(key);
                }
            }
            if (free.isEmpty()) {
                continue;
            }
            double share = free.share();
            if (share < c.z() * Math.sqrt(free.nullVariance())) {
                continue; // claims only grow: it would not clear its threshold later either
            }
            Pending rescored = new Pending(c, share, out.size());
            if (next.acceptedWhenScored() != out.size() && !queue.isEmpty()
                    && Pending.ORDER.compare(rescored, queue.peek()) > 0) {
                queue.add(rescored); // lighter than it looked: its turn comes after the candidates now ahead of it
                continue;
            }
            // the share proven beyond the threshold, f̂ − z·σ̂, bounds f from below; its square leaves the collision
            // term (a string does not collide with itself), which shrinks σ̂ and raises the bound: to a fixed point
            double proven = 0;
            double se = Math.sqrt(free.variance(share, 0));
            for (int i = 0; i < 32; i++) {
                double bound = Math.max(0, share - c.z() * se);
                if (bound <= proven * (1 + 1e-9)) {
                    break;
                }
                proven = bound;
                se = Math.sqrt(free.variance(share, proven * proven));
            }
            Accepted a = new Accepted(c, share, se, proven);
            out.add(a);
            if (c.whole()) {
                wholesOut++;
            } else {
                prefixesOut++;
            }
            claims.claim(a);
        }
        return out;
    }

    /** An accepted candidate: its share and standard error on its free cells, and the share proven beyond its threshold. */
    private record Accepted(Scored candidate, double share, double standardError, double proven) {}

    /**
     * The accepted candidates' cells and what they take out of each level: the cells no later candidate is scored
     * on, the residual collision mass ({@code Σf²} less the proven squares) and the estimated share of the accepted
     * candidates, which a free cell does not hold (so its expected background is {@code (1 − A_g)·n_{g,r}/W}, not
     * {@code n_{g,r}/W}: without this, a share scored beside a dominant string is low by {@code κ·f_dom/W}).
     */
    private static final class Claims {
        final Set<Long> cells = new HashSet<>();
        final double[] residual;
        final double[] acceptedShare;

        Claims(double[] collisionMass) {
            this.residual = collisionMass.clone();
            this.acceptedShare = new double[collisionMass.length];
        }

        /** Claims the candidate's cells, level by level (a candidate's cells run level by level, every row of each). */
        void claim(Accepted a) {
            int lastLevel = -1;
            for (long key : a.candidate().cells()) {
                cells.add(key);
                int g = (int) (key >>> 48);
                if (g != lastLevel) {
                    residual[g] = Math.max(0, residual[g] - a.proven() * a.proven());
                    acceptedShare[g] += Math.max(0, a.share());
                    lastLevel = g;
                }
            }
        }
    }

    /**
     * The last check of the reported strings, each against all the others. {@link #select} scores a string on the
     * cells no <em>heavier</em> accepted string holds; a string nobody holds whose every cell collides with accepted
     * strings (one in each row, none heavier than it looks) passes that test, and it cannot be told from a true one
     * by its own cells. So each string is scored again on the cells that no other accepted string (nor an accepted
     * prefix) holds, with the background and the residual mass of all the others left out. Of the strings left
     * with no such cell or below their threshold on them, the one with the least support is dropped, which frees
     * its cells and its mass for the others, and all are scored again, until every string clears its threshold.
     * The survivors' shares and error bars are those of their own cells.
     */
    private List<Accepted> settle(Window w, List<Accepted> accepted, List<Accepted> prefixes) {
        List<Accepted> survivors = new ArrayList<>(accepted);
        while (true) {
            Claims all = new Claims(w.collisionMass);
            for (Accepted a : prefixes) {
                all.claim(a);
            }
            Set<Long> prefixCells = new HashSet<>(all.cells);
            Map<Long, Integer> holders = new HashMap<>();
            for (Accepted a : survivors) {
                all.claim(a);
                for (long key : a.candidate().cells()) {
                    holders.merge(key, 1, Integer::sum);
                }
            }
            List<Accepted> kept = new ArrayList<>();
            int weakest = -1; // the failing string with the least support: dropped first, alone
            double weakestRatio = Double.POSITIVE_INFINITY;
            for (int i = 0; i < survivors.size(); i++) {
                Accepted a = survivors.get(i);
                Scored c = a.candidate();
                double[] others = all.acceptedShare.clone();
                int lastLevel = -1;
                for (long key : c.cells()) {
                    int g = (int) (key >>> 48);
                    if (g != lastLevel) {
                        others[g] -= Math.max(0, a.share());
                        lastLevel = g;
                    }
                }
                Pool own = w.pool(all.residual, others);
                for (long key : c.cells()) {
                    if (holders.get(key) == 1 && !prefixCells.contains(key)) {
                        own.add(key);
                    }
                }
                double ratio = own.isEmpty() ? Double.NEGATIVE_INFINITY
                        : own.share() / (c.z() * Math.sqrt(own.nullVariance()));
                if (ratio < 1) {
                    if (ratio < weakestRatio) {
                        weakestRatio = ratio;
                        weakest = i;
                    }
                    continue;
                }
                kept.add(new Accepted(c, own.share(), Math.sqrt(own.variance(own.share())), a.proven()));
            }
            if (weakest < 0) {
                return kept;
            }
            survivors.remove(weakest); // its cells and its mass go back to the others, scored again
        }
    }

    /**
     * A candidate waiting in {@link #select}, with its share on the cells that were free after
     * {@code acceptedWhenScored} acceptances ({@code -1}: its first score, on all its cells).
     */
    private record Pending(Scored candidate, double share, int acceptedWhenScored) {
        /**
         * Heaviest first by {@code min(share, parent's share)}: a prefix's share is at most its parent's, so an
         * estimate far above the parent's is a collision (with one row, two colliding prefixes tie exactly and only
         * this tells the true one from the impostor); then the parent's share, the share, the bytes.
         */
        static final Comparator<Pending> ORDER = Comparator.comparingDouble(
                (Pending p) -> -Math.min(p.share, p.candidate.parentShare()))
                .thenComparingDouble(p -> -p.candidate.parentShare())
                .thenComparingDouble(p -> -p.share)
                .thenComparing(p -> p.candidate.prefix(), Pending::compareUnsigned);

        /** Lexicographic order of unsigned bytes ({@code Arrays.compareUnsigned}, which Android lacks below API 33). */
        static int compareUnsigned(byte[] a, byte[] b) {
            for (int i = 0; i < Math.min(a.length, b.length); i++) {
                int c = Integer.compare(a[i] & 0xFF, b[i] & 0xFF);
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(a.length, b.length);
        }
    }

    static long cellKey(int g, int r, int bucket) {
        return ((long) g << 48) | ((long) r << 32) | (bucket & 0xFFFFFFFFL);
    }

    /**
     * A candidate that cleared {@code z} standard errors on all its cells ({@link #cellKey} of level, row and
     * bucket).
     */
    private record Scored(byte[] prefix, long[] cells, double share, double z, double parentShare, boolean whole) {}

    /** The number of valid extensions of the candidates at level {@code g} (no hashing). */
    private long countExtensions(List<Selected> parents, int g) {
        int len = (g + 1) * b;
        long count = 0;
        byte[] p = new byte[len];
        for (Selected sel : parents) {
            byte[] parent = sel.prefix();
            System.arraycopy(parent, 0, p, 0, parent.length);
            int segments = 1 << (8 * b);
            for (int seg = 0; seg < segments; seg++) {
                writeSegment(p, parent.length, seg);
                if (validPrefix(p, parent.length)) {
                    count++;
                }
            }
        }
        return count;
    }

    private void writeSegment(byte[] p, int at, int seg) {
        for (int i = 0; i < b; i++) {
            p[at + i] = (byte) (seg >>> (8 * (b - 1 - i)));
        }
    }

    /**
     * Scores every valid extension of every candidate at level {@code g} and collects those whose share clears
     * {@code z} standard errors of a zero share counting the randomizer's noise only ({@code noiseOnly}: zero
     * collision mass; {@link #select} then applies the collision term). A prefix that is not yet a whole item is
     * scored on level {@code g}'s rows. A whole item (a prefix that ends in padding, or any prefix of the last level)
     * is scored pooled over every level {@code >= g_x}, where its padded prefix is the item itself, and dropped if it
     * is not valid UTF-8; it is not extended (the estimate judges it again on every later level).
     */
    private void extend(Window w, int g, List<Selected> parents, double zPrefix, double zWhole, double[] noiseOnly,
            List<Scored> out) {
        int len = (g + 1) * b;
        int[] buckets = new int[rows];
        SipHash24.State[] base = new SipHash24.State[rows];
        double levelN = w.levelReports[g];
        Pool rowsOnly = w.pool(noiseOnly);
        for (int r = 0; r < rows; r++) {
            rowsOnly.add(g, r, 0);
        }
        double levelThreshold = zPrefix * Math.sqrt(rowsOnly.nullVariance());
        byte[] p = new byte[len];
        for (Selected sel : parents) {
            byte[] parent = sel.prefix();
            for (int r = 0; r < rows; r++) {
                base[r] = header(g, r);
                for (byte x : parent) {
                    base[r].update(x);
                }
            }
            System.arraycopy(parent, 0, p, 0, parent.length);
            int segments = 1 << (8 * b);
            for (int seg = 0; seg < segments; seg++) {
                writeSegment(p, parent.length, seg);
                if (!validPrefix(p, parent.length)) {
                    continue;
                }
                double s = 0;
                for (int r = 0; r < rows; r++) {
                    SipHash24.State st = base[r].copy();
                    for (int i = parent.length; i < len; i++) {
                        st.update(p[i]);
                    }
                    buckets[r] = (int) (st.finish() & (width - 1));
                    s += w.cell(g, r, buckets[r]);
                }
                boolean whole = p[len - 1] == 0 || g == levels - 1;
                if (!whole) {
                    double share = w.kappa * s / levelN;
                    if (share >= levelThreshold) {
                        long[] cells = new long[rows];
                        for (int r = 0; r < rows; r++) {
                            cells[r] = cellKey(g, r, buckets[r]);
                        }
                        out.add(new Scored(p.clone(), cells, share, zPrefix, sel.share(), false));
                    }
                    continue;
                }
                Scored item = wholeItem(w, p, zWhole, noiseOnly, sel.share());
                if (item != null) {
                    out.add(item);
                }
            }
        }
    }

    /** A whole item pooled over its levels {@code >= g_x}, or {@code null} if it does not clear the threshold. */
    private Scored wholeItem(Window w, byte[] prefix, double z, double[] noiseOnly, double parentShare) {
        byte[] padded = Arrays.copyOf(prefix, paddedBytes);
        int len = itemLength(padded);
        int from = firstWholeLevel(len);
        long[] cells = new long[(levels - from) * rows];
        Pool pool = w.pool(noiseOnly);
        int i = 0;
        for (int g = from; g < levels; g++) {
            for (int r = 0; r < rows; r++) {
                cells[i] = cellKey(g, r, bucket(g, r, padded));
                pool.add(cells[i++]);
            }
        }
        double share = pool.share();
        if (share < z * Math.sqrt(pool.nullVariance()) || decodeUtf8(padded, len) == null) {
            return null;
        }
        return new Scored(prefix.clone(), cells, share, z, parentShare, true);
    }

    /**
     * Whether the bytes from {@code from} on can continue a valid item: no byte at or beyond {@code L} other than
     * padding, no non-zero byte after a zero, a non-zero first byte, and no byte that never occurs in UTF-8
     * ({@code C0, C1, F5..FF}) nor a continuation byte first.
     */
    static boolean validPrefix(byte[] p, int from, int maxBytes) {
        for (int i = from; i < p.length; i++) {
            int v = p[i] & 0xFF;
            if (v == 0) {
                if (i == 0) {
                    return false;
                }
                continue;
            }
            if (i >= maxBytes || (i > 0 && p[i - 1] == 0)) {
                return false;
            }
            if (v == 0xC0 || v == 0xC1 || v >= 0xF5 || (i == 0 && (v & 0xC0) == 0x80)) {
                return false;
            }
        }
        return true;
    }

    private boolean validPrefix(byte[] p, int from) {
        return validPrefix(p, from, params.maxBytes());
    }

    /**
     * The first level whose prefix determines the item, {@code g_x = min(⌊|x|/b⌋, G − 1)}: the first prefix that
     * holds a padding byte (no other item shares it: items have no {@code 0x00}), or the whole of a full-length
     * item. The prefix of level {@code ⌈|x|/b⌉ − 1} is not enough: when {@code b} divides {@code |x|} it is shared
     * by every longer item that starts with {@code x}.
     */
    int firstWholeLevel(int itemLength) {
        return Math.min(itemLength / b, levels - 1);
    }

    private static int itemLength(byte[] padded) {
        int len = 0;
        while (len < padded.length && padded[len] != 0) {
            len++;
        }
        return len;
    }

    /**
     * Server side: the estimated share of one known item, with its standard error, whatever its size (no threshold,
     * no decode, every row of every level {@code >= g_x}): for monitoring a known string, and for tests of the
     * estimator.
     *
     * @throws InvalidValueException for an item outside the domain
     * @throws IllegalArgumentException as {@link #estimate} does, or if the levels that carry the item received no
     *     report
     */
    public HeavyHitterEstimate.Item estimateItem(long[] state, long n, String item) throws InvalidValueException {
        byte[] padded = paddedItem(item);
        Window w = window(state, n);
        Pool pool = w.pool();
        for (int g = firstWholeLevel(itemLength(padded)); g < levels; g++) {
            if (w.levelReports[g] == 0) {
                throw new IllegalArgumentException("level " + g + " received no report");
            }
            for (int r = 0; r < rows; r++) {
                pool.add(g, r, bucket(g, r, padded));
            }
        }
        double share = pool.share();
        return new HeavyHitterEstimate.Item(item, share, Math.sqrt(pool.variance(share)));
    }

    private Window window(long[] state, long n) {
        checkState(state);
        if (n < 1 || n > HeavyHitterProtocol.MAX_REPORTS) {
            throw new IllegalArgumentException("n must be in [1, 2^54], got " + n);
        }
        return new Window(state, n, Arrays.copyOfRange(state, levels * rows * width, state.length));
    }

    /** The string of the first {@code len} bytes if they are valid UTF-8, else {@code null}. */
    static String decodeUtf8(byte[] p, int len) {
        if (len == 0) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(p, 0, len)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}

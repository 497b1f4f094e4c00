package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterEstimate;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterEstimator;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterParameters;
import io.privacygateway.mechanisms.local.heavy.HeavyHitterProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * {@code bench heavy-hitters}: the open-domain heavy-hitter protocol ({@link HeavyHitterProtocol}, both segment
 * sizes) against the PEM baseline ({@link PemBaseline}) on the same users.
 *
 * <p><b>Data.</b> A universe of {@code 10^6} distinct strings (deterministic: characters from {@code [a-z0-9._/-]},
 * lengths uniform in {@code 1..L}), ranked; each of the {@code n} users draws a rank from Zipf({@code s}) over the
 * universe (a seeded stream per trial). The true top-k are the k most frequent strings among the users.
 *
 * <p><b>Metrics</b> (averaged over trials): precision and recall of the reported top-k against the true top-k (a
 * mechanism's list is cut to its k largest; precision of an empty list counts as 1, the mean count reported is
 * shown); made-up strings (the mean number of reported strings, over the whole list, that no user holds); RMS
 * share error over the true top-k (an item not reported counts as estimate 0); the detection threshold
 * (heavy-hitter protocol only); device bytes per report; server state; decode time per window. Every report goes
 * through the real randomizer and the real accumulation.
 */
final class HeavyHitterBenchmark {
    static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789._/-";

    private final int maxBytes;
    private final double zipf;
    private final String[] universe;
    /** Each string of the universe → its index. */
    private final Map<String, Integer> indexOf;
    private final double[] cdf;

    HeavyHitterBenchmark(int universeSize, int maxBytes, double zipf) {
        this.maxBytes = maxBytes;
        this.zipf = zipf;
        this.universe = universe(universeSize, maxBytes);
        this.indexOf = new HashMap<>(2 * universeSize);
        for (int i = 0; i < universe.length; i++) {
            indexOf.put(universe[i], i);
        }
        this.cdf = new double[universeSize];
        double acc = 0;
        for (int r = 0; r < universeSize; r++) {
            acc += Math.pow(r + 1, -zipf);
            cdf[r] = acc;
        }
        for (int r = 0; r < universeSize; r++) {
            cdf[r] /= acc;
        }
    }

    static String[] universe(int size, int maxBytes) {
        String[] out = new String[size];
        Set<String> seen = new HashSet<>(2 * size);
        long ctr = 0;
        for (int i = 0; i < size; ) {
            long h = SplitMix64.mix64(0xC0FFEEL + ctr++);
            int len = 1 + (int) Long.remainderUnsigned(h, maxBytes);
            StringBuilder sb = new StringBuilder(len);
            long w = SplitMix64.mix64(h);
            for (int c = 0; c < len; c++) {
                if (c % 10 == 9) {
                    w = SplitMix64.mix64(w);
                }
                sb.append(ALPHABET.charAt((int) Long.remainderUnsigned(w >>> (6 * (c % 10)), ALPHABET.length())));
            }
            String s = sb.toString();
            if (seen.add(s)) {
                out[i++] = s;
            }
        }
        return out;
    }

    int[] users(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int r = Arrays.binarySearch(cdf, rnd.nextDouble());
            out[i] = Math.min(cdf.length - 1, r >= 0 ? r : -r - 1);
        }
        return out;
    }

    /** One row of the table (means over trials). */
    record Row(String mechanism, String setting, int n, double epsilon, int k, double precision, double recall,
            double rms, double threshold, double reported, double madeUp, int deviceBytes, long stateBytes,
            double decodeMs, int trials) {}

    /** The outcome of one mechanism on one window: the reported list (largest first) and timings. */
    private record Outcome(List<String> items, List<Double> shares, double threshold, long stateBytes,
            int deviceBytes, double decodeMs) {}

    List<Row> run(int[] ns, double[] epsilons, int[] ks, int[] segments, int pemEta, int trials,
            Consumer<String> progress) throws InvalidValueException {
        List<Row> rows = new ArrayList<>();
        for (int n : ns) {
            for (double eps : epsilons) {
                Map<String, double[]> acc = new HashMap<>(); // key → sums of (prec, rec, rms², thr, reported, ms, made-up)
                Map<String, long[]> sizes = new HashMap<>();
                for (int t = 0; t < trials; t++) {
                    int[] users = users(n, 1000L * n + 31L * t + (long) (eps * 7));
                    int[] counts = new int[universe.length];
                    for (int u : users) {
                        counts[u]++;
                    }
                    Integer[] order = new Integer[universe.length];
                    for (int i = 0; i < order.length; i++) {
                        order[i] = i;
                    }
                    Arrays.sort(order, (a, b) -> counts[a] != counts[b] ? Integer.compare(counts[b], counts[a])
                            : Integer.compare(a, b));
                    for (int b : segments) {
                        Outcome o = runProduct(users, eps, b, t);
                        for (int k : ks) {
                            record("prefix-tree-sketch", "b=" + b, k, o, order, counts, n, acc, sizes);
                        }
                    }
                    for (int k : ks) {
                        Outcome o = runPem(users, eps, k, pemEta, t);
                        record("PEM (OLH)", "η=" + pemEta, k, o, order, counts, n, acc, sizes);
                    }
                    progress.accept(String.format(Locale.ROOT, "  n=%d ε=%s trial %d/%d done", n, eps, t + 1, trials));
                }
                for (var e : acc.entrySet()) {
                    String[] key = e.getKey().split("\\|");
                    double[] s = e.getValue();
                    long[] z = sizes.get(e.getKey());
                    rows.add(new Row(key[0], key[1], n, eps, Integer.parseInt(key[2]), s[0] / trials, s[1] / trials,
                            Math.sqrt(s[2] / trials), s[3] / trials, s[4] / trials, s[6] / trials, (int) z[0], z[1],
                            s[5] / trials, trials));
                }
            }
        }
        rows.sort((a, b) -> a.n() != b.n() ? Integer.compare(a.n(), b.n())
                : a.epsilon() != b.epsilon() ? Double.compare(a.epsilon(), b.epsilon())
                : a.k() != b.k() ? Integer.compare(a.k(), b.k())
                : (a.mechanism() + a.setting()).compareTo(b.mechanism() + b.setting()));
        return rows;
    }

    private void record(String mech, String setting, int k, Outcome o, Integer[] order, int[] counts, int n,
            Map<String, double[]> acc, Map<String, long[]> sizes) {
        Map<String, Integer> truth = new HashMap<>();
        for (int i = 0; i < k; i++) {
            truth.put(universe[order[i]], order[i]);
        }
        int hits = 0;
        Map<String, Double> est = new HashMap<>(); // distinct items, largest first, at most k
        for (int i = 0; i < o.items().size() && est.size() < k; i++) {
            if (est.putIfAbsent(o.items().get(i), o.shares().get(i)) == null && truth.containsKey(o.items().get(i))) {
                hits++;
            }
        }
        int reported = est.size();
        int madeUp = 0; // reported strings that no user holds (over the whole list, not only its first k)
        for (String item : o.items()) {
            Integer index = indexOf.get(item);
            if (index == null || counts[index] == 0) {
                madeUp++;
            }
        }
        double sq = 0;
        for (var e : truth.entrySet()) {
            double f = counts[e.getValue()] / (double) n;
            double g = est.getOrDefault(e.getKey(), 0.0);
            sq += (g - f) * (g - f);
        }
        String key = mech + "|" + setting + "|" + k;
        double[] s = acc.computeIfAbsent(key, x -> new double[7]);
        s[0] += reported == 0 ? 1 : hits / (double) reported;
        s[1] += hits / (double) k;
        s[2] += sq / k;
        s[3] += o.threshold();
        s[4] += reported;
        s[5] += o.decodeMs();
        s[6] += madeUp;
        sizes.put(key, new long[] {o.deviceBytes(), o.stateBytes()});
    }

    private Outcome runProduct(int[] users, double eps, int b, int trial) throws InvalidValueException {
        HeavyHitterParameters d = HeavyHitterParameters.defaults(Epsilon.of(eps), maxBytes, users.length);
        HeavyHitterParameters params = b == d.segmentBytes() ? d
                : defaultsFor(Epsilon.of(eps), maxBytes, b);
        HeavyHitterProtocol p = new HeavyHitterProtocol(params, contentHash(trial, b));
        long[] state = new long[p.stateLength()];
        SecretDraws draws = ExactSampler.draws(new SeededRandomBits(0x5EC12E7L + trial));
        String prefix = "bench-" + trial + "-";
        for (int i = 0; i < users.length; i++) {
            String device = prefix + i;
            byte[] y = p.randomize(universe[users[i]],
                    new ReportCoordinates(device, 0, 0), draws);
            if (!p.accumulate(y, device, 0, 0, state)) {
                throw new IllegalStateException("a valid report was refused");
            }
        }
        long t0 = System.nanoTime();
        HeavyHitterEstimate e = new HeavyHitterEstimator(p).estimate(state, users.length);
        double ms = (System.nanoTime() - t0) / 1e6;
        List<String> items = new ArrayList<>();
        List<Double> shares = new ArrayList<>();
        for (HeavyHitterEstimate.Item it : e.items()) {
            items.add(it.value());
            shares.add(it.share());
        }
        return new Outcome(items, shares, e.thresholdShare(), 8L * p.stateLength(), p.payloadBytes(), ms);
    }

    /** The default rule with the segment size forced to {@code b} (to compare b = 1 with b = 2). */
    static HeavyHitterParameters defaultsFor(Epsilon eps, int maxBytes, int b) {
        if (b == 2 || maxBytes == 1) {
            return HeavyHitterParameters.defaults(eps, maxBytes, 1);
        }
        // b = 1 with L bytes has as many levels as b = 2 with 2L bytes (when 2L <= 64): reuse that rule's R and W
        HeavyHitterParameters twice = HeavyHitterParameters.defaults(eps, Math.min(64, 2 * maxBytes), 1);
        return new HeavyHitterParameters(eps, maxBytes, 1, twice.rows(), twice.width(), twice.candidates());
    }

    private static String contentHash(int trial, int b) {
        StringBuilder sb = new StringBuilder(64);
        long x = 0xB16B00B5L + 97L * trial + b;
        for (int i = 0; i < 4; i++) {
            sb.append(String.format("%016x", SplitMix64.mix64(x + i)));
        }
        return sb.toString();
    }

    private Outcome runPem(int[] users, double eps, int k, int eta, int trial) {
        PemBaseline pem = new PemBaseline(eps, maxBytes, k, eta);
        SplittableRandom secret = new SplittableRandom(0x9E3L + 13L * trial + k);
        PemBaseline.Bits[] bits = new PemBaseline.Bits[universe.length];
        for (int u : users) {
            if (bits[u] == null) {
                bits[u] = PemBaseline.Bits.of(universe[u], maxBytes);
            }
            pem.report(bits[u], secret);
        }
        long t0 = System.nanoTime();
        List<PemBaseline.Estimate> est = pem.decode();
        double ms = (System.nanoTime() - t0) / 1e6;
        List<String> items = new ArrayList<>();
        List<Double> shares = new ArrayList<>();
        for (PemBaseline.Estimate e : est) {
            items.add(e.value());
            shares.add(e.share());
        }
        return new Outcome(items, shares, Double.NaN, pem.serverBytes(), pem.deviceBytes(), ms);
    }

    static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-20s %-5s %8s %4s %3s %9s %7s %9s %9s %8s %7s %7s %10s %10s%n",
                "mechanism", "param", "n", "ε", "k", "precision", "recall", "RMS share", "threshold", "reported",
                "made-up", "device", "state", "decode ms"));
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT,
                    "%-20s %-5s %8d %4s %3d %9.3f %7.3f %9.4f %9s %8.1f %7.1f %6dB %10s %10.0f%n",
                    r.mechanism(), r.setting(), r.n(), trim(r.epsilon()), r.k(), r.precision(), r.recall(), r.rms(),
                    Double.isNaN(r.threshold()) ? "-" : String.format(Locale.ROOT, "%.4f", r.threshold()),
                    r.reported(), r.madeUp(), r.deviceBytes(), bytes(r.stateBytes()), r.decodeMs()));
        }
        return sb.toString();
    }

    static String trim(double x) {
        return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
    }

    static String bytes(long b) {
        return b >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MB", b / 1048576.0)
                : String.format(Locale.ROOT, "%.0f KB", b / 1024.0);
    }
}

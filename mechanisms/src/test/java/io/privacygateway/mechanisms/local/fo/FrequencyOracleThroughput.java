package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.protocols.LocalEstimators;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Throughput of randomize + accumulate (not a unit test): {@code n} reports of a skewed dataset over
 * {@code k} values per mechanism, median of 5 timed runs after 3 warm-ups; then the time of one
 * {@link FrequencyOracleProtocol#estimate} on a range workload over the same buckets (all k(k+1)/2 range
 * standard errors). Run from the module directory with
 * {@code java -cp target/classes:target/test-classes:$(cat cp.txt) io.privacygateway.mechanisms.local.fo.FrequencyOracleThroughput [k] [n] [eps]}.
 */
public final class FrequencyOracleThroughput {
    private FrequencyOracleThroughput() {}

    public static void main(String[] args) {
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        double eps = args.length > 2 ? Double.parseDouble(args[2]) : 1.0;
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = (int) ((SplitMix64.mix64(i) >>> 1) % k) * ((i & 3) == 0 ? 1 : 0) + (i % 7);
            values[i] = Math.min(k - 1, values[i]);
        }
        System.out.printf("k=%d n=%d eps=%s (SeededRandomBits as the secret source)%n", k, n, eps);
        for (MechanismId id : List.of(MechanismId.GRR, MechanismId.OUE, MechanismId.OLH, MechanismId.SUBSET_SELECTION,
                MechanismId.HADAMARD_RESPONSE, MechanismId.TREE)) {
            FrequencyOracle o = FrequencyOracles.create(id, k, Epsilon.of(eps));
            long[] rnd = new long[8];
            long[] acc = new long[8];
            long[] both = new long[8];
            for (int rep = 0; rep < 8; rep++) {
                SeededRandomBits secret = new SeededRandomBits(rep);
                byte[][] payloads = new byte[n][];
                long[] bases = new long[n];
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    bases[i] = SplitMix64.mix64(rep * 1_000_003L + i);
                    payloads[i] = o.randomize(values[i], bases[i], secret);
                }
                long t1 = System.nanoTime();
                long[] state = new long[o.stateLength()];
                for (int i = 0; i < n; i++) {
                    o.accumulate(payloads[i], bases[i], state);
                }
                long t2 = System.nanoTime();
                FrequencyOracleEstimator.of(o).estimate(state, n);
                rnd[rep] = t1 - t0;
                acc[rep] = t2 - t1;
                both[rep] = t2 - t0;
            }
            System.out.printf("  %-18s payload %3d B  randomize %7.1f ms  accumulate %7.1f ms  total %7.1f ms  (%.2f M reports/s)%n",
                    id.wireName(), o.payloadBytes(), med(rnd) / 1e6, med(acc) / 1e6, med(both) / 1e6,
                    n / (med(both) / 1e9) / 1e6);
        }
        Workload range = rangeWorkload(k);
        System.out.printf("estimate() with standard errors of all %d range queries:%n", range.queryCount());
        for (MechanismId id : List.of(MechanismId.GRR, MechanismId.OUE, MechanismId.OLH, MechanismId.SUBSET_SELECTION,
                MechanismId.HADAMARD_RESPONSE, MechanismId.TREE)) {
            FrequencyOracleProtocol p = FrequencyOracleProtocol.of(range, id, Epsilon.of(eps));
            long[] state = new long[p.stateLength()];
            SeededRandomBits secret = new SeededRandomBits(1);
            for (int i = 0; i < 20_000; i++) {
                long b = SplitMix64.mix64(i);
                p.oracle().accumulate(p.oracle().randomize(values[i % n], b, secret), b, state);
            }
            long best = Long.MAX_VALUE;
            for (int rep = 0; rep < 3; rep++) {
                long t0 = System.nanoTime();
                LocalEstimators.of(p).estimate(state, 20_000);
                best = Math.min(best, System.nanoTime() - t0);
            }
            System.out.printf("  %-18s %8.1f ms%n", id.wireName(), best / 1e6);
        }
    }

    private static Workload rangeWorkload(int k) {
        List<Integer> edges = new ArrayList<>();
        for (int i = 0; i <= k; i++) {
            edges.add(i);
        }
        return FrequencyOracleProtocolTest.workload("range", Map.of("buckets", edges));
    }

    private static double med(long[] xs) {
        long[] tail = Arrays.copyOfRange(xs, 3, xs.length);
        Arrays.sort(tail);
        return tail[tail.length / 2];
    }
}

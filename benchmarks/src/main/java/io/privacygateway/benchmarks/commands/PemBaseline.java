package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.coins.SplitMix64;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Baseline for {@code bench heavy-hitters}: the prefix extending method (PEM) of Wang, Li and Jha, "Locally
 * differentially private heavy hitter identification", IEEE TDSC 2019, with optimized local hashing per group.
 *
 * <p>An item is its UTF-8 bytes zero-padded to {@code L} bytes, {@code m = 8L} bits. With {@code γ = ⌈log₂ k⌉} and
 * a step of {@code η} bits, there are {@code G = ⌈(m − γ)/η⌉} groups; group {@code j} reports the prefix of
 * {@code s_j = min(m, γ + (j+1)η)} bits with OLH ({@code d = round(e^ε) + 1} hash values, keep probability
 * {@code e^ε/(e^ε + d − 1)}). Each user belongs to one uniformly chosen group. The server scores the candidates of
 * group 0 (all {@code 2^{s_0}} prefixes), keeps the top {@code k}, extends each by every {@code s_{j+1} − s_j}-bit
 * suffix, scores them with group {@code j+1}, and so on; the output is the top {@code k} of the last group, with its
 * OLH frequency estimates. Following the paper, the kept set is the top {@code k} (no threshold), so it always
 * outputs {@code k} items.
 *
 * <p>This is a benchmark baseline, not a product mechanism: its secret randomness is a {@link SplittableRandom}
 * and it keeps every report (seed and value), so scoring a candidate scans its group. The hash is a keyed
 * 64-bit mix of a fingerprint of the prefix ({@link SplitMix64#mix64}), which keeps that scan fast; OLH is ε-LDP for
 * any hash family, so this does not change the privacy of the baseline.
 */
final class PemBaseline {
    private final int maxBytes;
    private final int k;
    private final int[] prefixBits;
    private final int d;
    private final double p;
    private final double q;
    private final long[][] seeds;
    private final int[][] values;
    private final int[] sizes;

    PemBaseline(double epsilon, int maxBytes, int k, int eta) {
        this.maxBytes = maxBytes;
        this.k = k;
        int m = 8 * maxBytes;
        int gamma = 32 - Integer.numberOfLeadingZeros(Math.max(1, k - 1));
        int groups = (m - gamma + eta - 1) / eta;
        this.prefixBits = new int[groups];
        for (int j = 0; j < groups; j++) {
            prefixBits[j] = Math.min(m, gamma + (j + 1) * eta);
        }
        double e = Math.exp(epsilon);
        this.d = Math.max(2, (int) Math.round(e) + 1);
        this.p = e / (e + d - 1);
        this.q = 1.0 / d;
        this.seeds = new long[groups][16];
        this.values = new int[groups][16];
        this.sizes = new int[groups];
    }

    int groups() {
        return prefixBits.length;
    }

    /** A 128-bit item (big-endian bytes 0-7 and 8-15). */
    record Bits(long hi, long lo) {
        static Bits of(String item, int maxBytes) {
            byte[] b = Arrays.copyOf(item.getBytes(StandardCharsets.UTF_8), 16);
            long hi = 0;
            long lo = 0;
            for (int i = 0; i < 8; i++) {
                hi = (hi << 8) | (b[i] & 0xFF);
                lo = (lo << 8) | (b[8 + i] & 0xFF);
            }
            return new Bits(hi, lo);
        }

        Bits prefix(int bits) {
            if (bits >= 128) {
                return this;
            }
            if (bits <= 64) {
                return new Bits(bits == 0 ? 0 : hi & (-1L << (64 - bits)), 0);
            }
            return new Bits(hi, lo & (-1L << (128 - bits)));
        }

        /** Sets {@code count} bits of {@code v} (most significant first) at bit positions {@code [from, from+count)}. */
        Bits with(int from, int count, int v) {
            long h = hi;
            long l = lo;
            for (int i = 0; i < count; i++) {
                if (((v >>> (count - 1 - i)) & 1) != 0) {
                    int t = from + i;
                    if (t < 64) {
                        h |= 1L << (63 - t);
                    } else {
                        l |= 1L << (127 - t);
                    }
                }
            }
            return new Bits(h, l);
        }

        /**
         * Whether the first {@code bits} bits can start a padded item: no set bit after a whole zero byte (the
         * baseline gets the same knowledge of the padding as the product mechanism's decoder).
         */
        boolean valid(int bits) {
            boolean zero = false;
            for (int i = 0; i < 16 && 8 * i < bits; i++) {
                int v = (int) ((i < 8 ? hi >>> (56 - 8 * i) : lo >>> (56 - 8 * (i - 8))) & 0xFF);
                int known = Math.min(8, bits - 8 * i);
                if (zero && v != 0) {
                    return false;
                }
                if (known == 8 && v == 0) {
                    zero = true;
                }
            }
            return true;
        }

        long fingerprint(int bits) {
            return SplitMix64.mix64(SplitMix64.mix64(hi ^ bits) + lo * SplitMix64.GOLDEN);
        }

        String decode() {
            byte[] b = new byte[16];
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (hi >>> (56 - 8 * i));
                b[8 + i] = (byte) (lo >>> (56 - 8 * i));
            }
            int len = 0;
            while (len < 16 && b[len] != 0) {
                len++;
            }
            return new String(b, 0, len, StandardCharsets.UTF_8);
        }
    }

    private int hash(long seed, long fingerprint) {
        return (int) (((SplitMix64.mix64(fingerprint ^ seed) >>> 32) * d) >>> 32);
    }

    /** Device side: randomizes one user's item into its group's OLH report (kept by the server). */
    void report(Bits item, SplittableRandom secret) {
        int j = secret.nextInt(prefixBits.length);
        long seed = secret.nextLong();
        int h = hash(seed, item.prefix(prefixBits[j]).fingerprint(prefixBits[j]));
        int y;
        if (secret.nextDouble() < p) {
            y = h;
        } else {
            y = secret.nextInt(d - 1);
            if (y >= h) {
                y++;
            }
        }
        if (sizes[j] == seeds[j].length) {
            seeds[j] = Arrays.copyOf(seeds[j], 2 * sizes[j]);
            values[j] = Arrays.copyOf(values[j], 2 * sizes[j]);
        }
        seeds[j][sizes[j]] = seed;
        values[j][sizes[j]++] = y;
    }

    record Estimate(String value, double share) {}

    private record Cand(Bits bits, double share) {}

    /** Server side: the top-k items with their estimated shares. */
    List<Estimate> decode() {
        List<Bits> current = new ArrayList<>();
        for (int v = 0; v < 1 << prefixBits[0]; v++) {
            Bits b = new Bits(0, 0).with(0, prefixBits[0], v);
            if (b.valid(prefixBits[0])) {
                current.add(b);
            }
        }
        List<Cand> top = List.of();
        for (int j = 0; j < prefixBits.length; j++) {
            if (j > 0) {
                int from = prefixBits[j - 1];
                int step = prefixBits[j] - from;
                List<Bits> next = new ArrayList<>();
                for (Cand c : top) {
                    for (int v = 0; v < 1 << step; v++) {
                        Bits b = c.bits().with(from, step, v);
                        if (b.valid(prefixBits[j])) {
                            next.add(b);
                        }
                    }
                }
                current = next;
            }
            List<Cand> scored = new ArrayList<>(current.size());
            for (Bits c : current) {
                scored.add(new Cand(c, score(j, c)));
            }
            scored.sort(Comparator.comparingDouble((Cand c) -> -c.share()));
            top = scored.subList(0, Math.min(k, scored.size()));
        }
        List<Estimate> out = new ArrayList<>();
        for (Cand c : top) {
            out.add(new Estimate(c.bits().decode(), c.share()));
        }
        return out;
    }

    private double score(int j, Bits c) {
        long fp = c.fingerprint(prefixBits[j]);
        long[] s = seeds[j];
        int[] y = values[j];
        int n = sizes[j];
        long count = 0;
        for (int i = 0; i < n; i++) {
            if (hash(s[i], fp) == y[i]) {
                count++;
            }
        }
        return n == 0 ? 0 : (count / (double) n - q) / (p - q);
    }

    /** Bytes a device sends: the OLH value (1 byte for d <= 256) and its 8-byte hash seed. */
    int deviceBytes() {
        return (d <= 256 ? 1 : 2) + 8;
    }

    /** Bytes the server keeps: every report's seed and value. */
    long serverBytes() {
        long n = 0;
        for (int s : sizes) {
            n += s;
        }
        return n * 12;
    }
}

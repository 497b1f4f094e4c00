package io.privacygateway.mechanisms.audit;

/**
 * One output of a mechanism as the auditor sees it: a feature vector (stored sparsely) and a discrete
 * key. Both are deterministic functions of the mechanism's output, so every event defined on them is an
 * event on the output (post-processing), which is all the audit's validity needs.
 *
 * @param index the indices of the non-zero features, increasing
 * @param value the feature values at those indices
 * @param key a 64-bit digest of the output; equal outputs have equal keys (distinct outputs may collide,
 *     which only merges them into one event)
 * @param keyLabel a short human-readable form of the output, for event descriptions
 */
record Observation(int[] index, double[] value, long key, String keyLabel) {

    /** A dense feature vector; zero entries are dropped. */
    static Observation dense(double[] features, long key, String keyLabel) {
        int nz = 0;
        for (double f : features) {
            if (f != 0) {
                nz++;
            }
        }
        int[] idx = new int[nz];
        double[] val = new double[nz];
        int i = 0;
        for (int j = 0; j < features.length; j++) {
            if (features[j] != 0) {
                idx[i] = j;
                val[i++] = features[j];
            }
        }
        return new Observation(idx, val, key, keyLabel);
    }

    /** Integer counters as features (a local protocol's per-report aggregate state). */
    static Observation counters(long[] state, long key, String keyLabel) {
        int nz = 0;
        for (long f : state) {
            if (f != 0) {
                nz++;
            }
        }
        int[] idx = new int[nz];
        double[] val = new double[nz];
        int i = 0;
        for (int j = 0; j < state.length; j++) {
            if (state[j] != 0) {
                idx[i] = j;
                val[i++] = state[j];
            }
        }
        return new Observation(idx, val, key, keyLabel);
    }

    /** {@code Σ_j w[j]·f_j}. */
    double dot(double[] w) {
        double s = 0;
        for (int i = 0; i < index.length; i++) {
            s += w[index[i]] * value[i];
        }
        return s;
    }

    /** A 64-bit digest of bytes (FNV-1a followed by a 64-bit finaliser). */
    static long digest(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        h ^= bytes.length;
        return mix(h);
    }

    /** A 64-bit digest of the exact bit patterns of doubles. */
    static long digest(double[] values) {
        long h = 0x9E3779B97F4A7C15L;
        for (double v : values) {
            h = mix(h ^ Double.doubleToLongBits(v + 0.0)); // -0.0 and 0.0 are the same output
        }
        return mix(h ^ values.length);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder("0x");
        int shown = Math.min(bytes.length, 16);
        for (int i = 0; i < shown; i++) {
            sb.append(String.format("%02x", bytes[i] & 0xFF));
        }
        if (shown < bytes.length) {
            sb.append('…');
        }
        return sb.toString();
    }

    static String shortVector(double[] v) {
        StringBuilder sb = new StringBuilder("(");
        int shown = Math.min(v.length, 3);
        for (int i = 0; i < shown; i++) {
            sb.append(i > 0 ? ", " : "").append(String.format("%.3g", v[i]));
        }
        return sb.append(shown < v.length ? ", …)" : ")").toString();
    }

    @Override
    public String toString() {
        return "Observation[" + keyLabel + "]";
    }
}

package io.privacygateway.mechanisms.local.heavy;

import io.privacygateway.mechanisms.param.Epsilon;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Test support for the heavy-hitter protocol. */
final class HeavyHitterFixtures {
    private HeavyHitterFixtures() {}

    /** A content hash: SHA-256 of the label, lower-case hex. */
    static String contentHash(String label) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(label.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static HeavyHitterProtocol protocol(double eps, int maxBytes, int b, int rows, int width, int candidates) {
        return new HeavyHitterProtocol(new HeavyHitterParameters(Epsilon.of(eps), maxBytes, b, rows, width,
                candidates), contentHash("heavy-hitter-test"));
    }

    static HeavyHitterProtocol protocol(double eps, int maxBytes, int b, int rows, int width, int candidates, int t) {
        return new HeavyHitterProtocol(new HeavyHitterParameters(Epsilon.of(eps), maxBytes, b, rows, width,
                candidates, t), contentHash("heavy-hitter-test"));
    }

    /** Distinct printable test strings of 1 to {@code maxBytes} ASCII bytes: item {@code i} of a fixed family. */
    static String item(int i, int maxBytes) {
        long h = io.privacygateway.mechanisms.coins.SplitMix64.mix64(0x5EED + i);
        int len = 1 + (int) Long.remainderUnsigned(h, maxBytes);
        StringBuilder sb = new StringBuilder();
        String idx = Integer.toString(i, 36);
        for (int k = 0; sb.length() < len; k++) {
            long w = io.privacygateway.mechanisms.coins.SplitMix64.mix64(h + k);
            sb.append((char) ('a' + Long.remainderUnsigned(w, 26)));
        }
        // make items distinct: the base-36 index replaces the tail when it fits
        if (idx.length() <= len) {
            sb.replace(len - idx.length(), len, idx);
        } else {
            return idx.substring(0, Math.min(idx.length(), maxBytes));
        }
        return sb.toString();
    }
}

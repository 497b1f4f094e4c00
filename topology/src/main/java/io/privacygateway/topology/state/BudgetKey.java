package io.privacygateway.topology.state;

import io.privacygateway.mechanisms.budget.PeriodKey;

/**
 * The key of one device's {@code BudgetUsage} of one workload in one budget period:
 * {@code <workloadId>|<period length, 19 digits>|<period index, 19 digits>|<deviceId>}. Fixed-width numbers
 * make keys sort by workload, period length and period index, so expiry scans old periods in order.
 */
public record BudgetKey(String workloadId, PeriodKey period, String deviceId) {

    public String asString() {
        return prefix(workloadId, period.lengthMillis(), period.index()) + deviceId;
    }

    /**
     * {@link #asString()} in UTF-8, byte for byte, written straight into one array when both names are ASCII
     * (the state store's key on the hot path: no intermediate strings). {@link PeriodKey} guarantees both
     * numbers are non-negative.
     */
    public byte[] toBytes() {
        long length = period.lengthMillis();
        long index = period.index();
        if (!isAscii(workloadId) || !isAscii(deviceId)) {
            return asString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        int w = workloadId.length();
        int d = deviceId.length();
        byte[] out = new byte[w + d + 41];
        int p = 0;
        for (int i = 0; i < w; i++) {
            out[p++] = (byte) workloadId.charAt(i);
        }
        out[p++] = '|';
        p = digits(out, p, length);
        out[p++] = '|';
        p = digits(out, p, index);
        out[p++] = '|';
        for (int i = 0; i < d; i++) {
            out[p++] = (byte) deviceId.charAt(i);
        }
        return out;
    }

    /** Writes non-negative {@code v} as 19 zero-padded decimal digits (every long has at most 19). */
    private static int digits(byte[] out, int p, long v) {
        for (int i = 18; i >= 0; i--) {
            out[p + i] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        }
        return p + 19;
    }

    private static boolean isAscii(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The first key of the given workload, period length and index (all devices follow it). */
    public static String prefix(String workloadId, long lengthMillis, long index) {
        StringBuilder sb = new StringBuilder(workloadId.length() + 42);
        sb.append(workloadId).append('|');
        pad(sb, lengthMillis);
        sb.append('|');
        pad(sb, index);
        return sb.append('|').toString();
    }

    private static void pad(StringBuilder sb, long v) {
        String d = Long.toString(v);
        for (int i = d.length(); i < 19; i++) {
            sb.append('0');
        }
        sb.append(d);
    }

    /**
     * Parses the string form.
     *
     * @throws IllegalArgumentException if {@code s} is not a budget key
     */
    public static BudgetKey parse(String s) {
        int a = s.indexOf('|');
        if (a <= 0 || s.length() < a + 42 || s.charAt(a + 20) != '|' || s.charAt(a + 40) != '|') {
            throw new IllegalArgumentException("not a budget key");
        }
        try {
            return new BudgetKey(s.substring(0, a), new PeriodKey(Long.parseLong(s.substring(a + 1, a + 20)),
                    Long.parseLong(s.substring(a + 21, a + 40))), s.substring(a + 41));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a budget key", e);
        }
    }
}

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

package io.privacygateway.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.budget.BudgetUsage;
import io.privacygateway.mechanisms.budget.PeriodKey;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.state.BudgetKey;
import io.privacygateway.topology.state.InMemoryTypedStore;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Expiry of device budgets deletes a bounded number of entries per call (so no transaction grows with the number
 * of devices), never an entry a still-admissible report could meet.
 */
class DeviceBudgetsExpiryTest {
    private static final long DAY = Duration.ofDays(1).toMillis();

    @Test
    void expiresAtMostTheBatchPerCallAndKeepsTheOpenPeriod() {
        InMemoryTypedStore<BudgetKey, BudgetUsage> usages = new InMemoryTypedStore<>(
                Comparator.comparing(BudgetKey::asString));
        DeviceBudgets budgets = new DeviceBudgets(usages, new InMemoryTypedStore<String, long[]>(Comparator.naturalOrder()));
        PeriodKey old = new PeriodKey(DAY, 10);
        PeriodKey open = new PeriodKey(DAY, 12);
        for (int d = 0; d < 2_500; d++) {
            budgets.record("w", "device-" + d, BudgetUsage.empty(old));
        }
        for (int d = 0; d < 10; d++) {
            budgets.record("w", "device-" + d, BudgetUsage.empty(open));
        }
        WorkloadSpec.Window window = new WorkloadSpec.Window(Duration.ofMinutes(1), Duration.ofSeconds(10), List.of());
        long watermark = 12 * DAY + Duration.ofHours(3).toMillis(); // inside the open period

        assertThat(budgets.expire("w", window, watermark, 1_000)).isEqualTo(1_000);
        assertThat(budgets.expire("w", window, watermark, 1_000)).isEqualTo(1_000);
        assertThat(budgets.expire("w", window, watermark, 1_000)).isEqualTo(500);
        assertThat(budgets.expire("w", window, watermark, 1_000)).isZero();
        for (int d = 0; d < 10; d++) {
            assertThat(usages.get(new BudgetKey("w", open, "device-" + d))).as("the open period stays").isNotNull();
            assertThat(usages.get(new BudgetKey("w", old, "device-" + d))).isNull();
        }
    }

    @Test
    void aPeriodThatAnOpenWindowStillReachesIsNotExpired() {
        InMemoryTypedStore<BudgetKey, BudgetUsage> usages = new InMemoryTypedStore<>(
                Comparator.comparing(BudgetKey::asString));
        DeviceBudgets budgets = new DeviceBudgets(usages, new InMemoryTypedStore<String, long[]>(Comparator.naturalOrder()));
        PeriodKey yesterday = new PeriodKey(DAY, 11);
        budgets.record("w", "d", BudgetUsage.empty(yesterday));
        WorkloadSpec.Window window = new WorkloadSpec.Window(Duration.ofMinutes(1), Duration.ofSeconds(10), List.of());
        // 5 s into day 12: the last window of day 11 is still within its grace, so day 11 can still be charged
        assertThat(budgets.expire("w", window, 12 * DAY + 5_000, 1_000)).isZero();
        assertThat(usages.get(new BudgetKey("w", yesterday, "d"))).isNotNull();
        // once that window has closed, the period goes
        assertThat(budgets.expire("w", window, 12 * DAY + 75_000, 1_000)).isEqualTo(1);
    }
}

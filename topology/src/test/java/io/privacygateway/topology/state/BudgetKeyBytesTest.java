package io.privacygateway.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.budget.PeriodKey;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The state store's budget key bytes are exactly the UTF-8 of the documented string form, on every path. */
class BudgetKeyBytesTest {

    private static byte[] utf8(BudgetKey k) {
        return k.asString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void directBytesEqualTheStringFormIncludingEdgeCases() {
        long[] numbers = {1, 9, 10, 86_400_000L, 999_999_999_999_999_999L, Long.MAX_VALUE};
        String[] names = {"", "w", "device-0001", "grüße", "数据", "a|b", "\u007f"};
        for (long length : numbers) {
            for (long index : new long[] {0, 1, 10, 123_456_789L, Long.MAX_VALUE}) {
                for (String workload : names) {
                    for (String device : names) {
                        BudgetKey k = new BudgetKey(workload, new PeriodKey(length, index), device);
                        assertThat(k.toBytes()).as("%s", k).isEqualTo(utf8(k));
                        if (workload.isEmpty() || workload.contains("|") || device.isEmpty()) {
                            continue; // a range bound or not a workload id: only ever serialized, never parsed
                        }
                        assertThat(StateSerdes.BUDGET_KEY.deserializer().deserialize("t",
                                StateSerdes.BUDGET_KEY.serializer().serialize("t", k))).isEqualTo(k);
                    }
                }
            }
        }
    }

    @Test
    void randomKeysAgreeWithTheStringForm() {
        SplittableRandom r = new SplittableRandom(20261128L);
        for (int t = 0; t < 20_000; t++) {
            long length = 1 + r.nextLong(Long.MAX_VALUE - 1);
            long index = r.nextInt(4) == 0 ? r.nextLong(100) : r.nextLong(Long.MAX_VALUE);
            String device = "d" + Long.toHexString(r.nextLong()) + (r.nextInt(10) == 0 ? "é" : "");
            BudgetKey k = new BudgetKey("wl-" + r.nextInt(5), new PeriodKey(length, index), device);
            assertThat(k.toBytes()).isEqualTo(utf8(k));
        }
    }
}

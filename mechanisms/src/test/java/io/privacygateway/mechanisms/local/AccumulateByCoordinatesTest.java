package io.privacygateway.mechanisms.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.testing.TestWorkloads;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gateway's accumulate with the coordinates given one by one (no {@link ReportCoordinates} formed) is the
 * record form's exact twin, for every protocol class: the same states, the same refusals, the same argument checks.
 */
class AccumulateByCoordinatesTest {
    private static WorkloadSpec histogram(String mechanism) {
        return TestWorkloads.local("histogram", TestWorkloads.labels(16), mechanism);
    }

    private static WorkloadSpec mean(String mechanism) {
        return TestWorkloads.local("mean", Map.of("range", Map.of("lo", 0, "hi", 200)), mechanism);
    }

    @Test
    void sameStateAndRefusalsAsTheRecordForm() {
        List<WorkloadSpec> specs = List.of(histogram("projection"), histogram("oue"),
                histogram("grr"), histogram("olh"), mean("duchi"));
        for (WorkloadSpec spec : specs) {
            Workload w = Workload.of(spec);
            LocalProtocol p = LocalPipeline.of(w).protocol();
            long[] byRecord = new long[p.stateLength()];
            long[] byFields = new long[p.stateLength()];
            SeededRandomBits secret = new SeededRandomBits(3);
            for (int i = 0; i < 300; i++) {
                ReportCoordinates c = new ReportCoordinates("device-" + i, 20_000 + i % 3, i % 4);
                byte[] payload = p.randomize(i % w.universeSize(), c, secret);
                boolean a = p.accumulate(payload, c, byRecord);
                boolean b = p.accumulate(payload, c.deviceId(), c.period(), c.sequence(), byFields);
                assertThat(b).as(spec.mechanism().wireName()).isEqualTo(a).isTrue();
                assertThat(byFields).as(spec.mechanism().wireName()).isEqualTo(byRecord);
                byte[] truncated = java.util.Arrays.copyOf(payload, payload.length - 1);
                assertThat(p.accumulate(truncated, c.deviceId(), c.period(), c.sequence(), byFields))
                        .isEqualTo(p.accumulate(truncated, c, byRecord)).isFalse();
                assertThat(byFields).isEqualTo(byRecord);
            }
            byte[] payload = p.randomize(0, new ReportCoordinates("d", 0, 0), secret);
            long[] state = new long[p.stateLength()];
            assertThatThrownBy(() -> p.accumulate(payload, " ", 0, 0, state))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deviceId");
            assertThatThrownBy(() -> p.accumulate(payload, null, 0, 0, state))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("deviceId");
            assertThatThrownBy(() -> p.accumulate(payload, "d", -1, 0, state))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("period");
            assertThatThrownBy(() -> p.accumulate(payload, "d", 0, -1, state))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sequence");
            assertThat(state).containsOnly(0L);
            // a state of the wrong length: whatever the record form does (refuse or throw), the fields form does
            long[] wrongLength = new long[p.stateLength() + 1];
            assertThat(outcome(() -> p.accumulate(payload, "d", 0, 0, wrongLength)))
                    .as(spec.mechanism().wireName())
                    .isEqualTo(outcome(() -> p.accumulate(payload, new ReportCoordinates("d", 0, 0), wrongLength)));
            assertThat(wrongLength).containsOnly(0L);
        }
    }

    private static String outcome(java.util.function.BooleanSupplier call) {
        try {
            return "returned " + call.getAsBoolean();
        } catch (RuntimeException e) {
            return "threw " + e.getClass().getSimpleName();
        }
    }

    /**
     * The interface's default (for protocols that derive no public coins) passes the coordinates to the record form
     * unchanged and returns its answer, true or false.
     */
    @Test
    void theDefaultFormsTheCoordinatesAndReturnsTheRecordFormsAnswer() {
        LocalProtocol real = LocalPipeline.of(Workload.of(histogram("oue"))).protocol();
        List<ReportCoordinates> seen = new ArrayList<>();
        LocalProtocol delegating = (LocalProtocol) java.lang.reflect.Proxy.newProxyInstance(
                LocalProtocol.class.getClassLoader(), new Class<?>[] {LocalProtocol.class}, (proxy, method, args) -> {
                    if (method.isDefault()) {
                        return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    if (method.getName().equals("accumulate") && args[1] instanceof ReportCoordinates c) {
                        seen.add(c);
                    }
                    return method.invoke(real, args);
                });
        SeededRandomBits secret = new SeededRandomBits(5);
        ReportCoordinates c = new ReportCoordinates("device-7", 20_001, 2);
        byte[] payload = real.randomize(3, c, secret);
        long[] byDefault = new long[real.stateLength()];
        long[] byRecord = new long[real.stateLength()];
        assertThat(delegating.accumulate(payload, "device-7", 20_001, 2, byDefault)).isTrue();
        assertThat(real.accumulate(payload, c, byRecord)).isTrue();
        assertThat(byDefault).isEqualTo(byRecord);
        assertThat(seen).containsExactly(c);
        assertThat(delegating.accumulate(new byte[0], "device-7", 20_001, 2, byDefault)).isFalse();
        assertThat(byDefault).isEqualTo(byRecord);
    }
}

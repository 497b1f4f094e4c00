package io.privacygateway.mechanisms.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A device built from the resolved spec alone ({@link DeviceWorkload}, device floor) produces the payloads, checks and
 * budget claims the gateway's runtime ({@link ResolvedWorkload}) expects, for every shape of values.
 */
class DeviceWorkloadTest {
    private static WorkloadSpec spec(String family, Map<String, Object> domain, String mechanism, String mode) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "w-" + mechanism);
        t.put("version", 1);
        t.put("family", family);
        t.put("domain", domain);
        t.put("mechanism", mechanism);
        t.put("mode", mode);
        if (mode.equals("central")) {
            t.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove", "contributionsPerWindow", 2));
            t.put("budget", Map.of("epsilonPerPeriod", 4.0, "period", "1d"));
        } else {
            t.put("epsilonPerReport", 2.0);
            t.put("budget", Map.of("epsilonPerPeriod", 6.0, "period", "1d"));
        }
        t.put("window", Map.of("size", "1h"));
        return WorkloadSpecParser.parse(t);
    }

    static List<Object[]> cases() {
        Map<String, Object> labels = Map.of("labels", List.of("a", "b", "c", "d", "e", "f"));
        return List.of(
                new Object[] {spec("histogram", labels, "grr", "local"), List.of("a", "f", "c")},
                new Object[] {spec("histogram", labels, "oue", "local"), List.of("b", "e")},
                new Object[] {spec("histogram", labels, "olh", "local"), List.of("d")},
                new Object[] {spec("histogram", labels, "hadamard-response", "local"), List.of("a", "c")},
                new Object[] {spec("histogram", labels, "subset-selection", "local"), List.of("e")},
                new Object[] {spec("cdf", Map.of("buckets", List.of(0, 10, 20, 30, 40, 50, 60, 70, 80)), "tree",
                        "local"), List.of("5", "75")},
                new Object[] {spec("histogram", labels, "projection", "local"), List.of("a", "f")},
                new Object[] {spec("heavy-hitters", Map.of("strings", Map.of("maxBytes", 8)), "prefix-tree-sketch",
                        "local"), List.of("app", "maps")},
                new Object[] {spec("mean", Map.of("box", Map.of("coordinates", List.of("x", "y"), "lo", 0, "hi", 10)),
                        "duchi", "local"), List.of("1, 9", "[5, 5]")});
    }

    @Test
    void aDeviceBuiltFromTheSpecAloneSendsWhatTheGatewayRuntimeWould() throws InvalidValueException {
        for (Object[] c : cases()) {
            WorkloadSpec s = (WorkloadSpec) c[0];
            @SuppressWarnings("unchecked")
            List<String> values = (List<String>) c[1];
            DeviceWorkload device = DeviceWorkload.of(s);
            LocalWorkload gateway = (LocalWorkload) ResolvedWorkload.of(s);
            assertThat(device.contentHash()).isEqualTo(gateway.contentHash());
            assertThat(device.rules()).isEqualTo(gateway.rules());
            int seq = 0;
            for (String v : values) {
                ReportCoordinates at = new ReportCoordinates("device-7", 19876, seq++);
                byte[] fromDevice = device.randomize(v, at, new SeededRandomBits(42));
                byte[] fromGateway = gateway.values().randomize(v, at, new SeededRandomBits(42));
                assertThat(fromDevice).as(s.mechanism().wireName() + " " + v).isEqualTo(fromGateway);
                assertThat(fromDevice.length).isEqualTo(gateway.accumulator().payloadBytes());
                long[] state = new long[gateway.accumulator().stateLength()];
                assertThat(gateway.accumulator().accumulate(fromDevice, at, state)).isTrue();
            }
        }
    }

    @Test
    void aValueOutsideTheDomainIsRefusedOnTheDeviceWithoutRepeatingIt() {
        DeviceWorkload labels = DeviceWorkload.of((WorkloadSpec) cases().get(0)[0]);
        assertThatThrownBy(() -> labels.checkValue("g")).isInstanceOf(InvalidValueException.class);
        DeviceWorkload strings = DeviceWorkload.of((WorkloadSpec) cases().get(7)[0]);
        assertThatThrownBy(() -> strings.checkValue("secret-too-long")).isInstanceOf(InvalidValueException.class)
                .hasMessageNotContaining("secret");
        DeviceWorkload box = DeviceWorkload.of((WorkloadSpec) cases().get(8)[0]);
        assertThatThrownBy(() -> box.checkValue("3, 11.5")).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("coordinate 2").hasMessageNotContaining("11.5");
        assertThatThrownBy(() -> labels.checkVector(new double[] {1})).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void aCentralDeviceChecksTheRawValueAsTheGatewayDoesAndNeverRandomizes() throws InvalidValueException {
        WorkloadSpec s = spec("histogram", Map.of("labels", List.of("a", "b")), "laplace", "central");
        DeviceWorkload device = DeviceWorkload.of(s);
        device.checkValue("b");
        assertThatThrownBy(() -> device.checkValue("z")).isInstanceOf(InvalidValueException.class);
        assertThat(device.rules().slots()).isEqualTo(2).isEqualTo(ResolvedWorkload.of(s).slots());
        assertThatThrownBy(() -> device.randomize("a", new ReportCoordinates("d", 0, 0), new SeededRandomBits(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anUnresolvedSpecIsRefused() {
        Map<String, Object> labels = Map.of("labels", List.of("a", "b"));
        assertThatThrownBy(() -> DeviceWorkload.of(spec("histogram", labels, "auto", "local")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auto");
    }
}

package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The spec field {@code protocolVersion}: defaults, the versions the parser accepts, and the canonical form. */
class ProtocolVersionsTest {
    static Map<String, Object> tree(String family, String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "w");
        t.put("version", 1);
        t.put("family", family);
        List<Integer> edges = new ArrayList<>();
        for (int i = 0; i <= 32; i++) {
            edges.add(i);
        }
        t.put("domain", Map.of("buckets", edges));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 1.0);
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        return t;
    }

    static WorkloadSpec parse(String family, String mechanism, Object protocolVersion) {
        Map<String, Object> t = tree(family, mechanism);
        if (protocolVersion != null) {
            t.put("protocolVersion", protocolVersion);
        }
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void theDefaultIsTheMechanismsCurrentVersion() {
        assertThat(parse("cdf", "tree", null).protocolVersion()).isEqualTo(2);
        assertThat(parse("cdf", "factorization", null).protocolVersion()).isEqualTo(3);
        assertThat(parse("cdf", "grr", null).protocolVersion()).isEqualTo(1);
        assertThat(parse("cdf", "auto", null).protocolVersion()).isZero();
        assertThat(parse("cdf", "tree", 1).protocolVersion()).isEqualTo(1);
        for (MechanismId m : MechanismId.values()) {
            if (!ProtocolVersions.hasProtocol(m)) {
                assertThat(ProtocolVersions.derivable(m)).as(m.wireName()).isEmpty();
            }
            if (ProtocolVersions.hasProtocol(m)) {
                assertThat(ProtocolVersions.derivable(m)).as(m.wireName()).last()
                        .isEqualTo(ProtocolVersions.current(m));
            }
        }
    }

    @Test
    void aVersionTheCodeCannotDeriveFailsNamingTheField() {
        assertThatThrownBy(() -> parse("cdf", "tree", 3)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("protocolVersion").hasMessageContaining("[1, 2]");
        assertThatThrownBy(() -> parse("cdf", "grr", 2)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("protocolVersion");
        assertThatThrownBy(() -> parse("cdf", "tree", 0)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("protocolVersion");
        assertThatThrownBy(() -> parse("cdf", "tree", "two")).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("protocolVersion");
        assertThatThrownBy(() -> parse("cdf", "auto", 1)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("protocolVersion").hasMessageContaining("named local mechanism");
        Map<String, Object> central = tree("cdf", "laplace");
        central.remove("epsilonPerReport");
        central.put("mode", "central");
        central.put("central", Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove"));
        assertThat(WorkloadSpecParser.parse(central).protocolVersion()).isZero();
        central.put("protocolVersion", 1);
        assertThatThrownBy(() -> WorkloadSpecParser.parse(central)).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("protocolVersion").hasMessageContaining("central-mode");
    }

    @Test
    void theCanonicalFormNamesTheVersionOnlyAboveOne() {
        // a protocol that never changed keeps the hash its specs had before versions existed
        String grr = CanonicalForm.of(parse("cdf", "grr", null));
        assertThat(grr).doesNotContain("protocolVersion");
        assertThat(CanonicalForm.of(parse("cdf", "grr", 1))).isEqualTo(grr);
        assertThat(CanonicalForm.of(parse("cdf", "tree", 1))).doesNotContain("protocolVersion");
        assertThat(CanonicalForm.of(parse("cdf", "tree", null))).contains("\"protocolVersion\":2");
        assertThat(CanonicalForm.contentHash(parse("cdf", "tree", 1)))
                .isNotEqualTo(CanonicalForm.contentHash(parse("cdf", "tree", 2)));
        assertThat(CanonicalForm.of(parse("cdf", "auto", null))).doesNotContain("protocolVersion");
    }

    @Test
    void inACanonicalFormAnAbsentVersionMeansOne() {
        // the canonical form omits version 1, and it carries "protocol": read back, it is version 1 again (so a spec
        // stored before protocol versions keeps its content hash), while a hand-written file gets the current version
        Map<String, Object> canonical = tree("cdf", "tree");
        canonical.put("protocol", CanonicalForm.PROTOCOL_VERSION);
        assertThat(WorkloadSpecParser.parse(canonical).protocolVersion()).isEqualTo(1);
        canonical.put("protocolVersion", 2);
        assertThat(WorkloadSpecParser.parse(canonical).protocolVersion()).isEqualTo(2);
        assertThat(parse("cdf", "tree", null).protocolVersion()).isEqualTo(2);
    }

    @Test
    void namingAnotherMechanismResetsTheVersionAndTheWireNamesAreReadable() {
        WorkloadSpec v1 = parse("cdf", "tree", 1);
        assertThat(v1.toBuilder().expectedReportsPerWindow(5).build().protocolVersion()).isEqualTo(1);
        assertThat(v1.toBuilder().mechanism(MechanismId.FACTORIZATION).build().protocolVersion()).isEqualTo(3);
        assertThat(v1.toBuilder().mechanism(MechanismId.TREE).build().protocolVersion()).isEqualTo(1);
        assertThat(v1.toBuilder().inCentralMode(Epsilon.of(1), NeighbourRelation.ADD_REMOVE, 1).build()
                .protocolVersion()).isZero();
        assertThat(ProtocolVersions.wireName(MechanismId.TREE, 2)).isEqualTo("tree/2");
        assertThat(ProtocolVersions.wireName(MechanismId.TREE, ProtocolVersions.LEGACY)).isEqualTo("tree/legacy");
        assertThat(ProtocolVersions.accepts(MechanismId.GRR, 1, ProtocolVersions.LEGACY)).isTrue();
        assertThat(ProtocolVersions.accepts(MechanismId.TREE, 1, ProtocolVersions.LEGACY)).isFalse();
        assertThat(ProtocolVersions.accepts(MechanismId.FACTORIZATION, 3, ProtocolVersions.LEGACY)).isFalse();
        assertThat(ProtocolVersions.accepts(MechanismId.TREE, 2, 1)).isFalse();
    }
}

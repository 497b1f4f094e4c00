package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.testing.RegistryFixture;
import io.privacygateway.topology.identity.DeviceAuthentication;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The published records, byte for byte, for fixed inputs and seeded randomness: every answer (and synthetic record) of
 * a local workload with a horizon and an amplified guarantee, a central workload with running totals, an analytics
 * workload and two wide workloads (one with synthetic records), as Avro binary, hashed. Pinned on the release path
 * before it became one {@code WindowRelease} interface (issue 32, item 1), so that reshaping the release step cannot
 * change what is published. A change of a published field on purpose updates the pinned digests here.
 */
class PublishedRecordsPinTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // an hour boundary
    static final long MINUTE = 60_000;

    @Test
    void localAnswersWithAHorizonAndTheAmplifiedGuarantee() throws Exception {
        WorkloadSpec s = RunningTotalsAndAmplificationTest.local("grr");
        Workload w = Workload.of(s);
        var protocol = LocalPipeline.of(w).protocol();
        SeededRandomBits secret = new SeededRandomBits(3);
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("pin-local")
                .authentication(new DeviceAuthentication.Open(300)).build(), T0)) {
            g.register(s, T0);
            for (int window = 0; window < 3; window++) {
                for (int i = 0; i < 200 + 50 * window; i++) {
                    long t = T0 + window * MINUTE + 100 + i;
                    LocalReport r = GatewayTopologyTest.report(w, protocol, "d-" + window + "-" + i, 0, t, i % 3,
                            secret);
                    g.send(r, t);
                }
            }
            g.send(GatewayTopologyTest.report(w, protocol, "late", 0, T0 + 4 * MINUTE, 0, secret), T0 + 4 * MINUTE);
            g.advance(Duration.ofSeconds(2));
            List<SpecificRecord> out = List.copyOf(g.answers.readValuesToList());
            assertThat(out).hasSize(4); // three windows and the first 2-minute span
            assertThat(digest(out)).isEqualTo("56bb4e98446bff1a071e20ee3425bcd9391e653dfd53509a1962e296a92d9611");
        }
    }

    @Test
    void centralAnswersWithRunningTotalsAndTheirAccount() throws Exception {
        WorkloadSpec s = RunningTotalsAndAmplificationTest.central();
        Workload w = Workload.of(s);
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("pin-central")
                .build(), T0)) {
            g.register(s, T0);
            for (int window = 0; window < 3; window++) {
                for (int i = 0; i < 10 + 5 * window; i++) {
                    long t = T0 + window * MINUTE + 1000 + i;
                    g.sendCentral(GatewayTopologyTest.centralReport(w, "d-" + window + "-" + i, 0, t,
                            List.of("a", "b", "c").get(i % 3)), t);
                }
            }
            for (int i = 0; i < 4; i++) {
                g.advance(Duration.ofMinutes(1));
                g.advance(g.cfg.centralReleaseDelay());
            }
            List<SpecificRecord> out = List.copyOf(g.answers.readValuesToList());
            assertThat(out).hasSizeGreaterThanOrEqualTo(9);
            assertThat(digest(out.subList(0, 9))).isEqualTo("853a584e062dec75e780f3f8fa3c95808db4aff9577b5ffaba2aa90f4965054a");
        }
    }

    @Test
    void analyticsAnswers() throws Exception {
        WorkloadSpec s = GatewayAnalyticsTest.mode();
        Workload w = Workload.of(s);
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("pin-mode")
                .build(), T0)) {
            g.register(s, T0);
            List<String> labels = List.of("mail", "maps", "music", "news");
            for (int window = 0; window < 2; window++) {
                for (int i = 0; i < 60; i++) {
                    long t = T0 + window * MINUTE + 1000 + i;
                    g.sendCentral(GatewayAnalyticsTest.report(w, "d-" + window + "-" + i, t,
                            labels.get(i % 7 == 0 ? 3 : i % 2)), t);
                }
            }
            for (int i = 0; i < 3; i++) {
                g.advance(Duration.ofMinutes(1));
                g.advance(g.cfg.centralReleaseDelay());
            }
            List<SpecificRecord> out = List.copyOf(g.answers.readValuesToList());
            assertThat(out).hasSizeGreaterThanOrEqualTo(2);
            assertThat(digest(out.subList(0, 2))).isEqualTo("3a9686a695bd21d3164249c0c2c09cc98fe989838a25a4caba0da77f9e88b568");
        }
    }

    @Test
    void wideAnswersAndSyntheticRecords() throws Exception {
        ResolvedWorkload mwem = ResolvedWorkload.of(GatewayWideTest.spec("pin-mwem", "mwem", "add-remove", 64));
        ResolvedWorkload chaining = ResolvedWorkload.of(GatewayWideTest.spec("pin-chaining", "worst-case-chaining",
                "replace-one", null));
        Random r = new Random(20);
        try (GatewayDriver g = new GatewayDriver(registry.client(), GatewayConfig.builder(1, 1).applicationId("pin-wide")
                .build(), T0)) {
            g.register(mwem.spec(), T0);
            long t = T0 + 1_000;
            for (int i = 0; i < 300; i++) {
                StringBuilder v = new StringBuilder();
                for (int j = 0; j < GatewayWideTest.D; j++) {
                    v.append(j == 0 ? "" : ",").append(r.nextDouble() < 0.2 + 0.03 * j ? 1 : 0);
                }
                g.sendCentral(GatewayWideTest.report(mwem, "d" + i, t, v.toString()), t);
            }
            g.advance(Duration.ofSeconds(73));
            g.advance(Duration.ofSeconds(10));
            g.advance(Duration.ofSeconds(5));
            g.register(chaining.spec(), T0 + 90_000);
            t = T0 + 2 * MINUTE + 1000;
            for (int i = 0; i < 300; i++) {
                StringBuilder v = new StringBuilder();
                for (int j = 0; j < GatewayWideTest.D; j++) {
                    v.append(j == 0 ? "" : ",").append(r.nextDouble() < 0.5 ? 1 : 0);
                }
                g.sendCentral(GatewayWideTest.report(chaining, "e" + i, t, v.toString()), t);
            }
            g.advance(Duration.ofSeconds(60));
            g.advance(Duration.ofSeconds(10));
            g.advance(Duration.ofSeconds(5));
            List<SpecificRecord> answers = List.copyOf(g.answers.readValuesToList());
            List<SpecificRecord> synthetic = List.copyOf(g.synthetic.readValuesToList());
            assertThat(answers).hasSizeGreaterThanOrEqualTo(3);
            assertThat(synthetic).isNotEmpty();
            assertThat(digest(answers.subList(0, 3))).isEqualTo("61e00a57add376f41c5bee133f2bf1985cfbf8f51bff8cf28b8ec1fcd196b063");
            assertThat(digest(synthetic.subList(0, 1))).isEqualTo("17608045d40c072469431812e3925c5a0a0b50eb5fdcf396b9ebb450e693ebb0");
        }
    }

    /** SHA-256 over the records' Avro binary encodings, in order. */
    static String digest(List<SpecificRecord> records) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (SpecificRecord rec : records) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
            @SuppressWarnings("unchecked")
            SpecificDatumWriter<SpecificRecord> w = new SpecificDatumWriter<>((Class<SpecificRecord>) rec.getClass());
            w.write(rec, enc);
            enc.flush();
            md.update(out.toByteArray());
        }
        return HexFormat.of().formatHex(md.digest());
    }
}

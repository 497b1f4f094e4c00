package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.harness.registry.EmbeddedRegistry;
import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.limits.RecordSizes;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Certified synthetic data per window through the real topology (TopologyTestDriver, real registry): all 3-way
 * marginals over 8 binary attributes, {@code mechanism: certified-synthetic} with 4,096 records; one pure answer per
 * window (the records' marginals, the certificate as l∞ bound and bars) and one {@code SyntheticData} record per
 * window with the certificate and its query class, an empty window included; the certificate holds on the window's
 * data; mwem's records carry no certificate; every record within the sizes registration checked.
 */
class GatewayCertifiedSyntheticTest {
    static EmbeddedRegistry registry;
    static SchemaRegistryClient client;
    static final long T0 = 1_800_000_000_000L; // a minute boundary
    static final int D = 8;
    static final int RECORDS = 4096;
    static final int N = 8000;

    @BeforeAll
    static void startRegistry() throws Exception {
        registry = EmbeddedRegistry.start();
        client = SchemaRegistryClient.forUrl(registry.ccompatUrl());
    }

    @AfterAll
    static void stopRegistry() {
        registry.close();
    }

    static WorkloadSpec spec(String id, String mechanism, int records) {
        List<String> attributes = new ArrayList<>();
        for (int j = 0; j < D; j++) {
            attributes.add("a" + j);
        }
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", "marginals");
        t.put("domain", Map.of("attributes", attributes));
        t.put("queries", Map.of("way", 3));
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        t.put("central", new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", "add-remove",
                "contributionsPerWindow", 1, "synthetic", Map.of("records", records))));
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", N);
        return WorkloadSpecParser.parse(t);
    }

    /** The largest total-variation distance between a table of the window and the same table of the records. */
    static double utilityLoss(MarginalWorkload shape, MarginalCounts truth, MarginalCounts records) {
        int per = shape.cellsPerSubset();
        double worst = 0;
        for (int s = 0; s < shape.subsetCount(); s++) {
            double tv = 0;
            for (int c = 0; c < per; c++) {
                tv += Math.abs(truth.count(s * per + c) / (double) truth.n()
                        - records.count(s * per + c) / (double) records.n());
            }
            worst = Math.max(worst, tv / 2);
        }
        return worst;
    }

    @Test
    void certifiedRecordsAndAnswersOutEveryWindow() throws Exception {
        CentralWorkload certified = (CentralWorkload) ResolvedWorkload.of(spec("certified", "certified-synthetic",
                RECORDS));
        CentralWorkload mwem = (CentralWorkload) ResolvedWorkload.of(spec("mwem-small", "mwem", 64));
        MarginalWorkload shape = certified.wide().orElseThrow();
        MarginalCounts truth = MarginalCounts.empty(shape);
        Random r = new Random(8);
        double[][] p = new double[2][D]; // a mixture of two product distributions: correlated attributes
        for (int a = 0; a < 2; a++) {
            for (int j = 0; j < D; j++) {
                p[a][j] = r.nextBoolean() ? 0.1 + 0.2 * r.nextDouble() : 0.7 + 0.2 * r.nextDouble();
            }
        }
        try (GatewayDriver g = new GatewayDriver(client,
                GatewayConfig.builder(1, 1).applicationId("gateway-certified-test").build(), T0)) {
            g.register(certified.spec(), T0);
            g.register(mwem.spec(), T0);
            long t = T0 + 1_000;
            for (int i = 0; i < N; i++) {
                int a = r.nextInt(2);
                StringBuilder v = new StringBuilder();
                long bits = 0;
                for (int j = 0; j < D; j++) {
                    int b = r.nextDouble() < p[a][j] ? 1 : 0;
                    v.append(j == 0 ? "" : ",").append(b);
                    bits |= (long) b << j;
                }
                truth.add(bits);
                g.sendCentral(GatewayWideTest.report(certified, "d" + i, t, v.toString()), t);
                if (i < 500) {
                    g.sendCentral(GatewayWideTest.report(mwem, "d" + i, t, v.toString()), t);
                }
            }
            assertThat(g.rejections.readValuesToList()).isEmpty();

            g.advance(Duration.ofSeconds(73));
            g.advance(Duration.ofSeconds(10)); // wide releases are written at least 10 s after their computation starts
            g.advance(Duration.ofSeconds(5));
            List<WindowAnswer> first = g.answers.readValuesToList();
            assertThat(first).extracting(WindowAnswer::getWorkloadId)
                    .containsExactlyInAnyOrder("certified", "mwem-small");
            WindowAnswer a = first.stream().filter(x -> x.getWorkloadId().equals("certified")).findFirst()
                    .orElseThrow();
            assertThat(a.getMechanism()).isEqualTo("certified-synthetic");
            assertThat(a.getMode()).isEqualTo("central");
            assertThat(a.getFamily()).isEqualTo("marginals");
            assertThat(a.getDelta()).isZero();
            assertThat(a.getCost().getKind()).isEqualTo("pure");
            assertThat(a.getEpsilon()).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
            assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0));
            assertThat(a.getN()).isBetween(N - 200L, N + 200L); // the noisy count (add/remove)
            assertThat(a.getLabels()).hasSize(56 * 8).isEqualTo(shape.labels());
            double certificate = a.getMaxErrorBound();
            assertThat(a.getScalars()).containsEntry("certificate", certificate)
                    .containsKeys("certificateNoise", "certificateCount", "certificateFit", "lpObjective");
            assertThat(certificate).isGreaterThan(0).isLessThan(0.25);
            double[] exact = truth.answers();
            for (int q = 0; q < exact.length; q++) {
                double e = a.getEstimates().get(q);
                assertThat(Math.abs(e - exact[q])).isLessThanOrEqualTo(certificate);
                assertThat(a.getLower().get(q)).isEqualTo(Math.max(0, e - certificate));
                assertThat(a.getUpper().get(q)).isEqualTo(Math.min(1, e + certificate));
            }

            // the synthetic records: one per window, with the certificate; their marginals are exactly the answer
            List<SyntheticData> data = g.synthetic.readValuesToList();
            assertThat(data).extracting(SyntheticData::getWorkloadId)
                    .containsExactlyInAnyOrder("certified", "mwem-small");
            SyntheticData s = data.stream().filter(x -> x.getWorkloadId().equals("certified")).findFirst()
                    .orElseThrow();
            assertThat(s.getMechanism()).isEqualTo("certified-synthetic");
            assertThat(s.getContentHash()).isEqualTo(certified.contentHash());
            assertThat(s.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0));
            assertThat(s.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(T0 + 60_000));
            assertThat(s.getEpsilon()).isEqualTo(a.getEpsilon());
            assertThat(s.getDelta()).isZero();
            assertThat(s.getN()).isEqualTo(a.getN());
            assertThat(s.getConfidence()).isEqualTo(0.95);
            assertThat(s.getCertificate()).isEqualTo(certificate);
            assertThat(s.getMaxErrorBound()).isEqualTo(certificate);
            assertThat(s.getCertificateQueries()).startsWith("s-sparse 1-Lipschitz, s = 3");
            assertThat(s.getAttributes()).isEqualTo(shape.attributes());
            assertThat(s.getRecords()).hasSize(RECORDS).allMatch(x -> x >= 0 && x < (1L << D));
            MarginalCounts synthetic = MarginalCounts.empty(shape);
            s.getRecords().forEach(synthetic::add);
            double[] fromRecords = synthetic.answers();
            for (int q = 0; q < fromRecords.length; q++) {
                assertThat(a.getEstimates().get(q)).isEqualTo(fromRecords[q]);
            }
            double loss = utilityLoss(shape, truth, synthetic);
            assertThat(loss).as("realised utility loss").isLessThanOrEqualTo(certificate);

            SyntheticData m = data.stream().filter(x -> x.getWorkloadId().equals("mwem-small")).findFirst()
                    .orElseThrow();
            assertThat(m.getCertificate()).isNull();
            assertThat(m.getCertificateQueries()).isNull();

            // sizes: what registration checked bounds what was written
            RecordSizes.Sizes sizes = RecordSizes.of(certified);
            assertThat(GatewayWideTest.size(a)).isLessThanOrEqualTo(sizes.answerBytes());
            assertThat((long) GatewayWideTest.size(s)).isLessThanOrEqualTo(sizes.syntheticBytes());
            assertThat(sizes.overLimit(RecordSizes.MAX_RECORD_BYTES)).isNull();

            // the next window has no reports: an answer and certified records all the same (add/remove: noise only)
            g.advance(Duration.ofSeconds(60));
            g.advance(Duration.ofSeconds(10));
            g.advance(Duration.ofSeconds(5));
            WindowAnswer empty = g.answers.readValuesToList().stream()
                    .filter(x -> x.getWorkloadId().equals("certified")).findFirst().orElseThrow();
            assertThat(empty.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0 + 60_000));
            assertThat(empty.getEpsilon()).isEqualTo(a.getEpsilon());
            assertThat(empty.getDelta()).isZero();
            assertThat(empty.getEstimates()).hasSize(56 * 8);
            SyntheticData emptyData = g.synthetic.readValuesToList().stream()
                    .filter(x -> x.getWorkloadId().equals("certified")).findFirst().orElseThrow();
            assertThat(emptyData.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0 + 60_000));
            assertThat(emptyData.getRecords()).hasSize(RECORDS);
            assertThat(emptyData.getCertificate()).isEqualTo(empty.getMaxErrorBound()).isBetween(0.0, 1.0);
        }
    }
}

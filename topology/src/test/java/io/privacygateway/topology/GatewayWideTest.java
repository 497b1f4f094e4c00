package io.privacygateway.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.central.wide.MarginalCounts;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.SyntheticData;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.limits.RecordSizes;
import io.privacygateway.schemas.testing.RegistryFixture;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Wide marginal workloads end to end through the real topology (TopologyTestDriver, real registry): all 3-way
 * marginals over 20 binary flags (a universe of 2^20 values that is never materialised), central reports carrying the
 * flags as {@code "0,1,…"}, malformed bit vectors rejected, one pure answer per window — an empty window included —
 * for mwem (with its synthetic records on the synthetic topic, whose marginals are the answer) and worst-case chaining
 * (with its l∞ bound), and every record within the sizes registration checked.
 */
class GatewayWideTest {
    @RegisterExtension
    static final RegistryFixture registry = RegistryFixture.shared();
    static final long T0 = 1_800_000_000_000L; // a minute boundary
    static final int D = 20;
    static final int RECORDS = 512;

    static WorkloadSpec spec(String id, String mechanism, String neighbour, Integer records) {
        List<String> flags = new ArrayList<>();
        for (int j = 0; j < D; j++) {
            flags.add(String.format("flag%02d", j));
        }
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", id);
        t.put("version", 1);
        t.put("family", "marginals");
        t.put("domain", Map.of("attributes", flags));
        t.put("queries", Map.of("way", 3));
        t.put("mode", "central");
        t.put("mechanism", mechanism);
        Map<String, Object> central = new HashMap<>(Map.of("epsilonPerRelease", 1.0, "neighbour", neighbour,
                "contributionsPerWindow", 1));
        if (records != null) {
            central.put("synthetic", Map.of("records", records));
        }
        t.put("central", central);
        t.put("budget", Map.of("epsilonPerPeriod", 10.0, "period", "1d"));
        t.put("window", Map.of("size", "1m", "grace", "10s"));
        t.put("expectedReportsPerWindow", 3000);
        return WorkloadSpecParser.parse(t);
    }

    static CentralReport report(ResolvedWorkload w, String device, long eventTime, String value) {
        return CentralReport.newBuilder().setWorkloadId(w.id()).setWorkloadVersion(w.spec().version())
                .setContentHash(w.contentHash()).setDeviceId(device)
                .setPeriod(Math.floorDiv(eventTime, Duration.ofDays(1).toMillis())).setSequence(0)
                .setEventTime(Instant.ofEpochMilli(eventTime)).setValue(value).build();
    }

    static <T extends SpecificRecord> int size(T r) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        @SuppressWarnings("unchecked")
        SpecificDatumWriter<T> w = new SpecificDatumWriter<>((Class<T>) r.getClass());
        w.write(r, enc);
        enc.flush();
        return out.size();
    }

    @Test
    void twentyFlagsInAnswersAndSyntheticRecordsOutEveryWindow() throws Exception {
        CentralWorkload mwem = (CentralWorkload) ResolvedWorkload.of(spec("flags-mwem", "mwem", "add-remove", RECORDS));
        CentralWorkload chaining = (CentralWorkload) ResolvedWorkload.of(spec("flags-chaining", "worst-case-chaining",
                "replace-one", null));
        MarginalWorkload shape = mwem.wide().orElseThrow();
        MarginalCounts truth = MarginalCounts.empty(shape);
        Random r = new Random(20);
        double[] p = new double[D];
        for (int j = 0; j < D; j++) {
            p[j] = 0.1 + 0.8 * r.nextDouble();
        }
        try (GatewayDriver g = new GatewayDriver(registry.client(),
                GatewayConfig.builder(1, 1).applicationId("gateway-wide-test").build(), T0)) {
            g.register(mwem.spec(), T0);
            g.register(chaining.spec(), T0);
            long t = T0 + 1_000;
            int n = 3000;
            for (int i = 0; i < n; i++) {
                StringBuilder v = new StringBuilder();
                long bits = 0;
                for (int j = 0; j < D; j++) {
                    int b = r.nextDouble() < p[j] ? 1 : 0;
                    v.append(j == 0 ? "" : ",").append(b);
                    bits |= (long) b << j;
                }
                truth.add(bits);
                g.sendCentral(report(mwem, "d" + i, t, v.toString()), t);
                g.sendCentral(report(chaining, "d" + i, t, v.toString()), t);
            }
            // malformed bit vectors: too few flags, a flag that is not 0/1, too many flags, empty
            String zeros = String.join(",", java.util.Collections.nCopies(D, "0"));
            g.sendCentral(report(mwem, "bad1", t, "1,0,1"), t);
            g.sendCentral(report(mwem, "bad2", t, "2" + zeros.substring(1)), t);
            g.sendCentral(report(mwem, "bad3", t, zeros + ",1"), t);
            g.sendCentral(report(chaining, "bad4", t, ""), t);
            g.sendCentral(report(chaining, "bad5", t, zeros.replace(',', ';')), t);
            List<Rejection> rejected = g.rejections.readValuesToList();
            assertThat(rejected).extracting(Rejection::getReasonCode).containsOnly(RejectionReason.INVALID_VALUE)
                    .hasSize(5);
            for (Rejection x : rejected) { // central rejections never copy the raw value
                assertThat(x.toString()).doesNotContain(zeros);
            }

            g.advance(Duration.ofSeconds(73));
            g.advance(Duration.ofSeconds(10)); // wide releases are written at least 10 s after their computation starts
            g.advance(Duration.ofSeconds(5)); // the first releases also plan the mechanisms
            List<WindowAnswer> first = g.answers.readValuesToList();
            assertThat(first).extracting(WindowAnswer::getWorkloadId)
                    .containsExactlyInAnyOrder("flags-mwem", "flags-chaining");
            double[] exact = truth.answers();
            for (WindowAnswer a : first) {
                assertThat(a.getMode()).isEqualTo("central");
                assertThat(a.getFamily()).isEqualTo("marginals");
                assertThat(a.getDelta()).isZero();
                assertThat(a.getCost().getKind()).isEqualTo("pure");
                assertThat(a.getEpsilon()).isLessThanOrEqualTo(1.0).isGreaterThan(0.9);
                assertThat(a.getCumulativeEpsilon()).isEqualTo(1.0);
                assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0));
                assertThat(a.getLabels()).hasSize(9120).isEqualTo(shape.labels());
                assertThat(a.getEstimates()).hasSize(9120).allMatch(e -> e >= 0 && e <= 1);
                assertThat(a.getMaxErrorBound()).isNotNull().isLessThan(1.0);
                double err = 0;
                for (int q = 0; q < exact.length; q++) {
                    err = Math.max(err, Math.abs(a.getEstimates().get(q) - exact[q]));
                    assertThat(a.getLower().get(q)).isLessThanOrEqualTo(a.getEstimates().get(q));
                    assertThat(a.getUpper().get(q)).isGreaterThanOrEqualTo(a.getEstimates().get(q));
                }
                assertThat(err).as("%s max error", a.getMechanism()).isLessThanOrEqualTo(a.getMaxErrorBound());
            }
            WindowAnswer m = first.stream().filter(a -> a.getWorkloadId().equals("flags-mwem")).findFirst()
                    .orElseThrow();
            assertThat(m.getMechanism()).isEqualTo("mwem");
            assertThat(m.getN()).isBetween(2900L, 3100L); // the noisy count (add/remove)
            assertThat(m.getScalars()).containsKeys("theoreticalMaxErrorBound", "measuredMaxErrorBound");
            WindowAnswer c = first.stream().filter(a -> a.getWorkloadId().equals("flags-chaining")).findFirst()
                    .orElseThrow();
            assertThat(c.getMechanism()).isEqualTo("worst-case-chaining");
            assertThat(c.getN()).isEqualTo(3000L); // replace-one: the count is public

            // the synthetic records: one record per window, its rows' marginals are exactly the answer
            List<SyntheticData> data = g.synthetic.readValuesToList();
            assertThat(data).hasSize(1);
            SyntheticData s = data.get(0);
            assertThat(s.getWorkloadId()).isEqualTo("flags-mwem");
            assertThat(s.getContentHash()).isEqualTo(mwem.contentHash());
            assertThat(s.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0));
            assertThat(s.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(T0 + 60_000));
            assertThat(s.getMechanism()).isEqualTo("mwem");
            assertThat(s.getEpsilon()).isEqualTo(m.getEpsilon());
            assertThat(s.getDelta()).isZero();
            assertThat(s.getN()).isEqualTo(m.getN());
            assertThat(s.getMaxErrorBound()).isEqualTo(m.getMaxErrorBound());
            assertThat(s.getAttributes()).isEqualTo(shape.attributes());
            assertThat(s.getRecords()).hasSize(RECORDS).allMatch(x -> x >= 0 && x < (1L << D));
            MarginalCounts synthetic = MarginalCounts.empty(shape);
            s.getRecords().forEach(synthetic::add);
            double[] fromRecords = synthetic.answers();
            for (int q = 0; q < fromRecords.length; q++) {
                assertThat(m.getEstimates().get(q)).isEqualTo(fromRecords[q]);
            }

            // sizes: what registration checked bounds what was written
            RecordSizes.Sizes mwemSizes = RecordSizes.of(mwem);
            assertThat(size(m)).isLessThanOrEqualTo(mwemSizes.answerBytes());
            assertThat(size(c)).isLessThanOrEqualTo(RecordSizes.of(chaining).answerBytes());
            assertThat((long) size(s)).isLessThanOrEqualTo(mwemSizes.syntheticBytes());
            assertThat(mwemSizes.overLimit(RecordSizes.MAX_RECORD_BYTES)).isNull();
            assertThat(mwemSizes.partialBytes()).isLessThan(9120L * 8 + 1024);

            // the next window has no reports: both workloads answer it (mwem: noise only, with records; chaining
            // under replace-one: no mechanism runs, n = 0, cost 0)
            g.advance(Duration.ofSeconds(60));
            g.advance(Duration.ofSeconds(10)); // wide releases are written at least 10 s after their computation starts
            g.advance(Duration.ofSeconds(5));
            List<WindowAnswer> second = g.answers.readValuesToList();
            assertThat(second).extracting(WindowAnswer::getWorkloadId)
                    .containsExactlyInAnyOrder("flags-mwem", "flags-chaining");
            assertThat(second).allSatisfy(a -> {
                assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0 + 60_000));
                assertThat(a.getEstimates()).hasSize(9120);
                assertThat(a.getDelta()).isZero();
            });
            WindowAnswer emptyChaining = second.stream().filter(a -> a.getWorkloadId().equals("flags-chaining"))
                    .findFirst().orElseThrow();
            assertThat(emptyChaining.getN()).isZero();
            assertThat(emptyChaining.getEpsilon()).isZero();
            assertThat(g.synthetic.readValuesToList()).singleElement()
                    .satisfies(x -> assertThat(x.getWindowStart()).isEqualTo(Instant.ofEpochMilli(T0 + 60_000)));
        }
    }
}

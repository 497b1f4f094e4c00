package io.privacygateway.itests;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.kafka.DeviceClient;
import io.privacygateway.client.Outcome;
import io.privacygateway.client.Workloads;
import io.privacygateway.harness.testing.MutableClock;
import io.privacygateway.harness.testing.TopicReader;
import io.privacygateway.itests.support.ItCluster;
import io.privacygateway.itests.support.TestGateway;
import io.privacygateway.itests.support.Timed;
import io.privacygateway.itests.support.Windows;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.RejectionReason;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.simulator.Reports;
import io.privacygateway.simulator.ValueDistribution;
import io.privacygateway.simulator.ValueDistributions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * <b>Window analytics on the real cluster</b> ({@code docs/analytics.md}). One central workload of each analytics
 * family, in the shape of the demo's {@code top-app-mode.yaml}, {@code usage-regression.yaml} and
 * {@code churn-erm.yaml} (same domains and model, ε = 1 per release, add/remove, L = 1, a budget of 1 per period of
 * one window) with 2 s windows, 1 s grace and named mechanisms: {@code mode-exponential} (8 labels),
 * {@code adassp} (d = 3: intercept, hours, evening; response sessions) and {@code purified-dpsgd} (logistic, d = 3:
 * bias, activity, tenure; response churned, radius 4). 40 devices per workload report once into each of two
 * consecutive windows through the SDK, their raw values drawn (seeded) from the simulator's default distribution of
 * the workload ({@link ValueDistributions#defaultFor}: Zipf over the labels, the public synthetic linear or logistic
 * signal over the grid cells). Three hand-built malformed reports go into the first window: a label outside the
 * domain, a regression value with one coordinate too few, an erm value with one too many (the SDK itself refuses
 * each of them, {@code INVALID_VALUE}). The test proves, for each family and each of the two windows:
 * <ul>
 *   <li>exactly one answer, central, δ = 0, cost kind pure, ε equal to the resolved workload's release cost
 *       ({@code CentralWorkload.release().cost()}, the mechanism's exact shares rounded up), the family and the
 *       mechanism the workload names;
 *   <li>the family's error information: for mode a released label that is one of the labels (the answer's single
 *       item, the 1 of a one-hot estimate vector), trivial bars [0, 1] and the scalars {@code released = 1},
 *       {@code gapForConfidence}, {@code epsilonSelection}; for regression and erm a θ with one finite coefficient per
 *       declared feature (labels = the feature names) inside the ball the release purifies in (regression:
 *       {@code trustRadius}; erm: the model's radius), a finite {@code errorEstimate} with every standard error
 *       {@code errorEstimate/√d} and bars around θ, and the family's scalars (regression: {@code ridge},
 *       {@code trustRadius}, {@code lambdaMinEstimate}; erm: {@code predictedExcessRisk});
 *   <li>the 80 SDK contributions per workload are accepted; each malformed report becomes one {@code INVALID_VALUE}
 *       rejection with its workload, device, topic and offset, no value bytes and the gateway's fixed message (the
 *       raw value, or which axis it missed, is not repeated);
 *       the stream keeps running and answers the next window.
 * </ul>
 * Deterministic (no noisy value is compared with anything but bounds that hold by construction). <b>Time:</b> about
 * 21 s for the class when it runs alone (about 6 s of it starting the shared gateway), 30 s with the broker and the
 * registry (measured twice on the shared 2-core machine under load).
 */
@ExtendWith({ItCluster.Extension.class, Timed.class})
class AnalyticsIT {
    static final int DEVICES = 40;
    static final long WINDOW = 2000;

    static final String MODE = """
            id: it-analytics-mode
            version: 1
            family: mode
            domain:
              labels: [social, video, games, news, music, maps, mail, shopping]
            mode: central
            mechanism: mode-exponential
            central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 1}
            budget: {epsilonPerPeriod: 1.0, period: 2s}
            window: {size: 2s, grace: 1s}
            confidence: 0.95
            expectedReportsPerWindow: 40
            """;

    static final String REGRESSION = """
            id: it-analytics-regression
            version: 1
            family: regression
            domain:
              features:
                - {name: intercept, values: [1]}
                - {name: hours, buckets: [0, 1, 2, 3, 4, 5, 6, 7, 8]}
                - {name: evening, values: [0, 1]}
              response: {name: sessions, buckets: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]}
            mode: central
            mechanism: adassp
            central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 1}
            budget: {epsilonPerPeriod: 1.0, period: 2s}
            window: {size: 2s, grace: 1s}
            confidence: 0.95
            expectedReportsPerWindow: 40
            """;

    static final String ERM = """
            id: it-analytics-erm
            version: 1
            family: erm
            domain:
              features:
                - {name: bias, values: [1]}
                - {name: activity, values: [-1, -0.5, 0, 0.5, 1]}
                - {name: tenure, values: [-1, 0, 1]}
              response: {name: churned, values: [0, 1]}
            model: {loss: logistic, radius: 4, regularization: 0.001}
            mode: central
            mechanism: purified-dpsgd
            central: {epsilonPerRelease: 1.0, neighbour: add-remove, contributionsPerWindow: 1}
            budget: {epsilonPerPeriod: 1.0, period: 2s}
            window: {size: 2s, grace: 1s}
            confidence: 0.95
            expectedReportsPerWindow: 40
            """;

    /** A workload of the test: its resolved spec and runtime, and the malformed raw value sent for it. */
    record Family(String name, WorkloadSpec spec, CentralWorkload w, String malformed) {}

    @Test
    void eachAnalyticsFamilyAnswersEveryWindowPurelyWithItsErrorInformation(TestGateway g) throws Exception {
        List<Family> families = new ArrayList<>();
        families.add(family(g, "mode", MODE, "tiktok"));
        families.add(family(g, "regression", REGRESSION, "1,2.5,9")); // d = 3 features and a response: 4 numbers
        families.add(family(g, "erm", ERM, "1,0.5,0,1,0")); // one coordinate too many

        long w1 = Windows.nextWindowStart(WINDOW, 2000);
        long[] windows = {w1, w1 + WINDOW};
        MutableClock clock = new MutableClock(w1);
        List<Future<?>> sent = new ArrayList<>();
        for (Family f : families) {
            ValueDistribution values = ValueDistributions.defaultFor(f.w());
            SplittableRandom rng = new SplittableRandom(f.name().hashCode());
            for (int i = 0; i < DEVICES; i++) {
                DeviceClient d = DeviceClient.builder("analytics-" + f.name() + "-" + i, f.spec()).producer(g.reports)
                        .clock(clock).topics(g.topics()).build();
                for (long start : windows) {
                    clock.set(start + 500);
                    Outcome o = d.report(values.sample(rng));
                    assertThat(o.status()).as("%s device %d", f.name(), i).isEqualTo(Outcome.Status.SENT);
                    sent.add(o.delivery());
                }
            }
            // the SDK never sends a value outside the domain ...
            clock.set(w1 + 600);
            DeviceClient sdk = DeviceClient.builder("analytics-sdk-" + f.name(), f.spec()).producer(g.reports)
                    .clock(clock).topics(g.topics()).build();
            assertThat(sdk.report(f.malformed()).status()).isEqualTo(Outcome.Status.INVALID_VALUE);
            // ... so a misbehaving device builds the report itself
            String device = "analytics-bad-" + f.name();
            CentralReport bad = Reports.central(f.w(), new ReportCoordinates(device, f.w().periodOf(w1 + 700).index(),
                    0), w1 + 700, f.malformed());
            sent.add(g.reports.send(new ProducerRecord<>(g.topics().centralReports(), device, bad)));
        }
        for (Future<?> s : sent) {
            s.get(30, TimeUnit.SECONDS);
        }
        assertThat(sent).hasSize(3 * (2 * DEVICES + 1));

        for (Family f : families) {
            Map<Long, List<WindowAnswer>> byWindow = g.answersFor(f.spec().id(), List.of(windows[0], windows[1]),
                    Duration.ofSeconds(60));
            double epsilon = f.w().release().cost().epsilon();
            assertThat(epsilon).isPositive().isLessThanOrEqualTo(f.spec().central().epsilonPerRelease().value());
            for (long start : windows) {
                assertThat(byWindow.get(start)).as("%s answers of the window starting at %d", f.name(), start)
                        .hasSize(1);
                WindowAnswer a = byWindow.get(start).get(0);
                System.out.printf("[analytics] %s window %d: mechanism %s, epsilon %s, delta %s, scalars %s%n",
                        f.name(), start, a.getMechanism(), a.getEpsilon(), a.getDelta(), a.getScalars().keySet());
                assertThat(a.getWindowStart()).isEqualTo(Instant.ofEpochMilli(start));
                assertThat(a.getWindowEnd()).isEqualTo(Instant.ofEpochMilli(start + WINDOW));
                assertThat(a.getMode()).isEqualTo("central");
                assertThat(a.getFamily()).isEqualTo(f.name());
                assertThat(a.getMechanism()).isEqualTo(f.spec().mechanism().wireName());
                assertThat(a.getDelta()).isEqualTo(0.0);
                assertThat(a.getCost().getKind()).isEqualTo("pure");
                assertThat(a.getEpsilon()).isEqualTo(epsilon);
                assertThat(a.getCost().getEpsilon()).isEqualTo(epsilon);
                assertThat(a.getContentHash()).isEqualTo(f.w().contentHash());
                if (f.name().equals("mode")) {
                    assertModeAnswer(f, a);
                } else {
                    assertCoefficientAnswer(f, a);
                }
            }
        }

        // the malformed reports: one INVALID_VALUE rejection each, nothing of the value copied
        List<Rejection> rejections = g.rejectionsOfDevices("analytics-bad-", l -> l.size() >= 3,
                Duration.ofSeconds(30));
        assertThat(rejections).hasSize(3);
        for (Rejection r : rejections) {
            Family f = families.stream().filter(x -> r.getDeviceId().equals("analytics-bad-" + x.name())).findFirst()
                    .orElseThrow();
            System.out.printf("[analytics] rejected %s: %s%n", r.getDeviceId(), r.getReasonCode());
            assertThat(r.getReasonCode()).isEqualTo(RejectionReason.INVALID_VALUE);
            assertThat(r.getWorkloadId()).isEqualTo(f.spec().id());
            assertThat(r.getOriginalTopic()).isEqualTo(g.config.centralReportsTopic());
            assertThat(r.getOriginalOffset()).isNotNegative();
            assertThat(TopicReader.string(TopicReader.bytes(r.getOriginalKey()))).isEqualTo(r.getDeviceId());
            assertThat(r.getOriginalValue()).as("raw central value in the rejections topic").isNull();
            assertThat(r.getMessage()).isEqualTo("the value is not in the workload's domain")
                    .doesNotContain(f.malformed());
        }
        for (Family f : families) {
            assertThat(g.accepted(f.spec().id(), "central")).as(f.name()).isEqualTo(2.0 * DEVICES);
            assertThat(g.rejectedByReason(f.spec().id())).as(f.name()).isEqualTo(Map.of("INVALID_VALUE", 1.0));
            // exactly one answer per window: none was added while the rest was checked
            Map<Long, List<WindowAnswer>> all = g.allAnswers(f.spec().id());
            for (long start : windows) {
                assertThat(all.get(start)).as("%s answers of the window starting at %d", f.name(), start).hasSize(1);
            }
        }
        assertThat(g.service.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
    }

    private static Family family(TestGateway g, String name, String yaml, String malformed) throws Exception {
        WorkloadSpec spec = g.register(yaml);
        return new Family(name, spec, (CentralWorkload) Workloads.resolve(spec), malformed);
    }

    /** mode: a one-hot estimate on a label of the domain, which is the single item; trivial bars; the scalars. */
    private static void assertModeAnswer(Family f, WindowAnswer a) {
        List<String> labels = ((Domain.Labels) f.spec().domain()).labels();
        assertThat(a.getLabels()).isEqualTo(labels);
        assertThat(a.getItems()).hasSize(1);
        String released = a.getItems().get(0).getLabel();
        assertThat(released).isIn(labels);
        int index = labels.indexOf(released);
        for (int j = 0; j < labels.size(); j++) {
            assertThat(a.getEstimates().get(j)).isEqualTo(j == index ? 1.0 : 0.0);
            assertThat(a.getLower().get(j)).isEqualTo(0.0);
            assertThat(a.getUpper().get(j)).isEqualTo(1.0);
        }
        assertThat(a.getScalars()).containsEntry("released", 1.0).containsKeys("gapForConfidence", "epsilonSelection");
        assertThat(a.getScalars().get("gapForConfidence")).isPositive();
        assertThat(a.getScalars().get("epsilonSelection")).isPositive().isLessThanOrEqualTo(a.getEpsilon());
    }

    /**
     * regression and erm: θ with one finite coefficient per declared feature, inside the release's ball, with its
     * error estimate, standard errors and bars.
     */
    private static void assertCoefficientAnswer(Family f, WindowAnswer a) {
        Domain.Grid grid = (Domain.Grid) f.spec().domain();
        int d = grid.dimension();
        assertThat(a.getLabels()).isEqualTo(grid.features().stream().map(Domain.Grid.Axis::name).toList());
        assertThat(a.getEstimates()).hasSize(d).allMatch(Double::isFinite);
        assertThat(a.getStandardErrors()).hasSize(d);
        assertThat(a.getLower()).hasSize(d);
        assertThat(a.getUpper()).hasSize(d);
        Map<String, Double> s = a.getScalars();
        assertThat(s).containsKey("errorEstimate");
        double err = s.get("errorEstimate");
        assertThat(err).isNotNegative().isFinite();
        double norm = 0;
        for (int j = 0; j < d; j++) {
            double theta = a.getEstimates().get(j);
            norm += theta * theta;
            assertThat(a.getStandardErrors().get(j)).isEqualTo(err / Math.sqrt(d));
            assertThat(a.getLower().get(j)).isLessThanOrEqualTo(theta);
            assertThat(a.getUpper().get(j)).isGreaterThanOrEqualTo(theta);
        }
        norm = Math.sqrt(norm);
        double radius;
        if (f.name().equals("regression")) {
            assertThat(s).containsKeys("ridge", "trustRadius", "lambdaMinEstimate");
            radius = s.get("trustRadius");
        } else {
            assertThat(s).containsKey("predictedExcessRisk");
            assertThat(s.get("predictedExcessRisk")).isNotNegative().isFinite();
            radius = f.spec().model().radius();
        }
        assertThat(norm).as("%s: ‖θ‖ within the ball of radius %s", f.name(), radius)
                .isLessThanOrEqualTo(radius * (1 + 1e-9));
    }
}

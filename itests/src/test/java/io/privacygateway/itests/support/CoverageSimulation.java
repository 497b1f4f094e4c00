package io.privacygateway.itests.support;

import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.planner.Planner;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Not a test: reproduces the false-failure figures quoted by {@code EndToEndAccuracyIT}. For a workload
 * file, n and a reference distribution, simulates many windows through the same protocol and release code
 * the gateway runs (seeded randomness) and prints the distribution of the number of answers outside their
 * error bars and how often the RMS error reaches {@code rmsErrorBoundAtConfidence}.
 *
 * <pre>java -cp ... io.privacygateway.itests.support.CoverageSimulation WORKLOAD.yaml N TRIALS [UNIFORM|ZIPF|SPARSE]</pre>
 */
public final class CoverageSimulation {
    private CoverageSimulation() {}

    public static void main(String[] args) throws Exception {
        WorkloadSpec spec = Planner.resolve(WorkloadFiles.parse(Files.readString(Path.of(args[0])), args[0]));
        int n = Integer.parseInt(args[1]);
        int trials = Integer.parseInt(args[2]);
        ReferenceData ref = args.length > 3 ? ReferenceData.valueOf(args[3]) : ReferenceData.ZIPF;
        Workload w = Workload.of(spec);
        LocalPipeline p = LocalPipeline.of(w);
        int[] values = ref.stratified(w.universeSize(), n);
        long[] counts = new long[w.universeSize()];
        for (int v : values) {
            counts[v]++;
        }
        double[] truth = w.meanAnswer(counts);
        int m = w.queryCount();
        long[] misses = new long[m + 1];
        long rmsFailures = 0;
        for (int t = 0; t < trials; t++) {
            SeededRandomBits rnd = new SeededRandomBits(1000L * t + 7);
            long[] state = new long[p.protocol().stateLength()];
            for (int i = 0; i < n; i++) {
                ReportCoordinates c = new ReportCoordinates("sim-" + t + "-" + i, 1, 0);
                p.protocol().accumulate(p.protocol().randomize(values[i], c, rnd), c, state);
            }
            Answer a = p.release().release(state, n);
            int miss = 0;
            double se = 0;
            for (int q = 0; q < m; q++) {
                miss += truth[q] < a.lower()[q] || truth[q] > a.upper()[q] ? 1 : 0;
                se += (a.estimates()[q] - truth[q]) * (a.estimates()[q] - truth[q]);
            }
            misses[miss]++;
            rmsFailures += Math.sqrt(se / m) >= a.rmsErrorBoundAtConfidence() ? 1 : 0;
        }
        System.out.printf("%s: mechanism %s, m = %d, n = %d, %s, %d trials%n", spec.id(), spec.mechanism().wireName(),
                m, n, ref.label(), trials);
        System.out.printf("P(rms >= rmsErrorBoundAtConfidence) = %.2e%n", rmsFailures / (double) trials);
        long atLeast = 0;
        for (int k = m; k >= 0; k--) {
            atLeast += misses[k];
            if (misses[k] > 0 || atLeast > 0) {
                System.out.printf("misses = %d: %d   P(misses >= %d) = %.2e%n", k, misses[k], k, atLeast / (double) trials);
            }
        }
    }
}

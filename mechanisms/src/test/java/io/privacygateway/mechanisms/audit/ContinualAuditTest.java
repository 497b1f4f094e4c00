package io.privacygateway.mechanisms.audit;

import io.privacygateway.mechanisms.workload.Horizon;
import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.continual.ContinualCounter;
import io.privacygateway.mechanisms.continual.ContinualSettings;
import io.privacygateway.mechanisms.continual.ContinualState;
import io.privacygateway.mechanisms.param.ConfidenceLevel;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The black-box auditor on neighbouring <em>streams</em> through the continual counter: four windows, a tree of depth
 * 2, the noisy running totals of the since-activation and the 2-minute horizons after every window as features (every
 * published answer is a function of them). The neighbouring stream has one more report in window 1. Declared: ε = 1 per window of contribution.
 *
 * <p>False alarm: a counter that is ε-DP as declared is flagged with probability at most 10⁻³ (seeds are fixed).
 * Control: the same counter built for ε = 3 (a third of the noise) and audited against ε = 1; its true loss on these
 * streams is 2 (two released nodes carry window 1), and the audit finds more than 1.
 */
class ContinualAuditTest {
    static final long MINUTE = 60_000;

    static double audit(double built, long seed) {
        Workload w = AuditWorkloads.central("histogram", "laplace", 1.0, "add-remove", 1);
        ContinualCounter c = ContinualCounter.of(w, new ContinualSettings(Epsilon.of(built), 2,
                List.of(new Horizon.SinceActivation(), new Horizon.Span(Duration.ofMinutes(2)))));
        int n = w.universeSize();
        long[][] first = new long[4][n];
        long[][] second = new long[4][n];
        for (int t = 0; t < 4; t++) {
            java.util.Arrays.fill(first[t], 5);
            java.util.Arrays.fill(second[t], 5);
        }
        second[1][0]++;
        int dim = 4 * 2 * n;
        List<String> names = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            for (String h : List.of("since-activation", "PT2M")) {
                for (int x = 0; x < n; x++) {
                    names.add("window " + t + " " + h + " total[" + w.universeLabel(x) + "]");
                }
            }
        }
        NeighbouringInputs in = new NeighbouringInputs("stream A", "stream A + one report in window 1",
                "4 windows from midnight, depth 2", rng -> observe(c, first, rng), rng -> observe(c, second, rng), dim,
                names::get, List.of());
        AuditSettings settings = new AuditSettings(10_000, ConfidenceLevel.of(0.999), 1, 1);
        AuditRow row = RowAudit.run("continual", "running totals", new BigDecimal("1"), List.of(in), settings, 1e-3,
                new SeededRandomBits(seed));
        return row.epsilonLowerBound();
    }

    static Observation observe(ContinualCounter c, long[][] windows, io.privacygateway.mechanisms.random.RandomBits rng) {
        ContinualState s = c.start(0);
        double[] f = new double[4 * 2 * windows[0].length];
        int i = 0;
        for (int t = 0; t < 4; t++) {
            s = c.update(s, t * MINUTE, windows[t], rng);
            for (long[] total : c.noisyTotals(s)) {
                for (long v : total) {
                    f[i++] = v;
                }
            }
        }
        return Observation.dense(f, Observation.digest(f), Observation.shortVector(f));
    }

    @Test
    void theCounterIsNotFlaggedAndAnUnderNoisedOneIs() {
        double real = audit(1.0, 41);
        assertThat(real).as("ε̂ of the counter declared ε = 1").isLessThanOrEqualTo(1.0);
        double control = audit(3.0, 43);
        System.out.printf("continual audit: ε̂ = %.3f (declared 1), control built for ε = 3: ε̂ = %.3f%n", real, control);
        assertThat(control).as("ε̂ of a counter with a third of the noise").isGreaterThan(1.0);
    }
}

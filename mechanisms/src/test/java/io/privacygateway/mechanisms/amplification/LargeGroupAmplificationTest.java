package io.privacygateway.mechanisms.amplification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 7: no valid workload may make the amplified figure of a window or a rollup throw. A workload with a
 * 1 s budget period, 16 reports per period and a one-day horizon has k = 86,400 · 16 = 1,382,400 reports of one device
 * in a daily span, which the bound used to refuse (k ≤ 2²⁰), so every daily rollup was skipped.
 */
class LargeGroupAmplificationTest {
    static final long DAY = Duration.ofDays(1).toMillis();

    /** The reviewed workload: ε₀ = 0.125, 2 per 1 s period (16 reports), hourly windows, a one-day horizon. */
    static WorkloadSpec dailyRollup(String mechanism) {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "daily-rollup");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b", "c", "d")));
        t.put("mechanism", mechanism);
        t.put("epsilonPerReport", 0.125);
        t.put("amplification", Map.of("delta", 1e-6));
        t.put("budget", Map.of("epsilonPerPeriod", 2.0, "period", "1s"));
        t.put("window", Map.of("size", "1h", "grace", "10s", "horizons", List.of("1d")));
        return WorkloadSpecParser.parse(t);
    }

    @Test
    void aDailyRollupWithOneSecondPeriodsAndSixteenReportsGetsAFigure() {
        WorkloadSpec s = dailyRollup("grr");
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(s);
        assertThat(s.reportsPerPeriod()).isEqualTo(16);
        long k = w.maxReportsPerDeviceIn(DAY);
        assertThat(k).isEqualTo(1_382_400L);
        for (long n : new long[] {1, 400, 1_000_000, 5_000_000_000L}) {
            AmplifiedGuarantee g = AmplificationBound.amplified(s.epsilonPerReport(), n, k, 1e-6);
            // the honest figure for so many reports of one device: never more than k·ε₀ (the pure group guarantee)
            assertThat(g.epsilon()).as("n=%d", n).isPositive().isLessThanOrEqualTo(Math.nextUp(k * 0.125));
            assertThat(g.reportsPerDevice()).isEqualTo(k);
            assertThat(g.reports()).isEqualTo(n);
            assertThat(g.delta()).isEqualTo(1e-6);
        }
        // the hourly windows are unchanged: 3,600 periods of 16 reports
        assertThat(w.maxReportsPerDeviceIn(Duration.ofHours(1).toMillis())).isEqualTo(57_600L);
    }

    /**
     * The most reports of one device in a span is never understated (the old code capped it at 2³¹ − 1, which would
     * overstate the amplification, and threw on overflow): a 400-day horizon with 1 ms periods and 2³¹ − 1 slots.
     */
    @Test
    void theReportsPerDeviceOfAHugeSpanSaturateInsteadOfOverflowing() {
        Map<String, Object> t = WorkloadSpecParser.tree();
        t.put("id", "many-slots");
        t.put("version", 1);
        t.put("family", "histogram");
        t.put("domain", Map.of("labels", List.of("a", "b")));
        t.put("mechanism", "grr");
        t.put("epsilonPerReport", 1e-8);
        t.put("budget", Map.of("epsilonPerPeriod", 40.0, "period", "1ms"));
        t.put("window", Map.of("size", "1d", "grace", "10s", "horizons", List.of("400d")));
        WorkloadSpec s = WorkloadSpecParser.parse(t);
        LocalWorkload w = (LocalWorkload) ResolvedWorkload.of(s);
        long span = Duration.ofDays(400).toMillis();
        assertThat(w.maxReportsPerDeviceIn(span)).isEqualTo(Long.MAX_VALUE);
        assertThat(w.maxReportsPerDeviceIn(DAY)).isEqualTo(DAY * Integer.MAX_VALUE);
        assertThatCode(() -> AmplificationBound.amplified(s.epsilonPerReport(), 1000, w.maxReportsPerDeviceIn(span),
                1e-8)).doesNotThrowAnyException();
    }

    /** Every k and n a valid workload can produce, at the extremes of ε₀ and δ. */
    @Test
    void acceptsEveryValidInput() {
        for (double eps0 : new double[] {1e-8, 0.125, 2, Epsilon.MAX}) {
            for (long k : new long[] {1, 2, (1 << 20) + 1, 1_382_400, Integer.MAX_VALUE + 1L, Long.MAX_VALUE}) {
                for (long n : new long[] {1, 2, 1000}) {
                    for (double delta : new double[] {Double.MIN_VALUE, 1e-8, 0.5}) {
                        AmplifiedGuarantee g = AmplificationBound.amplified(Epsilon.of(eps0), n, k, delta);
                        assertThat(g.epsilon()).as("ε₀=%s k=%d n=%d δ=%s", eps0, k, n, delta)
                                .isLessThanOrEqualTo(Math.nextUp(upTimes(k, eps0)));
                    }
                }
            }
        }
    }

    /**
     * The smallest δ a workload may declare with a large crowd: the tail of Binomial(n − 1, r) used to be summed term by
     * term down to δ·10⁻⁹ = 0, keeping every weight boxed (OutOfMemoryError, which no release path catches).
     */
    @Test
    void theSmallestDeltaWithALargeCrowdIsComputed() {
        AmplifiedGuarantee g = AmplificationBound.amplified(Epsilon.of(10), 100_000_000, 1, Double.MIN_VALUE);
        assertThat(g.epsilon()).isPositive().isLessThanOrEqualTo(Math.nextUp(10.0));
    }

    /** A crowd beyond what is computed gets the (valid) guarantee of the computed crowd. */
    @Test
    void aCrowdBeyondTheComputedSizeGetsItsGuarantee() {
        // ε₀ = 10 keeps the computation short (about 4,500 expected clones at the cap)
        double atCap = AmplificationBound.amplified(Epsilon.of(10), AmplificationBound.MAX_COMPUTED_REPORTS, 1, 1e-6)
                .epsilon();
        assertThat(AmplificationBound.amplified(Epsilon.of(10), 5_000_000_000L, 1, 1e-6).epsilon()).isEqualTo(atCap)
                .isLessThan(10.0);
        assertThat(AmplificationBound.amplified(Epsilon.of(10), Long.MAX_VALUE, 1, 1e-6).epsilon()).isEqualTo(atCap);
    }

    /** The closed-form group sum bounds Σ_{i<k} e^{i·x} from above, tightly, against 60-digit sums. */
    @Test
    void theGroupSumIsAnUpperBound() {
        MathContext mc = new MathContext(60);
        for (long k : new long[] {2, 3, 16, 1000}) {
            for (double x : new double[] {1e-9, 1e-4, 0.01, 0.3, 2.0}) {
                BigDecimal e = expExact(new BigDecimal(x), mc);
                BigDecimal sum = BigDecimal.ZERO;
                BigDecimal term = BigDecimal.ONE;
                for (long i = 0; i < k; i++) {
                    sum = sum.add(term, mc);
                    term = term.multiply(e, mc);
                }
                double bound = AmplificationBound.geometricSumUpper(k, x);
                if (sum.compareTo(new BigDecimal(Double.MAX_VALUE)) > 0) {
                    assertThat(bound).isInfinite();
                    continue;
                }
                assertThat(new BigDecimal(bound).compareTo(sum)).as("k=%d x=%s", k, x).isGreaterThanOrEqualTo(0);
                assertThat(bound).as("k=%d x=%s", k, x).isLessThanOrEqualTo(sum.doubleValue() * (1 + 1e-12));
            }
        }
        assertThat(AmplificationBound.geometricSumUpper(1_382_400, 1.0)).isInfinite();
        assertThat(AmplificationBound.geometricSumUpper(Long.MAX_VALUE, Double.MIN_VALUE)).isInfinite();
    }

    private static double upTimes(long k, double x) {
        return io.privacygateway.mechanisms.param.DirectedDoubles.ceil(new BigDecimal(k).multiply(new BigDecimal(x)));
    }

    /** e^x for 0 ≤ x ≤ 2 by its Taylor series to 60 digits. */
    private static BigDecimal expExact(BigDecimal x, MathContext mc) {
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        for (int i = 1; i < 200; i++) {
            term = term.multiply(x, mc).divide(BigDecimal.valueOf(i), mc);
            sum = sum.add(term, mc);
        }
        return sum;
    }
}

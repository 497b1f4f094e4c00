package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.accounting.Conversions;
import io.privacygateway.mechanisms.central.CountRelease;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.param.LogDelta;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exact checks of the privacy arithmetic of the purified MWEM release: the ε shares add up to the declared ε (never
 * above it, at most a few ulps below), ρ certifies (ε_apx, δ), the rounds' realised ρ (from the exact selection ε and
 * discrete Gaussian σ²) is at most ρ, the noise scales are at least sensitivity/ε exactly, purification runs with the
 * declared ε′ and δ, and every secret draw of a release goes through the exact samplers, in the order and with the
 * parameters the argument assumes.
 */
class WidePrivacyAccountingTest {
    @ParameterizedTest
    @CsvSource({"4, 2, 0.1, add-remove, 1, 1000", "5, 3, 0.3, replace-one, 2, 5000", "6, 3, 1.0, add-remove, 3, 100000",
        "5, 2, 2.0, replace-one, 1, 20000", "7, 3, 0.7, add-remove, 1, 1000000"})
    void sharesAddUpExactlyAndEveryNoiseIsCalibrated(int d, int k, double epsilon, String neighbour, int l,
            long planned) {
        MarginalWorkload w = MarginalWorkload.anonymous(d, k);
        WideSettings s = WideFixtures.settings(epsilon, NeighbourRelation.fromWireName(neighbour), l, planned);
        PurifiedMwemRelease r = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
        MwemParameters p = r.parameters();
        BigDecimal declared = s.epsilon().exact();
        BigDecimal spent = PrivacySplit.exactSum(p.epsilonCount(), p.epsilonApprox(), p.epsilonPrime(),
                p.epsilonCheck());
        assertThat(spent).isLessThanOrEqualTo(declared);
        assertThat(declared.subtract(spent).doubleValue()).isLessThan(8 * Math.ulp(epsilon));
        assertThat(new BigDecimal(r.cost().epsilon())).isLessThanOrEqualTo(declared);
        if (s.countPublic()) {
            assertThat(p.epsilonCount()).isZero();
            assertThat(r.count()).isInstanceOf(CountRelease.Public.class);
        } else {
            var noisy = (CountRelease.Noisy) r.count();
            assertThat(scaleAtLeast(noisy.noise().scale(), l, p.epsilonCount())).isTrue();
        }
        assertThat(scaleAtLeast(r.check().noise().scale(), l, p.epsilonCheck())).isTrue();
        // ρ certifies (ε_apx, δ)
        assertThat(Conversions.zcdpToEpsilon(p.rho(), new LogDelta(p.logDelta()))).isLessThanOrEqualTo(p.epsilonApprox());
        // the rounds' realised ρ, recomputed here exactly from the exact parameters
        var sch = r.schedule();
        Rational e = sch.epsilonSelect();
        BigDecimal eps = new BigDecimal(e.numerator()).divide(new BigDecimal(e.denominator()));
        Rational s2 = sch.noise().sigma2();
        long d2 = s.countPublic() ? 2L * l * l : (long) l * l;
        assertThat(sch.sensitivitySquared()).isEqualTo(d2);
        BigDecimal perRound = eps.multiply(eps).divide(BigDecimal.valueOf(8)).add(new BigDecimal(d2)
                .multiply(new BigDecimal(s2.denominator()))
                .divide(new BigDecimal(s2.numerator()).multiply(BigDecimal.valueOf(2)), MathContext.DECIMAL128));
        BigDecimal realised = perRound.multiply(BigDecimal.valueOf(sch.rounds()));
        assertThat(realised.compareTo(new BigDecimal(p.rho()))).isLessThanOrEqualTo(0);
        // the reported ρ is the realised one rounded up (the 34-digit quotient here may differ in its last digit)
        assertThat(new BigDecimal(sch.rho())).isGreaterThanOrEqualTo(realised.multiply(new BigDecimal("0.9999999999")));
        assertThat(new BigDecimal(sch.rho()).subtract(realised).doubleValue()).isLessThan(4 * Math.ulp(sch.rho()));
        assertThat(sch.selectSensitivity()).isEqualTo((long) l * PrivateMultiplicativeWeights.SCORE_GRID);
        // purification with the declared shares
        assertThat(r.purifier().cube().epsilonPrime().exact()).isEqualByComparingTo(new BigDecimal(p.epsilonPrime()));
        assertThat(r.purifier().cube().logDelta().value()).isEqualTo(p.logDelta());
        assertThat(r.purifier().bits()).isEqualTo(p.records() * d);
    }

    /** {@code scale >= l/ε} exactly. */
    static boolean scaleAtLeast(Rational scale, long l, double epsilon) {
        BigDecimal lhs = new BigDecimal(scale.numerator()).multiply(new BigDecimal(epsilon));
        return lhs.compareTo(new BigDecimal(scale.denominator()).multiply(BigDecimal.valueOf(l))) >= 0;
    }

    @ParameterizedTest
    @CsvSource({"add-remove", "replace-one"})
    void everySecretDrawGoesThroughTheExactSamplersInTheAssumedOrder(String neighbour) {
        MarginalWorkload w = MarginalWorkload.anonymous(5, 2);
        WideSettings s = WideFixtures.settings(1.0, NeighbourRelation.fromWireName(neighbour), 1, 3000);
        PurifiedMwemRelease r = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
        MarginalCounts data = WideFixtures.mixture(w, 3000, 1);
        RecordingDraws draws = new RecordingDraws(new SeededRandomBits(5));
        r.release(data, draws);
        List<RecordingDraws.Draw> log = draws.log();
        int i = 0;
        if (!s.countPublic()) {
            assertThat(log.get(i).kind()).isEqualTo("laplace");
            assertThat(log.get(i).parameter()).isSameAs(((CountRelease.Noisy) r.count()).noise());
            i++;
        }
        var sch = r.schedule();
        for (int t = 0; t < sch.rounds(); t++) {
            // selection: uniform proposals over the C(d,k) subsets, each followed by its exact Bernoulli(e^-γ)
            assertThat(log.get(i).kind()).isEqualTo("uniform");
            assertThat(log.get(i).parameter()).isEqualTo((long) w.subsetCount());
            i++;
            assertThat(log.get(i).kind()).isEqualTo("bernoulliExp");
            i++;
            while (log.get(i).kind().equals("uniform") && log.get(i).parameter().equals((long) w.subsetCount())) {
                i++;
                assertThat(log.get(i).kind()).isEqualTo("bernoulliExp");
                i++;
            }
            for (int c = 0; c < w.cellsPerSubset(); c++) {
                assertThat(log.get(i).kind()).isEqualTo("gaussian");
                assertThat(log.get(i).parameter()).isSameAs(sch.noise());
                i++;
            }
        }
        for (int m = 0; m < r.parameters().records(); m++) {
            assertThat(log.get(i).kind()).isEqualTo("uniform");
            assertThat(log.get(i).parameter()).isEqualTo(1L << 53);
            i++;
        }
        assertThat(log.get(i).kind()).isEqualTo("purify");
        assertThat(log.get(i).parameter()).isSameAs(r.purifier().cube());
        i++;
        assertThat(log.get(i).kind()).isEqualTo("laplace");
        assertThat(log.get(i).parameter()).isSameAs(r.check().noise());
        i++;
        assertThat(log).hasSize(i);
    }

    @ParameterizedTest
    @CsvSource({"replace-one, 0", "add-remove, 0"})
    void emptyWindows(String neighbour, int unused) {
        MarginalWorkload w = MarginalWorkload.anonymous(4, 2);
        WideSettings s = WideFixtures.settings(1.0, NeighbourRelation.fromWireName(neighbour), 1, 1000);
        PurifiedMwemRelease r = PurifiedMwemRelease.of(w, s, MechanismId.CENTRAL_PROJECTION);
        RecordingDraws draws = new RecordingDraws(new SeededRandomBits(6));
        WideAnswer a = r.release(MarginalCounts.empty(w), draws);
        if (s.countPublic()) {
            assertThat(draws.log()).isEmpty(); // nothing to protect: no mechanism runs
            assertThat(a.answer().cost().epsilon()).isZero();
            assertThat(a.records()).isEmpty();
        } else {
            assertThat(draws.log()).isNotEmpty(); // the same mechanism, the same cost
            assertThat(a.answer().cost()).isEqualTo(r.cost());
            assertThat(a.records()).isPresent();
        }
        for (int q = 0; q < w.queryCount(); q++) {
            assertThat(a.answer().lower()[q]).isBetween(0.0, a.answer().estimates()[q]);
            assertThat(a.answer().upper()[q]).isBetween(a.answer().estimates()[q], 1.0);
        }
    }
}

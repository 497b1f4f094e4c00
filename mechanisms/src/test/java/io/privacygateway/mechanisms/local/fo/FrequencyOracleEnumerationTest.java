package io.privacygateway.mechanisms.local.fo;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.coins.SplitMix64;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.testing.OracleCatalogue;
import io.privacygateway.mechanisms.param.ExpBounds;
import io.privacygateway.mechanisms.random.DrawTree;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Exact ε-LDP of what {@code randomize} itself does. For every oracle on small domains, several ε and
 * public bases (every tree level, several OLH hash functions), the law of {@code randomize(x, base, ·)} is
 * computed for every value {@code x} by enumerating its whole draw tree with exact rational probabilities
 * ({@link DrawTree}). Then, exactly:
 * <ol>
 *   <li>the law equals {@code outputProbability(x, ·, base)} on every payload byte string (so the stated
 *       law that the other privacy tests and the estimators use is the law the device realises);</li>
 *   <li>for every payload, {@code max_x P(y|x) <= L · min_x P(y|x)} with {@code L = ExpBounds.lowerBoundExact(ε)
 *       <= e^ε}: the realised privacy loss is at most the declared ε;</li>
 *   <li>the worst ratio reaches {@code e^ε} up to the {@code 2^-53} grid: the declared ε is the realised
 *       loss, not a loose bound.</li>
 * </ol>
 * A control randomizer whose coin is set for {@code ε + 0.01} while it declares {@code ε} must fail (1) and
 * (2), while the older check on {@code outputProbability} alone passes it.
 */
class FrequencyOracleEnumerationTest {
    private static final double[] EPSILONS = {0.05, 0.5, 1.0, Math.log(3), 2.5, 5.0};
    private static final HexFormat HEX = HexFormat.of();

    /** The exact law of {@code randomize(x, base, ·)}, payloads in hex. */
    static Map<String, Rational> law(FrequencyOracle o, int x, long base) {
        return DrawTree.law((SecretDraws d) -> HEX.formatHex(o.randomize(x, base, d)));
    }

    /** The outcome of the three checks for one oracle and base. */
    record Outcome(boolean lawMatches, boolean ratioWithinBound, double worstRatio) {}

    static Outcome check(FrequencyOracle o, long base) {
        int k = o.domainSize();
        List<Map<String, Rational>> laws = new ArrayList<>();
        for (int x = 0; x < k; x++) {
            Map<String, Rational> law = law(o, x, base);
            Rational total = Rational.ZERO;
            for (Rational p : law.values()) {
                total = total.add(p);
            }
            assertThat(total).as("%s: the enumerated law sums to 1", o.id()).isEqualTo(Rational.ONE);
            laws.add(law);
        }
        boolean matches = true;
        for (byte[] y : PrivacyCheck.allPayloads(o)) {
            String key = HEX.formatHex(y);
            for (int x = 0; x < k; x++) {
                Rational enumerated = laws.get(x).getOrDefault(key, Rational.ZERO);
                matches &= enumerated.equals(o.outputProbability(x, y, base));
            }
        }
        BigDecimal l = ExpBounds.lowerBoundExact(o.epsilon().value(), 40);
        Set<String> support = new LinkedHashSet<>();
        laws.forEach(m -> support.addAll(m.keySet()));
        boolean within = true;
        double worst = 0;
        for (String y : support) {
            Rational max = null;
            Rational min = null;
            for (Map<String, Rational> law : laws) {
                Rational p = law.getOrDefault(y, Rational.ZERO);
                max = max == null || p.compareTo(max) > 0 ? p : max;
                min = min == null || p.compareTo(min) < 0 ? p : min;
            }
            within &= max.ratioAtMost(min, l);
            worst = Math.max(worst, min.isZero() ? Double.POSITIVE_INFINITY : max.doubleValue() / min.doubleValue());
        }
        return new Outcome(matches, within, worst);
    }

    static List<FrequencyOracle> oracles(int k, Epsilon e) {
        return OracleCatalogue.every(k, e);
    }

    /** Every tree level twice, six OLH hash functions, one base otherwise. */
    static List<Long> bases(FrequencyOracle o) {
        List<Long> out = new ArrayList<>();
        if (o instanceof TreeMechanism t) {
            int[] seen = new int[t.height() + 1];
            int covered = 0;
            for (int i = 0; covered < t.height(); i++) {
                long b = SplitMix64.mix64(0xE7 + i);
                int level = t.levelOf(b);
                if (seen[level] < 2) {
                    out.add(b);
                    if (++seen[level] == 2) {
                        covered++;
                    }
                }
            }
        } else {
            int n = o instanceof OptimizedLocalHashing ? 6 : 1;
            for (int i = 0; i < n; i++) {
                out.add(SplitMix64.mix64(0xE7 + i));
            }
        }
        return out;
    }

    @Test
    void theRealisedLawOfEveryRandomizerIsTheStatedOneAndIsExactlyPrivate() {
        int checked = 0;
        for (int k = 2; k <= 7; k++) {
            for (double eps : EPSILONS) {
                Epsilon e = Epsilon.of(eps);
                for (FrequencyOracle o : oracles(k, e)) {
                    double worst = 0;
                    for (long base : bases(o)) {
                        Outcome r = check(o, base);
                        String tag = o.id() + " k=" + k + " eps=" + eps + " base=" + base;
                        assertThat(r.lawMatches()).as("%s: randomize realises outputProbability", tag).isTrue();
                        assertThat(r.ratioWithinBound()).as("%s: ratio <= e^eps (worst %s)", tag, r.worstRatio())
                                .isTrue();
                        worst = Math.max(worst, r.worstRatio());
                        checked++;
                    }
                    // the declared ε is the realised loss: tight up to the grid (OLH and tree levels reach it
                    // under a hash that separates two values; the bases above include one for these k)
                    assertThat(worst).as("%s k=%d eps=%s tight", o.id(), k, eps)
                            .isGreaterThan(Math.exp(e.value()) * (1 - 1e-9));
                }
            }
        }
        assertThat(checked).isGreaterThan(500);
    }

    /**
     * The declared ε of a protocol is the loss its device realises, checked on the distribution (not by
     * reading the parameter back): at ε = 1.5 every mechanism's enumerated worst ratio is at most
     * {@code e^1.5} exactly and within {@code 1e-9} of it.
     */
    @Test
    void theDeclaredEpsilonIsTheRealisedOne() {
        Epsilon declared = Epsilon.of(1.5);
        for (MechanismId id : FrequencyOracles.SUPPORTED) {
            FrequencyOracle o = FrequencyOracles.create(id, 6, declared);
            double worst = 0;
            for (long base : bases(o)) {
                Outcome r = check(o, base);
                assertThat(r.ratioWithinBound()).as("%s: realised ε <= 1.5, exactly", id).isTrue();
                worst = Math.max(worst, r.worstRatio());
            }
            assertThat(Math.log(worst)).as("%s: realised ε", id).isGreaterThan(1.5 - 1e-9);
        }
    }

    // ------------------------------------------------------------------ control

    /**
     * A deliberately wrong randomizer (test only): it states GRR's law at ε, but its device side keeps the
     * value with GRR's probability for {@code ε + 0.01}. Its true ratio is about {@code e^(ε+0.01)}.
     */
    static final class LeakyGrr implements FrequencyOracle {
        final GeneralizedRandomizedResponse stated;
        final GeneralizedRandomizedResponse device;

        LeakyGrr(int k, double eps) {
            this.stated = new GeneralizedRandomizedResponse(k, Epsilon.of(eps));
            this.device = new GeneralizedRandomizedResponse(k, Epsilon.of(eps + 0.01));
        }

        @Override
        public MechanismId id() {
            return stated.id();
        }

        @Override
        public Epsilon epsilon() {
            return stated.epsilon();
        }

        @Override
        public int domainSize() {
            return stated.domainSize();
        }

        @Override
        public int payloadBytes() {
            return stated.payloadBytes();
        }

        @Override
        public byte[] randomize(int value, long publicBase, SecretDraws draws) {
            return device.randomize(value, publicBase, draws);
        }

        @Override
        public int stateLength() {
            return stated.stateLength();
        }

        @Override
        public boolean accumulate(byte[] payload, long publicBase, long[] state) {
            return stated.accumulate(payload, publicBase, state);
        }

        @Override
        public Rational outputProbability(int value, byte[] payload, long publicBase) {
            return stated.outputProbability(value, payload, publicBase);
        }
    }

    @Test
    void controlARandomizerLeakingEpsilonPlusOneHundredthIsCaught() {
        for (int k : new int[] {2, 3, 5}) {
            for (double eps : new double[] {0.1, 1.0, 3.0}) {
                LeakyGrr leaky = new LeakyGrr(k, eps);
                Outcome r = check(leaky, 0);
                assertThat(r.ratioWithinBound()).as("k=%d eps=%s: the ratio check catches the leak", k, eps).isFalse();
                assertThat(r.lawMatches()).as("k=%d eps=%s: the law check catches it too", k, eps).isFalse();
                assertThat(Math.log(r.worstRatio())).isCloseTo(eps + 0.01, org.assertj.core.api.Assertions.within(1e-9));
                // the check on outputProbability alone (the stated law) cannot see it
                assertThat(PrivacyCheck.exhaustive(leaky, 0).ratioOk()).isTrue();
            }
        }
    }
}

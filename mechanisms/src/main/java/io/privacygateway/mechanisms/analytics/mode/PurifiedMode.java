package io.privacygateway.mechanisms.analytics.mode;

import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.analytics.ptr.DistanceTest;
import io.privacygateway.mechanisms.central.PrivacySplit;
import io.privacygateway.mechanisms.central.purification.DiscretePurifier;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Pure-DP mode release by distance to instability, purified (purification paper §5.2, Algorithm 12; Vadhan
 * Proposition 3.3 for the test): release the mode a if the {@link DistanceTest} passes on
 * {@code dist = ⌊g/u⌋}, else ⊥; then purify the choice among {@code k + 1} outputs with the binary-embedding
 * purifier ({@link DiscretePurifier}, Algorithm 2).
 *
 * <p><b>The distance</b> ({@link ModeMechanism#margin}): {@code g = min_{b≠a}(c_a − c_b + [a<b]) − 1 >= 0} for
 * the mode a (ties to the first label); a neighbour step moves every difference {@code c_a − c_b} by at most
 * {@code u} (L under add/remove, 2L under replace-one). So {@code dist = ⌊g/u⌋} moves by at most 1 while the
 * mode stays, and if a neighbour has another mode a', then {@code c_a − c_{a'} + [a<a'] <= u} (it changes sign
 * within one step), so {@code g <= u − 1} and dist = 0 on both sides. This is exactly {@link DistanceTest}'s
 * precondition, so the choice is {@code (ε_test, δ)}-DP, {@code δ <= e^{−T/t}}. (The paper's
 * {@code ⌈(occ₁ − occ₂)/2⌉ − 1} is the same distance for replace-one neighbours with L = 1, up to the tie rule.)
 *
 * <p><b>Purification</b>: the index (label index, or k for ⊥) goes through {@link DiscretePurifier} with
 * {@code ε'} and the test's δ, on {@code bits >= ⌈log₂(k+1)⌉} bits; a decoded index {@code >= k} is ⊥
 * (post-processing). Pure {@code ε_test + ε'} (Theorem 2, with the lattice Δ of
 * {@code docs/purification-discretised.md}). The mixing weight of Algorithm 2 is {@code 2^{−bits}}: padding
 * with unused high bits lowers it, at the price of more coordinates; the bit count is a planning choice.
 *
 * <p><b>Parameters</b> (public, chosen once per workload): the ε split between test and purification, the
 * threshold T and the bit count minimise the gap between the two largest counts needed to release the true
 * mode with the workload's confidence ({@link #gapForConfidence}); the purifier's probability of leaving the
 * index unchanged ({@link DiscretePurifier#probabilityUnchangedLowerBound}) caps what any gap can give.
 */
public final class PurifiedMode extends AbstractWindowMechanism implements ModeMechanism {
    private static final double[] TEST_SHARES = {0.3, 0.4, 0.5, 0.6, 0.7};
    private static final double[] LOG_INVERSE_DELTA = {5, 7, 10, 14, 20, 28, 40, 56, 80, 113, 160, 226, 320};
    private static final int EXTRA_BITS = 6;

    private final long step;
    private final DistanceTest test;
    private final DiscretePurifier purifier;
    private final double epsilonPrime;
    private final double keep;
    private final long gapForConfidence;

    /**
     * The release with explicit parameters (for exact privacy tests on small grids; the public constructor
     * chooses them). {@code epsilonPrime} must be the purifier's ε'.
     */
    public static PurifiedMode withParameters(Workload workload, AnalyticsBudget budget, DistanceTest test,
            DiscretePurifier purifier) {
        return new PurifiedMode(workload, budget, test, purifier);
    }

    private PurifiedMode(Workload workload, AnalyticsBudget budget, DistanceTest test, DiscretePurifier purifier) {
        super(MechanismId.MODE_PTR, workload, budget);
        this.step = ModeMechanism.differenceStep(budget.addRemove(), budget.contributions());
        this.test = Require.nonNull("test", test);
        this.purifier = Require.nonNull("purifier", purifier);
        if (purifier.bits() < 64 - Long.numberOfLeadingZeros(workload.universeSize())) {
            throw new IllegalArgumentException("the purifier needs at least ⌈log2(k + 1)⌉ bits");
        }
        if (purifier.cubePurifier().logDelta().value() < test.logDelta().value()) {
            throw new IllegalArgumentException("the purifier must be built for the test's δ or a larger one");
        }
        this.epsilonPrime = purifier.cubePurifier().epsilonPrime().value();
        this.keep = purifier.probabilityUnchangedLowerBound();
        this.gapForConfidence = keep > budget.confidence()
                ? test.distanceFor(budget.confidence() / keep) * step + 1 : Long.MAX_VALUE;
        charge(test.epsilon(), epsilonPrime);
    }

    public PurifiedMode(Workload workload, AnalyticsBudget budget) {
        super(MechanismId.MODE_PTR, workload, budget);
        this.step = ModeMechanism.differenceStep(budget.addRemove(), budget.contributions());
        int k = workload.universeSize();
        int minBits = 64 - Long.numberOfLeadingZeros(k); // ⌈log2(k + 1)⌉
        Choice best = null;
        for (int bits = minBits; bits <= Math.min(DiscretePurifier.MAX_BITS, minBits + EXTRA_BITS); bits++) {
            for (double share : TEST_SHARES) {
                double[] parts = PrivacySplit.split(budget.epsilon(), share, 1 - share);
                for (double li : LOG_INVERSE_DELTA) {
                    long threshold = (long) Math.ceil(li * PrivacySplit.dyadicUp(1, parts[0]).doubleValue());
                    Choice c = Choice.evaluate(bits, parts[0], parts[1], threshold, step, budget.confidence());
                    if (c != null && c.betterThan(best)) {
                        best = c;
                    }
                }
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("mode-ptr: no parameters purify a choice among " + (k + 1)
                    + " outputs at ε = " + budget.epsilon());
        }
        this.test = best.test;
        this.purifier = best.purifier;
        this.epsilonPrime = best.epsilonPrime;
        this.keep = best.keep;
        this.gapForConfidence = best.gap;
        charge(test.epsilon(), epsilonPrime);
    }

    /** One candidate parameter set and its planning figures. */
    private record Choice(DistanceTest test, DiscretePurifier purifier, double epsilonPrime, double keep, long gap) {
        static Choice evaluate(int bits, double epsTest, double epsPrime, long threshold, long step, double conf) {
            try {
                DistanceTest t = new DistanceTest(epsTest, threshold);
                DiscretePurifier p = new DiscretePurifier(bits, Epsilon.exactly(new BigDecimal(epsPrime)), t.logDelta());
                double keep = p.probabilityUnchangedLowerBound();
                long gap = keep > conf ? t.distanceFor(conf / keep) * step + 1 : Long.MAX_VALUE;
                return new Choice(t, p, epsPrime, keep, gap);
            } catch (IllegalArgumentException e) {
                return null; // e.g. ε' too small for the purifier's grid
            }
        }

        boolean betterThan(Choice o) {
            if (o == null) {
                return true;
            }
            if (gap != o.gap) {
                return gap < o.gap;
            }
            return keep > o.keep;
        }
    }

    public DistanceTest test() {
        return test;
    }

    public DiscretePurifier purifier() {
        return purifier;
    }

    /** The distance the test sees for these counts: {@code ⌊g/u⌋}. */
    public long distance(long[] counts) {
        return ModeMechanism.margin(counts) / step;
    }

    /** The (ε_test, δ)-DP choice before purification: the mode's index, or k for ⊥. */
    public int approximateChoice(long[] counts, RandomBits secret) {
        return test.passes(distance(counts), secret) ? WindowStatistics.mode(counts) : counts.length;
    }

    /** The purified choice: a label index, or −1 for ⊥ (an index {@code >= k} decodes to ⊥). */
    public int sample(long[] counts, RandomBits secret) {
        long out = purifier.purify(approximateChoice(counts, secret), secret);
        return out < counts.length ? (int) out : -1;
    }

    /** {@code P(test passes)·P(purification keeps the index)}: a lower bound on releasing the mode. */
    @Override
    public double probabilityCorrect(long[] counts) {
        return test.passProbability(distance(counts)) * keep;
    }

    @Override
    public long gapForConfidence() {
        return gapForConfidence;
    }

    /** A lower bound on the probability that purification leaves the test's choice unchanged. */
    public double keepProbability() {
        return keep;
    }

    @Override
    public double predictedError() {
        return Double.NaN;
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(new Parameter("epsilonTest", test.epsilon()), new Parameter("threshold", test.threshold()),
                new Parameter("logDelta", test.logDelta().value()), new Parameter("epsilonPurification", epsilonPrime),
                new Parameter("bits", purifier.bits()), new Parameter("keepProbability", keep),
                new Parameter("gapForConfidence", gapForConfidence == Long.MAX_VALUE ? -1 : gapForConfidence));
    }

    @Override
    public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
        int released = sample(counts, secret);
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("released", released >= 0 ? 1.0 : 0.0);
        s.put("stable", released >= 0 ? 1.0 : 0.0);
        s.put("gapForConfidence", gapForConfidence == Long.MAX_VALUE ? -1.0 : (double) gapForConfidence);
        s.put("keepProbability", keep);
        s.put("threshold", (double) test.threshold());
        s.put("epsilonTest", test.epsilon());
        s.put("epsilonPurification", epsilonPrime);
        s.put("logDelta", test.logDelta().value());
        List<Answer.LevelDetail> levels = List.of(new Answer.LevelDetail(1, new PrivacyCost.Pure(test.epsilon()), 1,
                test.noise().scaleDouble(), 0, counts.length + 1, OptionalDouble.empty()));
        return ModeMechanism.answer(workload, id(), cost(), count.published(), released, s, budget.confidence(), levels);
    }
}

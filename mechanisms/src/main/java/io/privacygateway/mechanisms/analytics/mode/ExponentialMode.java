package io.privacygateway.mechanisms.analytics.mode;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.AbstractWindowMechanism;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.ExactRationals;
import io.privacygateway.mechanisms.analytics.ReleasedCount;
import io.privacygateway.mechanisms.analytics.WindowStatistics;
import io.privacygateway.mechanisms.central.sampling.BernoulliExp;
import io.privacygateway.mechanisms.param.DirectedDoubles;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.ExactSampler;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Workload;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The pure-DP baseline for the mode: the exponential mechanism with the counts as utility (McSherry and
 * Talwar 2007; Dwork and Roth, Theorem 3.10), {@code P(i) ∝ e^{k·c_i}}, sampled exactly.
 *
 * <p><b>Privacy.</b> A neighbour step moves every count by at most L. Under add/remove all counts move in the
 * same direction (the utility is monotone), so {@code k = ε/L} gives ε-DP: for an added device,
 * {@code P_D(i)/P_{D'}(i) = e^{−k(c'_i − c_i)}·Z_{D'}/Z_D <= 1·e^{kL}} and the reverse ratio is at most
 * {@code e^{kL}·1}. Under replace-one counts move both ways, and {@code k = ε/(2L)}. k is the largest double not
 * above the exact quotient, and {@link #cost()} is the exact {@code k·sensitivity}, rounded up.
 *
 * <p><b>Sampler.</b> Propose a label uniformly ({@link ExactSampler#uniformInt}) and accept it with probability
 * exactly {@code e^{−k(c_max − c_i)}} ({@link BernoulliExp} with the exact rational exponent): the accepted label
 * has probability exactly {@code ∝ e^{k c_i}}. The expected number of proposals is at most the number of labels.
 * This is equivalent to report-noisy-max with Gumbel noise; no floating-point sampling is involved.
 */
public final class ExponentialMode extends AbstractWindowMechanism implements ModeMechanism {
    private final double k;
    private final Rational kExact;
    private final long step;
    private final double spent;

    public ExponentialMode(Workload workload, AnalyticsBudget budget) {
        super(MechanismId.MODE_EXPONENTIAL, workload, budget);
        this.step = budget.contributions() * (budget.addRemove() ? 1L : 2L);
        this.k = ExactRationals.floorQuotient(budget.epsilon(), BigInteger.valueOf(step));
        Require.finitePositive("k", k);
        this.kExact = ExactRationals.of(k);
        this.spent = DirectedDoubles.ceil(new BigDecimal(k).multiply(BigDecimal.valueOf(step)));
        charge(spent);
    }

    /** The exponent's factor k (the utility of label i is {@code k·c_i}). */
    public double k() {
        return k;
    }

    /** One exact draw: label i with probability {@code e^{k c_i}/Σ_j e^{k c_j}}. */
    public int sample(long[] counts, RandomBits secret) {
        long max = counts[WindowStatistics.mode(counts)];
        while (true) {
            int i = ExactSampler.uniformInt(secret, counts.length);
            BigInteger gap = BigInteger.valueOf(max - counts[i]);
            if (BernoulliExp.sample(secret, kExact.numerator().multiply(gap), kExact.denominator())) {
                return i;
            }
        }
    }

    /** {@code P(i)} as doubles (log-sum-exp), for tests and planning. */
    public double[] probabilities(long[] counts) {
        long max = counts[WindowStatistics.mode(counts)];
        double[] p = new double[counts.length];
        double z = 0;
        for (int i = 0; i < p.length; i++) {
            p[i] = Math.exp(-k * (max - counts[i]));
            z += p[i];
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= z;
        }
        return p;
    }

    @Override
    public double probabilityCorrect(long[] counts) {
        long max = counts[WindowStatistics.mode(counts)];
        double[] p = probabilities(counts);
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            if (counts[i] == max) {
                s += p[i];
            }
        }
        return s;
    }

    /** {@code ⌈ln((k−1)·c/(1−c))/k_exp⌉}: then {@code P(mode) >= 1/(1 + (K−1)e^{−k·gap}) >= c}. */
    @Override
    public long gapForConfidence() {
        int labels = workload.universeSize();
        double c = budget.confidence();
        return Math.max(1, (long) Math.ceil(Math.log((labels - 1) * c / (1 - c)) / k));
    }

    @Override
    public double predictedError() {
        return Double.NaN;
    }

    @Override
    public List<Parameter> parameters() {
        return List.of(new Parameter("k", k), new Parameter("epsilon", spent),
                new Parameter("gapForConfidence", gapForConfidence()));
    }

    @Override
    public Answer release(long[] counts, ReleasedCount count, RandomBits secret) {
        int i = sample(counts, secret);
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("released", 1.0);
        s.put("gapForConfidence", (double) gapForConfidence());
        s.put("epsilonSelection", spent);
        List<Answer.LevelDetail> levels = List.of(
                new Answer.LevelDetail(1, new PrivacyCost.Pure(spent), 1, 1 / k, 0, counts.length,
                        OptionalDouble.empty()));
        return ModeMechanism.answer(workload, id(), cost(), count.published(), i, s, budget.confidence(), levels);
    }
}

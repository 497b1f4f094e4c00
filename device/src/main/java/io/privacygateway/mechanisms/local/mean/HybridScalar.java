package io.privacygateway.mechanisms.local.mean;

import io.privacygateway.mechanisms.local.fo.Grid;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.random.Rational;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.MechanismId;

/**
 * The hybrid mechanism of Wang et al. (ICDE 2019, §III-C): with probability β the (discretised) piecewise
 * mechanism, otherwise Duchi et al.'s, both at the full ε; {@code β = 1 − e^{−ε/2}} for {@code ε > ε*}, else 0,
 * with {@code ε* = ln((−5 + 2∛(6353 − 405√241) + 2∛(6353 + 405√241))/27) ≈ 0.61} (the paper's choice, which
 * minimises the worst-case variance of the continuous pair). β is rounded down to the {@code 2^-53} grid.
 *
 * <p><b>Outputs.</b> Symbols {@code [0, M)} are the piecewise cells, {@code M} and {@code M+1} Duchi's − and +.
 * Unbiased (each branch is); variance {@code β·V_PM(t) + (1−β)·V_Duchi(t)}.
 *
 * <p><b>Guarantee.</b> ε-LDP exactly: {@code P(y|x)} is {@code β·P_PM(y|x)} or {@code (1−β)·P_D(y|x)}, each
 * branch being ε-LDP. Secret draws, always the same: Bernoulli β, Duchi's draw, the piecewise draws (both
 * branches are drawn whatever the first coin says).
 */
public final class HybridScalar implements ScalarRandomizer {
    /** ε* of the paper, below which β = 0 (the hybrid is Duchi's mechanism). */
    public static final double EPSILON_STAR = StrictMath.log((-5 + 2 * StrictMath.cbrt(6353 - 405 * Math.sqrt(241))
            + 2 * StrictMath.cbrt(6353 + 405 * Math.sqrt(241))) / 27);

    private final PiecewiseScalar piecewise;
    private final DuchiScalar duchi;
    private final long beta;

    /** With {@link PiecewiseScalar#DEFAULT_CELLS} piecewise cells. */
    public HybridScalar(int levels, Epsilon epsilon) {
        this(levels, epsilon, PiecewiseScalar.DEFAULT_CELLS);
    }

    /**
     * @param levels input levels
     * @param epsilon per-report ε
     * @param cells the piecewise branch's output cells
     */
    public HybridScalar(int levels, Epsilon epsilon, int cells) {
        this.piecewise = new PiecewiseScalar(levels, epsilon, cells);
        this.duchi = new DuchiScalar(levels, epsilon);
        double e = epsilon.value();
        double b = e > EPSILON_STAR ? 1 - StrictMath.exp(-e / 2) : 0;
        this.beta = (long) Math.floor(b * Grid.ONE);
    }

    /** β's numerator over {@code 2^53}. */
    public long betaNumerator() {
        return beta;
    }

    /** β as a double. */
    public double beta() {
        return beta / (double) Grid.ONE;
    }

    @Override
    public MechanismId id() {
        return MechanismId.HYBRID;
    }

    @Override
    public Epsilon epsilon() {
        return duchi.epsilon();
    }

    @Override
    public int levels() {
        return duchi.levels();
    }

    @Override
    public int outputCount() {
        return piecewise.cells() + 2;
    }

    @Override
    public int randomize(int x, SecretDraws draws) {
        ScalarRandomizer.checkLevel(x, levels());
        boolean usePiecewise = draws.bernoulli(beta, 53);
        int d = duchi.randomize(x, draws);
        int p = piecewise.randomize(x, draws);
        return usePiecewise ? p : piecewise.cells() + d;
    }

    @Override
    public double estimateOf(int y) {
        return y < piecewise.cells() ? piecewise.estimateOf(y) : duchi.estimateOf(y - piecewise.cells());
    }

    @Override
    public Rational probability(int x, int y) {
        Rational b = Rational.dyadic(beta);
        Rational notB = Rational.dyadic(Grid.ONE - beta);
        if (y >= 0 && y < piecewise.cells()) {
            return b.multiply(piecewise.probability(x, y));
        }
        return notB.multiply(duchi.probability(x, y - piecewise.cells()));
    }

    @Override
    public double variance(int x) {
        double b = beta();
        return b * piecewise.variance(x) + (1 - b) * duchi.variance(x);
    }
}

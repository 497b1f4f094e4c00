package io.privacygateway.mechanisms.central.wide;

/**
 * A finite universe {@code U} with a workload of linear queries {@code q : U → [0, 1]} in groups, as private
 * multiplicative weights sees it ({@link PrivateMultiplicativeWeights}): a distribution over U is a
 * {@code double[size()]}; a round selects one group, measures its queries and updates the distribution.
 *
 * <p>Two shapes: a <b>partition</b> group's queries are the indicators of the cells of a partition of U (a
 * marginal: exactly one query is 1 at every point), and a <b>single</b> group holds one query with values in
 * {@code [0, 1]}. The data statistic of a query is the exact integer {@code Σ_reports unit·q(x)} (a
 * partition's cell counts with {@code unit = 1}; a single query's values on a grid of {@code unit} steps), so
 * one report changes it by at most {@code unit}.
 *
 * <p>Everything here is public: the universe, the queries and their answers on a distribution are functions of
 * the workload and of the distribution, never of the data.
 */
public interface MwUniverse {
    /** |U|: the length of a distribution array. */
    int size();

    /** {@code ln |U|}: bounds {@code KL(D ‖ uniform)} for every distribution D over U. */
    double logSize();

    /** The number of selectable groups. */
    int groups();

    /** Queries per group. */
    int groupSize();

    /** Whether every group's queries are the indicators of a partition of U (else groups have one query). */
    boolean partition();

    /** Integer units per 1.0 of a query value in the data statistics: a power of two in {@code [1, 2^16]}. */
    long unit();

    /** {@code out[g][q] = Σ_u p(u)·q(u)} for every group and query, for a distribution p (sums to 1). */
    void answers(double[] p, double[][] out);

    /** {@code p(u) ← p(u)·exp(Σ_q eta[q]·q(u)) / Z} for group g, in place (Z renormalises to 1). */
    void update(double[] p, int g, double[] eta);
}

package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.central.synthetic.CertifiedSyntheticRelease;
import io.privacygateway.mechanisms.central.worstcase.WorstCaseChainingRelease;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.OptionalInt;

/**
 * The per-window release of a wide marginal workload, as the gateway runs it: from the window's exact
 * {@link MarginalCounts} (empty windows too) and secret randomness, a {@link WideAnswer} that is pure ε-DP (δ = 0)
 * with the declared ε. {@link #of} chooses the implementation once from the mechanism id; callers never branch on it
 * again.
 *
 * <ul>
 *   <li>{@link MechanismId#MWEM}: {@link PurifiedMwemRelease} (answers and synthetic records);</li>
 *   <li>{@link MechanismId#WORST_CASE_CHAINING}: {@link WorstCaseChainingRelease#forMarginals} (answers with a
 *       published l∞ bound, no records);</li>
 *   <li>{@link MechanismId#CERTIFIED_SYNTHETIC}: {@code CertifiedSyntheticRelease} (records, their marginals as
 *       answers, and the certificate as the l∞ bound; {@code records} required).</li>
 * </ul>
 */
public interface WideRelease {
    /** Releases a window from its exact marginal counts (each device at most L reports), with secret randomness. */
    WideAnswer release(MarginalCounts counts, RandomBits secret);

    /** The pure guarantee of every release with data: the exact sum of the shares spent, rounded up. */
    PrivacyCost.Pure cost();

    /**
     * The release a wide mechanism names, with parameters planned for the settings' ε and planned count.
     *
     * @param records MWEM: the number of synthetic records to sample per window (fixed instead of planned);
     *     certified-synthetic: the records per window (required)
     * @throws IllegalArgumentException for a mechanism that is not wide, or records with worst-case chaining
     */
    static WideRelease of(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
            OptionalInt records) {
        Require.nonNull("mechanism", mechanism);
        Require.nonNull("records", records);
        return switch (mechanism) {
            case MWEM -> PurifiedMwemRelease.of(workload, settings, mechanism,
                    MwemParameters.choose(workload, settings, OptionalInt.empty(), records));
            case WORST_CASE_CHAINING -> {
                if (records.isPresent()) {
                    throw new IllegalArgumentException("worst-case chaining yields no synthetic records");
                }
                yield WorstCaseChainingRelease.forMarginals(workload, settings, mechanism);
            }
            case CERTIFIED_SYNTHETIC -> CertifiedSyntheticRelease.of(
                    workload, settings, mechanism, records.orElseThrow(() -> new IllegalArgumentException(
                            "certified-synthetic needs the number of synthetic records per window")));
            default -> throw new IllegalArgumentException("mechanism " + mechanism.wireName()
                    + " is not a wide marginal release");
        };
    }
}

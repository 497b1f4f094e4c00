package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.central.synthetic.CertifiedSyntheticRelease;
import io.privacygateway.mechanisms.central.wide.MarginalWorkload;
import io.privacygateway.mechanisms.central.wide.MwemParameters;
import io.privacygateway.mechanisms.central.wide.PurifiedMwemRelease;
import io.privacygateway.mechanisms.central.wide.WideRelease;
import io.privacygateway.mechanisms.central.wide.WideSettings;
import io.privacygateway.mechanisms.central.worstcase.WorstCaseChainingRelease;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.OptionalInt;

/** The one place a wide mechanism id becomes its {@link WideRelease}. */
public final class WideReleases {
    private WideReleases() {}

    /**
     * The release a wide mechanism names, with parameters planned for the settings' ε and planned count.
     *
     * @param records MWEM: the number of synthetic records to sample per window (fixed instead of planned);
     *     certified-synthetic: the records per window (required)
     * @throws IllegalArgumentException for a mechanism that is not wide, or records with worst-case chaining
     */
    public static WideRelease of(MarginalWorkload workload, WideSettings settings, MechanismId mechanism,
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

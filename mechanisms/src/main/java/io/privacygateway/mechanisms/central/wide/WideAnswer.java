package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.release.Answer;
import java.util.Optional;

/**
 * One window's release of a wide workload: the answer (marginals with l∞ error bars and the published max-error
 * bound in {@code extras.maxErrorBound}) and, for the synthetic-data release, the purified records the answers were
 * computed from. Both carry the same pure guarantee ({@code answer.cost()}).
 *
 * @param answer the published answer
 * @param records the synthetic records (empty for releases that publish answers only, and for a replace-one window
 *     without reports)
 */
public record WideAnswer(Answer answer, Optional<SyntheticRecords> records) {
    public WideAnswer {
        Require.nonNull("answer", answer);
        Require.nonNull("records", records);
    }
}

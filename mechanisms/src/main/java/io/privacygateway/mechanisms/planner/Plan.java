package io.privacygateway.mechanisms.planner;

import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.List;

/**
 * The planner's result: a prediction per candidate and the choice {@code auto} makes.
 *
 * @param epsilon the ε planned for (per report, or per release in central mode)
 * @param n the planned number of reports per window
 * @param references the reference distributions the simulation used
 * @param predictions one per candidate, in a stable order
 * @param choice the chosen candidate's prediction
 * @param resolved the workload spec resolved to the choice
 * @param method how the predictions were obtained
 */
public record Plan(double epsilon, long n, List<ReferenceData> references, List<Prediction> predictions,
        Prediction choice, WorkloadSpec resolved, String method) {
    public Plan {
        references = List.copyOf(references);
        predictions = List.copyOf(predictions);
    }
}

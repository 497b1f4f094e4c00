package io.privacygateway.mechanisms.analytics.release;

import io.privacygateway.mechanisms.analytics.erm.GridExponentialErm;
import io.privacygateway.mechanisms.analytics.erm.OutputPerturbationErm;
import io.privacygateway.mechanisms.analytics.erm.PurifiedNoisyGd;
import io.privacygateway.mechanisms.analytics.mode.ExponentialMode;
import io.privacygateway.mechanisms.analytics.mode.PurifiedMode;
import io.privacygateway.mechanisms.analytics.regression.LaplaceSsp;
import io.privacygateway.mechanisms.analytics.regression.PurifiedAdaSsp;
import io.privacygateway.mechanisms.analytics.AnalyticsBudget;
import io.privacygateway.mechanisms.analytics.WindowMechanism;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.Workload;
import java.util.List;

/**
 * The factory of window-analytics mechanisms (one class per mechanism, chosen once here) and what each family
 * publishes besides its estimates (for record-size checks).
 */
public final class AnalyticsMechanisms {
    /** The most scalars any analytics answer carries. */
    public static final int MAX_SCALARS = 16;
    /** The most items any analytics answer carries (the mode's released label). */
    public static final int MAX_ITEMS = 1;

    private AnalyticsMechanisms() {}

    /** The mechanism a resolved analytics workload names. */
    public static WindowMechanism of(Workload w, AnalyticsBudget budget) {
        MechanismId id = w.spec().mechanism();
        return switch (id) {
            case MODE_PTR -> new PurifiedMode(w, budget);
            case MODE_EXPONENTIAL -> new ExponentialMode(w, budget);
            case REGRESSION_ADASSP -> new PurifiedAdaSsp(w, budget);
            case REGRESSION_SSP -> new LaplaceSsp(w, budget);
            case ERM_EXPONENTIAL -> new GridExponentialErm(w, budget);
            case ERM_DPSGD -> new PurifiedNoisyGd(w, budget);
            case ERM_OUTPUT_PERTURBATION -> new OutputPerturbationErm(w, budget);
            default -> throw new IllegalArgumentException("mechanism " + id.wireName() + " is not a window-analytics"
                    + " mechanism");
        };
    }

    /** Whether a mechanism is one of the window analytics'. */
    public static boolean isAnalytics(MechanismId id) {
        for (QueryFamily f : QueryFamily.values()) {
            if (f.isWindowAnalytics() && f.centralMechanisms().contains(id)) {
                return true;
            }
        }
        return false;
    }

    /** The family's error measure in words (planner and benchmark output). */
    public static String errorMeasure(QueryFamily f) {
        return switch (f) {
            case MODE -> "probability of not releasing a most frequent label";
            case REGRESSION -> "excess mean squared error MSE(θ) − MSE(θ_OLS), MSE = ‖y − Xθ‖²/(2n)";
            case ERM -> "excess regularized empirical risk over its minimum";
            default -> "RMS error";
        };
    }

    /** The families' mechanisms, for tools. */
    public static List<MechanismId> mechanisms(QueryFamily f) {
        return f.centralMechanisms();
    }
}

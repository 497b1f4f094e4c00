package io.privacygateway.mechanisms.testing;

import io.privacygateway.mechanisms.local.fo.FrequencyOracle;
import io.privacygateway.mechanisms.local.fo.GeneralizedRandomizedResponse;
import io.privacygateway.mechanisms.local.fo.HadamardResponse;
import io.privacygateway.mechanisms.local.fo.OptimizedLocalHashing;
import io.privacygateway.mechanisms.local.fo.OptimizedUnaryEncoding;
import io.privacygateway.mechanisms.local.fo.SubsetSelection;
import io.privacygateway.mechanisms.local.fo.TreeMechanism;
import io.privacygateway.mechanisms.param.Epsilon;
import java.util.ArrayList;
import java.util.List;

/** The frequency oracles that the exhaustive law, privacy and draw-trace tests enumerate, in one list. */
public final class OracleCatalogue {
    private OracleCatalogue() {
    }

    /**
     * Every frequency oracle over {@code k} values at {@code e}: GRR, OUE, subset selection at every subset size
     * 1..k−1, Hadamard response, OLH, and the tree at branchings 2 and 3 (those at most k), in that order.
     * Precondition: {@code k >= 2}.
     */
    public static List<FrequencyOracle> every(int k, Epsilon e) {
        List<FrequencyOracle> out = new ArrayList<>();
        out.add(new GeneralizedRandomizedResponse(k, e));
        out.add(new OptimizedUnaryEncoding(k, e));
        for (int d = 1; d < k; d++) {
            out.add(new SubsetSelection(k, e, d));
        }
        out.add(new HadamardResponse(k, e));
        out.add(new OptimizedLocalHashing(k, e));
        for (int b = 2; b <= Math.min(3, k); b++) {
            out.add(new TreeMechanism(k, e, b));
        }
        return out;
    }
}

package io.privacygateway.mechanisms.local.vector;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.privacygateway.mechanisms.local.mean.HybridScalar;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.testing.GoldenVectors;
import io.privacygateway.mechanisms.workload.MechanismId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The normative tables and choices of docs/wire-format.md §10.1 and §10.5 ({@code docs/test-vectors/vector-parameters.json}):
 * the half-normal order statistics {@code a_r, b_r} a device needs to choose the ball's {@code (t, s)} (as the 64-bit
 * patterns of the doubles {@link HalfNormalOrderStatistics#moments} computes), the {@code (t, s)} and the box's
 * {@code k} of a grid of {@code (d, ε)}, and hybrid's {@code ε*}. The test recomputes all of it with the production
 * code, so the file cannot drift; {@code -Dgolden.write=true} rewrites it.
 */
class BallOrderStatisticsGoldenTest {
    static final String FILE = "vector-parameters";
    static final int[] DIMENSIONS = {1, 2, 3, 8, 32, 100, 256};
    static final String[] EPSILONS = {"0.1", "0.5", "1", "2", "4", "8"};
    static final int[] BOX_DIMENSIONS = {1, 2, 5, 16, 40};
    static final int[] BOX_LEVELS = {2, 11, 1025};

    static Map<String, Object> build() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", FILE);
        out.put("specSection", "docs/wire-format.md §10.1, §10.5, §7.2");
        out.put("generator", "mechanisms/src/test/java/io/privacygateway/mechanisms/local/vector/"
                + "BallOrderStatisticsGoldenTest.java (-Dgolden.write=true)");
        out.put("hybridEpsilonStar", Double.toHexString(HybridScalar.EPSILON_STAR));
        List<Object> moments = new ArrayList<>();
        for (int m = 1; m <= HalfNormalOrderStatistics.MAX_M; m *= 2) {
            double[][] ab = HalfNormalOrderStatistics.moments(m);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("M", (long) m);
            e.put("a", bits(ab[0]));
            e.put("b", bits(ab[1]));
            moments.add(e);
        }
        out.put("orderStatistics", moments);
        List<Object> ball = new ArrayList<>();
        for (int d : DIMENSIONS) {
            for (String eps : EPSILONS) {
                int[] ts = BallCandidates.optimalParameters(d, Epsilon.exactly(new java.math.BigDecimal(eps)));
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("d", (long) d);
                e.put("epsilon", eps);
                e.put("candidateBits", (long) ts[0]);
                e.put("topSize", (long) ts[1]);
                ball.add(e);
            }
        }
        out.put("ball", ball);
        List<Object> box = new ArrayList<>();
        for (MechanismId id : new MechanismId[] {MechanismId.DUCHI, MechanismId.PIECEWISE, MechanismId.HYBRID}) {
            for (int d : BOX_DIMENSIONS) {
                for (int levels : BOX_LEVELS) {
                    for (String eps : EPSILONS) {
                        Map<String, Object> e = new LinkedHashMap<>();
                        e.put("mechanism", id.wireName());
                        e.put("d", (long) d);
                        e.put("levels", (long) levels);
                        e.put("epsilon", eps);
                        BoxCoordinates.Choice c;
                        try {
                            c = BoxCoordinates.bestSampled(d, levels, id, Epsilon.exactly(new java.math.BigDecimal(eps)));
                            e.put("sampled", (long) c.sampled());
                        } catch (IllegalArgumentException tooSmall) {
                            e.put("sampled", null);
                        }
                        box.add(e);
                    }
                }
            }
        }
        out.put("box", box);
        return out;
    }

    static List<String> bits(double[] v) {
        List<String> out = new ArrayList<>();
        for (double x : v) {
            out.add(GoldenVectors.hex(Double.doubleToRawLongBits(x)));
        }
        return out;
    }

    @Test
    void fileMatchesTheProductionCode() {
        if (GoldenVectors.writing()) {
            GoldenVectors.write(FILE, build());
            return;
        }
        JsonNode file = GoldenVectors.read(FILE);
        assertThat(GoldenVectors.tree(file)).as("docs/test-vectors/%s.json (regenerate with -Dgolden.write=true)", FILE)
                .isEqualTo(GoldenVectors.tree(GoldenVectors.toJson(build())));
    }
}

package io.privacygateway.mechanisms.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.linalg.PointSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProjectionInputsTest {
    private static final PointSet TRIANGLE = PointSet.of(3, new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});

    private static List<ConvexProjection> all() {
        return List.of(new SimplexProjection(3), new MonotoneUnitBoxProjection(3), new HullProjection(TRIANGLE, 1e-9));
    }

    @Test
    void rejectsNonFiniteEntriesNamingIndexAndValue() {
        for (ConvexProjection p : all()) {
            assertThatThrownBy(() -> p.project(new double[] {0.1, Double.NaN, 0.2}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("y[1] must be finite, got NaN");
            assertThatThrownBy(() -> p.project(new double[] {0.1, 0.2, Double.POSITIVE_INFINITY}))
                    .hasMessage("y[2] must be finite, got Infinity");
            assertThatThrownBy(() -> p.project(new double[] {Double.NEGATIVE_INFINITY, 0, 0}))
                    .hasMessage("y[0] must be finite, got -Infinity");
        }
    }

    @Test
    void rejectsWrongLengthAndNull() {
        for (ConvexProjection p : all()) {
            assertThatThrownBy(() -> p.project(new double[] {0.1, 0.2}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("y must have length 3, got 2");
            assertThatThrownBy(() -> p.project(new double[4])).hasMessage("y must have length 3, got 4");
            assertThatThrownBy(() -> p.project(null)).hasMessage("y is required");
        }
    }

    @Test
    void neverMutatesTheTarget() {
        for (ConvexProjection p : all()) {
            double[] y = {0.9, -0.4, 2.5};
            double[] copy = y.clone();
            ProjectionResult r = p.project(y);
            assertThat(y).containsExactly(copy);
            assertThat(r.point()).isNotSameAs(y);
        }
        HullProjection hull = new HullProjection(TRIANGLE, 1e-9);
        double[] y = {0.9, -0.4, 2.5};
        double[] start = {0.2, 0.3, 0.5};
        hull.project(y, start);
        assertThat(y).containsExactly(0.9, -0.4, 2.5);
        assertThat(start).containsExactly(0.2, 0.3, 0.5);
    }

    @Test
    void rejectsBadConstructorArguments() {
        assertThatThrownBy(() -> new SimplexProjection(0)).hasMessage("m must be an integer >= 1, got 0");
        assertThatThrownBy(() -> new MonotoneUnitBoxProjection(-2)).hasMessage("m must be an integer >= 1, got -2");
        assertThatThrownBy(() -> new HullProjection(null, 1e-9)).hasMessage("atoms is required");
        assertThatThrownBy(() -> new HullProjection(PointSet.of(2, new double[0][]), 1e-9))
                .hasMessage("atoms must hold at least one point, got 0");
        assertThatThrownBy(() -> new HullProjection(TRIANGLE, Double.NaN))
                .hasMessage("gapTolerance must be a finite number >= 0, got NaN");
        assertThatThrownBy(() -> new HullProjection(TRIANGLE, -1e-9))
                .hasMessage("gapTolerance must be a finite number >= 0, got -1.0E-9");
        assertThatThrownBy(() -> new HullProjection(TRIANGLE, 1e-9, 0))
                .hasMessage("maxIterations must be an integer >= 1, got 0");
    }

    @Test
    void rejectsBadInitialWeights() {
        HullProjection hull = new HullProjection(TRIANGLE, 1e-9);
        double[] y = {0.2, 0.2, 0.6};
        assertThatThrownBy(() -> hull.project(y, new double[] {1, 0}))
                .hasMessage("initialWeights must have length 3, got 2");
        assertThatThrownBy(() -> hull.project(y, new double[] {0.5, Double.NaN, 0.5}))
                .hasMessage("initialWeights[1] must be a finite number >= 0, got NaN");
        assertThatThrownBy(() -> hull.project(y, new double[] {0.5, -0.1, 0.6}))
                .hasMessage("initialWeights[1] must be a finite number >= 0, got -0.1");
        assertThatThrownBy(() -> hull.project(y, new double[] {0, 0, 0}))
                .hasMessage("initialWeights must have a positive sum, got 0.0");
        assertThatThrownBy(() -> hull.project(new double[] {Double.NaN, 0, 0}, new double[] {1, 1, 1}))
                .hasMessage("y[0] must be finite, got NaN");
        assertThat(hull.project(y, null).point()).hasSize(3);
    }

    @Test
    void resultRejectsImpossibleValues() {
        assertThatThrownBy(() -> new ProjectionResult(null, 0, null, 0)).hasMessage("point is required");
        assertThatThrownBy(() -> new ProjectionResult(new double[1], Double.NaN, null, 0))
                .hasMessage("dualityGap must be >= 0, got NaN");
        assertThatThrownBy(() -> new ProjectionResult(new double[1], -1, null, 0))
                .hasMessage("dualityGap must be >= 0, got -1.0");
        assertThatThrownBy(() -> new ProjectionResult(new double[1], 0, null, -1))
                .hasMessage("iterations must be >= 0, got -1");
        assertThat(new ProjectionResult(new double[1], 0.5, null, 0).distanceBound()).isEqualTo(1.0);
    }
}

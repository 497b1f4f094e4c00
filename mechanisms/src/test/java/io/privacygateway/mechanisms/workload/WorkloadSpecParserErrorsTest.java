package io.privacygateway.mechanisms.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A workload file with several errors reports all of them at once, each naming its field. */
class WorkloadSpecParserErrorsTest {
    static Map<?, ?> json(String text) throws Exception {
        return new ObjectMapper().readValue(text, Map.class);
    }

    @Test
    void aFileWithThreeErrorsReportsAllThree() throws Exception {
        Map<?, ?> tree = json("""
                {"id": "screen-usage", "version": "one", "family": "histogram",
                 "domain": {"labels": ["social", "video"]}, "epsilonPerReport": 1.0,
                 "budget": {"epsilonPerPeriod": 4.0, "period": "soon"}, "window": {"size": "1m", "grace": "10s"},
                 "confidenc": 0.9}
                """);
        InvalidWorkloadException e = catchThrowableOfType(InvalidWorkloadException.class,
                () -> WorkloadSpecParser.parse(tree));
        assertThat(e.errors()).extracting(InvalidWorkloadException::field)
                .containsExactly("confidenc", "version", "budget.period");
        assertThat(e.getMessage()).startsWith("3 errors: confidenc: unknown field").contains("; version: ")
                .contains("; budget.period: ");
        assertThat(e.field()).isEqualTo("confidenc");
    }

    @Test
    void aSingleErrorKeepsItsOneLineMessage() throws Exception {
        Map<?, ?> tree = json("""
                {"id": "screen-usage", "version": 0, "family": "histogram",
                 "domain": {"labels": ["social", "video"]}, "epsilonPerReport": 1.0,
                 "budget": {"epsilonPerPeriod": 4.0, "period": "1d"}, "window": {"size": "1m", "grace": "10s"}}
                """);
        InvalidWorkloadException e = catchThrowableOfType(InvalidWorkloadException.class,
                () -> WorkloadSpecParser.parse(tree));
        assertThat(e.errors()).containsExactly(e);
        assertThat(e.getMessage()).startsWith("version: ");
    }

    /**
     * Rules across fields that do not depend on each other are reported together too: a budget below the charge, a
     * chaining workload without its alpha and a since-activation horizon in local mode are three errors at once
     * (before, the first one hid the others).
     */
    @Test
    void independentRulesAcrossFieldsAreReportedTogether() throws Exception {
        Map<?, ?> tree = json("""
                {"id": "latency", "version": 1, "family": "cdf",
                 "domain": {"buckets": [0, 10, 50, 100, 500]}, "mechanism": "chaining", "epsilonPerReport": 2.0,
                 "budget": {"epsilonPerPeriod": 1.0, "period": "1d"},
                 "window": {"size": "1m", "grace": "10s", "horizons": ["since-activation"]}}
                """);
        InvalidWorkloadException e = catchThrowableOfType(InvalidWorkloadException.class,
                () -> WorkloadSpecParser.parse(tree));
        assertThat(e.errors()).extracting(InvalidWorkloadException::field)
                .containsExactly("window.horizons", "budget.epsilonPerPeriod", "alpha");
        assertThat(e.getMessage()).startsWith("3 errors: ");
    }

    /** Within a chain of dependent rules only the first error is reported: a later rule would read a bad part. */
    @Test
    void aDependentRuleStopsAtTheFirstError() throws Exception {
        Map<?, ?> tree = json("""
                {"id": "h", "version": 1, "family": "histogram", "domain": {"labels": ["a", "b"]},
                 "mechanism": "tree", "epsilonPerReport": 1.0,
                 "budget": {"epsilonPerPeriod": 1.0, "period": "1d"}, "window": {"size": "1m", "grace": "10s"}}
                """);
        InvalidWorkloadException e = catchThrowableOfType(InvalidWorkloadException.class,
                () -> WorkloadSpecParser.parse(tree));
        assertThat(e.errors()).extracting(InvalidWorkloadException::field).containsExactly("mechanism");
    }
}

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
}

package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workload files: YAML and JSON, errors that name the field. */
class WorkloadFilesTest {
    @TempDir
    Path dir;

    @Test
    void theExampleWorkloadsLoad() {
        WorkloadSpec s = WorkloadFiles.load(Path.of("..", "examples", "screen-usage.yaml"));
        assertThat(s.id()).isEqualTo("screen-usage");
        assertThat(s.reportsPerPeriod()).isEqualTo(4);
    }

    @Test
    void jsonIsReadToo() throws Exception {
        Path f = dir.resolve("w.json");
        Files.writeString(f, """
                {"id": "j", "version": 1, "family": "histogram", "domain": {"labels": ["a", "b"]},
                 "epsilonPerReport": 1.0, "budget": {"epsilonPerPeriod": 1.0, "period": "1d"},
                 "window": {"size": "1m", "grace": "0s"}}
                """);
        assertThat(WorkloadFiles.load(f).id()).isEqualTo("j");
    }

    @Test
    void errorsNameTheFieldAndTheValue() {
        assertThatThrownBy(() -> WorkloadFiles.parse("""
                id: x
                version: 1
                family: histogram
                domain: {labels: [a, b]}
                epsilonPerReport: 1.0
                budget: {epsilonPerPeriod: 1.0, period: soon}
                window: {size: 1m}
                """, "t")).isInstanceOf(InvalidWorkloadException.class).hasMessageContaining("budget.period")
                .hasMessageContaining("soon");
        assertThatThrownBy(() -> WorkloadFiles.load(dir.resolve("missing.yaml")))
                .isInstanceOf(InvalidWorkloadException.class).hasMessageContaining("no such file");
        assertThatThrownBy(() -> WorkloadFiles.parse("- a list", "t")).isInstanceOf(InvalidWorkloadException.class)
                .hasMessageContaining("map of fields");
    }
}

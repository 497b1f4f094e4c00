package io.privacygateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.schemas.avro.CentralReport;
import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.avro.Rejection;
import io.privacygateway.schemas.avro.WindowAnswer;
import io.privacygateway.schemas.avro.WorkloadSpecRecord;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.junit.jupiter.api.Test;

/**
 * Every value schema of this build is FULL-compatible with the schemas of the last release (kept under
 * {@code src/test/resources/released/}): readers of either version read data of the other. This is what the
 * registry's FULL_TRANSITIVE policy enforces at start-up; checking it here catches an incompatible change in the
 * build, before any registry sees it.
 */
class ReleasedSchemasCompatibilityTest {

    static Schema released(String name) throws IOException {
        try (InputStream in = ReleasedSchemasCompatibilityTest.class.getResourceAsStream("/released/0.1/" + name
                + ".avsc")) {
            return new Schema.Parser().parse(in);
        }
    }

    @Test
    void everyCurrentSchemaIsFullyCompatibleWithTheLastRelease() throws IOException {
        Map<String, Schema> current = Map.of("WindowAnswer", WindowAnswer.getClassSchema(), "Rejection",
                Rejection.getClassSchema(), "LocalReport", LocalReport.getClassSchema(), "CentralReport",
                CentralReport.getClassSchema(), "WorkloadSpecRecord", WorkloadSpecRecord.getClassSchema());
        for (var e : current.entrySet()) {
            Schema old = released(e.getKey());
            assertThat(SchemaCompatibility.checkReaderWriterCompatibility(e.getValue(), old).getType())
                    .as("%s: new readers read released data", e.getKey())
                    .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
            assertThat(SchemaCompatibility.checkReaderWriterCompatibility(old, e.getValue()).getType())
                    .as("%s: released readers read new data", e.getKey())
                    .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        }
    }
}

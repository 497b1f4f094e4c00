package io.privacygateway.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.schemas.avro.SyntheticData;
import java.io.IOException;
import java.io.InputStream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.junit.jupiter.api.Test;

/**
 * {@code SyntheticData} (the synthetic-data topic) is FULL-compatible with its first version (mwem's records, kept
 * under {@code src/test/resources/previous/}): the certificate fields were added with defaults, so readers of either
 * version read data of the other, as the registry's FULL_TRANSITIVE policy requires of a deployed topic.
 */
class SyntheticDataCompatibilityTest {
    @Test
    void theCertificateFieldsKeepSyntheticDataFullyCompatible() throws IOException {
        Schema previous;
        try (InputStream in = getClass().getResourceAsStream("/previous/SyntheticData.avsc")) {
            previous = new Schema.Parser().parse(in);
        }
        Schema current = SyntheticData.getClassSchema();
        assertThat(previous.getField("certificate")).isNull();
        assertThat(current.getField("certificate")).isNotNull();
        assertThat(current.getField("certificateQueries")).isNotNull();
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(current, previous).getType())
                .as("new readers read records written with the first version")
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(previous, current).getType())
                .as("first-version readers read new records")
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
    }
}

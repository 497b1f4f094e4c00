package io.privacygateway.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReportAdmissionTest {
    @Test
    void theRecordKeyIsComparedWithTheDeviceIdsUtf8Bytes() {
        for (String id : new String[] {"dev-1", "", "gerät-ü", "日本", "a\u0080b"}) {
            byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
            assertThat(ReportAdmission.isUtf8Of(utf8, id)).as(id).isTrue();
            assertThat(ReportAdmission.isUtf8Of(id.getBytes(StandardCharsets.ISO_8859_1), id))
                    .as("latin-1 bytes of %s", id).isEqualTo(id.chars().allMatch(c -> c < 0x80));
            assertThat(ReportAdmission.isUtf8Of((id + "x").getBytes(StandardCharsets.UTF_8), id)).isFalse();
        }
        assertThat(ReportAdmission.isUtf8Of("dev-2".getBytes(StandardCharsets.UTF_8), "dev-1")).isFalse();
    }
}

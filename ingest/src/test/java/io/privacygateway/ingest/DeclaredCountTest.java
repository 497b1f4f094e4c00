package io.privacygateway.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.client.DeviceReport;
import io.privacygateway.client.ReportEnvelope;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.vertx.core.buffer.Buffer;
import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** The report count a binary batch declares in its first bytes (read before the body is complete). */
class DeclaredCountTest {
    static final DeviceReport R = DeviceReport.local("w", 1, "h", new ReportCoordinates("d", 1, 0), 0L, "grr", 1.0,
            new byte[] {1}, 1);

    @Test
    void theCountIsReadFromTheFirstBytesAndUnknownUntilTheyArrive() {
        byte[] body = ReportEnvelope.encode(Collections.nCopies(300, R)); // 02, then zig-zag 300 = d8 04
        assertThat(IngestService.declaredCount(Buffer.buffer(body))).isEqualTo(300);
        assertThat(IngestService.declaredCount(Buffer.buffer(Arrays.copyOf(body, 3)))).isEqualTo(300);
        assertThat(IngestService.declaredCount(Buffer.buffer(Arrays.copyOf(body, 2))))
                .isEqualTo(IngestService.COUNT_UNKNOWN_YET);
        assertThat(IngestService.declaredCount(Buffer.buffer(new byte[0]))).isEqualTo(IngestService.COUNT_UNKNOWN_YET);
        // an Avro block: a negative count (then its byte size) counts its magnitude
        assertThat(IngestService.declaredCount(Buffer.buffer(new byte[] {2, (byte) 0xC7, 0x01, 10}))).isEqualTo(100);
        // 10^5: zig-zag 200000 = c0 9a 0c
        assertThat(IngestService.declaredCount(Buffer.buffer(new byte[] {2, (byte) 0xC0, (byte) 0x9A, 0x0C})))
                .isEqualTo(100_000);
        // not a varint: left to the full decoder (which names the problem)
        byte[] endless = new byte[12];
        Arrays.fill(endless, (byte) 0x80);
        assertThat(IngestService.declaredCount(Buffer.buffer(endless))).isZero();
    }
}

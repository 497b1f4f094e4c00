package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The device store: one atomic file for the ledger and the queue. */
class FileDeviceStoreTest {
    @TempDir
    Path dir;

    static DeviceReport report(int seq) {
        return DeviceReport.local("w", 1, "00".repeat(32), new ReportCoordinates("d", 5, seq), TestSpecs.T0, "grr", 1.0,
                new byte[] {(byte) seq}, 1);
    }

    /** A real ledger with one charge: what the admission routine makes. */
    static DeviceLedger charged(int reports) {
        WorkloadBinding w = WorkloadBinding.of(TestSpecs.local("store-w", 1.0, 5.0));
        DeviceLedger l = DeviceLedger.empty();
        for (int i = 0; i < reports; i++) {
            l = ((DeviceAdmission.Admitted) DeviceAdmission.admit(l, w.rules(), "d", TestSpecs.T0)).updated();
        }
        return l;
    }

    @Test
    void theChargeAndTheReportSurviveAReopen() throws IOException {
        DeviceLedger l = charged(2);
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            s.enqueue(l, report(1), 123L);
        }
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            assertThat(s.ledger()).isEqualTo(l);
            assertThat(s.queued()).singleElement().satisfies(e -> {
                assertThat(e.report()).isEqualTo(report(1));
                assertThat(e.acceptUntil()).isEqualTo(123L);
            });
            s.settle(Map.of(s.queued().get(0).id(), FileDeviceStore.Settlement.DROPPED));
        }
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            assertThat(s.queued()).isEmpty();
            assertThat(s.dropped()).isEqualTo(1);
            assertThat(s.ledger()).isEqualTo(l); // settling never forgets a charge
        }
    }

    @Test
    void aStagedChargeAndReportAreInMemoryOnlyUntilTheFlushThenDurableTogether() throws IOException {
        DeviceLedger one = charged(1);
        DeviceLedger two = charged(2);
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            s.enqueue(one, report(0), 1L);
            FileDeviceStore.Entry staged = s.stage(two, report(1), 2L);
            assertThat(s.ledger()).isEqualTo(two); // admission sees the staged charge: nothing is spent twice
            assertThat(s.queued()).hasSize(2);
            assertThat(s.durable(staged)).isFalse();
            assertThat(s.durableQueued()).extracting(FileDeviceStore.Entry::report).containsExactly(report(0));
        } // closed without a flush: a crash before the write
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            // the staged charge is forgotten only together with its report, which never left the device
            assertThat(s.ledger()).isEqualTo(one);
            assertThat(s.queued()).extracting(FileDeviceStore.Entry::report).containsExactly(report(0));
            s.stage(two, report(1), 2L);
            s.stage(charged(3), report(2), 3L);
            assertThat(s.flush()).isEmpty(); // one write for both
        }
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            assertThat(s.ledger()).isEqualTo(charged(3));
            assertThat(s.durableQueued()).extracting(FileDeviceStore.Entry::report)
                    .containsExactly(report(0), report(1), report(2));
        }
    }

    @Test
    void aFailedFlushDropsTheStagedReportsButKeepsTheirCharges() throws IOException {
        Path sub = dir.resolve("store");
        try (FileDeviceStore s = FileDeviceStore.open(sub)) {
            s.enqueue(charged(1), report(0), 1L);
            FileDeviceStore.Entry staged = s.stage(charged(2), report(1), 2L);
            Path moved = dir.resolve("away");
            Files.move(sub, moved); // the next write cannot create its temp file
            assertThat(s.flush()).containsExactly(staged);
            assertThat(s.queued()).extracting(FileDeviceStore.Entry::report).containsExactly(report(0));
            assertThat(s.ledger()).isEqualTo(charged(2)); // over-counting is the safe side
            Files.move(moved, sub);
            s.stage(charged(3), report(2), 3L);
            assertThat(s.flush()).isEmpty();
        }
        try (FileDeviceStore s = FileDeviceStore.open(sub)) {
            assertThat(s.ledger()).isEqualTo(charged(3));
            assertThat(s.queued()).extracting(FileDeviceStore.Entry::report).containsExactly(report(0), report(2));
        }
    }

    @Test
    void aTornTempFileIsIgnoredAndTheLastRenamedStateIsKept() throws IOException {
        DeviceLedger l = charged(1);
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            s.enqueue(l, report(0), 1L);
        }
        // a crash in the middle of the next write: a half-written, garbage temp file next to the state
        Files.write(dir.resolve(FileDeviceStore.TEMP), new byte[] {0x50, 0x47, 0x57, 0x44, 0, 0, 0, 1, 9, 9, 9});
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            assertThat(s.ledger()).isEqualTo(l);
            assertThat(s.queued()).hasSize(1);
            assertThat(Files.exists(dir.resolve(FileDeviceStore.TEMP))).isFalse();
        }
    }

    @Test
    void aCorruptStateFileIsRefusedNeverReset() throws IOException {
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            s.enqueue(charged(1), report(0), 1L);
        }
        Path state = dir.resolve(FileDeviceStore.STATE);
        byte[] b = Files.readAllBytes(state);
        b[b.length / 2] ^= 0x10;
        Files.write(state, b);
        assertThatThrownBy(() -> FileDeviceStore.open(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("corrupt device state").hasMessageContaining("checksum");
        Files.write(state, new byte[3]);
        assertThatThrownBy(() -> FileDeviceStore.open(dir)).hasMessageContaining("corrupt device state");
        assertThat(Files.readAllBytes(state)).hasSize(3); // left as found for the operator
    }

    @Test
    void aFullQueueRefusesBeforeWritingAnything() throws IOException {
        try (FileDeviceStore s = FileDeviceStore.open(dir, 2, 1 << 20)) {
            DeviceLedger l1 = charged(1);
            DeviceLedger l2 = charged(2);
            s.enqueue(l1, report(0), 1L);
            s.enqueue(l2, report(1), 1L);
            byte[] before = Files.readAllBytes(dir.resolve(FileDeviceStore.STATE));
            assertThatThrownBy(() -> s.enqueue(charged(3), report(2), 1L))
                    .isInstanceOf(FileDeviceStore.QueueFullException.class).hasMessageContaining("bounds 2 reports");
            assertThat(s.ledger()).isEqualTo(l2); // the refused report's charge was not recorded
            assertThat(Files.readAllBytes(dir.resolve(FileDeviceStore.STATE))).isEqualTo(before);
            assertThat(s.hasRoomFor(0)).isFalse();
        }
        try (FileDeviceStore s = FileDeviceStore.open(dir, 10, 40)) { // a byte bound below the next report's size
            assertThat(s.hasRoomFor(1)).isFalse();
        }
    }

    @Test
    void oneClientPerDirectory() throws IOException {
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            assertThatThrownBy(() -> FileDeviceStore.open(dir)).hasMessageContaining("in use by another client");
        }
        FileDeviceStore.open(dir).close(); // released on close
    }

    @Test
    void settledCountsAreDurable() throws IOException {
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            FileDeviceStore.Entry a = s.enqueue(charged(1), report(0), 1L);
            FileDeviceStore.Entry b = s.enqueue(charged(2), report(1), 1L);
            FileDeviceStore.Entry c = s.enqueue(charged(3), report(2), 1L);
            s.settle(Map.of(a.id(), FileDeviceStore.Settlement.ACCEPTED, b.id(), FileDeviceStore.Settlement.REJECTED));
            assertThat(s.queued()).extracting(FileDeviceStore.Entry::id).containsExactly(c.id());
        }
        try (FileDeviceStore s = FileDeviceStore.open(dir)) {
            assertThat(s.accepted()).isEqualTo(1);
            assertThat(s.rejected()).isEqualTo(1);
            assertThat(s.queued()).hasSize(1);
            FileDeviceStore.Entry d = s.enqueue(charged(4), report(3), 1L);
            assertThat(d.id()).isGreaterThan(s.queued().get(0).id()); // ids never reused
        }
    }

    @Test
    void badBoundsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> FileDeviceStore.open(dir, 0, 1)).hasMessageContaining("maxQueuedReports");
        assertThatThrownBy(() -> FileDeviceStore.open(dir, 1, 0)).hasMessageContaining("maxQueuedBytes");
    }
}

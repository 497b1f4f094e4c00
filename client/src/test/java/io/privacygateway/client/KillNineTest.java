package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.budget.Charge;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28's crash test: a device JVM charges and queues a report and is killed with SIGKILL before the report is
 * acknowledged; a second JVM on the same directory sends it. The endpoint counts it exactly once, the ledger on disk
 * holds the charge once, and the exhausted budget refuses the next report.
 */
class KillNineTest {
    @TempDir
    Path dir;
    TestIngest ingest;

    @BeforeEach
    void start() throws Exception {
        ingest = new TestIngest();
    }

    @AfterEach
    void stop() {
        ingest.close();
    }

    static Process child(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), KillNineChild.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Reads the child's stdout until a line starts with {@code prefix}; returns it. */
    static String awaitLine(Process p, String prefix) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = r.readLine()) != null; ) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("the child ended without printing " + prefix);
    }

    @Test
    void killedBetweenChargeAndSendTheReportIsSentOnceAfterRestartAndTheChargeKept() throws Exception {
        Process first = child("charge-blocked", dir.toString());
        assertThat(awaitLine(first, "QUEUED")).isEqualTo("QUEUED 1");
        first.destroyForcibly(); // SIGKILL: no shutdown hook, no close
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ingest.received()).isZero();

        afterRestart();
        assertThat(ingest.received()).isEqualTo(1);
    }

    /**
     * Killed after the endpoint took the batch but before it answered: the restarted device cannot know, sends it
     * again, and the endpoint (like the gateway) counts a report's coordinates once and answers DUPLICATE, which the
     * device settles as accepted.
     */
    @Test
    void killedWhileTheSendIsUnacknowledgedTheResendIsCountedOnce() throws Exception {
        ingest.then(TestIngest.Reply.hang());
        Process first = child("charge-inflight", dir.toString(), ingest.baseUrl());
        awaitLine(first, "QUEUED");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ingest.received() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(ingest.received()).isEqualTo(1); // on the wire, never acknowledged
        first.destroyForcibly();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();

        afterRestart();
        assertThat(ingest.received()).isEqualTo(2); // the resend
    }

    private void afterRestart() throws Exception {
        Process second = child("send", dir.toString(), ingest.baseUrl());
        assertThat(awaitLine(second, "DELIVERED")).isEqualTo("DELIVERED true 1");
        assertThat(awaitLine(second, "THEN")).isEqualTo("THEN BUDGET_EXHAUSTED");
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isZero();

        assertThat(ingest.counted).hasSize(1);
        DeviceReport sent = ingest.counted.values().iterator().next();
        assertThat(sent.sequence()).isZero();
        try (FileDeviceStore store = FileDeviceStore.open(dir)) {
            assertThat(store.queued()).isEmpty();
            assertThat(store.accepted()).isEqualTo(1);
            List<Charge> charges = store.ledger().charges().stream()
                    .filter(c -> c.workloadId().equals(KillNineChild.WORKLOAD)).toList();
            assertThat(charges).singleElement().satisfies(c -> assertThat(c.slotsUsed()).isEqualTo(1));
        }
    }
}

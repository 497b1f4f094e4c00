package io.privacygateway.client;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The device process of {@link KillNineTest}, run in its own JVM. Modes:
 * <ul>
 *   <li>{@code charge-blocked DIR}: reports one value with a transport that blocks before sending anything, prints
 *       {@code QUEUED period sequence} once {@link Client#report} returned (charge and report durable), and waits to
 *       be killed;
 *   <li>{@code charge-inflight DIR URL}: the same with the HTTP transport (the test endpoint takes the batch and never
 *       answers);
 *   <li>{@code send DIR URL}: opens the same directory, sends what is queued, prints {@code DELIVERED accepted},
 *       then tries one more report on the exhausted budget and prints {@code THEN status}.
 * </ul>
 */
public final class KillNineChild {
    static final String WORKLOAD = "w-kill";

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dir = Path.of(args[1]);
        ClientConfig.Builder b = ClientConfig.builder("device-k9", dir).workload(TestSpecs.local(WORKLOAD, 1.0, 1.0));
        if (mode.equals("charge-blocked")) {
            b.transport(new Transport() {
                @Override
                public List<ReportEnvelope.Result> send(List<DeviceReport> batch) {
                    System.out.println("SENDING");
                    System.out.flush();
                    while (true) {
                        try {
                            Thread.sleep(60_000);
                        } catch (InterruptedException e) {
                            // killed from outside only
                        }
                    }
                }
            });
        } else {
            b.transport(HttpTransport.builder(args[2]).credential("k9-cred").build());
        }
        Client c = Client.create(b.build());
        c.ready().get(60, TimeUnit.SECONDS);
        if (mode.startsWith("charge")) {
            c.report(WORKLOAD, "b"); // charges and stages the report in memory (no I/O)
            c.sync(); // the charge and the report on disk, in one atomic write
            var q = c.stats();
            System.out.println("QUEUED " + q.queued());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
        boolean empty = c.flush(java.time.Duration.ofSeconds(60));
        System.out.println("DELIVERED " + empty + " " + c.stats().accepted());
        System.out.println("THEN " + c.report(WORKLOAD, "c").getNow(null).status());
        System.out.flush();
        c.close();
    }
}

package io.privacygateway.itests.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A {@link GatewayMain} in a child JVM (this JVM's {@code java} and class path). Its output goes to a log
 * file and is kept in memory, so the test can wait for lines such as {@value GatewayMain#READY}.
 */
public final class ChildGateway implements AutoCloseable {
    private final String name;
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Path log;
    private final long startedNanos = System.nanoTime();
    private volatile String lastMetrics = "";
    private String loggedMetrics = "";
    private volatile long maxHeapAfterGc;
    private volatile long maxHeapUsed;
    private volatile int heapSamples;
    private final List<String> states = new CopyOnWriteArrayList<>();

    private ChildGateway(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        Thread pump = new Thread(this::pump, "child-output-" + name);
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts {@link GatewayMain} with {@code key=value} arguments; output is appended to {@code log}. */
    public static ChildGateway start(String name, List<String> args, Path log) throws IOException {
        return start(name, args, log, "-Xmx512m");
    }

    /** As {@link #start(String, List, Path)}, with the child's maximum heap (e.g. {@code -Xmx256m}). */
    public static ChildGateway start(String name, List<String> args, Path log, String maxHeap) throws IOException {
        String javaBin = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Under failsafe, java.class.path may be a manifest-only booter jar; the full list is in
        // surefire.test.class.path. Either works for the child.
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(javaBin, maxHeap, "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), "-cp", classPath, GatewayMain.class.getName()));
        command.addAll(args);
        Files.createDirectories(log.getParent());
        Files.writeString(log, "=== start " + name + " " + java.time.Instant.now() + "\n", StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new ChildGateway(name, p, log);
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); PrintWriter w = new PrintWriter(Files.newBufferedWriter(log,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("METRICS")) {
                    lastMetrics = line; // every 250 ms: kept out of the line list, logged only when it changes
                    String state = line.replaceAll("^METRICS state=(\\S+).*$", "$1");
                    if (states.isEmpty() || !states.get(states.size() - 1).equals(state)) {
                        states.add(state);
                    }
                    maxHeapAfterGc = Math.max(maxHeapAfterGc, value(line, "heapAfterGc"));
                    maxHeapUsed = Math.max(maxHeapUsed, value(line, "heapUsed"));
                    heapSamples++;
                    String counters = line.replaceAll(" heap\\w+=\\d+", "");
                    if (counters.equals(loggedMetrics)) {
                        continue;
                    }
                    loggedMetrics = counters;
                } else {
                    lines.add(line);
                }
                w.println(line);
                w.flush();
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Waits for an output line starting with {@code prefix}; fails with the output tail if the process dies. */
    public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (String l : lines) {
                if (l.startsWith(prefix)) {
                    return l;
                }
            }
            if (!process.isAlive()) {
                throw new AssertionError("gateway process " + name + " exited with " + process.exitValue()
                        + " before printing \"" + prefix + "\"; output tail:\n" + tail(40));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("gateway process " + name + " did not print \"" + prefix + "\" within " + timeout
                + "; output tail:\n" + tail(40));
    }

    /** The Kafka Streams states the process reported, in order, without repeats (e.g. RUNNING, REBALANCING, ...). */
    public List<String> states() {
        return List.copyOf(states);
    }

    /** Whether the process has printed a line starting with {@code prefix}. */
    public boolean printed(String prefix) {
        return lines.stream().anyMatch(l -> l.startsWith(prefix));
    }

    /** Waits for {@value GatewayMain#READY}; returns seconds since the process was started. */
    public double awaitReady(Duration timeout) throws InterruptedException {
        awaitLine(GatewayMain.READY, timeout);
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    /** The last {@code n} output lines. */
    public String tail(int n) {
        List<String> l = new ArrayList<>(lines);
        return String.join("\n", l.subList(Math.max(0, l.size() - n), l.size()));
    }

    /** A {@code key=number} field of a METRICS line (0 if absent). */
    public static long value(String metricsLine, String key) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:^| )" + java.util.regex.Pattern.quote(key)
                + "=(\\d+)").matcher(metricsLine);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** A field of the last METRICS line (0 if absent), e.g. {@code accepted} or {@code rejected[LATE]}. */
    public long metric(String key) {
        return value(lastMetrics, key);
    }

    private int gcRequests;

    /**
     * Asks the process for a full garbage collection and returns the heap it retains afterwards (bytes): what it
     * really holds, not garbage waiting for collection.
     */
    public synchronized long liveHeapAfterFullGc() throws IOException, InterruptedException {
        int n = ++gcRequests;
        process.getOutputStream().write("gc\n".getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
        String line = awaitLine("HEAP n=" + n + " ", Duration.ofSeconds(60));
        return value(line, "live");
    }

    /** The largest heap occupancy after a garbage collection the process reported (bytes). */
    public long maxHeapAfterGc() {
        return maxHeapAfterGc;
    }

    /** The largest heap use the process reported (bytes, garbage included). */
    public long maxHeapUsed() {
        return maxHeapUsed;
    }

    /** How many METRICS lines (heap samples, every 250 ms) were read. */
    public int heapSamples() {
        return heapSamples;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last METRICS line (counters since this process started). */
    public String lastMetrics() {
        return lastMetrics;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGSTOP: the process is frozen (as in a long pause) until {@link #resume()}. */
    public void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String sig) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("kill", sig, Long.toString(process.pid())).redirectErrorStream(true).start();
        if (p.waitFor() != 0) {
            throw new IOException("kill " + sig + " " + process.pid() + " failed");
        }
    }

    /** SIGKILL: no shutdown hook, no commit, no clean close. Waits until the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("gateway process " + name + " survived SIGKILL");
        }
    }

    /** SIGTERM (the gateway closes cleanly), SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}

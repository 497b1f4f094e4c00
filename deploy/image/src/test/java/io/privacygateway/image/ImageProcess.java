package io.privacygateway.image;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A command run inside an extracted image the way a container runtime would run it, without one: new
 * mount and PID namespaces ({@code unshare}) with {@code /proc} and {@code /dev} mounted into the image's
 * root, then {@code chroot} to it, the image's working directory, user and group, and only the image's
 * environment. The network is the machine's (so the process reaches servers on 127.0.0.1). Needs root.
 */
final class ImageProcess implements AutoCloseable {
    private final Process process;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Thread pump;

    private ImageProcess(Process process) {
        this.process = process;
        this.pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(output closed: " + e + ")");
            }
        }, "image-process-output");
        pump.setDaemon(true);
        pump.start();
    }

    /** The command line that runs {@code command} in the image rooted at {@code root}. */
    static List<String> commandLine(Path root, String user, String workDir, Map<String, String> env, List<String> command) {
        String[] ids = user.split(":");
        String unshare = tool("unshare");
        List<String> cmd = new ArrayList<>(List.of(unshare, "--mount", "--pid", "--fork", "--kill-child",
                tool("sh"), "-c",
                "set -e; root=$1; shift; mount --rbind /dev \"$root/dev\"; mount -t proc proc \"$root/proc\"; exec \"$@\"",
                "sh", root.toString(), tool("env"), "-i"));
        env.forEach((k, v) -> cmd.add(k + "=" + v));
        cmd.addAll(List.of(unshare, "--root=" + root, "--wd=" + workDir, "--setgid", ids.length > 1 ? ids[1] : ids[0],
                "--setuid", ids[0], "--"));
        cmd.addAll(command);
        return cmd;
    }

    static String tool(String name) {
        return Tools.find(name).orElseThrow(() -> new IllegalStateException(name + " is not installed")).toString();
    }

    static ImageProcess start(Path root, String user, String workDir, Map<String, String> env, List<String> command)
            throws IOException {
        Process p = new ProcessBuilder(commandLine(root, user, workDir, env, command)).redirectErrorStream(true).start();
        p.getOutputStream().close();
        return new ImageProcess(p);
    }

    /** Runs to the end (at most {@code timeout}) and returns the exit code and output. */
    static Tools.Result run(Path root, String user, String workDir, Map<String, String> env, List<String> command,
            Duration timeout) throws IOException, InterruptedException {
        try (ImageProcess p = start(root, user, workDir, env, command)) {
            if (!p.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(command + " did not finish within " + timeout + "; output:\n" + p.output());
            }
            p.pump.join(5000);
            return new Tools.Result(p.process.exitValue(), p.output());
        }
    }

    String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** Waits until a line matches (true) or the process ends or the time is up (false). */
    boolean awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            synchronized (lines) {
                if (lines.stream().anyMatch(match)) {
                    return true;
                }
            }
            if (!process.isAlive()) {
                return false;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** The command's own process (the namespaces' first process), once it has replaced the wrappers. */
    Optional<ProcessHandle> command() {
        return process.children().findFirst();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Sends SIGTERM to the command, as a container runtime's stop does, and waits for it to end. */
    Optional<Integer> stop(Duration timeout) throws InterruptedException {
        command().ifPresent(ProcessHandle::destroy);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return Optional.empty();
        }
        return Optional.of(process.exitValue());
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

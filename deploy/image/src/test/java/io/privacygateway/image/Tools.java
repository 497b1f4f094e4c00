package io.privacygateway.image;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Command-line tools the deploy tests use when the machine has them (.ci/run installs them). */
final class Tools {
    private Tools() {}

    /** What a finished command printed (stdout and stderr merged) and its exit code. */
    record Result(int exitCode, String output) {}

    static Optional<Path> find(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The tool, or skips the calling test with a message saying how to install it. */
    static Path require(String name, String debianPackage) {
        Optional<Path> p = find(name);
        assumeTrue(p.isPresent(), () -> name + " is not installed: this check is skipped (apt-get install "
                + debianPackage + "; .ci/run installs it)");
        return p.get();
    }

    /** Runs a command in {@code dir} with {@code env} added to (or, when a value is null, removed from) the environment. */
    static Result run(Path dir, Map<String, String> env, List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile()).redirectErrorStream(true);
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command + " did not finish within 120 s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

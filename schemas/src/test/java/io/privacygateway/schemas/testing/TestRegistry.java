package io.privacygateway.schemas.testing;

import io.privacygateway.harness.registry.EmbeddedRegistry;
import java.nio.file.Path;

/** Starts one real EmbeddedRegistry for a test class, logging to target/registry-logs. */
public final class TestRegistry {
    private TestRegistry() {}

    public static EmbeddedRegistry start(Class<?> testClass) {
        EmbeddedRegistry.Builder builder = EmbeddedRegistry.builder();
        String logDir = System.getProperty("privacygateway.registry.log.dir");
        if (logDir != null) {
            builder.logFile(Path.of(logDir, testClass.getSimpleName() + ".log"));
        }
        long start = System.nanoTime();
        EmbeddedRegistry registry = builder.start();
        System.out.printf("%s: registry %s answered after %d ms%n", testClass.getSimpleName(), registry,
                (System.nanoTime() - start) / 1_000_000);
        return registry;
    }
}

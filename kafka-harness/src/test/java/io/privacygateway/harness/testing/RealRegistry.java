package io.privacygateway.harness.testing;

import io.privacygateway.harness.registry.EmbeddedRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A real schema registry ({@link EmbeddedRegistry}, Apicurio as a child process) for a test class, as a JUnit 5
 * extension. Register it on a static field; it is running before the class's own {@code @BeforeAll} methods:
 *
 * <pre>{@code
 * @RegisterExtension static final RealRegistry registry = RealRegistry.shared();
 * ... registry.ccompatUrl() ...
 * }</pre>
 *
 * <p>{@link #shared()} starts one registry for the whole test JVM (the first class that asks starts it; it is
 * closed when the run ends) — for tests that only register the project's own schemas, which the registry
 * answers idempotently. {@link #perClass()} starts a fresh one per class and closes it after the class — for
 * tests of the registry itself (subjects, compatibility settings, request counts). Either way, when the
 * system property {@code privacygateway.registry.log.dir} is set the registry's output goes to a file there.
 * Methods may also take an {@link EmbeddedRegistry} parameter.
 */
public final class RealRegistry implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    /** The system property naming the directory for registry logs. */
    public static final String LOG_DIR_PROPERTY = "privacygateway.registry.log.dir";

    private final boolean shared;
    private volatile EmbeddedRegistry registry;

    private RealRegistry(boolean shared) {
        this.shared = shared;
    }

    /** One registry for the whole test JVM. */
    public static RealRegistry shared() {
        return new RealRegistry(true);
    }

    /** A registry of the test class's own, closed after it. */
    public static RealRegistry perClass() {
        return new RealRegistry(false);
    }

    /** Starts a registry, logging to {@code <log dir>/<name>.log} when {@link #LOG_DIR_PROPERTY} is set. */
    public static EmbeddedRegistry start(String name) {
        EmbeddedRegistry.Builder builder = EmbeddedRegistry.builder();
        String logDir = System.getProperty(LOG_DIR_PROPERTY);
        if (logDir != null) {
            builder.logFile(Path.of(logDir, name + ".log"));
        }
        long start = System.nanoTime();
        EmbeddedRegistry started = builder.start();
        System.out.printf("%s: registry %s answered after %d ms%n", name, started,
                (System.nanoTime() - start) / 1_000_000);
        return started;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (shared) {
            registry = RunScoped.get(context, SharedRegistry.class, "the shared registry",
                    () -> new SharedRegistry(start("shared-registry"))).registry;
        } else {
            registry = start(context.getRequiredTestClass().getSimpleName());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!shared && registry != null) {
            registry.close();
        }
    }

    /** The running registry (between the class's {@code @BeforeAll} and {@code @AfterAll}). */
    public EmbeddedRegistry registry() {
        if (registry == null) {
            throw new IllegalStateException("the registry is started before the test class's @BeforeAll methods; "
                    + "register this extension on a static field");
        }
        return registry;
    }

    /** The running registry's HTTP port. */
    public int port() {
        return registry().port();
    }

    /** The running registry's base address ({@code http://127.0.0.1:<port>}). */
    public String baseUrl() {
        return registry().baseUrl();
    }

    /** The Confluent-compatible API address of the running registry. */
    public String ccompatUrl() {
        return registry().ccompatUrl();
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == EmbeddedRegistry.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        return registry();
    }

    /** The JVM-wide registry, closed by JUnit when the root context closes (the end of the run). */
    private record SharedRegistry(EmbeddedRegistry registry) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            registry.close();
        }
    }
}

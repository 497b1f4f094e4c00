package io.privacygateway.schemas.testing;

import io.privacygateway.harness.testing.RealRegistry;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real schema registry ({@link RealRegistry}) with the project's client connected to it, for a test class:
 *
 * <pre>{@code
 * @RegisterExtension static final RegistryFixture registry = RegistryFixture.shared();
 * ... registry.client() ... registry.ccompatUrl() ...
 * }</pre>
 *
 * {@link #shared()} and {@link #perClass()} as in {@link RealRegistry}.
 */
public final class RegistryFixture implements BeforeAllCallback, AfterAllCallback {
    private final RealRegistry registry;
    private volatile SchemaRegistryClient client;

    private RegistryFixture(RealRegistry registry) {
        this.registry = registry;
    }

    /** One registry for the whole test JVM (tests that only register the project's own schemas). */
    public static RegistryFixture shared() {
        return new RegistryFixture(RealRegistry.shared());
    }

    /** A registry of the test class's own, closed after it. */
    public static RegistryFixture perClass() {
        return new RegistryFixture(RealRegistry.perClass());
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        registry.beforeAll(context);
        client = SchemaRegistryClient.forUrl(registry.ccompatUrl());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        registry.afterAll(context);
    }

    /** A client of the running registry, one per test class. */
    public SchemaRegistryClient client() {
        if (client == null) {
            throw new IllegalStateException("the registry is started before the test class's @BeforeAll methods; "
                    + "register this extension on a static field");
        }
        return client;
    }

    /** The running registry's base address ({@code http://127.0.0.1:<port>}). */
    public String baseUrl() {
        return registry.baseUrl();
    }

    /** The Confluent-compatible API address of the running registry. */
    public String ccompatUrl() {
        return registry.ccompatUrl();
    }
}

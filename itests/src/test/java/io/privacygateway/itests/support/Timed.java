package io.privacygateway.itests.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Prints how long each test method and each test class took. */
public final class Timed implements BeforeAllCallback, AfterAllCallback, BeforeTestExecutionCallback,
        AfterTestExecutionCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(Timed.class);

    @Override
    public void beforeAll(ExtensionContext c) {
        c.getStore(NS).put("class", System.nanoTime());
    }

    @Override
    public void afterAll(ExtensionContext c) {
        long t0 = c.getStore(NS).get("class", Long.class);
        System.out.printf("[it timing] %s: %.1f s%n", c.getRequiredTestClass().getSimpleName(),
                (System.nanoTime() - t0) / 1e9);
    }

    @Override
    public void beforeTestExecution(ExtensionContext c) {
        c.getStore(NS).put("method", System.nanoTime());
    }

    @Override
    public void afterTestExecution(ExtensionContext c) {
        long t0 = c.getStore(NS).get("method", Long.class);
        System.out.printf("[it timing] %s.%s: %.1f s%n", c.getRequiredTestClass().getSimpleName(),
                c.getRequiredTestMethod().getName(), (System.nanoTime() - t0) / 1e9);
    }
}

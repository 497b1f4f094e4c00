package io.privacygateway.harness.testing;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Fixtures that live for the whole test run (one JVM): started by the first test class that asks, kept in
 * JUnit's root store, and closed by JUnit when the run ends ({@link ExtensionContext.Store.CloseableResource}).
 */
public final class RunScoped {
    private RunScoped() {}

    /**
     * The run's instance of {@code type}, started with {@code start} on first use.
     *
     * @throws IllegalStateException if it cannot be started (with {@code what} and the cause)
     */
    public static <T extends ExtensionContext.Store.CloseableResource> T get(ExtensionContext context, Class<T> type,
            String what, Callable<T> start) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).getOrComputeIfAbsent(type, k -> {
            try {
                return start.call();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start " + what, e);
            }
        }, type);
    }

    /**
     * A JUnit extension for a run-scoped fixture: starts it before the first test class that uses the extension
     * and resolves test parameters of the fixture's type (and of any further types {@link #resolves} names).
     * Subclasses have a no-argument constructor (JUnit instantiates them from {@code @ExtendWith}).
     */
    public abstract static class Extension<T extends ExtensionContext.Store.CloseableResource>
            implements BeforeAllCallback, ParameterResolver {
        private final Class<T> type;
        private final String what;
        private final Callable<T> start;

        protected Extension(Class<T> type, String what, Callable<T> start) {
            this.type = type;
            this.what = what;
            this.start = start;
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            get(context, type, what, start);
        }

        @Override
        public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
            Class<?> wanted = p.getParameter().getType();
            return wanted == type || resolves(wanted);
        }

        @Override
        public Object resolveParameter(ParameterContext p, ExtensionContext e) {
            T fixture = get(e, type, what, start);
            Class<?> wanted = p.getParameter().getType();
            return wanted == type ? fixture : resolve(fixture, wanted);
        }

        /** Whether parameters of {@code wanted} (other than the fixture's type) are resolved from the fixture. */
        protected boolean resolves(Class<?> wanted) {
            return false;
        }

        /** The parameter of type {@code wanted} (one {@link #resolves} accepts) taken from the fixture. */
        protected Object resolve(T fixture, Class<?> wanted) {
            throw new IllegalArgumentException("cannot resolve " + wanted);
        }
    }
}

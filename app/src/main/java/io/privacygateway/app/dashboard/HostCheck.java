package io.privacygateway.app.dashboard;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The dashboard's defence against DNS rebinding: a page from another site that gets its own name resolved
 * to 127.0.0.1 can make the browser send requests to the dashboard, but those requests carry that site's
 * name in their {@code Host} header. Only {@code 127.0.0.1:<port>}, {@code localhost:<port>} and
 * {@code <bind host>:<port>} are accepted (case-insensitively; without the port too when the port is 80,
 * as browsers omit the default port); anything else, including a missing header, is refused.
 */
final class HostCheck {
    private final Set<String> accepted = new LinkedHashSet<>();

    /**
     * @param bindHost the configured bind host (a name or an address; IPv6 literals with or without brackets)
     * @param port the port actually bound
     */
    HostCheck(String bindHost, int port) {
        for (String h : new String[] {"127.0.0.1", "localhost", bindHost}) {
            String host = h.toLowerCase(Locale.ROOT);
            if (host.contains(":") && !host.startsWith("[")) {
                host = "[" + host + "]";
            }
            accepted.add(host + ":" + port);
            if (port == 80) {
                accepted.add(host);
            }
        }
    }

    /** Whether a request with this {@code Host} header value may be answered. */
    boolean allows(String hostHeader) {
        return hostHeader != null && accepted.contains(hostHeader.trim().toLowerCase(Locale.ROOT));
    }

    /** The accepted header values, for messages and tests. */
    Set<String> accepted() {
        return Set.copyOf(accepted);
    }
}

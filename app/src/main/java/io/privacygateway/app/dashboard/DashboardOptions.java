package io.privacygateway.app.dashboard;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the dashboard runs.
 *
 * @param bindHost the address or name the server binds to (default {@value #DEFAULT_BIND_HOST}; only requests
 *     whose {@code Host} header names 127.0.0.1, localhost or this host are answered, see {@link HostCheck})
 * @param port the port, in [0, 65535] (0: any free port)
 * @param rejectionSampleEvery how often the rejection counters are sampled, in [100 ms, 1 h]
 * @param rejectionSamplesKept rejection samples kept, in [2, 100000] (default: one hour at 5 s)
 * @param staleAfterWindows a workload is stale when no answer has arrived for more than this many of its
 *     window lengths, in [1, 1000]
 */
public record DashboardOptions(String bindHost, int port, Duration rejectionSampleEvery, int rejectionSamplesKept,
        int staleAfterWindows) {
    public static final String DEFAULT_BIND_HOST = "127.0.0.1";
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:\\-\\[\\]%]{1,253}");

    public DashboardOptions {
        Objects.requireNonNull(bindHost, "bind host");
        if (!HOST.matcher(bindHost).matches()) {
            throw new IllegalArgumentException("bind host must be a host name or an IP address, got \"" + bindHost + "\"");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("dashboard port must lie in [0, 65535], got " + port);
        }
        Objects.requireNonNull(rejectionSampleEvery, "rejection sample interval");
        if (rejectionSampleEvery.compareTo(Duration.ofMillis(100)) < 0 || rejectionSampleEvery.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("rejection sample interval must lie in [100 ms, 1 h], got " + rejectionSampleEvery);
        }
        if (rejectionSamplesKept < 2 || rejectionSamplesKept > 100_000) {
            throw new IllegalArgumentException("rejection samples kept must lie in [2, 100000], got " + rejectionSamplesKept);
        }
        if (staleAfterWindows < 1 || staleAfterWindows > 1000) {
            throw new IllegalArgumentException("stale-after windows must lie in [1, 1000], got " + staleAfterWindows);
        }
    }

    /** 127.0.0.1, the given port, rejections sampled every 5 s for an hour, stale after 3 windows. */
    public static DashboardOptions onPort(int port) {
        return new DashboardOptions(DEFAULT_BIND_HOST, port, Duration.ofSeconds(5), 720, 3);
    }

    public DashboardOptions withBindHost(String host) {
        return new DashboardOptions(host, port, rejectionSampleEvery, rejectionSamplesKept, staleAfterWindows);
    }

    public DashboardOptions withPort(int p) {
        return new DashboardOptions(bindHost, p, rejectionSampleEvery, rejectionSamplesKept, staleAfterWindows);
    }

    /**
     * Whether a workload whose last answer arrived at {@code lastAnswerAt} is stale at {@code now}: more than
     * {@link #staleAfterWindows} window lengths have passed.
     */
    public boolean isStale(long lastAnswerAt, long windowMillis, long now) {
        return now - lastAnswerAt > staleAfterMillis(windowMillis);
    }

    /** The silence after which a workload with this window length is stale, in milliseconds. */
    public long staleAfterMillis(long windowMillis) {
        return Math.multiplyExact(Math.max(1, windowMillis), (long) staleAfterWindows);
    }
}

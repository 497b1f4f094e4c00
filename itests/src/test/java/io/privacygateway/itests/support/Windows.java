package io.privacygateway.itests.support;

/** Choosing event-time windows relative to the wall clock (broker append times follow it). */
public final class Windows {
    private Windows() {}

    /**
     * The start of the first epoch-aligned window of {@code sizeMillis} that begins at least
     * {@code leadMillis} from now: reports with event times in it are sent before it begins (event times
     * may lead the broker's append time by up to the gateway's maxFutureSkew), so none of them is late.
     */
    public static long nextWindowStart(long sizeMillis, long leadMillis) {
        long now = System.currentTimeMillis(); // tests pick windows; gateway and SDK use their own clocks
        return Math.floorDiv(now + leadMillis + sizeMillis - 1, sizeMillis) * sizeMillis;
    }
}

package io.privacygateway.app.metrics;

import io.privacygateway.topology.service.GatewayService;

/**
 * The health of a gateway process, from before its streams client exists until after it stopped.
 *
 * <ul>
 *   <li>Before {@link #started}: live ("starting": topics, schemas and state restoration can take minutes, and a
 *       liveness probe must not kill a gateway that is restoring), not ready.
 *   <li>After: live while {@link GatewayService#isLive()} (created, running or rebalancing; not failed, stopping or
 *       stopped), ready while {@link GatewayService#isReady()} (RUNNING). The detail is the streams client's state.
 *   <li>After {@link #startFailed}: neither.
 * </ul>
 */
public final class GatewayHealth implements HealthCheck {
    private volatile GatewayService gateway;
    private volatile boolean startFailed;

    /** The gateway is up: from now on its streams client's state answers the probes. */
    public void started(GatewayService g) {
        this.gateway = g;
    }

    /** Starting failed: both probes fail from now on. */
    public void startFailed() {
        this.startFailed = true;
    }

    @Override
    public Status live() {
        GatewayService g = gateway;
        if (g == null) {
            return startFailed ? new Status(false, "failed to start") : new Status(true, "starting");
        }
        return new Status(g.isLive(), g.streams().state().name());
    }

    @Override
    public Status ready() {
        GatewayService g = gateway;
        if (g == null) {
            return new Status(false, startFailed ? "failed to start" : "starting");
        }
        return new Status(g.isReady(), g.streams().state().name());
    }
}

package io.privacygateway.app.metrics;

/** What {@code /health/live} and {@code /health/ready} answer. */
public interface HealthCheck {
    /**
     * One probe's answer.
     *
     * @param ok whether the probe passes (HTTP 200; otherwise 503)
     * @param detail a short word or phrase for the response body (a state name), never a payload or a value
     */
    record Status(boolean ok, String detail) {}

    /** Whether the process should be left running (a failed liveness probe asks the orchestrator to restart it). */
    Status live();

    /** Whether the gateway is processing reports. */
    Status ready();
}

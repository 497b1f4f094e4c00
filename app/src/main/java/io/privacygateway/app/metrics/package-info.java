/**
 * Operating the gateway: the Prometheus and health endpoint ({@link io.privacygateway.app.metrics.MetricsServer}),
 * the meters bound next to the gateway's own ({@link io.privacygateway.app.metrics.MeterBindings}), the health of a
 * running gateway ({@link io.privacygateway.app.metrics.GatewayHealth}), the watch that turns a dead streams client
 * into one line and a non-zero exit ({@link io.privacygateway.app.metrics.GatewayWatch}), and the one-line
 * description of a failure used by every command ({@link io.privacygateway.app.metrics.Failures}).
 */
package io.privacygateway.app.metrics;

/**
 * A workload as it runs: {@link io.privacygateway.mechanisms.runtime.ResolvedWorkload} owns the window,
 * period, slot and charge rules and the mechanism's pipeline, for the device SDK and the gateway alike.
 */
package io.privacygateway.mechanisms.runtime;

/**
 * The gateway's HTTP servers' one foundation ({@link io.privacygateway.app.http.HttpEndpoint} on Vert.x, bounded by
 * {@link io.privacygateway.app.http.HttpLimits}): bind address (127.0.0.1 by default), request and idle timeouts
 * against slow and silent clients, size limits, a connection cap, bounded worker threads, and the headers every
 * response carries. The metrics endpoint and the dashboard are built on it.
 */
package io.privacygateway.app.http;

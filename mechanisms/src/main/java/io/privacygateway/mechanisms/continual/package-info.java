/**
 * Continual release of running totals in central mode (the binary-tree mechanism of Dwork, Naor, Pitassi and
 * Rothblum 2010 and Chan, Shi and Song 2011, for vectors of counts), pure ε-DP with δ = 0 per window of
 * contribution. {@code docs/horizons.md} states the guarantee and proves it.
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.continual.DyadicNode}: the dyadic ranges of windows the tree is made
 *       of, and the canonical cover of a range of windows by them.</li>
 *   <li>{@link io.privacygateway.mechanisms.continual.ContinualCounter}: the mechanism: one call per window with the
 *       window's exact counts per universe value, answers for every configured
 *       {@link io.privacygateway.mechanisms.workload.Horizon} (this hour, today, since activation).</li>
 *   <li>{@link io.privacygateway.mechanisms.continual.ContinualState} and
 *       {@link io.privacygateway.mechanisms.continual.ContinualStateCodec}: what is kept between windows, and its
 *       bounded binary form for a changelogged store.</li>
 *   <li>{@link io.privacygateway.mechanisms.continual.LaplaceSumTail}: tail bounds for weighted sums of discrete
 *       Laplace variables (the error bars).</li>
 * </ul>
 *
 * <p>Pure maths: no I/O, no clock (window start times are passed in).
 */
package io.privacygateway.mechanisms.continual;

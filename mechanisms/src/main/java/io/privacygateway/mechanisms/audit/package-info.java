/**
 * Black-box privacy auditing: statistical lower bounds on the privacy loss of a randomizer or release,
 * to compare with the ε it declares (docs/audit.md).
 *
 * <p>An audit row picks two inputs the guarantee covers (two device values; two neighbouring window
 * aggregates), runs the production mechanism many times on each, searches training outputs for an event
 * {@code E} that is much likelier under one input ({@link io.privacygateway.mechanisms.audit.EventSearch},
 * after DP-Sniper, Bichsel et al., IEEE S&amp;P 2021), then counts {@code E} on fresh outputs and bounds
 * {@code ln(P(E | 1)/P(E | 2))} from below with exact Clopper–Pearson bounds
 * ({@link io.privacygateway.mechanisms.audit.ClopperPearson}). The rows of one audit share the error
 * probability {@code 1 − confidence} by a union bound, so an ε-DP mechanism is reported above its ε with
 * probability at most {@code 1 − confidence}.
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.audit.LocalAudit}: local randomizers through the device
 *       code path, per level for chaining.</li>
 *   <li>{@link io.privacygateway.mechanisms.audit.CentralAudit}: central releases on neighbouring
 *       aggregates, reached through the single adapter
 *       {@link io.privacygateway.mechanisms.audit.CentralReleases}.</li>
 *   <li>{@link io.privacygateway.mechanisms.audit.AuditReport} and
 *       {@link io.privacygateway.mechanisms.audit.AuditRow}: the results and what they mean.</li>
 * </ul>
 *
 * <p>Pure maths: no I/O, no clock. The randomness handed to the mechanisms is the caller's; an audit is
 * valid for any source of independent uniform bits.
 */
package io.privacygateway.mechanisms.audit;

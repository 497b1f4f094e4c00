/**
 * Privacy accounting: what each mechanism run cost, how costs compose and convert, and the per-key budget
 * gate (MECHANISMS.md §4–§5).
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.accounting.PrivacyCost}: pure ε, ρ-zCDP, or (ε, ln δ).</li>
 *   <li>{@link io.privacygateway.mechanisms.accounting.PrivacyEvent}: one mechanism run (name, cost,
 *       numeric parameters, event time).</li>
 *   <li>{@link io.privacygateway.mechanisms.accounting.Composition} and
 *       {@link io.privacygateway.mechanisms.accounting.Conversions}: basic composition (Dwork &amp; Roth),
 *       zCDP composition and conversions (Bun &amp; Steinke 2016; Canonne, Kamath &amp; Steinke 2020), all
 *       rounded so a computed ε or ρ is never below the exact value.</li>
 *   <li>{@link io.privacygateway.mechanisms.accounting.PrivacyLedger}: the history of one key, with a
 *       versioned binary serialisation for state stores, replayable by any
 *       {@link io.privacygateway.mechanisms.accounting.Accountant}
 *       ({@link io.privacygateway.mechanisms.accounting.Accountants}).</li>
 *   <li>{@link io.privacygateway.mechanisms.accounting.PrivacyFilter}: the budget gate; halts for good at
 *       the first over-budget charge; thread-safe.</li>
 * </ul>
 *
 * <p>Nothing here reads a clock or does I/O; times are event times passed in by the caller.
 */
package io.privacygateway.mechanisms.accounting;

/**
 * Privacy accounting: what a mechanism run costs and how costs compose and convert.
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.accounting.PrivacyCost}: pure ε, ρ-zCDP, or (ε, ln δ).</li>
 *   <li>{@link io.privacygateway.mechanisms.accounting.Composition} and
 *       {@link io.privacygateway.mechanisms.accounting.Conversions}: basic composition (Dwork &amp; Roth),
 *       zCDP composition and conversions (Bun &amp; Steinke 2016; Canonne, Kamath &amp; Steinke 2020), all
 *       rounded so a computed ε or ρ is never below the exact value
 *       ({@link io.privacygateway.mechanisms.accounting.DirectedRounding}).</li>
 * </ul>
 *
 * <p>The admission of a device's reports against its budget is not here: it is exact decimal arithmetic on
 * declared ε values, in {@link io.privacygateway.mechanisms.budget.BudgetLedger} (one rule for the device SDK and
 * the gateway). Nothing here reads a clock or does I/O.
 */
package io.privacygateway.mechanisms.accounting;

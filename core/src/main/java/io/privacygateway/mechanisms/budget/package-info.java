/**
 * A device's privacy budget: the device's {@link io.privacygateway.mechanisms.budget.DeviceLedger} (every charge
 * that can still matter, across workloads, versions, modes and budget groups) and the one admission rule that
 * decides, in exact arithmetic, whether one more report fits
 * ({@link io.privacygateway.mechanisms.budget.BudgetLedger}; docs/budget-ledger.md states its invariant). The
 * device SDK and the gateway both run this rule on the same value, so a device never sends what the gateway would
 * refuse and the gateway never admits what the budget does not pay for.
 */
package io.privacygateway.mechanisms.budget;

/**
 * A device's privacy budget: what one device has spent of one workload's budget in each budget period
 * ({@link io.privacygateway.mechanisms.budget.BudgetUsage}), and the admission rule that decides, in exact
 * arithmetic, whether one more report fits ({@link io.privacygateway.mechanisms.budget.BudgetRule}). The
 * device SDK and the gateway both run this rule, so a device never sends what the gateway would refuse and
 * the gateway never admits what the budget does not pay for.
 */
package io.privacygateway.mechanisms.budget;

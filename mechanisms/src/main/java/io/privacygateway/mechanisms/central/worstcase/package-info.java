/**
 * Worst-case chaining (instance-optimal query release paper §4.3, Theorem 1.5): the l∞ multi-scale decomposition
 * of Lemma 4.2 ({@link io.privacygateway.mechanisms.central.worstcase.LinfDecomposition}), private multiplicative
 * weights on every level, purification to pure ε-DP, and a published bound on the maximum error over the workload
 * ({@link io.privacygateway.mechanisms.central.worstcase.WorstCaseChainingRelease}), for materialised central
 * workloads and for wide marginal workloads. See {@code docs/wide-domains.md}.
 */
package io.privacygateway.mechanisms.central.worstcase;

/**
 * Frequency oracles: locally differentially private histogram estimation over a finite domain
 * {@code [0, k)}, the strongest published single-report peers of the projection mechanisms for histogram
 * workloads, and the hierarchical tree mechanism for prefix and range workloads.
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.local.fo.FrequencyOracle}: the device/server contract, with
 *       closed-form variances and the exact output distribution
 *       ({@link io.privacygateway.mechanisms.local.fo.Rational}) for privacy tests;
 *   <li>{@link io.privacygateway.mechanisms.local.fo.GeneralizedRandomizedResponse},
 *       {@link io.privacygateway.mechanisms.local.fo.OptimizedUnaryEncoding},
 *       {@link io.privacygateway.mechanisms.local.fo.OptimizedLocalHashing},
 *       {@link io.privacygateway.mechanisms.local.fo.SubsetSelection},
 *       {@link io.privacygateway.mechanisms.local.fo.HadamardResponse},
 *       {@link io.privacygateway.mechanisms.local.fo.TreeMechanism};
 *   <li>{@link io.privacygateway.mechanisms.local.fo.FrequencyOracles}: construction by
 *       {@link io.privacygateway.mechanisms.workload.MechanismId} with optimal parameters, and data-free
 *       variance predictions for the planner;
 *   <li>{@link io.privacygateway.mechanisms.local.fo.FrequencyOracleProtocol}: an oracle as a
 *       {@link io.privacygateway.mechanisms.local.LocalProtocol} of a workload.
 * </ul>
 *
 * <p>Every oracle is ε-LDP exactly after rounding: its probabilities are rounded onto the {@code 2^-53}
 * grid against a certified lower bound of {@code e^ε}, and each constructor re-checks its privacy ratio in
 * exact arithmetic. The only secret randomness is {@code ExactSampler.bernoulli} and
 * {@code ExactSampler.uniformInt}; public randomness comes from {@code PublicCoins} streams.
 */
package io.privacygateway.mechanisms.local.fo;

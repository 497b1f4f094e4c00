/**
 * Central-mode release over wide binary domains: all k-way marginals over d binary attributes without counts per
 * universe value (the {@code 2^d} universe is never materialised as data).
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.central.wide.MarginalCounts}: the exact window
 *       aggregate the gateway keeps ({@code C(d,k)·2^k} cell counts and n).</li>
 *   <li>{@link io.privacygateway.mechanisms.central.wide.PurifiedMwemRelease}: MWEM under zCDP, proportional
 *       subsampling, binary embedding and purification (purification paper §6, Algorithms 14–16): pure ε-DP
 *       synthetic records and the marginals answered from them, with a published l∞ bound.</li>
 *   <li>The building blocks: {@link io.privacygateway.mechanisms.central.wide.PrivateMultiplicativeWeights} (also
 *       used by {@code central/worstcase}), {@link io.privacygateway.mechanisms.central.wide.ExponentialSelection}
 *       (exact), {@link io.privacygateway.mechanisms.central.wide.Hypercube} (marginals by the Walsh–Hadamard
 *       transform), {@link io.privacygateway.mechanisms.central.wide.BinaryCubePurifier},
 *       {@link io.privacygateway.mechanisms.central.wide.MaxErrorCheck}.</li>
 * </ul>
 *
 * <p>Every secret draw goes through {@link io.privacygateway.mechanisms.central.wide.ReleaseDraws}, whose production
 * implementation calls only the exact samplers. The privacy argument, its deviations from the papers and the measured
 * figures are in {@code docs/wide-domains.md}.
 */
package io.privacygateway.mechanisms.central.wide;

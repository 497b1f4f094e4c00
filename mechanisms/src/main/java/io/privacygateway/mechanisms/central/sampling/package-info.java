/**
 * Exact samplers for central-model noise, driven only by secret {@link io.privacygateway.mechanisms.random.RandomBits}
 * through exact integer operations (no floating-point inverse-CDF sampling, no {@code java.util.Random}).
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.central.sampling.BernoulliExp}: Bernoulli{@code (e^{−γ})} for rational
 *       γ (Canonne, Kamath, Steinke 2020, Algorithm 1).</li>
 *   <li>{@link io.privacygateway.mechanisms.central.sampling.DiscreteLaplace}: {@code P(k) ∝ e^{−|k|/t}}, rational
 *       t (CKS Algorithm 2).</li>
 *   <li>{@link io.privacygateway.mechanisms.central.sampling.DiscreteGaussian}: {@code P(k) ∝ e^{−k²/(2σ²)}},
 *       rational σ² (CKS Algorithm 3).</li>
 *   <li>{@link io.privacygateway.mechanisms.central.sampling.UniformBallLattice}: an exactly uniform lattice point
 *       of an l1, l2 or l∞ ball (the purifier's mixing draw).</li>
 *   <li>{@link io.privacygateway.mechanisms.central.sampling.DyadicBernoulli} and
 *       {@link io.privacygateway.mechanisms.central.sampling.ExactBits}: exact Bernoulli draws for dyadic and
 *       rational probabilities, uniform big integers.</li>
 * </ul>
 *
 * <p>Every sampler validates its parameters at construction (messages name the field and the value) and
 * exposes its pmf (or unnormalised weight and normaliser) as doubles for tests. Each output probability is
 * exact: the only approximation anywhere is in the reported pmf values, never in the sampling.
 */
package io.privacygateway.mechanisms.central.sampling;

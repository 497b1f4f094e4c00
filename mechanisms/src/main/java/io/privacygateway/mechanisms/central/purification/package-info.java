/**
 * Purification of approximate-DP outputs into pure DP (MECHANISMS.md §4; purification-approx-to-pure-dp,
 * Algorithms 1 and 2), discretised onto a grid so that every secret draw is exact.
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.central.purification.Purifier}: round into the lattice ball
 *       {@code Θ_h}, mix with an exactly uniform lattice point with probability ω, add discrete Laplace noise
 *       of scale {@code >= 2Δ/ε′} with the lattice Δ.</li>
 *   <li>{@link io.privacygateway.mechanisms.central.purification.DiscretePurifier}: a choice among {@code 2^d}
 *       options via the binary embedding into the cube.</li>
 * </ul>
 *
 * <p>Why the discretised purification keeps the (ε + ε′, 0) guarantee, and where the lattice Δ comes from
 * (the lattice versions of Lemmas 6, 7 and 15; Lemmas 14 and 16 unchanged), is written out in
 * {@code docs/purification-discretised.md} at the repository root.
 */
package io.privacygateway.mechanisms.central.purification;

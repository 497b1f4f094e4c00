/**
 * Deterministic nets and the multi-scale decompositions behind local coarse projection and local
 * chaining (instance-optimal query-release paper, Lemma 3.3, Section 4.1, Lemma 4.2, Section 5.2;
 * MECHANISMS.md §3).
 *
 * <ul>
 *   <li>{@link io.privacygateway.mechanisms.nets.SeparatedNet}: a greedy maximal {@code t}-separated
 *       subset in the normalized metric {@code ||u − v||₂/√m} and the nearest-net-point map.</li>
 *   <li>{@link io.privacygateway.mechanisms.nets.NestedNets}: {@code S_1 ⊆ … ⊆ S_k} at separations
 *       {@code 2^{-j}}, each a greedy extension of the previous one.</li>
 *   <li>{@link io.privacygateway.mechanisms.nets.ChainingDecomposition}: the per-level components
 *       {@code c_j(x)}, level sets {@code X^(j)}, radii and bias of Lemma 4.2.</li>
 *   <li>{@link io.privacygateway.mechanisms.nets.CoarseDecomposition}: rounding to an {@code α/2}-net.</li>
 *   <li>{@link io.privacygateway.mechanisms.nets.LevelEpsilonSplit}: equal and error-minimising splits of
 *       ε across levels.</li>
 * </ul>
 *
 * <p>Everything here is a deterministic function of the point coordinates and their order (device and
 * server must agree exactly): points are processed in index order, ties go to the lowest index, all
 * distance decisions use one canonical floating-point evaluation order, and nothing depends on
 * randomness, hashing order or thread scheduling.
 */
package io.privacygateway.mechanisms.nets;

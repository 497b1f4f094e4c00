/**
 * Privacy amplification by shuffling for local-mode answers: a certified central (ε, δ) that holds against someone
 * who sees only the published answers, which are a function of the multiset of a window's ε₀-LDP reports.
 * {@link io.privacygateway.mechanisms.amplification.AmplificationBound} computes it (Feldman, McMillan and Talwar's
 * clone reduction, FOCS 2021, and Wang et al.'s variation-ratio reduction, VLDB 2024); {@code docs/horizons.md} states
 * the conditions under which it holds and who it protects against.
 *
 * <p>Pure maths: no I/O, no clock.
 */
package io.privacygateway.mechanisms.amplification;

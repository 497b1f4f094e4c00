/**
 * How far reports that do not come from the real randomizer can move a local-mode answer: the poisoning bound
 * of every local mechanism ({@link io.privacygateway.mechanisms.robustness.PoisoningBound}), from closed forms
 * per mechanism ({@link io.privacygateway.mechanisms.robustness.MechanismInfluence}) checked against a generic
 * computation from the protocol itself ({@link io.privacygateway.mechanisms.robustness.ProtocolInfluence}).
 * Read-only analysis of the public protocol: nothing here sees secret randomness or real data.
 */
package io.privacygateway.mechanisms.robustness;

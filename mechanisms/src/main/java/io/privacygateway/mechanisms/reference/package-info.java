/**
 * Public reference distributions over a workload's universe (uniform, Zipf, sparse), used wherever the
 * project must evaluate a mechanism without real data: the planner, the central release's choice of its
 * working space, and the benchmarks. This package depends on nothing else in the project, so every user
 * points at it and none of them at each other.
 */
package io.privacygateway.mechanisms.reference;

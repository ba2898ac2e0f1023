/**
 * Collective algorithms, one class per family (Linear, Binomial, RecursiveDoubling, Ring, Bruck, Pairwise,
 * Rabenseifner, ..., and Hierarchical, which joins flat ones per host and across hosts with {@code Phases}), each a
 * set of static schedule builders; {@link dev.tutti.coll.algo.Algorithms} maps every
 * {@link dev.tutti.coll.AlgorithmId} to its builder.
 *
 * <p>Layer: coll. May import {@code dev.tutti.coll}, {@code type} and the value types of {@code dev.tutti}.
 */
package dev.tutti.coll.algo;
